//! `smtstorm storm`.

use super::opts::RunOpts;
use anyhow::Result;
use std::path::PathBuf;

/// A STORM-only campaign: instances satisfiable by construction from each seed, built on
/// the reference solver's model; any `unsat` from a solver under test is a candidate.
/// Same output directory, resume and exit status as `smtstorm fuzz`.
#[derive(clap::Args)]
pub(crate) struct StormCmd {
    seeds: Vec<PathBuf>,
    /// Solver under test (repeatable).
    #[arg(long = "solver", required = true)]
    solvers: Vec<String>,
    /// Reference solver for models (added to the campaign if not under test).
    #[arg(long)]
    reference: String,
    #[command(flatten)]
    bounds: smtstorm::mutate::storm::Bounds,
    #[command(flatten)]
    run: RunOpts,
}

impl StormCmd {
    pub(crate) fn run(&self) -> Result<i32> {
        let mut solvers = self.solvers.clone();
        if !solvers.contains(&self.reference) {
            solvers.push(self.reference.clone());
        }
        let reference = self.reference.split('=').next().unwrap_or(&self.reference).to_string();
        // A resumed store keeps its other settings (`seed`, `timeout`, ...).
        let stored = super::opts::stored_config(&self.run.out)?;
        let base = stored.clone().unwrap_or_default();
        let cfg = smtstorm::campaign::Config {
            seeds: match (self.seeds.is_empty(), &stored) {
                (false, _) => self.seeds.clone(),
                (true, Some(c)) => c.seeds.clone(),
                (true, None) => vec![PathBuf::from("corpus")],
            },
            solvers,
            engines: vec![smtstorm::mutate::Engine::Storm],
            reference: Some(reference),
            storm: self.bounds.clone(),
            ..base
        };
        self.run.run(cfg)
    }
}
