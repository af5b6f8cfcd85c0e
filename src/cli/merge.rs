//! `smtstorm merge`.

use anyhow::Result;
use std::path::PathBuf;

/// Merge the bug stores of several campaigns (the shards of `smtstorm fuzz --shard K/N`,
/// or runs on other machines) into OUT: the same bug once, with its duplicate counts,
/// the earliest finding kept, reductions kept. Safe to run again, also after an
/// interrupted merge: nothing is counted twice. Then `smtstorm report OUT`.
#[derive(clap::Args)]
pub(crate) struct MergeCmd {
    out: PathBuf,
    #[arg(required = true)]
    stores: Vec<PathBuf>,
}

impl MergeCmd {
    pub(crate) fn run(&self) -> Result<()> {
        // The target is locked like a campaign's output: a campaign writing to it at the
        // same time would race the merge.
        let _lock = smtstorm::store::lock::lock(&self.out)?;
        let mut store =
            smtstorm::store::Store::open(&self.out).map_err(|e| anyhow::anyhow!("{}: {e}", self.out.display()))?;
        for src in &self.stores {
            if !src.join("bugs").is_dir() && !src.join("seed-findings").is_dir() {
                anyhow::bail!("{}: not a campaign output (no bugs/ or seed-findings/)", src.display());
            }
            if std::fs::canonicalize(src).ok() == std::fs::canonicalize(&self.out).ok() {
                anyhow::bail!("{}: is the merge target itself", src.display());
            }
            let r = store.merge_from(src).map_err(|e| anyhow::anyhow!("{}: {e}", src.display()))?;
            outln!("{}: {} new, {} duplicates, {} merged before", src.display(), r.new, r.duplicates, r.already);
            // The report needs a campaign description: the first store's, if OUT has none.
            let cfile = self.out.join("campaign.json");
            if !cfile.exists() {
                if let Ok(b) = std::fs::read(src.join("campaign.json")) {
                    smtstorm::util::fs::write_atomic(&cfile, &b)?;
                }
            }
        }
        let (fuzz, seed) = store.counts();
        outln!("{}: {fuzz} distinct bugs, {seed} seed findings", self.out.display());
        Ok(())
    }
}
