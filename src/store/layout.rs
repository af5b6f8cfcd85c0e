//! Where a store keeps what: the one place its file and directory names are spelled.
//! Every other module asks here for a path (a store's root, [`crate::store::FindingDir`]
//! for a finding), so the layout in [`crate::store`]'s overview can change in one file.

use std::path::{Path, PathBuf};

/// `OUT/lock`: held by the one process using the store ([`crate::store::lock`]).
pub const LOCK: &str = "lock";
/// `OUT/bugs/<kind>/<id>/`: fuzzing findings.
pub const BUGS: &str = "bugs";
/// `OUT/seed-findings/<kind>/<id>/`: seeds that already fail, kept apart.
pub const SEED_FINDINGS: &str = "seed-findings";
/// The two directories that hold findings, fuzzing findings first.
pub const TOPS: [&str; 2] = [BUGS, SEED_FINDINGS];
/// `OUT/quarantine/`: findings whose files did not read, each kept whole.
pub const QUARANTINE: &str = "quarantine";

/// A finding's description.
pub const META: &str = "meta.json";
/// Why a finding went to quarantine: its `meta.json`, or its trigger, did not read.
pub const META_UNREADABLE: &str = "meta.json does not read";
pub const TRIGGER_UNREADABLE: &str = "trigger.smt2 does not read";
/// The input that shows a finding, as it was found.
pub const TRIGGER: &str = "trigger.smt2";
/// `smtstorm reduce`'s result beside the trigger.
pub const REDUCED: &str = "reduced.smt2";
/// `smtstorm storm-minimize`'s result beside the trigger.
pub const MINIMIZED: &str = "minimized.smt2";
/// A report, ready to file upstream (a finding's), or the campaign's.
pub const REPORT_MD: &str = "report.md";
pub const REPORT_HTML: &str = "report.html";
/// A finding's `instances/<id>/`: findings of the same cause merged into it
/// ([`crate::store::Store::regroup`]), each kept whole.
pub const INSTANCES: &str = "instances";
/// A finding's `repro/<solver>.smt2`: the input as that solver is asked.
pub const REPRO: &str = "repro";

/// `OUT/corpus/`: the seeds a campaign grew from its mutants ([`crate::store::corpus`]).
pub const CORPUS: &str = "corpus";

/// `OUT/perf/<id>/`: BanditFuzz's benchmarks, `bench.smt2` and `meta.json` each.
pub const PERF: &str = "perf";
/// A BanditFuzz benchmark's script.
pub const BENCH: &str = "bench.smt2";

/// Why a file of a store did not read: which file, and what was wrong.
#[derive(Debug, thiserror::Error)]
pub enum StoreFileError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {source}", path.display())]
    Json { path: PathBuf, source: serde_json::Error },
}

