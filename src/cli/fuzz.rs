//! `smtstorm fuzz`.

use super::opts::RunOpts;
use anyhow::Result;
use smtstorm::mutate::Engine;
use smtstorm::util::flags::Named;
use std::path::PathBuf;

/// Run (or resume) a fuzzing campaign. Exit status: 0 nothing new found, 10 this run stored
/// new findings (0 with --exit-zero-on-findings),
/// 3 confirmed findings could not all be stored (see events.jsonl), 2 usage error.
#[derive(clap::Args)]
pub(crate) struct FuzzCmd {
    /// Seed files or directories (default: corpus/).
    seeds: Vec<PathBuf>,
    /// TOML campaign file with the same keys as these flags (flags override it).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Solver: a name from .solvers/solvers.toml or NAME='command args'; repeatable.
    /// Default: the newest release of every installed family (older ones serve bisection).
    #[arg(long = "solver")]
    solvers: Vec<String>,
    /// Engines, comma-separated (default: all but equisat).
    #[arg(long, value_delimiter = ',', value_parser = Named::<Engine>::new("engine"))]
    engine: Vec<Engine>,
    /// K/N: take shard K (from 0) of N of the seeds, with an RNG stream of its own; N jobs
    /// cover one campaign (`smtstorm merge` joins their outputs).
    #[arg(long)]
    shard: Option<smtstorm::campaign::Shard>,
    /// Regression baseline: a solver of the run (e.g. the last release, or yesterday's
    /// build) that every other solver of its family is compared against. A query the
    /// baseline decides (sat/unsat) and such a solver answers `unknown`, does not answer
    /// in time, or decides at least 10x (and 0.5 s) slower, confirmed by 3 fresh runs of
    /// each, is a `regression` finding (never a wrong answer). A build's definite answer
    /// the baseline contradicts (and no other family backs) is a wrong answer blamed on
    /// the build, the baseline's answer expected. What the baseline shares (it crashes
    /// too, answers the same wrong way) or what no build under test is blamed for is
    /// stored marked, reported apart and not counted in the exit status. Without it, with two
    /// releases of a family or more in the run, the newest is compared against each older
    /// one, and the release that introduced it is bisected on the installed ladder.
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,
    /// Switch the regression oracle (see --baseline) off.
    #[arg(long)]
    no_regressions: bool,
    #[command(flatten)]
    run: RunOpts,
}

impl FuzzCmd {
    pub(crate) fn run(&self) -> Result<i32> {
        // A resumed store keeps the settings it was made with; a campaign file states
        // them all.
        let stored = super::opts::stored_config(&self.run.out)?;
        let mut cfg = match (&self.config, &stored) {
            (Some(p), _) => smtstorm::campaign::Config::load(p)?,
            (None, Some(c)) => c.clone(),
            (None, None) => Default::default(),
        };
        if !self.seeds.is_empty() {
            cfg.seeds = self.seeds.clone();
        }
        if !self.solvers.is_empty() {
            cfg.solvers = self.solvers.clone();
        }
        if !self.engine.is_empty() {
            cfg.engines = self.engine.clone();
        }
        if self.shard.is_some() {
            cfg.shard = self.shard;
        }
        if self.baseline.is_some() {
            cfg.baseline = self.baseline.clone();
        }
        if self.no_regressions {
            cfg.regressions = false;
        }
        self.run.run(cfg)
    }
}
