//! The bug store under a campaign's `--out` directory: its on-disk format and the code
//! that reads and writes its files. Campaigns, triage, the reducer, the report and
//! BanditFuzz all store here, and ask here for every path: the names below are spelled
//! in [`layout`] only, a finding's files are read and written through [`FindingDir`],
//! `campaign.json` through [`CampaignFile::read`], and a finding finds its store with
//! [`store_root_of`].
//!
//! ```text
//! OUT/lock                              held by the one process using the store
//! OUT/scratch/                          the solvers' working directory
//! OUT/campaign.json                     the campaign definition and run count
//! OUT/bugs/<kind>/<id>/trigger.smt2     one directory per distinct fuzzing finding
//! OUT/bugs/<kind>/<id>/meta.json        its description ([`Meta`])
//! OUT/bugs/<kind>/<id>/reduced.smt2     its reduction, report.md/.html, repro/<solver>.smt2
//! OUT/seed-findings/<kind>/<id>/...     seeds that already fail, kept apart
//! OUT/quarantine/                       findings whose meta.json did not read on open
//! OUT/stats.jsonl                       append-only progress log
//! OUT/events.jsonl                      append-only event stream (JSON lines)
//! OUT/perf/<id>/                        BanditFuzz's benchmarks ([`perf`])
//! ```
//!
//! Every file is written to a temporary name and renamed into place, so a `kill -9` at
//! any moment leaves either the old or the new version. The dedup index is rebuilt from
//! the `meta.json` files at start-up: a rerun with the same `--out` never stores a bug
//! twice and never loses one.

pub mod campaign;
pub mod finding;
pub mod layout;
pub mod lock;
mod merge;
pub mod meta;
pub mod perf;
pub mod reduction;
pub mod severity;

pub use campaign::CampaignFile;
pub use finding::FindingDir;
pub use layout::{store_root_of, StoreFileError};
pub use merge::MergeReport;
pub use meta::{seed_hash, Meta, Origin, SolverAnswer};

use crate::oracle::BugKind;
use crate::util::hash::short_hash;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    quarantined: Vec<(PathBuf, PathBuf)>,
}

impl Store {
    /// Opens (or creates) the store, rebuilding the index from the stored `meta.json`s.
    /// A finding whose `meta.json` exists but does not read (a disk error, a hand edit) is
    /// moved whole to `OUT/quarantine/` rather than skipped, where its directory would be
    /// overwritten when the bug is found again; [`Store::quarantined`] lists the moves.
    pub fn open(out: &Path) -> std::io::Result<Store> {
        for top in layout::TOPS {
            crate::util::fs::create_dirs(&out.join(top))?;
        }
        let quarantined = Store::quarantine_unreadable(out)?;
        let mut index = BTreeMap::new();
        for meta in Store::list_in(out) {
            if let Some(dir) = meta.0.parent() {
                index.insert(dedup_key(&meta.1), dir.to_path_buf());
                for k in &meta.1.merged_keys {
                    index.insert(k.clone(), dir.to_path_buf());
                }
            }
        }
        Ok(Store { out: out.to_path_buf(), index, quarantined })
    }

    /// Moves every finding directory whose `meta.json` is present but unreadable to
    /// `OUT/quarantine/<top>-<kind>-<id>[-n]`; returns (from, to) pairs. (Also what
    /// `smtstorm report` does, when no campaign holds the store.)
    pub fn quarantine_unreadable(out: &Path) -> std::io::Result<Vec<(PathBuf, PathBuf)>> {
        let mut moved = vec![];
        for (top, dir) in Store::unreadable_in(out) {
            let to = quarantine_slot(out, &quarantine_name("", top, &dir))?;
            std::fs::rename(&dir, &to)?;
            moved.push((dir, to));
        }
        Ok(moved)
    }

    /// The finding directories of the store at `out` whose `meta.json` is present but
    /// does not read, with their top directory's name (`bugs`, `seed-findings`).
    /// [`Store::list_in`] leaves them out; whoever shows the findings says these.
    pub fn unreadable_in(out: &Path) -> Vec<(&'static str, PathBuf)> {
        finding_dirs(out).into_iter().filter(|(_, dir)| FindingDir::new(dir).meta_unreadable()).collect()
    }

