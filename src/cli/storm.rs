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
    /// Connective depth of fragments.
    #[arg(long, default_value_t = 64)]
    dmax: usize,
    /// Assertions per instance, at most.
    #[arg(long, default_value_t = 64)]
    amax: usize,
    /// Construction pool size.
    #[arg(long, default_value_t = 200)]
    nc: usize,
    /// Also combine with OR, XOR and ITE.
    #[arg(long)]
    extended: bool,
    /// Make every other instance incremental (push/pop blocks, one check-sat each).
    #[arg(long)]
    incremental: bool,
    /// Make every other instance check with a z3 tactic, `(check-sat-using T)`; other
    /// solvers get a plain check-sat. `unknown` answers are never findings.
    #[arg(long)]
    tactics: bool,
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
        let cfg = smtstorm::campaign::Config {
            seeds: if self.seeds.is_empty() { vec![PathBuf::from("corpus")] } else { self.seeds.clone() },
            solvers,
            engines: vec![smtstorm::mutate::Engine::Storm],
            reference: Some(reference),
            storm: smtstorm::mutate::storm::Bounds {
                dmax: self.dmax,
                amax: self.amax,
                nc: self.nc,
                extended: self.extended,
                incremental: self.incremental,
                tactics: self.tactics,
                ..Default::default()
            },
            ..Default::default()
        };
        self.run.run(cfg)
    }
}
