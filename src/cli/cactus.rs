//! `smtstorm cactus`.

use anyhow::Result;
use std::path::PathBuf;

/// One cactus plot (SVG) over the BanditFuzz benchmarks of several runs
/// (each DIR is a `smtstorm bandit --out` directory).
#[derive(clap::Args)]
pub(crate) struct CactusCmd {
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    #[arg(short, long)]
    out: PathBuf,
}

impl CactusCmd {
    pub(crate) fn run(&self) -> Result<()> {
        let perf: Vec<_> = self.dirs.iter().flat_map(|d| smtstorm::store::perf::perf_in(d)).collect();
        let timeout = perf.iter().map(|m| m.timeout).fold(0.0, f64::max);
        let svg = smtstorm::bandit::plot::cactus(&smtstorm::bandit::plot::series(&perf), timeout);
        smtstorm::util::fs::write_atomic(&self.out, svg.as_bytes())?;
        outln!("{} benchmarks from {} runs -> {}", perf.len(), self.dirs.len(), self.out.display());
        Ok(())
    }
}