    /// How many findings `OUT/quarantine/` holds.
    pub fn quarantine_count(out: &Path) -> usize {
        std::fs::read_dir(layout::quarantine(out)).map_or(0, |d| d.flatten().filter(|e| e.path().is_dir()).count())
    }

    /// Findings moved to `OUT/quarantine/` when the store was opened (unreadable
    /// `meta.json`), as (from, to).
    pub fn quarantined(&self) -> &[(PathBuf, PathBuf)] {
        &self.quarantined
    }

    /// Every stored finding (fuzzing and seed findings) as (meta.json path, meta).
    pub fn list_in(out: &Path) -> Vec<(PathBuf, Meta)> {
        let mut v = vec![];
        for (_, dir) in finding_dirs(out) {
            let f = FindingDir::new(dir);
            if let Ok(m) = f.read_meta() {
                v.push((f.meta_path(), m));
            }
        }
        v.sort_by(|a, b| a.1.found_at.total_cmp(&b.1.found_at).then(a.1.id.cmp(&b.1.id)));
        v
    }

    /// Number of distinct findings stored (fuzzing, seed).
    pub fn counts(&self) -> (usize, usize) {
        // Distinct directories: merged findings leave their keys pointing at the survivor.
        let dirs: std::collections::BTreeSet<&PathBuf> = self.index.values().collect();
        let seeds = dirs.iter().filter(|p| p.starts_with(self.out.join(layout::SEED_FINDINGS))).count();
        (dirs.len() - seeds, seeds)
    }

    /// Stores a confirmed finding, or counts it as a duplicate of a stored one.
    pub fn record(&mut self, mut meta: Meta, trigger: &str) -> std::io::Result<Recorded> {
        let key = dedup_key(&meta);
        if let Some(dir) = self.index.get(&key).cloned() {
            let f = FindingDir::new(&dir);
            let mut old: Meta = f.read_meta().unwrap_or_else(|_| meta.clone());
            old.duplicates += 1;
            if trigger.len() < old.trigger_bytes {
                // Keep the smallest trigger, with the description that goes with it. Its
                // old reduction goes first (meta.json, then reduced.smt2), so that no
                // moment after a `kill -9` pairs the new trigger with a stale reduction;
                // the reducer derives a new one.
                if old.reduction.is_some() || f.has_reduced() {
                    f.write_meta(&Meta { reduction: None, ..old.clone() })?;
                    f.remove_reduced()?;
                }
                f.write_trigger(trigger)?;
                let dups = old.duplicates;
                let (id, found_at, found_unix, run) = (old.id.clone(), old.found_at, old.found_unix, old.run);
                let merged_keys = std::mem::take(&mut old.merged_keys);
                old = Meta {
                    id,
                    found_at,
                    found_unix,
                    run,
                    duplicates: dups,
                    trigger_bytes: trigger.len(),
                    merged_keys,
                    ..meta
                };
            }
            f.write_meta(&old)?;
            return Ok(Recorded::Duplicate(dir));
        }
        meta.id = short_hash(&key)[..12].to_string();
        meta.trigger_bytes = trigger.len();
        let f = self.slot(&meta);
        // Trigger first, meta last: a directory without meta.json is not a finding yet
        // and is overwritten when the bug is found again.
        f.write_trigger(trigger)?;
        f.write_meta(&meta)?;
        let dir = f.path().to_path_buf();
        self.index.insert(key, dir.clone());
        Ok(Recorded::New(dir))
    }

    /// Where this store keeps the finding `meta` describes (by its top, kind and id).
    fn slot(&self, meta: &Meta) -> FindingDir {
        FindingDir::new(self.out.join(top_of(meta)).join(meta.kind.as_str()).join(&meta.id))
    }
}

/// The directory a finding goes under: seed findings apart.
fn top_of(meta: &Meta) -> &'static str {
    if meta.seed_finding {
        layout::SEED_FINDINGS
    } else {
        layout::BUGS
    }
}

