//! `smtstorm reduce`.

use anyhow::Result;
use std::path::{Path, PathBuf};

/// The most candidates checked at once that `-j` admits, as `--workers` for a campaign.
const MAX_JOBS: usize = 4096;

/// Whether `a` and `b` name one file (same device and inode: also through a link or
/// another spelling of the path). A missing `b` is a different file.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => (x.dev(), x.ino()) == (y.dev(), y.ino()),
        _ => false,
    }
}

/// Reduces a bug trigger to a small one that still shows the same bug.
///
/// With a finding directory (`OUT/bugs/<kind>/<id>`), the bug is read from its
/// `meta.json` (same kind, same blamed solver, same answers or crash message) and the
/// result goes to `DIR/reduced.smt2`. With a file, `-- CMD ARGS...` decides, run as
/// `CMD ARGS... candidate.smt2` within the time limit. By default a candidate is
/// interesting iff the command exits with status 0 (and prints `--match-out`/`--match-err`,
/// if given): the command must exit 0 only on the bug; a bare solver exits 0 on almost
/// anything. With `--match-output`, as ddSMT by default, a candidate is interesting iff
/// the command's exit status, stdout and stderr are exactly those of its run on the
/// original input (`--match-out`/`--match-err` relax that stream to "contains"), so a
/// bare solver keeps its answers.
#[derive(clap::Args)]
pub(crate) struct ReduceCmd {
    /// A finding directory, or an SMT-LIB file (then OUTPUT and CMD are required).
    input: PathBuf,
    /// Output file (default for a finding: DIR/reduced.smt2).
    output: Option<PathBuf>,
    /// Candidates checked in parallel (default and most: one per core; above 4096 refused).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Stop after this many seconds, keeping the best result so far.
    #[arg(long)]
    time: Option<f64>,
    /// Upper limit per check in seconds (default: adaptive from the original's time; for a finding, never below twice its own run's time).
    #[arg(long)]
    timeout: Option<f64>,
    /// Interesting only if the command's stdout contains this text.
    #[arg(long)]
    match_out: Option<String>,
    /// Interesting only if the command's stderr contains this text.
    #[arg(long)]
    match_err: Option<String>,
    /// ddSMT's convention: interesting iff exit status, stdout and stderr equal the
    /// original input's run (default: iff exit status 0).
    #[arg(long)]
    match_output: bool,
    /// Solver definitions for a finding (`NAME` or `NAME=command`), overriding the
    /// campaign's.
    #[arg(long = "solver")]
    solvers: Vec<String>,
    /// Address-space limit of CMD in MiB (default: none).
    #[arg(long)]
    memory_mb: Option<u64>,
    /// Print each accepted reduction.
    #[arg(short, long)]
    verbose: bool,
    /// Run only these passes (comma-separated; see `smtstorm::reduce::passes::PASSES`).
    #[arg(long, value_delimiter = ',')]
    passes: Vec<String>,
    /// The interestingness command (after `--`).
    #[arg(last = true)]
    command: Vec<String>,
}

