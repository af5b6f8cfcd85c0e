//! `smtstorm storm-check`.

use anyhow::Result;
use std::path::PathBuf;

/// Check the STORM generator: every instance, with its witness pinned, must be `sat` for
/// the checking solvers (violations are generator bugs). Prints a summary (or JSON).
#[derive(clap::Args)]
pub(crate) struct StormCheckCmd {
    seeds: Vec<PathBuf>,
    /// Solver whose model builds the pools.
    #[arg(long, default_value = "z3-5.4.0")]
    reference: String,
    /// Checking solvers (default: z3-5.4.0 and cvc5).
    #[arg(long = "checker")]
    checkers: Vec<String>,
    /// Instances per seed.
    #[arg(long, default_value_t = 5)]
    instances: usize,
    /// Use only the first N seeds (sorted).
    #[arg(long)]
    limit: Option<usize>,
    #[command(flatten)]
    bounds: smtstorm::mutate::storm::Bounds,
    #[arg(long, default_value_t = smtstorm::solver::DEFAULT_TIMEOUT_S)]
    timeout: f64,
    #[arg(long)]
    json: bool,
}

impl StormCheckCmd {
    pub(crate) fn run(&self) -> Result<i32> {
        let reg = smtstorm::solver::resolve::default_registry()?;
        let reference = smtstorm::solver::resolve::resolve(&reg, std::slice::from_ref(&self.reference))?.remove(0);
        let names = if self.checkers.is_empty() {
            vec!["z3-5.4.0".to_string(), "cvc5".to_string()]
        } else {
            self.checkers.clone()
        };
        let checkers = smtstorm::solver::resolve::resolve(&reg, &names)?;
        let mut files = smtstorm::util::files::collect_smt2(&self.seeds)?;
        if let Some(n) = self.limit {
            files.truncate(n);
        }
        let limits =
            smtstorm::solver::Limits { time: super::opts::timeout_seconds(self.timeout)?, ..Default::default() };
        let reps =
            smtstorm::oracle::witness::check(&files, &reference, &checkers, &self.bounds, self.instances, limits);
        let violations: usize = reps.iter().map(|r| r.violations.len()).sum();
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&reps)?);
        } else {
            let used = reps.iter().filter(|r| r.instances > 0).count();
            let inst: usize = reps.iter().map(|r| r.instances).sum();
            outln!("{} seeds, {used} with instances, {inst} instances, {violations} violations", reps.len());
            for (k, c) in checkers.iter().enumerate() {
                let (s, u, o) = reps
                    .iter()
                    .filter(|r| r.instances > 0)
                    .fold((0, 0, 0), |a, r| (a.0 + r.answers[k].1, a.1 + r.answers[k].2, a.2 + r.answers[k].3));
                outln!("  {}: sat {s}, unsat {u}, other (unknown, timeout, error) {o}", c.name);
            }
            let mut why = std::collections::BTreeMap::new();
            for r in reps.iter().filter_map(|r| r.skipped.as_ref()) {
                *why.entry(r.split(':').next().unwrap_or(r).to_string()).or_insert(0) += 1;
            }
            for (w, n) in why {
                outln!("  skipped {n}: {w}");
            }
            for r in &reps {
                for v in &r.violations {
                    outln!("VIOLATION {}: {v}", r.seed.display());
                }
            }
        }
        Ok(if violations > 0 { 1 } else { 0 })
    }
}