impl Store {
    /// Merges findings whose reductions came out identical: same kind, blamed solver,
    /// signature and fixed-in release, and the same `reduced.smt2` (a STORM witness line
    /// aside). The dedup key also holds the trigger's declared logic, so the same bug
    /// reached from a `QF_SLIA` seed and from an `ALL` seed was stored twice until
    /// reduction showed it (measured: `(assert (str.<= s s))` twice in one triage). The
    /// earliest finding stays, counting the other and its duplicates; the other's key
    /// keeps pointing at it. Returns (kept, merged) directory pairs.
    pub fn merge_same_reductions(&mut self) -> Vec<(PathBuf, PathBuf)> {
        let mut kept: Vec<(PathBuf, Meta, String)> = vec![];
        let mut merged = vec![];
        for (path, meta) in Store::list_in(&self.out) {
            let Some(f) = FindingDir::of_meta(&path) else { continue };
            let Ok(text) = f.read_reduced() else { continue };
            let dir = f.path().to_path_buf();
            let body: String = text
                .lines()
                .filter(|l| !l.starts_with(crate::mutate::storm::WITNESS_PREFIX))
                .flat_map(|l| [l, "\n"])
                .collect();
            let same = kept.iter_mut().find(|(d, m, b)| {
                *b == body
                    && d.parent() == dir.parent()
                    && m.seed_finding == meta.seed_finding
                    && (&m.blamed, &m.signature, &m.fixed_in) == (&meta.blamed, &meta.signature, &meta.fixed_in)
            });
            let Some((kdir, kmeta, _)) = same else {
                kept.push((dir, meta, body));
                continue;
            };
            let key = dedup_key(&meta);
            // Idempotent: a merge interrupted after the survivor was written is not
            // counted twice when it is finished later.
            if !kmeta.merged_keys.contains(&key) {
                kmeta.duplicates += 1 + meta.duplicates;
                kmeta.merged_keys.push(key.clone());
                kmeta.merged_keys.extend(meta.merged_keys.iter().cloned());
                if FindingDir::new(&*kdir).write_meta(kmeta).is_err() {
                    continue;
                }
            }
            // meta.json first: a directory without it is no finding, whatever remains.
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_dir_all(&dir);
            for k in std::iter::once(key).chain(meta.merged_keys) {
                self.index.insert(k, kdir.clone());
            }
            merged.push((kdir.clone(), dir));
        }
        merged
    }
}

/// `[PREFIX-]<top>-<kind>-<id>`: the name a finding directory gets in `quarantine/`.
fn quarantine_name(prefix: &str, top: &str, dir: &Path) -> String {
    let part = |p: Option<&std::ffi::OsStr>| p.map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = format!("{top}-{}-{}", part(dir.parent().and_then(Path::file_name)), part(dir.file_name()));
    if prefix.is_empty() {
        name
    } else {
        format!("{prefix}-{name}")
    }
}

/// A free path `OUT/quarantine/NAME[-n]` (its parent created).
fn quarantine_slot(out: &Path, name: &str) -> std::io::Result<PathBuf> {
    let q = layout::quarantine(out);
    crate::util::fs::create_dirs(&q)?;
    let mut to = q.join(name);
    let mut n = 1;
    while to.exists() {
        to = q.join(format!("{name}-{n}"));
        n += 1;
    }
    Ok(to)
}

/// Copies the regular files of `from` (and its subdirectories) to `to`; symbolic links
/// are not followed.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    crate::util::fs::create_dirs(to)?;
    for e in std::fs::read_dir(from)?.flatten() {
        let t = e.file_type()?;
        if t.is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        } else if t.is_file() {
            crate::util::fs::write_atomic(&to.join(e.file_name()), &std::fs::read(e.path())?)?;
        }
    }
    Ok(())
}

/// Every finding directory of the store at `out` (`bugs/<kind>/<id>`,
/// `seed-findings/<kind>/<id>`), with its top directory's name.
fn finding_dirs(out: &Path) -> Vec<(&'static str, PathBuf)> {
    let mut v = vec![];
    for top in layout::TOPS {
        let Ok(kinds) = std::fs::read_dir(out.join(top)) else { continue };
        for k in kinds.flatten() {
            let Ok(ids) = std::fs::read_dir(k.path()) else { continue };
            v.extend(ids.flatten().map(|id| (top, id.path())));
        }
    }
    v
}

