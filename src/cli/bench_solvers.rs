//! `smtstorm bench-solvers`.

use super::opts::SolverOpts;
use anyhow::Result;

/// Queries per second, fresh process per query vs persistent session, on generated
/// QF_LIA/QF_BV queries; answers compared; smtstorm's own CPU share measured.
#[derive(clap::Args)]
pub(crate) struct BenchSolversCmd {
    #[command(flatten)]
    solver: SolverOpts,
    #[arg(long, default_value_t = 500)]
    queries: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long)]
    json: bool,
}

impl BenchSolversCmd {
    pub(crate) fn run(&self) -> Result<()> {
        let mut all = vec![];
        for spec in self.solver.specs()? {
            let b = smtstorm::solver::bench::bench(&spec, self.queries, self.seed, &self.solver.limits()?)?;
            if !self.json {
                outln!(
                    "{:<14} fresh {:7.1} q/s  session {:7.1} q/s  x{:.2}  mismatches {}  own CPU {:.2}% of wall  answers {:?}",
                    b.solver, b.fresh_qps, b.session_qps, b.speedup, b.mismatches, 100.0 * b.own_cpu_share, b.answers
                );
            }
            all.push(b);
        }
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&all)?);
        }
        Ok(())
    }
}
