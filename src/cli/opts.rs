//! Options shared by several subcommands: the generator's grammar, a campaign's run options,
//! and the solvers to run.

use anyhow::Result;
use std::path::PathBuf;

/// The generator's grammar: which theories, how big (shared by `generate` and `bandit`).
#[derive(clap::Args, Clone)]
pub(crate) struct GrammarArgs {
    /// Comma-separated: core, ints, reals, mixed, bv, fp, strings, arrays, uf, datatypes,
    /// quantifiers, or all.
    #[arg(long, default_value = "core")]
    pub(crate) theories: String,
    /// Assertions per script.
    #[arg(long, default_value_t = 2)]
    pub(crate) asserts: usize,
    /// Depth of every assertion's term tree.
    #[arg(long, default_value_t = 3)]
    pub(crate) depth: usize,
    /// Variables declared per sort.
    #[arg(long, default_value_t = 2)]
    pub(crate) vars: usize,
    /// Bit-vector widths (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "8")]
    pub(crate) width: Vec<u64>,
    /// Floating-point formats as EXP:SIG (comma-separated), e.g. 8:24,11:53 (cvc5 reads
    /// only these two without --fp-exp).
    #[arg(long, value_delimiter = ',', default_value = "8:24")]
    pub(crate) fp: Vec<String>,
    /// Add quantifiers (same as listing `quantifiers` in --theories).
    #[arg(long)]
    pub(crate) quantifiers: bool,
    /// Add uninterpreted functions (same as listing `uf`).
    #[arg(long)]
    pub(crate) uf: bool,
    /// Linear arithmetic only: factors and divisors are literals.
    #[arg(long)]
    pub(crate) linear: bool,
}

impl GrammarArgs {
    pub(crate) fn config(&self) -> Result<smtstorm::generate::Config> {
        use smtstorm::generate::{parse_features, Config, Feature};
        let mut features = parse_features(&self.theories).map_err(|e| anyhow::anyhow!("--theories: {e}"))?;
        if self.quantifiers {
            features.insert(Feature::Quantifiers);
        }
        if self.uf {
            features.insert(Feature::Uf);
        }
        let formats = self
            .fp
            .iter()
            .map(|f| {
                let (e, s) = f.split_once(':').ok_or_else(|| anyhow::anyhow!("--fp {f}: expected EXP:SIG"))?;
                Ok((e.trim().parse()?, s.trim().parse()?))
            })
            .collect::<Result<Vec<(u64, u64)>>>()?;
        Ok(Config {
            features,
            linear: self.linear,
            asserts: self.asserts,
            depth: self.depth,
            vars: self.vars,
            widths: self.width.clone(),
            formats,
        })
    }
}

/// Options of every campaign (`fuzz`, `storm`); unset ones keep the campaign's defaults.
#[derive(clap::Args)]
pub(crate) struct RunOpts {
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub(crate) workers: Option<usize>,
    /// Stop after this many seconds.
    #[arg(long)]
    pub(crate) time: Option<f64>,
    /// Stop after this many mutants.
    #[arg(long)]
    pub(crate) mutants: Option<u64>,
    /// RNG seed (default 0).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Upper limit per query, in seconds (default: the campaign file's, else 10).
    #[arg(long)]
    pub(crate) timeout: Option<f64>,
    /// Do not bisect findings over installed releases.
    #[arg(long)]
    pub(crate) no_bisect: bool,
    /// The configuration engine draws tactics, parameters and options by what they
    /// changed on earlier mutants of the same logic (Falcon-style learning) instead of
    /// uniformly.
    #[arg(long)]
    pub(crate) config_learn: bool,
    /// Reduce each new finding for at most this many seconds after fuzzing (0: off;
    /// default 60).
    #[arg(long)]
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
}

impl RunOpts {
    /// Applies the options that were given, then runs the campaign.
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
        if self.config_learn {
            cfg.config_learning = true;
        }
        if self.no_bisect {
            cfg.bisect = false;
        }
        run_campaign(cfg, &self.out, self.quiet, self.json)
    }
}

/// Runs (or resumes) a campaign, writes its report and returns the exit status: 10 when
/// findings are stored, 0 otherwise.
pub(crate) fn run_campaign(
    cfg: smtstorm::campaign::Config,
    out: &std::path::Path,
    quiet: bool,
    json: bool,
) -> Result<i32> {
    let reg = smtstorm::solver::resolve::default_registry()?;
    smtstorm::util::stop::install_signal_handlers();
    let sum = smtstorm::campaign::run(cfg, &reg, out, quiet, json)?;
    let (md, _) = smtstorm::campaign::report::write(out)?;
    if !json {
        eprintln!(
            "{} mutants in {:.0} s ({:.1}/s); {} distinct bugs, {} seed findings in {}; report: {}",
            sum.stats.mutants,
            sum.stats.elapsed,
            sum.stats.mutants as f64 / sum.stats.elapsed.max(1e-9),
            sum.bugs,
            sum.seed_findings,
            out.join("bugs").display(),
            md.display()
        );
    }
    if sum.stats.store_errors > 0 {
        eprintln!(
            "smtstorm: {} confirmed findings could NOT be stored (disk full or unwritable?); each is in {} as a store-failed event",
            sum.stats.store_errors,
            out.join("events.jsonl").display()
        );
    }
    Ok(findings_status(sum.stats.store_errors, sum.bugs + sum.seed_findings))
}

/// The exit status of a run that stores findings: 3 when some confirmed findings could not
/// be stored (they are in `events.jsonl`), else 10 when findings are stored, else 0.
pub(crate) fn findings_status(not_stored: u64, stored: usize) -> i32 {
    match (not_stored, stored) {
        (1.., _) => EXIT_NOT_STORED,
        (0, 1..) => 10,
        _ => 0,
    }
}

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
    if !(MIN_MEMORY_MB..=MAX_MEMORY_MB).contains(&mb) {
        anyhow::bail!("--memory-mb {mb}: expected between {MIN_MEMORY_MB} and {MAX_MEMORY_MB}");
    }
    Ok(smtstorm::solver::limits::mib_to_bytes(mb))
}

/// A seconds flag as a duration, refused with its name outside 0 to 86400 (NaN and
/// infinities included).
pub(crate) fn seconds(flag: &str, v: f64) -> Result<std::time::Duration> {
    if v.is_finite() && (0.0..=smtstorm::store::campaign::MAX_SECONDS).contains(&v) {
        Ok(smtstorm::util::time::seconds(v))
    } else {
        anyhow::bail!("{flag} {v}: expected seconds between 0 and 86400")
    }
}

/// A per-query `--timeout`: the range a campaign admits (`fuzz` and `check` alike; 0 would
/// time out every query and so find nothing).
pub(crate) fn timeout_seconds(v: f64) -> Result<std::time::Duration> {
    use smtstorm::store::campaign::{MAX_SECONDS, MIN_TIMEOUT_S};
    if v.is_finite() && (MIN_TIMEOUT_S..=MAX_SECONDS).contains(&v) {
        Ok(smtstorm::util::time::seconds(v))
    } else {
        anyhow::bail!("--timeout {v}: expected seconds between {MIN_TIMEOUT_S} and {MAX_SECONDS}")
    }
}
