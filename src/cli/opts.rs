//! Options shared by several subcommands: the generator's grammar, a campaign's run options,
//! and the solvers to run.

use anyhow::Result;
use smtstorm::util::flags::{Mib, Seconds};
use std::path::PathBuf;

/// The generator's grammar (shared by `generate` and `bandit`): the library's
/// [`smtstorm::generate::Config`] flags, and two shorthands for `--theories`.
#[derive(clap::Args, Clone)]
pub(crate) struct GrammarArgs {
    #[command(flatten)]
    config: smtstorm::generate::Config,
    /// Add quantifiers (same as listing `quantifiers` in --theories).
    #[arg(long)]
    quantifiers: bool,
    /// Add uninterpreted functions (same as listing `uf`).
    #[arg(long)]
    uf: bool,
}

impl GrammarArgs {
    pub(crate) fn config(&self) -> smtstorm::generate::Config {
        use smtstorm::generate::Feature;
        let mut config = self.config.clone();
        if self.quantifiers {
            config.features.insert(Feature::Quantifiers);
        }
        if self.uf {
            config.features.insert(Feature::Uf);
        }
        config
    }
}

/// `help` with the default a campaign gives an option the flag leaves unset, written as
/// clap writes the defaults it applies itself.
fn campaign_default(help: &str, default: impl std::fmt::Display) -> String {
    format!("{help} [default: {default}]")
}

/// The defaults of a campaign's settings, for the help of the flags that override them.
fn campaign() -> smtstorm::campaign::Config {
    smtstorm::campaign::Config::default()
}

/// Options of every campaign (`fuzz`, `storm`); unset ones keep the campaign file's
/// value, else the campaign's default (which `--help` shows).
#[derive(clap::Args)]
pub(crate) struct RunOpts {
    #[arg(long, help = campaign_default("Worker threads (0: one per core)", campaign().workers))]
    pub(crate) workers: Option<usize>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = Seconds::BUDGET)]
    pub(crate) time: Option<f64>,
    /// Stop after this many mutants.
    #[arg(long)]
    pub(crate) mutants: Option<u64>,
    #[arg(long, help = campaign_default("RNG seed", campaign().seed))]
    pub(crate) seed: Option<u64>,
    #[arg(long, value_name = "SECONDS", help = campaign_default("Upper limit per query, in seconds", campaign().timeout))]
    pub(crate) timeout: Option<f64>,
    /// Do not bisect findings over installed releases.
    #[arg(long)]
    pub(crate) no_bisect: bool,
    /// The configuration engine draws tactics, parameters and options by what they
    /// changed on earlier mutants of the same logic (Falcon-style learning) instead of
    /// uniformly.
    #[arg(long)]
    pub(crate) config_learn: bool,
    #[arg(long, value_name = "SHARE", help = campaign_default(
        "Share (0 to 1) of unsat mutants whose unsat core or assumptions are re-checked (0: off)",
        campaign().core_rate
    ))]
    pub(crate) core_rate: Option<f64>,
    #[arg(long, value_name = "N", help = campaign_default(
        "Re-check one mutant in N with each solver's own self-checks (cvc5 check-unsat-cores and check-proofs, z3 smt.core.validate, ...) in a fresh process (0: off)",
        campaign().self_checks
    ))]
    pub(crate) self_checks: Option<u32>,
    #[arg(long, value_name = "N", help = campaign_default(
        "Keep at most N mutants that show solver behaviour never seen in the campaign as seeds of their own in OUT/corpus/, fuzzed in turn (0: off)",
        campaign().grow
    ))]
    pub(crate) grow: Option<u32>,
    #[arg(long, value_name = "SECONDS", help = campaign_default(
        "Reduce each new finding for at most this many seconds after fuzzing (0: off)",
        campaign().reduce
    ))]
    pub(crate) reduce: Option<f64>,
    /// Output directory; rerunning with the same directory resumes the campaign.
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// No progress line.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Print events as JSON lines on stdout.
    #[arg(long)]
    pub(crate) json: bool,
    /// Resume a store with settings other than those it was made with (seeds, solvers,
    /// engines, seed, timeout, ...); the change is recorded in its events.jsonl. Without
    /// it a differing setting is an error naming it, and unset ones keep the stored values.
    #[arg(long)]
    pub(crate) reconfigure: bool,
    /// Exit 0 when this run stored new findings (for batch schedulers that restart or
    /// fail a job on any nonzero status); 3 for findings that could not be stored stays.
    #[arg(long)]
    pub(crate) exit_zero_on_findings: bool,
    /// Causes already filed: a file listing cause keys, earlier stores and reduced
    /// triggers (one a line), or an earlier store. Their findings are still stored, but
    /// marked known, reported apart and not counted as new in the exit status.
    #[arg(long, value_name = "FILE")]
    pub(crate) known: Option<PathBuf>,
}