/// What makes two findings the same bug: kind, blamed solver, and — for crashes — the
/// normalised message; for soundness, invalid models and crashes that say nothing but
/// their signal (a bare `SIGSEGV`) the logic, the answer pattern and, when the ladder was
/// bisected, the release that fixed it. (A bare signal alone merged every segfault of a
/// solver: in session 14, z3 5.4.0's `euf-completion` and `elim-uncnstr`/`smtfd` crashes,
/// two bugs, shared one key.)
pub fn dedup_key(m: &Meta) -> String {
    let top = if m.seed_finding { "seed" } else { "fuzz" };
    let bare_signal = m.signature.starts_with("SIG") && !m.signature.contains(|c: char| c.is_whitespace() || c == ':');
    match m.kind {
        // The crash state (ClusterFuzz's three frames) tells crashes apart where the
        // message cannot: every segfault has the same one.
        BugKind::Crash if !m.frames.is_empty() => format!("{top}|crash|{}|{}", m.blamed, m.frames.join("|")),
        BugKind::Crash if !bare_signal => format!("{top}|crash|{}|{}", m.blamed, m.signature),
        k => format!("{top}|{k}|{}|{}|{}|{}", m.blamed, m.logic, m.signature, m.fixed_in.as_deref().unwrap_or("-")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::BlameBy;
    use crate::util::fs::write_atomic;

    fn meta(logic: &str, fixed_in: &str, found_at: f64) -> Meta {
        Meta {
            id: String::new(),
            kind: BugKind::InvalidModel,
            blamed: "z3-4.8.7".into(),
            blamed_version: None,
            blame_by: BlameBy::Validation,
            logic: logic.into(),
            signature: "an invalid model was generated".into(),
            fixed_in: Some(fixed_in.into()),
            bisection: vec![],
            answers: vec![],
            seed: String::new(),
            seed_hash: String::new(),
            origin: Origin::Triage,
            edits: vec![],
            seed_slice: None,
            rng_seed: 0,
            found_at,
            found_unix: 0,
            run: 1,
            trigger_bytes: 0,
            duplicates: 0,
            seed_finding: false,
            reduction: None,
            merged_keys: vec![],
            merged_from: vec![],
            frames: vec![],
        }
    }

    /// A crash with a message is one bug per message, whatever the logic; a bare signal
    /// says too little, so its logic and fixed-in release keep two bugs apart.
    #[test]
    fn bare_signals_are_told_apart_by_logic_and_fix() {
        let crash = |logic: &str, fixed_in: &str, signature: &str| Meta {
            kind: BugKind::Crash,
            blame_by: BlameBy::Crash,
            signature: signature.into(),
            ..meta(logic, fixed_in, 0.0)
        };
        let key = |m: Meta| dedup_key(&m);
        assert_eq!(
            key(crash("UFLIA", "-", "ASSERTION VIOLATION ast.cpp:375")),
            key(crash("QF_BV", "4.12.6", "ASSERTION VIOLATION ast.cpp:375"))
        );
        assert_ne!(key(crash("UFLIA", "-", "SIGSEGV")), key(crash("ALL", "-", "SIGSEGV")));
        assert_ne!(key(crash("ALL", "4.12.6", "SIGSEGV")), key(crash("ALL", "5.4.0", "SIGSEGV")));
        assert_eq!(key(crash("ALL", "5.4.0", "SIGSEGV")), key(crash("ALL", "5.4.0", "SIGSEGV")));
        // A signal with the solver's last words is a message.
        assert_eq!(
            key(crash("ALL", "-", "SIGSEGV: ; ignoring unsupported logic")),
            key(crash("QF_UF", "4.8.8", "SIGSEGV: ; ignoring unsupported logic"))
        );
    }

    #[test]
    fn findings_whose_reductions_are_identical_are_merged_once_and_stay_merged() {
        let out = std::env::temp_dir().join(format!("smtstorm-store-merge-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let mut st = Store::open(&out).unwrap();
        let dir = |r: Recorded| match r {
            Recorded::New(d) => d,
            Recorded::Duplicate(d) => panic!("stored as a duplicate of {}", d.display()),
        };
        // The same bug from a QF_SLIA and an ALL seed (declared logics differ), another
        // bug with the same signature, and a different reduction.
        let a = dir(st.record(meta("QF_SLIA", "4.8.9", 1.0), "(set-logic QF_SLIA)").unwrap());
        let b = dir(st.record(meta("ALL", "4.8.9", 2.0), "(set-logic ALL)").unwrap());
        let c = dir(st.record(meta("QF_S", "4.8.8", 3.0), "(set-logic QF_S)").unwrap());
        let d = dir(st.record(meta("QF_LIA", "4.8.9", 4.0), "(set-logic QF_LIA)").unwrap());
        let same = "(declare-const s String)\n(assert (str.<= s s))\n(check-sat)\n";
        std::fs::write(a.join("reduced.smt2"), format!("; smtstorm-witness: ((s \"a\"))\n{same}")).unwrap();
        std::fs::write(b.join("reduced.smt2"), same).unwrap();
        std::fs::write(c.join("reduced.smt2"), same).unwrap();
        std::fs::write(d.join("reduced.smt2"), "(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n").unwrap();
        assert_eq!(st.merge_same_reductions(), vec![(a.clone(), b.clone())]);
        assert_eq!(st.counts(), (3, 0));
        assert!(!b.exists());
        let kept: Meta = serde_json::from_slice(&std::fs::read(a.join("meta.json")).unwrap()).unwrap();
        assert_eq!((kept.duplicates, kept.merged_keys.len()), (1, 1));
        // Nothing left to merge; the merged bug found again is a duplicate of the survivor,
        // also after the store is reopened.
        assert!(st.merge_same_reductions().is_empty());
        assert_eq!(st.record(meta("ALL", "4.8.9", 5.0), "x").unwrap(), Recorded::Duplicate(a.clone()));
        let mut again = Store::open(&out).unwrap();
        assert_eq!(again.record(meta("ALL", "4.8.9", 6.0), "x").unwrap(), Recorded::Duplicate(a.clone()));
        let kept: Meta = serde_json::from_slice(&std::fs::read(a.join("meta.json")).unwrap()).unwrap();
        assert_eq!((kept.duplicates, kept.merged_keys.len()), (3, 1));
        let _ = std::fs::remove_dir_all(&out);
    }

    /// A store written by 0957fee, when bug kinds and blame reasons were strings,
    /// opens with the same index, and each `meta.json` reads and writes back to the
    /// same bytes but its edits (migrated: `null` is no edits, the old spelling of a
    /// STORM instance a `recombine`); one written now reads back too.
    #[test]
    fn stores_written_before_kinds_were_enums_still_read_byte_for_byte() {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-0957fee");
        let out = std::env::temp_dir().join(format!("smtstorm-store-compat-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let mut metas = 0;
        for (top, kind, id) in [("bugs", "soundness", "5c1d0e7f3a2b"), ("seed-findings", "crash", "0a1b2c3d4e5f")] {
            let from = fixture.join(top).join(kind).join(id);
            let to = out.join(top).join(kind).join(id);
            std::fs::create_dir_all(&to).unwrap();
            for f in ["meta.json", "trigger.smt2"] {
                std::fs::copy(from.join(f), to.join(f)).unwrap();
            }
            let text = std::fs::read_to_string(from.join("meta.json")).unwrap();
            let m: Meta = serde_json::from_str(&text).unwrap();
            assert_eq!(m.kind.as_str(), kind);
            let written = serde_json::to_string_pretty(&m).unwrap();
            let without_edits = |t: &str| {
                let mut v: serde_json::Value = serde_json::from_str(t).unwrap();
                v.as_object_mut().unwrap().insert("edits".into(), serde_json::Value::Null);
                serde_json::to_string_pretty(&v).unwrap()
            };
            assert_eq!(without_edits(&written), without_edits(&text), "{top}/{kind}/{id}");
            // Everything but the edits keeps its bytes (the key order is the struct's).
            let (w, t) = (written.split("\"edits\"").next(), text.split("\"edits\"").next());
            assert_eq!(w, t, "{top}/{kind}/{id}");
            metas += 1;
        }
        assert_eq!(metas, 2);
        let mut st = Store::open(&out).unwrap();
        assert_eq!(st.counts(), (1, 1));
        let old = serde_json::from_str::<Meta>(
            &std::fs::read_to_string(out.join("bugs/soundness/5c1d0e7f3a2b/meta.json")).unwrap(),
        )
        .unwrap();
        assert_eq!((old.kind, old.blame_by), (BugKind::Soundness, BlameBy::Witness));
        assert_eq!(old.reduction.as_ref().and_then(|r| r.bounds.as_ref()).map(|b| b.dmax), Some(2));
        // The same bug found again is a duplicate of the old directory, not a new one.
        assert!(matches!(st.record(old.clone(), "(check-sat)\n").unwrap(), Recorded::Duplicate(_)));
        let Recorded::New(dir) = st.record(meta("QF_LIA", "4.8.9", 9.0), "(check-sat)\n").unwrap() else {
            panic!("a new bug was taken for a duplicate")
        };
        let now: Meta = serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
        assert_eq!((now.kind, now.blame_by), (BugKind::InvalidModel, BlameBy::Validation));
        assert!(dir.starts_with(out.join("bugs/invalid-model")));
        let _ = std::fs::remove_dir_all(&out);
    }

    /// Issue 21, item 7: a smaller duplicate takes the trigger's place together with its
    /// reduction's (removed, to be derived anew), and a finding whose meta.json does not
    /// read is quarantined on open, never skipped and later overwritten.
    #[test]
    fn smaller_duplicates_drop_stale_reductions_and_unreadable_findings_are_quarantined() {
        let out = tempfile::tempdir().unwrap();
        let out = out.path();
        let mut st = Store::open(out).unwrap();
        let Recorded::New(dir) = st.record(meta("QF_LIA", "4.8.9", 1.0), "(check-sat) ; a long trigger").unwrap()
        else {
            panic!("new")
        };
        std::fs::write(dir.join("reduced.smt2"), "(check-sat) ; reduced from the long one").unwrap();
        let mut m: Meta = serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
        m.reduction = Some(reduction::Report { original_bytes: 28, reduced_bytes: 40, ..Default::default() });
        write_atomic(&dir.join("meta.json"), &serde_json::to_vec_pretty(&m).unwrap()).unwrap();
        // A larger duplicate changes nothing but the count.
        st.record(meta("QF_LIA", "4.8.9", 2.0), "(check-sat) ; an even longer trigger").unwrap();
        assert!(dir.join("reduced.smt2").exists());
        // A smaller one replaces the trigger; the old reduction goes with it.
        assert_eq!(st.record(meta("QF_LIA", "4.8.9", 3.0), "(check-sat)").unwrap(), Recorded::Duplicate(dir.clone()));
        let now: Meta = serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
        assert_eq!((now.trigger_bytes, now.duplicates, now.reduction.is_none()), (11, 2, true));
        assert!(!dir.join("reduced.smt2").exists());
        assert_eq!(std::fs::read_to_string(dir.join("trigger.smt2")).unwrap(), "(check-sat)");
        // A torn meta.json: moved away whole on the next open, said, not indexed.
        std::fs::write(dir.join("meta.json"), "{\"id\": \"trunc").unwrap();
        let mut st = Store::open(out).unwrap();
        assert_eq!(st.quarantined().len(), 1);
        let (from, to) = st.quarantined()[0].clone();
        assert_eq!(from, dir);
        assert!(to.starts_with(out.join("quarantine")) && to.join("trigger.smt2").is_file());
        assert!(!dir.exists());
        assert_eq!(st.counts(), (0, 0));
        // Found again, it is stored anew beside the quarantined copy.
        assert!(matches!(st.record(meta("QF_LIA", "4.8.9", 4.0), "(check-sat)").unwrap(), Recorded::New(_)));
        assert!(to.join("meta.json").is_file());
    }
}
