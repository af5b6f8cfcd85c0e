//! `smtstorm check`.

use super::opts::SolverOpts;
use anyhow::Result;
use std::path::PathBuf;

/// Run SMT-LIB files on solvers and print the outcome of every check-sat.
#[derive(clap::Args)]
pub(crate) struct CheckCmd {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    solver: SolverOpts,
    /// A fresh process per file instead of one persistent session per solver.
    #[arg(long)]
    oneshot: bool,
    #[arg(long)]
    json: bool,
}

impl CheckCmd {
    pub(crate) fn run(&self) -> Result<()> {
        let rows =
            smtstorm::solver::check::run(&self.files, &self.solver.specs()?, &self.solver.limits()?, self.oneshot)?;
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&rows)?);
        } else {
            out!("{}", smtstorm::solver::check::table(&rows));
        }
        Ok(())
    }
}
