//! `smtstorm report`.

use anyhow::Result;
use std::path::PathBuf;

/// Write report.md and report.html for a campaign directory.
#[derive(clap::Args)]
pub(crate) struct ReportCmd {
    dir: PathBuf,
}

impl ReportCmd {
    pub(crate) fn run(&self) -> Result<()> {
        let (md, html) =
            smtstorm::campaign::report::write(&self.dir).map_err(|e| anyhow::anyhow!("{}: {e}", self.dir.display()))?;
        outln!("{}\n{}", md.display(), html.display());
        Ok(())
    }
}
