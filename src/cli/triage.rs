//! `smtstorm triage`.

use anyhow::Result;
use std::path::PathBuf;

/// Turn fuzzer artifacts (libFuzzer `fuzz/artifacts/<target>/`, AFL++ `crashes/` and
/// `hangs/`, honggfuzz crash files) into confirmed, deduplicated, bisected, reduced
/// findings in a bug store; separates solver bugs from harness bugs (a panic in
/// smtstorm's own code), timeouts and OOMs. Exit status 10 when solver findings exist.
#[derive(clap::Args)]
pub(crate) struct TriageCmd {
    /// Artifact files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Solvers to replay on (default: SMTSTORM_SOLVERS, else every installed one).
    #[arg(long = "solver")]
    solvers: Vec<String>,
    /// Bug store (a campaign directory; created or extended).
    #[arg(long)]
    out: PathBuf,
    /// Seconds of reduction per new finding (0: none).
    #[arg(long, default_value_t = smtstorm::store::campaign::DEFAULT_REDUCE_S)]
    reduce: f64,
    /// Upper limit per query, in seconds.
    #[arg(long, default_value_t = smtstorm::solver::DEFAULT_TIMEOUT_S)]
    timeout: f64,
    #[arg(long)]
    quiet: bool,
}

impl TriageCmd {
    pub(crate) fn run(&self) -> Result<i32> {
        let reg = smtstorm::solver::resolve::default_registry()?;
        let mut solvers = self.solvers.clone();
        if solvers.is_empty() {
            if let Ok(v) = std::env::var("SMTSTORM_SOLVERS") {
                solvers = v.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect();
            }
        }
        smtstorm::util::stop::install_signal_handlers();
        let r = smtstorm::campaign::triage::triage(
            &self.paths,
            &solvers,
            &reg,
            &self.out,
            self.reduce,
            self.timeout,
            self.quiet,
        )?;
        smtstorm::campaign::report::write(&self.out)?;
        outln!(
            "{} artifacts in {:.0}s: {} reproduce a solver bug ({} distinct findings in {}), {} timeouts, {} OOMs, {} harness bugs, {} not reproduced, {} not SMT-LIB",
            r.artifacts,
            r.seconds,
            r.reproduced,
            r.findings,
            smtstorm::store::layout::bugs(&self.out).display(),
            r.timeouts,
            r.ooms,
            r.harness_bugs.len(),
            r.not_reproduced.len(),
            r.unreadable
        );
        for (p, m) in &r.harness_bugs {
            outln!("harness bug: {}: {m}", p.display());
        }
        for p in &r.not_reproduced {
            outln!("not reproduced: {}", p.display());
        }
        Ok(super::opts::findings_status(r.not_stored, r.findings))
    }
}
