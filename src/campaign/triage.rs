//! `smtstorm triage`: turns fuzzer artifacts into confirmed, deduplicated, bisected,
//! reduced findings in a campaign bug store.
//!
//! Accepts libFuzzer's `fuzz/artifacts/<target>/` (`crash-*`, `timeout-*`, `oom-*`,
//! `slow-unit-*`), AFL++'s `crashes/` and `hangs/`, honggfuzz's crash files, or single
//! files. Timeouts and OOMs are counted, not replayed as bugs. Every other artifact is
//! replayed through the campaign's oracles in fresh processes (a triage campaign: each
//! artifact pre-screened once, STORM artifacts judged against their witness line); what
//! reproduces is stored as a finding. An artifact that shows no solver bug is checked
//! against our own harness: if smtstorm's code panics on it, it is a harness bug (ours),
//! otherwise "not reproduced".

use crate::campaign::{self, Config};
use crate::solver::Registry;
use crate::store::{layout, Origin, Store};
use crate::util::error::{Error, Result};
use std::path::{Path, PathBuf};

/// What triage found.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TriageReport {
    pub artifacts: usize,
    /// Artifacts that reproduced a solver bug.
    pub reproduced: usize,
    /// Distinct findings stored from them (after deduplication).
    pub findings: usize,
    pub timeouts: usize,
    pub ooms: usize,
    /// Artifacts on which smtstorm's own harness panics, with the message.
    #[serde(serialize_with = "shown_pairs")]
    pub harness_bugs: Vec<(PathBuf, String)>,
    #[serde(serialize_with = "crate::util::path::lossless_vec::serialize")]
    pub not_reproduced: Vec<PathBuf>,
    /// Files that are not SMT-LIB at all (byte-level artifacts of `parse_target` that do
    /// not crash the parser).
    pub unreadable: usize,
    /// Confirmed findings that could not be written to the store.
    pub not_stored: u64,
    pub seconds: f64,
}

/// Artifacts' names as people read them ([`crate::util::path::shown`]).
fn shown_pairs<S: serde::Serializer>(v: &[(PathBuf, String)], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|(p, m)| (crate::util::path::shown(p), m)))
}

/// Fuzzer bookkeeping files that are not inputs.
fn is_input(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !(name.starts_with('.') || name.starts_with("README") || name.ends_with(".json") || name.ends_with(".log"))
}

/// Every input file under `paths` (directories walked, any file name), sorted.
pub fn artifacts(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = vec![];
    let mut stack: Vec<PathBuf> = paths.to_vec();
    while let Some(p) = stack.pop() {
        let meta = std::fs::metadata(&p).map_err(|e| Error::io(&p, e))?;
        if meta.is_dir() {
            for e in std::fs::read_dir(&p).map_err(|e| Error::io(&p, e))? {
                stack.push(e.map_err(|e| Error::io(&p, e))?.path());
            }
        } else if is_input(&p) {
            out.push(p);
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Timeout (or hang) and OOM artifacts, by the fuzzers' naming conventions.
fn kind_of(p: &Path) -> &'static str {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let parent = p.parent().and_then(|d| d.file_name()).and_then(|n| n.to_str()).unwrap_or("");
    if name.starts_with("timeout-") || name.starts_with("slow-unit-") || parent == "hangs" || name.contains("TIMEOUT") {
        "timeout"
    } else if name.starts_with("oom-") {
        "oom"
    } else {
        "replay"
    }
}

/// Triage `paths` with `solvers` into the bug store `out` (created or resumed). `reduce`
/// seconds per new finding (0: none); `timeout` per query.
pub fn triage(
    paths: &[PathBuf],
    solvers: &[String],
    registry: &Registry,
    out: &Path,
    reduce: f64,
    timeout: f64,
    quiet: bool,
) -> Result<TriageReport> {
    let t0 = std::time::Instant::now();
    let lock = crate::store::lock::lock(out)?;
    let files = artifacts(paths)?;
    let mut rep = TriageReport { artifacts: files.len(), ..Default::default() };
    let mut replay = vec![];
    for f in files {
        match kind_of(&f) {
            "timeout" => rep.timeouts += 1,
            "oom" => rep.ooms += 1,
            _ => {
                let parses =
                    crate::util::files::read_input(&f).ok().is_some_and(|b| crate::smtlib::parse_bytes(&b).is_ok());
                if parses {
                    replay.push(f);
                } else {
                    // Not SMT-LIB: only our parser can have crashed on it.
                    match harness_panic(&f) {
                        Some(m) => rep.harness_bugs.push((f, m)),
                        None => rep.unreadable += 1,
                    }
                }
            }
        }
    }
    if !replay.is_empty() {
        let cfg = Config {
            seeds: replay.clone(),
            solvers: solvers.to_vec(),
            engines: vec![],
            triage: true,
            reduce,
            timeout,
            ..Config::default()
        };
        let sum = campaign::run_locked(cfg, registry, out, quiet, false, &lock)?;
        rep.not_stored = sum.stats.store_errors;
    }
    // Which artifacts reproduced: the store's events name the seed of every finding and
    // of every duplicate of one.
    let shown: std::collections::BTreeSet<String> = campaign::Event::read(out)
        .into_iter()
        .filter_map(|e| match e {
            campaign::Event::Finding { seed, .. } | campaign::Event::Duplicate { seed, .. } => Some(seed),
            _ => None,
        })
        .collect();
    let stored = Store::list_in(out);
    for f in &replay {
        if !shown.contains(&f.display().to_string()) {
            match harness_panic(f) {
                Some(m) => rep.harness_bugs.push((f.clone(), m)),
                None => rep.not_reproduced.push(f.clone()),
            }
        } else {
            rep.reproduced += 1;
        }
    }
    rep.findings = stored.iter().filter(|(_, m)| m.origin == Origin::Triage).count();
    rep.seconds = t0.elapsed().as_secs_f64();
    let _ = crate::util::fs::write_atomic(&layout::triage(out), &serde_json::to_vec_pretty(&rep).unwrap_or_default());
    Ok(rep)
}

/// The message if smtstorm's own parser/printer harness panics on the file.
fn harness_panic(f: &Path) -> Option<String> {
    let data = std::fs::read(f).ok()?;
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(|| crate::smtlib::roundtrip(&data));
    std::panic::set_hook(prev);
    r.err().map(|e| crate::util::error::panic_message(&*e))
}
