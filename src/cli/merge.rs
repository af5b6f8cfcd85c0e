//! `smtstorm merge`.

use anyhow::Result;
use smtstorm::store::layout;
use std::path::PathBuf;

/// Merge the bug stores of several campaigns (the shards of `smtstorm fuzz --shard K/N`,
/// or runs on other machines) into OUT: the same bug once, with its duplicate counts,
/// the earliest finding kept, reductions kept; then findings whose reductions show one
/// cause are regrouped into one (as `report --regroup`). Safe to run again, also after
/// an interrupted merge: nothing is counted twice. Then `smtstorm report OUT`.
#[derive(clap::Args)]
pub(crate) struct MergeCmd {
    out: PathBuf,
    #[arg(required = true)]
    stores: Vec<PathBuf>,
}

impl MergeCmd {
    pub(crate) fn run(&self) -> Result<()> {
        // Every source is checked before anything is merged: a typo among the sources
        // must not leave a half-done merge, nor be skipped with exit status 0.
        for src in &self.stores {
            if let Err(why) = smtstorm::store::Store::check_source(src) {
                anyhow::bail!("{}: {why}; nothing merged", src.display());
            }
            if std::fs::canonicalize(src).ok() == std::fs::canonicalize(&self.out).ok() {
                anyhow::bail!("{}: is the merge target itself; nothing merged", src.display());
            }
        }
        // The target is locked like a campaign's output: a campaign writing to it at the
        // same time would race the merge.
        let _lock = smtstorm::store::lock::lock(&self.out)?;
        let mut store =
            smtstorm::store::Store::open(&self.out).map_err(|e| anyhow::anyhow!("{}: {e}", self.out.display()))?;
        for (from, to) in store.quarantined() {
            eprintln!("smtstorm: {}: {}; moved to {}", from.display(), layout::META_UNREADABLE, to.display());
        }
        for src in &self.stores {
            let r = store.merge_from(src).map_err(|e| anyhow::anyhow!("{}: {e}", src.display()))?;
            for (from, to, why) in &r.quarantined {
                eprintln!("smtstorm: {}: {why}; copied to {}", from.display(), to.display());
            }
            let q =
                if r.quarantined.is_empty() { String::new() } else { format!(", {} quarantined", r.quarantined.len()) };
            outln!("{}: {} new, {} duplicates, {} merged before{q}", src.display(), r.new, r.duplicates, r.already);
            // The report needs a campaign description: the first store's, if OUT has none.
            let cfile = layout::campaign(&self.out);
            if !cfile.exists() {
                if let Ok(b) = std::fs::read(layout::campaign(src)) {
                    smtstorm::util::fs::write_atomic(&cfile, &b)?;
                }
            }
        }
        // Shards find one cause under several dedup keys (one per release, logic or
        // seed): findings whose reduced triggers meet are one finding here too, as
        // `report --regroup` makes them, so the merged count is of causes. Nothing is
        // run: only the stored reductions are read.
        let solvers =
            smtstorm::store::CampaignFile::read(&self.out).ok().flatten().map(|c| c.solvers).unwrap_or_default();
        let regrouped = store.regroup(&solvers);
        if !regrouped.is_empty() {
            outln!(
                "{}: {} findings of causes already kept, moved under their instances/",
                self.out.display(),
                regrouped.len()
            );
        }
        let (fuzz, seed) = store.counts();
        let q = smtstorm::store::Store::quarantine_count(&self.out);
        let q = if q == 0 {
            String::new()
        } else {
            format!("; {q} findings quarantined: see {}", layout::quarantine(&self.out).display())
        };
        outln!("{}: {fuzz} distinct bugs, {seed} seed findings{q}", self.out.display());
        Ok(())
    }
}