impl ReduceCmd {
    pub(crate) fn run(&self) -> Result<()> {
        use smtstorm::{reduce, store};
        let known: Vec<&str> = reduce::passes::PASSES.iter().map(|p| p.0).collect();
        if let Some(p) = self.passes.iter().find(|p| !known.contains(&p.as_str())) {
            anyhow::bail!("--passes: unknown pass {p:?}; known: {}", known.join(", "));
        }
        let cores = reduce::Options::default().jobs;
        let jobs = match self.jobs {
            Some(j) if !(1..=MAX_JOBS).contains(&j) => {
                anyhow::bail!("-j/--jobs {j}: expected between 1 and {MAX_JOBS} (default: one per core)")
            }
            // Checks are CPU-bound solver runs: more at once than cores only slows each,
            // and a slowed check reaches its limit and counts as boring. (-j 100000 made
            // 100,000 scratch directories and held `--time 5` for 188 s.)
            Some(j) if j > cores => {
                eprintln!("smtstorm: -j {j}: running {cores} checks at once, one per core");
                cores
            }
            j => j.unwrap_or(cores),
        };
        if !self.input.exists() {
            anyhow::bail!("INPUT {}: no such file or directory", self.input.display());
        }
        if let Some(o) = &self.output {
            if same_file(&self.input, o) {
                anyhow::bail!(
                    "OUTPUT {} is INPUT {} itself: the reduction would overwrite its own input; give another OUTPUT",
                    o.display(),
                    self.input.display()
                );
            }
        }
        let opts = reduce::Options {
            jobs,
            time: self.time.map(|t| super::opts::seconds("--time", t)).transpose()?,
            verbose: self.verbose,
            passes: self.passes.clone(),
            stop: Some(smtstorm::util::stop::stop_flag()),
        };
        // Ctrl-C ends the reduction cleanly: the best result so far is already on disk.
        smtstorm::util::stop::install_signal_handlers();
        let timeout = self.timeout.map(super::opts::timeout_seconds).transpose()?;
        let finding = store::FindingDir::new(&self.input);
        let (report, out) = if finding.has_meta() {
            // The store the finding belongs to (OUT/bugs/KIND/ID), else the directory itself:
            // no campaign, triage or other reduction may write it meanwhile.
            let root = finding.store_root().filter(|r| store::layout::campaign(r).is_file());
            let _lock = store::lock::lock(root.unwrap_or(&self.input))?;
            smtstorm::solver::sandbox::use_scratch_dir(&store::layout::scratch(root.unwrap_or(&self.input)))?;
            let mut solvers = reduce::finding_solvers(&self.input);
            if !self.solvers.is_empty() {
                let reg = smtstorm::solver::resolve::default_registry()?;
                for s in smtstorm::solver::resolve::resolve(&reg, &self.solvers)? {
                    solvers.retain(|o| o.name != s.name);
                    solvers.insert(0, s);
                }
            }
            let max = timeout.unwrap_or(smtstorm::util::time::seconds(smtstorm::solver::DEFAULT_TIMEOUT_S));
            let ladder = smtstorm::solver::Registry::load(&smtstorm::solver::registry::default_toml())
                .map(|r| r.solvers)
                .unwrap_or_default();
            let r = reduce::reduce_finding(&self.input, &solvers, &ladder, &opts, max)?;
            let out = finding.reduced_path();
            if let Some(o) = self.output.as_ref().filter(|o| !same_file(&out, o)) {
                smtstorm::util::fs::write_atomic(o, &std::fs::read(&out)?)?;
            }
            (r, self.output.clone().unwrap_or(out))
        } else {
            let (Some(output), false) = (&self.output, self.command.is_empty()) else {
                anyhow::bail!(
                    "a file needs OUTPUT and `-- CMD ARGS...` (or give a finding directory with {})",
                    store::layout::META
                );
            };
            let memory = self.memory_mb.map(super::opts::memory_bytes).transpose()?;
            let cmd = reduce::ExternalCheck {
                argv: self.command.clone(),
                match_out: self.match_out.clone(),
                match_err: self.match_err.clone(),
                match_output: self.match_output,
                timeout,
                memory,
            };
            let r = reduce::reduce_external(&self.input, output, cmd, &opts)?;
            (r, output.clone())
        };
        outln!(
            "{} -> {} bytes ({:.0} %) in {:.1}s: {} checks, {} cache hits, {} refused before solving, {} unconfirmed{}",
            report.original_bytes,
            report.reduced_bytes,
            100.0 * report.reduced_bytes as f64 / report.original_bytes.max(1) as f64,
            report.seconds,
            report.checks,
            report.cache_hits,
            report.refused,
            report.unconfirmed,
            if report.timed_out { " (time limit reached)" } else { "" }
        );
        if self.verbose {
            outln!(
                "  time in checks (summed over workers): {:.1}s, {:.1}s of it not interesting; {} checks reached the per-check limit, {} were stopped once an earlier candidate had won",
                report.check_seconds,
                report.boring_seconds,
                report.timeouts,
                report.cancelled
            );
            // What each pass bought per check (bytes removed / candidates it gave the judge).
            for (pass, checks) in &report.checks_by_pass {
                let wins = report.by_pass.get(pass).copied().unwrap_or(0);
                let bytes = report.bytes_by_pass.get(pass).copied().unwrap_or(0);
                outln!("  {pass:<20} {wins:>4} successes / {checks:>5} checks, -{bytes} bytes");
            }
        }
        if let Some(why) = &report.untyped {
            outln!("reduced untyped, by lines: the input does not parse ({why})");
        }
        outln!("{}", out.display());
        Ok(())
    }
}
