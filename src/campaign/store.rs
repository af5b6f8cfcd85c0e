//! The bug store under a campaign's `--out` directory.
//!
//! ```text
//! OUT/campaign.json                      the campaign definition and run count
//! OUT/bugs/<kind>/<id>/trigger.smt2      one directory per distinct fuzzing finding
//! OUT/bugs/<kind>/<id>/meta.json
//! OUT/seed-findings/<kind>/<id>/...      seeds that already fail, kept apart
//! OUT/stats.jsonl                        append-only progress log
//! OUT/events.jsonl                       append-only event stream (JSON lines)
//! ```
//!
//! Every file is written to a temporary name and renamed into place, so a `kill -9` at
//! any moment leaves either the old or the new version. The dedup index is rebuilt from
//! the `meta.json` files at start-up: a rerun with the same `--out` never stores a bug
//! twice and never loses one.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One solver's answer to a trigger, as stored.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SolverAnswer {
    pub solver: String,
    pub version: Option<String>,
    /// One outcome per check-sat (`sat`, `unsat`, `unknown`, `timeout`, `crash(...)`, `error(...)`).
    pub outcomes: Vec<String>,
    pub stdout_excerpt: String,
    pub stderr_excerpt: String,
    pub seconds: f64,
}

/// `meta.json` of a finding.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Meta {
    pub id: String,
    /// `soundness`, `crash` or `invalid-model`.
    pub kind: String,
    pub blamed: String,
    pub blamed_version: Option<String>,
    /// How the blame was decided (`majority`, `status`, `model-check`, `undecided`).
    pub blame_by: String,
    pub logic: String,
    /// The normalised crash message, or the answers pattern for soundness bugs.
    pub signature: String,
    /// First release of the blamed solver's ladder that answers correctly, if found.
    pub fixed_in: Option<String>,
    /// Releases checked during bisection, with what they answered.
    pub bisection: Vec<(String, String)>,
    pub answers: Vec<SolverAnswer>,
    pub seed: String,
    pub seed_hash: String,
    pub engine: String,
    pub edits: serde_json::Value,
    pub rng_seed: u64,
    /// Seconds since the campaign's first start when first found.
    pub found_at: f64,
    pub found_unix: u64,
    pub run: u32,
    pub trigger_bytes: usize,
    /// How many more times the same bug was found.
    pub duplicates: u64,
    /// Whether this is a seed finding (the unmutated seed already fails).
    pub seed_finding: bool,
    /// What `smtstorm reduce` made of the trigger (`reduced.smt2` beside it), if run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduction: Option<crate::reduce::Report>,
}

/// Writes `data` to `path` atomically (temporary file in the same directory + rename).
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Appends one line to a log file (a torn last line after `kill -9` is skipped on read).
pub fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    f.write_all(format!("{line}\n").as_bytes())
}

/// A stable short id for a dedup key (FNV-1a, 64 bits).
pub fn short_hash(key: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// What [`Store::record`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    New(PathBuf),
    /// A duplicate of the bug at this path (its counter went up; a smaller trigger
    /// replaced the stored one).
    Duplicate(PathBuf),
}

/// The bug store of one output directory.
pub struct Store {
    pub out: PathBuf,
    /// Dedup key → bug directory.
    index: BTreeMap<String, PathBuf>,
}

impl Store {
    /// Opens (or creates) the store, rebuilding the index from the stored `meta.json`s.
    pub fn open(out: &Path) -> std::io::Result<Store> {
        std::fs::create_dir_all(out.join("bugs"))?;
        std::fs::create_dir_all(out.join("seed-findings"))?;
        let mut index = BTreeMap::new();
        for meta in Store::list_in(out) {
            if let Some(dir) = meta.0.parent() {
                index.insert(dedup_key(&meta.1), dir.to_path_buf());
            }
        }
        Ok(Store { out: out.to_path_buf(), index })
    }

    /// Every stored finding (fuzzing and seed findings) as (meta.json path, meta).
    pub fn list_in(out: &Path) -> Vec<(PathBuf, Meta)> {
        let mut v = vec![];
        for top in ["bugs", "seed-findings"] {
            let Ok(kinds) = std::fs::read_dir(out.join(top)) else { continue };
            for k in kinds.flatten() {
                let Ok(ids) = std::fs::read_dir(k.path()) else { continue };
                for id in ids.flatten() {
                    let p = id.path().join("meta.json");
                    if let Some(m) = std::fs::read(&p).ok().and_then(|b| serde_json::from_slice::<Meta>(&b).ok()) {
                        v.push((p, m));
                    }
                }
            }
        }
        v.sort_by(|a, b| a.1.found_at.total_cmp(&b.1.found_at).then(a.1.id.cmp(&b.1.id)));
        v
    }

    /// Number of distinct findings stored (fuzzing, seed).
    pub fn counts(&self) -> (usize, usize) {
        let seeds = self.index.values().filter(|p| p.starts_with(self.out.join("seed-findings"))).count();
        (self.index.len() - seeds, seeds)
    }

    /// Stores a confirmed finding, or counts it as a duplicate of a stored one.
    pub fn record(&mut self, mut meta: Meta, trigger: &str) -> std::io::Result<Recorded> {
        let key = dedup_key(&meta);
        if let Some(dir) = self.index.get(&key).cloned() {
            let path = dir.join("meta.json");
            let mut old: Meta =
                std::fs::read(&path).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_else(|| meta.clone());
            old.duplicates += 1;
            if trigger.len() < old.trigger_bytes {
                // Keep the smallest trigger, with the description that goes with it.
                write_atomic(&dir.join("trigger.smt2"), trigger.as_bytes())?;
                let dups = old.duplicates;
                let (id, found_at, found_unix, run) = (old.id.clone(), old.found_at, old.found_unix, old.run);
                old = Meta { id, found_at, found_unix, run, duplicates: dups, trigger_bytes: trigger.len(), ..meta };
            }
            write_atomic(&path, &serde_json::to_vec_pretty(&old).unwrap_or_default())?;
            return Ok(Recorded::Duplicate(dir));
        }
        meta.id = short_hash(&key)[..12].to_string();
        meta.trigger_bytes = trigger.len();
        let top = if meta.seed_finding { "seed-findings" } else { "bugs" };
        let dir = self.out.join(top).join(&meta.kind).join(&meta.id);
        // Trigger first, meta last: a directory without meta.json is not a finding yet
        // and is overwritten when the bug is found again.
        write_atomic(&dir.join("trigger.smt2"), trigger.as_bytes())?;
        write_atomic(&dir.join("meta.json"), &serde_json::to_vec_pretty(&meta).unwrap_or_default())?;
        self.index.insert(key, dir.clone());
        Ok(Recorded::New(dir))
    }
}

/// What makes two findings the same bug: kind, blamed solver, and — for crashes — the
/// normalised message; for soundness and invalid models the logic, the answer pattern
/// and, when the ladder was bisected, the release that fixed it.
pub fn dedup_key(m: &Meta) -> String {
    let top = if m.seed_finding { "seed" } else { "fuzz" };
    match m.kind.as_str() {
        "crash" => format!("{top}|crash|{}|{}", m.blamed, m.signature),
        k => format!("{top}|{k}|{}|{}|{}|{}", m.blamed, m.logic, m.signature, m.fixed_in.as_deref().unwrap_or("-")),
    }
}
