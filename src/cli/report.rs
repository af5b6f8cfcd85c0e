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
        // Unreadable findings go to quarantine/ (said on stderr, counted in the report),
        // unless a campaign holds the store: then the report lists them where they are.
        let dir = &self.dir;
        if smtstorm::store::layout::is_store(dir) {
            match smtstorm::store::lock::lock(dir) {
                Ok(_lock) => {
                    let moved = smtstorm::store::Store::quarantine_unreadable(dir)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
                    for (from, to) in moved {
                        let why = smtstorm::store::layout::META_UNREADABLE;
                        eprintln!("smtstorm: {}: {why}; moved to {}", from.display(), to.display());
                    }
                }
                Err(smtstorm::Error::Locked { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let (md, html) =
            smtstorm::campaign::report::write(&self.dir).map_err(|e| anyhow::anyhow!("{}: {e}", self.dir.display()))?;
        outln!("{}\n{}", md.display(), html.display());
        Ok(())
    }
}
