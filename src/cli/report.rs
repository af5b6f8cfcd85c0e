//! `smtstorm report`.

use anyhow::Result;
use std::path::PathBuf;

/// Write report.md and report.html for a campaign directory.
#[derive(clap::Args)]
pub(crate) struct ReportCmd {
    dir: PathBuf,
    /// First regroup the store by cause: range every reduced finding over its family's
    /// installed releases (on its reduction), mark dialect differences, and merge the
    /// findings whose identities meet (the others kept under the survivor's instances/).
    #[arg(long)]
    regroup: bool,
    /// With --regroup: first reduce every finding that has no reduction yet, for at most
    /// SECONDS each (a fuzz target's store, whose findings the target only confirms, or a
    /// campaign stopped before its reductions).
    #[arg(long, value_name = "SECONDS", requires = "regroup")]
    reduce: Option<f64>,
    /// Causes already filed (a list of cause keys, earlier stores and reduced triggers,
    /// or an earlier store): their findings are marked known and reported apart.
    #[arg(long, value_name = "FILE")]
    known: Option<PathBuf>,
}

impl ReportCmd {
    pub(crate) fn run(&self) -> Result<()> {
        // Unreadable findings go to quarantine/ (said on stderr, counted in the report),
        // unless a campaign holds the store: then the report lists them where they are.
        let dir = &self.dir;
        let each = self
            .reduce
            .map(|s| {
                let d = super::opts::seconds("--reduce", s)?;
                if d.is_zero() {
                    // It would store each trigger as its own reduction, never reduced again.
                    anyhow::bail!("--reduce {s}: expected more than 0 seconds");
                }
                Ok(d)
            })
            .transpose()?;
        let known = self.known.as_deref().map(smtstorm::store::known::Known::load).transpose()?;
        // Reductions' answers are re-run only by whoever holds the store: while a campaign
        // does, it may be reducing the very finding, and its solvers have the CPU.
        let mut rerun = true;
        if smtstorm::store::layout::is_store(dir) {
            match smtstorm::store::lock::lock(dir) {
                Ok(_lock) => {
                    let moved = smtstorm::store::Store::quarantine_unreadable(dir)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
                    for (from, to) in moved {
                        let why = smtstorm::store::layout::META_UNREADABLE;
                        eprintln!("smtstorm: {}: {why}; moved to {}", from.display(), to.display());
                    }
                    if self.regroup {
                        regroup(dir, each)?;
                    }
                    if let Some(k) = &known {
                        super::opts::mark_known_locked(dir, k)?;
                    }
                }
                Err(smtstorm::Error::Locked { .. }) if self.regroup || known.is_some() => {
                    anyhow::bail!(
                        "{}: a campaign holds the store; regroup or mark it when the campaign ends",
                        dir.display()
                    )
                }
                Err(smtstorm::Error::Locked { .. }) => rerun = false,
                Err(e) => return Err(e.into()),
            }
        } else if self.regroup || known.is_some() {
            anyhow::bail!("{}: not a campaign's store, nothing to regroup or mark", dir.display());
        }
        let (md, html) = smtstorm::campaign::report::write_with(&self.dir, rerun)
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.dir.display()))?;
        outln!("{}\n{}", md.display(), html.display());
        Ok(())
    }
}

/// `--regroup`: the library's regroup with the store's solvers and the installed ladder,
/// after reducing, for at most `each` apiece, the findings that have no reduction.
fn regroup(dir: &std::path::Path, each: Option<std::time::Duration>) -> Result<()> {
    let store = smtstorm::store::Store::open(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    let timeout = smtstorm::store::CampaignFile::read(dir)
        .ok()
        .flatten()
        .map_or(smtstorm::solver::DEFAULT_TIMEOUT_S, |c| c.config.timeout);
    let ladder = smtstorm::solver::Registry::load(&smtstorm::solver::registry::default_toml())
        .map(|r| r.solvers)
        .unwrap_or_default();
    if let Some(each) = each {
        smtstorm::solver::sandbox::use_scratch_dir(&smtstorm::store::layout::scratch(dir))?;
        smtstorm::util::stop::install_signal_handlers();
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
        smtstorm::campaign::regroup::reduce_unreduced(
            dir,
            &smtstorm::reduce::finding_solvers,
            &ladder,
            each,
            smtstorm::util::time::seconds(timeout),
            jobs,
            &mut |l| eprintln!("{l}"),
        );
    }
    let store = std::sync::Mutex::new(store);
    let done = smtstorm::campaign::regroup::regroup(
        dir,
        &store,
        &smtstorm::reduce::finding_solvers,
        &ladder,
        smtstorm::util::time::seconds(timeout),
        None,
    );
    for l in done.lines() {
        eprintln!("{l}");
    }
    Ok(())
}
