//! `smtstorm storm-minimize`.

use anyhow::Result;
use std::path::PathBuf;

/// STORM's bound minimisation (paper's Algorithm 2) on a STORM finding: regenerate
/// instances from its seed with Amax, then Dmax (and NC) from 1 upwards, and keep the first
/// that shows the same bug, confirmed in fresh processes with its witness re-validated.
/// Writes DIR/minimized.smt2. (`smtstorm reduce DIR` runs this first, then the passes.)
#[derive(clap::Args)]
pub(crate) struct StormMinimizeCmd {
    /// The finding directory (OUT/bugs/soundness/<id>) of a STORM finding.
    dir: PathBuf,
    /// Stop after this many seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Upper limit per check in seconds.
    #[arg(long, default_value_t = smtstorm::solver::DEFAULT_TIMEOUT_S)]
    timeout: f64,
}

impl StormMinimizeCmd {
    pub(crate) fn run(&self) -> Result<()> {
        let solvers = smtstorm::reduce::finding_solvers(&self.dir);
        let r = smtstorm::reduce::storm_minimize_finding(
            &self.dir,
            &solvers,
            super::opts::timeout_seconds(self.timeout)?,
            self.time.map(|t| super::opts::seconds("--time", t)).transpose()?,
        )?;
        match r {
            Some(b) => outln!(
                "{} -> {} bytes with amax {}, dmax {}, nc {} ({} instances tried): {}",
                b.from_bytes,
                b.to_bytes,
                b.amax,
                b.dmax,
                b.nc,
                b.instances,
                smtstorm::store::FindingDir::new(&self.dir).minimized_path().display()
            ),
            None => outln!("no smaller instance reproduces the bug"),
        }
        Ok(())
    }
}