/// The settings the store at `out` was made with, if it has any: a resumed campaign
/// starts from them ([`RunOpts::run`]).
pub(crate) fn stored_config(out: &std::path::Path) -> Result<Option<smtstorm::campaign::Config>> {
    Ok(smtstorm::store::CampaignFile::read_to_resume(out)?.map(|c| c.config))
}

impl RunOpts {
    /// Applies the options that were given, then runs the campaign (which refuses a
    /// resumed store's settings changed without `--reconfigure`).
    pub(crate) fn run(&self, mut cfg: smtstorm::campaign::Config) -> Result<i32> {
        if let Some(w) = self.workers {
            cfg.workers = w;
        }
        if self.time.is_some() {
            cfg.time = self.time;
        }
        if self.mutants.is_some() {
            cfg.mutants = self.mutants;
        }
        if let Some(s) = self.seed {
            cfg.seed = s;
        }
        if let Some(t) = self.timeout {
            cfg.timeout = t;
        }
        if let Some(r) = self.reduce {
            cfg.reduce = r;
        }
        if let Some(n) = self.self_checks {
            cfg.self_checks = n;
        }
        if let Some(n) = self.grow {
            cfg.grow = n;
        }
        if self.config_learn {
            cfg.config_learning = true;
        }
        if let Some(r) = self.core_rate {
            cfg.core_rate = r.clamp(0.0, 1.0);
        }
        if self.no_bisect {
            cfg.bisect = false;
        }
        // Read before the run: a bad list is an error now, not after hours of fuzzing.
        let known = self.known.as_deref().map(smtstorm::store::known::Known::load).transpose()?;
        let code = run_campaign(cfg, &self.out, self.quiet, self.json, self.reconfigure, known.as_ref())?;
        Ok(if self.exit_zero_on_findings && code == EXIT_FINDINGS { 0 } else { code })
    }
}

/// Runs (or resumes) a campaign, writes its report and returns the exit status: 10 when
/// this run stored new findings, 0 otherwise.
pub(crate) fn run_campaign(
    cfg: smtstorm::campaign::Config,
    out: &std::path::Path,
    quiet: bool,
    json: bool,
    reconfigure: bool,
    known: Option<&smtstorm::store::known::Known>,
) -> Result<i32> {
    let reg = smtstorm::solver::resolve::default_registry()?;
    smtstorm::util::stop::install_signal_handlers();
    let sum = smtstorm::campaign::run(cfg, &reg, out, quiet, json, reconfigure)?;
    // Known: listed by --known, or, under --baseline, not the build's regression (marked
    // when stored): stored, but not news.
    let known_new = match known {
        Some(k) => mark_known(out, k)?,
        None => known_of_last_run(out),
    };
    let (md, _) = smtstorm::campaign::report::write(out)?;
    if !json {
        // The headline counts what is news: known causes, and what a build under
        // --baseline shares with its baseline, are counted apart (the report lists them).
        let found = smtstorm::store::Store::list_in(out);
        let apart = found.iter().filter(|f| f.1.known.is_some()).count();
        let apart = match apart {
            0 => String::new(),
            n => format!(" ({n} known or not the build's, apart)"),
        };
        eprintln!(
            "{} mutants in {:.0} s ({:.1}/s); {}{apart}, {} seed findings in {}; report: {}",
            sum.stats.mutants,
            sum.stats.elapsed,
            sum.stats.mutants as f64 / sum.stats.elapsed.max(1e-9),
            smtstorm::store::identity::Tally::of(
                found.iter().map(|f| &f.1).filter(|m| !m.seed_finding && m.known.is_none())
            )
            .words(),
            sum.seed_findings,
            smtstorm::store::layout::bugs(out).display(),
            md.display()
        );
    }
    if sum.stats.store_errors > 0 {
        eprintln!(
            "smtstorm: {} confirmed findings could NOT be stored (disk full or unwritable?); each is in {} as a store-failed event",
            sum.stats.store_errors,
            smtstorm::store::layout::events(out).display()
        );
    }
    // New to the store in this run: a resumed store's old findings do not make a run
    // that found nothing look like one that did (CI could not tell them apart).
    // A known cause found again is stored but is not news.
    let new = (sum.stats.new_bugs + sum.stats.seed_findings) as usize;
    Ok(findings_status(sum.stats.store_errors, new.saturating_sub(known_new)))
}

/// Marks the findings of the store at `out` that `known` lists; returns how many of them
/// this run (the store's last) found.
pub(crate) fn mark_known(out: &std::path::Path, known: &smtstorm::store::known::Known) -> Result<usize> {
    let _lock = smtstorm::store::lock::lock(out)?;
    mark_known_locked(out, known)
}