impl StoreFileError {
    /// Whether the file is simply not there.
    pub fn is_missing(&self) -> bool {
        matches!(self, StoreFileError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// Reads a JSON file of a store.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, StoreFileError> {
    let bytes = std::fs::read(path).map_err(|source| StoreFileError::Io { path: path.to_path_buf(), source })?;
    serde_json::from_slice(&bytes).map_err(|source| StoreFileError::Json { path: path.to_path_buf(), source })
}

/// `OUT/campaign.json`: the campaign definition and run count.
pub fn campaign(out: &Path) -> PathBuf {
    out.join("campaign.json")
}
/// `OUT/bandit.json`: a BanditFuzz run's configuration.
pub fn bandit(out: &Path) -> PathBuf {
    out.join("bandit.json")
}
/// Whether `out` holds a campaign's or BanditFuzz's store (its definition file is there),
/// or a fuzz target's (`fuzz/store/<target>`: no definition, but every top directory a
/// store opens with).
pub fn is_store(out: &Path) -> bool {
    campaign(out).is_file() || bandit(out).is_file() || TOPS.iter().all(|t| out.join(t).is_dir())
}
/// `OUT/events.jsonl`: the append-only event stream.
pub fn events(out: &Path) -> PathBuf {
    out.join("events.jsonl")
}
/// `OUT/stats.jsonl`: the append-only progress log.
pub fn stats(out: &Path) -> PathBuf {
    out.join("stats.jsonl")
}
/// `OUT/scratch/`: the solvers' working directory.
pub fn scratch(out: &Path) -> PathBuf {
    out.join("scratch")
}
/// `OUT/tmp/`: query files of a running campaign or BanditFuzz run, removed at its end.
pub fn tmp(out: &Path) -> PathBuf {
    out.join("tmp")
}
/// `OUT/bugs/`.
pub fn bugs(out: &Path) -> PathBuf {
    out.join(BUGS)
}
/// `OUT/corpus/`.
pub fn corpus(out: &Path) -> PathBuf {
    out.join(CORPUS)
}
/// A grown seed's script, `OUT/corpus/<hash>.smt2`, and its record, `<hash>.json`.
pub fn corpus_seed(out: &Path, hash: &str) -> PathBuf {
    corpus(out).join(format!("{hash}.smt2"))
}
pub fn corpus_record(out: &Path, hash: &str) -> PathBuf {
    corpus(out).join(format!("{hash}.json"))
}
/// `OUT/quarantine/`.
pub fn quarantine(out: &Path) -> PathBuf {
    out.join(QUARANTINE)
}
/// The campaign's `OUT/report.md` and `OUT/report.html`.
pub fn report_md(out: &Path) -> PathBuf {
    out.join(REPORT_MD)
}
pub fn report_html(out: &Path) -> PathBuf {
    out.join(REPORT_HTML)
}
/// `OUT/triage.json`: what `smtstorm triage` found.
pub fn triage(out: &Path) -> PathBuf {
    out.join("triage.json")
}
/// BanditFuzz's logs and summaries in `OUT` (`timings.jsonl`, `decisions.jsonl`,
/// `agents.json`, `summary.json`, `cactus.svg`).
pub fn bandit_file(out: &Path, which: BanditFile) -> PathBuf {
    out.join(match which {
        BanditFile::Timings => "timings.jsonl",
        BanditFile::Decisions => "decisions.jsonl",
        BanditFile::Agents => "agents.json",
        BanditFile::Summary => "summary.json",
        BanditFile::Cactus => "cactus.svg",
    })
}

/// The files a BanditFuzz run writes beside its benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BanditFile {
    Timings,
    Decisions,
    Agents,
    Summary,
    Cactus,
}

/// `OUT/perf/<id>/`: one BanditFuzz benchmark.
pub fn perf_dir(out: &Path, id: &str) -> PathBuf {
    out.join(PERF).join(id)
}

/// The store a finding directory (`OUT/bugs/<kind>/<id>`, `OUT/seed-findings/<kind>/<id>`)
/// belongs to: `OUT`, or `None` for a directory that is not where a store keeps findings.
pub fn store_root_of(finding: &Path) -> Option<&Path> {
    let top = finding.parent()?.parent()?;
    let name = top.file_name()?.to_str()?;
    let root = top.parent().filter(|_| TOPS.contains(&name))?;
    // `bugs/crash/ID` typed inside the store itself.
    Some(if root.as_os_str().is_empty() { Path::new(".") } else { root })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_three_levels_under_its_top_belongs_to_that_store() {
        let root = Path::new("/x/out");
        assert_eq!(store_root_of(&root.join("bugs/crash/abc")), Some(root));
        assert_eq!(store_root_of(&root.join("seed-findings/soundness/abc")), Some(root));
        // Relative paths as a user types them.
        assert_eq!(store_root_of(Path::new("out/bugs/crash/abc")), Some(Path::new("out")));
        // Not under a store's findings: no root, whatever lies three levels up.
        assert_eq!(store_root_of(&root.join("quarantine/crash/abc")), None);
        assert_eq!(store_root_of(Path::new("bugs/crash/abc")), Some(Path::new(".")));
        assert_eq!(store_root_of(Path::new("abc")), None);
    }
}