/// [`mark_known`] for a caller that holds the store's lock.
pub(crate) fn mark_known_locked(out: &std::path::Path, known: &smtstorm::store::known::Known) -> Result<usize> {
    let campaign = smtstorm::store::CampaignFile::read(out).ok().flatten();
    let solvers = campaign.map(|c| c.solvers).unwrap_or_default();
    let mut store = smtstorm::store::Store::open(out).map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    let marked = store.mark_known(known, &solvers);
    if marked > 0 {
        eprintln!("smtstorm: {marked} findings are known causes (--known): reported apart");
    }
    Ok(known_of_last_run(out))
}

/// How many findings the store's last run stored marked known (by `--known`, or as not
/// the build's regression under `--baseline`).
fn known_of_last_run(out: &std::path::Path) -> usize {
    let campaign = smtstorm::store::CampaignFile::read(out).ok().flatten();
    let run = campaign.map_or(0, |c| c.runs);
    smtstorm::store::Store::list_in(out).iter().filter(|(_, m)| m.known.is_some() && m.run == run).count()
}

/// The exit status of a run that stores findings: 3 when some confirmed findings could not
/// be stored (they are in `events.jsonl`), else 10 when this run stored new findings, else 0.
pub(crate) fn findings_status(not_stored: u64, new: usize) -> i32 {
    match (not_stored, new) {
        (1.., _) => EXIT_NOT_STORED,
        (0, 1..) => EXIT_FINDINGS,
        _ => 0,
    }
}

/// Exit status when the run stored new findings.
pub(crate) const EXIT_FINDINGS: i32 = 10;

/// Exit status when confirmed findings could not all be written to the store.
pub(crate) const EXIT_NOT_STORED: i32 = 3;

/// Options shared by commands that run solvers.
#[derive(clap::Args, Clone)]
pub(crate) struct SolverOpts {
    /// Solver to use: a name from .solvers/solvers.toml, or NAME='command args'.
    /// Repeatable; default: every installed solver (a campaign: the newest release of each family).
    #[arg(long = "solver")]
    pub(crate) solvers: Vec<String>,
    /// Per-query time limit in seconds (the solver's own limit; a watchdog kills the
    /// process group 2 s later).
    #[arg(long, default_value_t = smtstorm::solver::DEFAULT_TIMEOUT_S)]
    pub(crate) timeout: f64,
    /// Memory limit per solver process, in MiB.
    #[arg(long, default_value_t = smtstorm::solver::DEFAULT_MEMORY_MB)]
    pub(crate) memory_mb: u64,
}

impl SolverOpts {
    pub(crate) fn specs(&self) -> Result<Vec<smtstorm::solver::SolverSpec>> {
        let reg = smtstorm::solver::resolve::default_registry()?;
        Ok(smtstorm::solver::resolve::resolve(&reg, &self.solvers)?)
    }
    pub(crate) fn limits(&self) -> Result<smtstorm::solver::Limits> {
        Ok(smtstorm::solver::Limits {
            time: timeout_seconds(self.timeout)?,
            memory: Some(memory_bytes(self.memory_mb)?),
            ..Default::default()
        })
    }
}

/// A `--memory-mb` value, checked against the range a campaign admits, in bytes.
pub(crate) fn memory_bytes(mb: u64) -> Result<u64> {
    use smtstorm::store::campaign::{MAX_MEMORY_MB, MIN_MEMORY_MB};
    let mb =
        Mib::between(MIN_MEMORY_MB, MAX_MEMORY_MB).check(mb).map_err(|e| anyhow::anyhow!("--memory-mb {mb}: {e}"))?;
    Ok(smtstorm::solver::limits::mib_to_bytes(mb))
}

/// A seconds flag as a duration, refused with its name outside 0 to 86400 (NaN and
/// infinities included).
pub(crate) fn seconds(flag: &str, v: f64) -> Result<std::time::Duration> {
    in_range(flag, v, Seconds::between(0.0, smtstorm::store::campaign::MAX_SECONDS))
}

/// A per-query `--timeout`: the range a campaign admits (`fuzz` and `check` alike; 0 would
/// time out every query and so find nothing).
pub(crate) fn timeout_seconds(v: f64) -> Result<std::time::Duration> {
    use smtstorm::store::campaign::{MAX_SECONDS, MIN_TIMEOUT_S};
    in_range("--timeout", v, Seconds::between(MIN_TIMEOUT_S, MAX_SECONDS))
}

/// `v` seconds through the one check flags parsed by clap go through too.
fn in_range(flag: &str, v: f64, range: Seconds) -> Result<std::time::Duration> {
    let v = range.check(v).map_err(|e| anyhow::anyhow!("{flag} {v}: {e}"))?;
    Ok(smtstorm::util::time::seconds(v))
}
