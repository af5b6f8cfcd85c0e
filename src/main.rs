//! The `smtstorm` command line. Each subcommand is a small option struct whose `run`
//! calls one library function.

use anyhow::Result;

/// `print!` that never panics: a closed stdout (output piped into `head`) is not an
/// error worth dying for; the work's results are in files anyway.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

/// `out!` with a newline.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "smtstorm", version, about = "Finds bugs in SMT solvers")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    Parse(ParseCmd),
    Dict(DictCmd),
    Solvers(SolversCmd),
    Check(CheckCmd),
    BenchSolvers(BenchSolversCmd),
    Mutate(MutateCmd),
    Fuzz(FuzzCmd),
    Report(ReportCmd),
    StormCheck(StormCheckCmd),
    Storm(StormCmd),
    Reduce(ReduceCmd),
    Triage(TriageCmd),
    StormMinimize(StormMinimizeCmd),
    Generate(GenerateCmd),
    Bandit(BanditCmd),
    Cactus(CactusCmd),
}

/// The generator's grammar: which theories, how big (shared by `generate` and `bandit`).
#[derive(clap::Args, Clone)]
struct GrammarArgs {
    /// Comma-separated: core, ints, reals, mixed, bv, fp, strings, arrays, uf, datatypes,
    /// quantifiers, or all.
    #[arg(long, default_value = "core")]
    theories: String,
    /// Assertions per script.
    #[arg(long, default_value_t = 2)]
    asserts: usize,
    /// Depth of every assertion's term tree.
    #[arg(long, default_value_t = 3)]
    depth: usize,
    /// Variables declared per sort.
    #[arg(long, default_value_t = 2)]
    vars: usize,
    /// Bit-vector widths (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "8")]
    width: Vec<u64>,
    /// Floating-point formats as EXP:SIG (comma-separated), e.g. 8:24,11:53 (cvc5 reads
    /// only these two without --fp-exp).
    #[arg(long, value_delimiter = ',', default_value = "8:24")]
    fp: Vec<String>,
    /// Add quantifiers (same as listing `quantifiers` in --theories).
    #[arg(long)]
    quantifiers: bool,
    /// Add uninterpreted functions (same as listing `uf`).
    #[arg(long)]
    uf: bool,
    /// Linear arithmetic only: factors and divisors are literals.
    #[arg(long)]
    linear: bool,
}

impl GrammarArgs {
    fn config(&self) -> Result<smtstorm::generate::Config> {
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

/// Random well-sorted scripts from the signature tables (BanditFuzz's generator). With
/// --accept N: run N scripts of every built-in theory combination on the solvers and
/// print how many each accepted (errors are generator bugs).
#[derive(clap::Args)]
struct GenerateCmd {
    #[command(flatten)]
    grammar: GrammarArgs,
    /// RNG seed: script i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// Write scripts as DIR/gen-<seed>.smt2 instead of to stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Acceptance run: N scripts per built-in combination on each --solver.
    #[arg(long, value_name = "N")]
    accept: Option<usize>,
    /// Solvers for --accept (default: z3-5.4.0 and cvc5).
    #[arg(long)]
    solver: Vec<String>,
    /// Per-query limit in seconds for --accept.
    #[arg(long, default_value_t = 2.0)]
    timeout: f64,
}

impl GenerateCmd {
    fn run(&self) -> Result<i32> {
        use smtstorm::generate::{acceptance, scripts, Grammar};
        if let Some(n) = self.accept {
            let reg = smtstorm::solver::check::default_registry()?;
            let names =
                if self.solver.is_empty() { vec!["z3-5.4.0".into(), "cvc5".into()] } else { self.solver.clone() };
            let specs = smtstorm::solver::check::resolve(&reg, &names)?;
            let rows = acceptance::run(
                &acceptance::combinations(),
                &specs,
                n,
                self.seed,
                std::time::Duration::from_secs_f64(self.timeout),
            );
            outln!("{}", acceptance::markdown(&rows));
            return Ok(if rows.iter().any(|r| r.error + r.crash > 0) { 1 } else { 0 });
        }
        let g = Grammar::new(self.grammar.config()?)?;
        if let Some(dir) = &self.out {
            std::fs::create_dir_all(dir)?;
        }
        for (seed, text) in scripts(&g, self.seed, self.count) {
            match &self.out {
                Some(dir) => smtstorm::util::fs::write_atomic(&dir.join(format!("gen-{seed}.smt2")), text.as_bytes())?,
                None => out!("{text}"),
            }
        }
        Ok(0)
    }
}

/// BanditFuzz: performance fuzzing. Finds small scripts on which the targets are much
/// slower than the references (PAR-2 margin), choosing constructs to insert with
/// Thompson-sampling agents. Writes OUT/perf/<id>/{bench.smt2,meta.json}, disagreements
/// as findings in OUT/bugs, agents.json, decisions.jsonl, timings.jsonl, summary.json and
/// cactus.svg.
#[derive(clap::Args)]
struct BanditCmd {
    #[command(flatten)]
    grammar: GrammarArgs,
    /// Solvers expected to be slow (repeatable).
    #[arg(long, required = true)]
    target: Vec<String>,
    /// Solvers to compare against (repeatable).
    #[arg(long, required = true)]
    reference: Vec<String>,
    /// bandit (two agents), single (construct agent only) or random (generator only).
    #[arg(long, default_value = "bandit")]
    strategy: String,
    /// Budget in seconds.
    #[arg(long, default_value_t = 300.0)]
    time: f64,
    /// Budget in iterations (deterministic; with --time, whichever ends first).
    #[arg(long)]
    iterations: Option<u64>,
    /// PAR-2 timeout per solver run, seconds.
    #[arg(long, default_value_t = 2.0)]
    timeout: f64,
    /// Memory limit per solver process, MiB.
    #[arg(long, default_value_t = 4096)]
    memory_mb: u64,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Agents' evidence decay per update (1 = no forgetting).
    #[arg(long, default_value_t = 0.99)]
    decay: f64,
    /// Re-score this many of the best benchmarks at the end ...
    #[arg(long, default_value_t = 10)]
    keep: usize,
    /// ... this many times each (median).
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// Replay timings recorded by an earlier run (its OUT/timings.jsonl) instead of
    /// running solvers: the same seed makes the same decisions.
    #[arg(long)]
    replay: Option<PathBuf>,
    #[arg(long)]
    out: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

impl BanditCmd {
    fn run(&self) -> Result<()> {
        use smtstorm::bandit::{Bandit, Config, Live, Replay, Runner, Strategy};
        let reg = smtstorm::solver::check::default_registry()?;
        let targets = smtstorm::solver::check::resolve(&reg, &self.target)?;
        let references = smtstorm::solver::check::resolve(&reg, &self.reference)?;
        let strategy = Strategy::from_name(&self.strategy)
            .ok_or_else(|| anyhow::anyhow!("unknown strategy {:?}: bandit, single or random", self.strategy))?;
        if !(0.0..=1.0).contains(&self.decay) {
            anyhow::bail!("--decay must be between 0 and 1");
        }
        let mut cfg = Config::new(self.grammar.config()?, targets, references);
        cfg.strategy = strategy;
        cfg.seed = self.seed;
        cfg.timeout = self.timeout;
        cfg.memory = Some(self.memory_mb << 20);
        cfg.time = if self.replay.is_some() { None } else { Some(self.time) };
        cfg.iterations = self.iterations;
        cfg.decay = self.decay;
        cfg.keep = self.keep;
        cfg.repeats = self.repeats;
        std::fs::create_dir_all(&self.out)?;
        let mut runner: Box<dyn Runner> = match &self.replay {
            Some(p) => Box::new(Replay::load(p)?),
            None => Box::new(Live::new(&self.out, cfg.memory)?),
        };
        smtstorm::util::stop::install_signal_handlers();
        let mut b = Bandit::new(cfg, &self.out, runner.as_mut())?;
        let s = b.run()?;
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&s)?);
        } else {
            outln!(
                "{} iterations in {:.0} s; kept {} benchmarks; best margin {}; cumulative margin {:.3} s; {} findings ({} duplicates); {} error/crash runs\nbenchmarks: {}/perf  plot: {}/cactus.svg",
                s.iterations,
                s.seconds,
                s.kept,
                s.best_margin.map_or("-".to_string(), |m| format!("{m:.3} s")),
                s.cumulative_margin,
                s.findings,
                s.duplicates,
                s.errors,
                self.out.display(),
                self.out.display()
            );
        }
        Ok(())
    }
}

/// One cactus plot (SVG) over the BanditFuzz benchmarks of several runs
/// (each DIR is a `smtstorm bandit --out` directory).
#[derive(clap::Args)]
struct CactusCmd {
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    #[arg(short, long)]
    out: PathBuf,
}

impl CactusCmd {
    fn run(&self) -> Result<()> {
        let perf: Vec<_> = self.dirs.iter().flat_map(|d| smtstorm::store::perf::perf_in(d)).collect();
        let timeout = perf.iter().map(|m| m.timeout).fold(0.0, f64::max);
        let svg = smtstorm::bandit::plot::cactus(&smtstorm::bandit::plot::series(&perf), timeout);
        smtstorm::util::fs::write_atomic(&self.out, svg.as_bytes())?;
        outln!("{} benchmarks from {} runs -> {}", perf.len(), self.dirs.len(), self.out.display());
        Ok(())
    }
}

/// STORM's bound minimisation (paper's Algorithm 2) on a STORM finding: regenerate
/// instances from its seed with Amax, then Dmax (and NC) from 1 upwards, and keep the first
/// that shows the same bug, confirmed in fresh processes with its witness re-validated.
/// Writes DIR/minimized.smt2. (`smtstorm reduce DIR` runs this first, then the passes.)
#[derive(clap::Args)]
struct StormMinimizeCmd {
    /// The finding directory (OUT/bugs/soundness/<id>) of a STORM finding.
    dir: PathBuf,
    /// Stop after this many seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Upper limit per check in seconds.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
}

impl StormMinimizeCmd {
    fn run(&self) -> Result<()> {
        let solvers = smtstorm::reduce::finding_solvers(&self.dir);
        let r = smtstorm::reduce::storm_minimize_finding(
            &self.dir,
            &solvers,
            std::time::Duration::from_secs_f64(self.timeout),
            self.time.map(std::time::Duration::from_secs_f64),
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
                self.dir.join("minimized.smt2").display()
            ),
            None => outln!("no smaller instance reproduces the bug"),
        }
        Ok(())
    }
}

/// Turn fuzzer artifacts (libFuzzer `fuzz/artifacts/<target>/`, AFL++ `crashes/` and
/// `hangs/`, honggfuzz crash files) into confirmed, deduplicated, bisected, reduced
/// findings in a bug store; separates solver bugs from harness bugs (a panic in
/// smtstorm's own code), timeouts and OOMs. Exit status 10 when solver findings exist.
#[derive(clap::Args)]
struct TriageCmd {
    /// Artifact files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Solvers to replay on (default: SMTSTORM_SOLVERS, else every installed one).
    #[arg(long = "solver")]
    solvers: Vec<String>,
    /// Bug store (a campaign directory; created or extended).
    #[arg(long)]
    out: PathBuf,
    /// Seconds of reduction per new finding (0: none).
    #[arg(long, default_value_t = 60.0)]
    reduce: f64,
    /// Upper limit per query, in seconds.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    #[arg(long)]
    quiet: bool,
}

impl TriageCmd {
    fn run(&self) -> Result<i32> {
        let reg = smtstorm::solver::check::default_registry()?;
        let mut solvers = self.solvers.clone();
        if solvers.is_empty() {
            if let Ok(v) = std::env::var("SMTSTORM_SOLVERS") {
                solvers = v.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect();
            }
        }
        smtstorm::util::stop::install_signal_handlers();
        let r = smtstorm::campaign::triage::triage(
            &self.paths,
            &solvers,
            &reg,
            &self.out,
            self.reduce,
            self.timeout,
            self.quiet,
        )?;
        smtstorm::campaign::report::write(&self.out)?;
        outln!(
            "{} artifacts in {:.0}s: {} reproduce a solver bug ({} distinct findings in {}), {} timeouts, {} OOMs, {} harness bugs, {} not reproduced, {} not SMT-LIB",
            r.artifacts,
            r.seconds,
            r.reproduced,
            r.findings,
            self.out.join("bugs").display(),
            r.timeouts,
            r.ooms,
            r.harness_bugs.len(),
            r.not_reproduced.len(),
            r.unreadable
        );
        for (p, m) in &r.harness_bugs {
            outln!("harness bug: {}: {m}", p.display());
        }
        for p in &r.not_reproduced {
            outln!("not reproduced: {}", p.display());
        }
        Ok(if r.findings > 0 { 10 } else { 0 })
    }
}

/// Reduces a bug trigger to a small one that still shows the same bug.
///
/// With a finding directory (`OUT/bugs/<kind>/<id>`), the bug is read from its
/// `meta.json` (same kind, same blamed solver, same answers or crash message) and the
/// result goes to `DIR/reduced.smt2`. With a file, `-- CMD ARGS...` decides as ddSMT's
/// command does: a candidate is interesting iff `CMD ARGS... candidate.smt2` exits with
/// status 0 (and prints `--match-out`/`--match-err`, if given) within the time limit.
#[derive(clap::Args)]
struct ReduceCmd {
    /// A finding directory, or an SMT-LIB file (then OUTPUT and CMD are required).
    input: PathBuf,
    /// Output file (default for a finding: DIR/reduced.smt2).
    output: Option<PathBuf>,
    /// Candidates checked in parallel (default: one per core).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Stop after this many seconds, keeping the best result so far.
    #[arg(long)]
    time: Option<f64>,
    /// Upper limit per check in seconds (default: adaptive from the original's time).
    #[arg(long)]
    timeout: Option<f64>,
    /// Interesting only if the command's stdout contains this text.
    #[arg(long)]
    match_out: Option<String>,
    /// Interesting only if the command's stderr contains this text.
    #[arg(long)]
    match_err: Option<String>,
    /// Solver definitions for a finding (`NAME` or `NAME=command`), overriding the
    /// campaign's.
    #[arg(long = "solver")]
    solvers: Vec<String>,
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
    fn run(&self) -> Result<()> {
        use smtstorm::reduce;
        let opts = reduce::Options {
            jobs: self.jobs.unwrap_or(reduce::Options::default().jobs),
            time: self.time.map(std::time::Duration::from_secs_f64),
            verbose: self.verbose,
            passes: self.passes.clone(),
            stop: Some(smtstorm::util::stop::stop_flag()),
        };
        // Ctrl-C ends the reduction cleanly: the best result so far is already on disk.
        smtstorm::util::stop::install_signal_handlers();
        let timeout = self.timeout.map(std::time::Duration::from_secs_f64);
        let (report, out) = if self.input.join("meta.json").is_file() {
            let mut solvers = reduce::finding_solvers(&self.input);
            if !self.solvers.is_empty() {
                let reg = smtstorm::solver::check::default_registry()?;
                for s in smtstorm::solver::check::resolve(&reg, &self.solvers)? {
                    solvers.retain(|o| o.name != s.name);
                    solvers.insert(0, s);
                }
            }
            let max = timeout.unwrap_or(std::time::Duration::from_secs(10));
            let r = reduce::reduce_finding(&self.input, &solvers, &opts, max)?;
            let out = self.input.join("reduced.smt2");
            if let Some(o) = &self.output {
                std::fs::copy(&out, o)?;
            }
            (r, self.output.clone().unwrap_or(out))
        } else {
            let (Some(output), false) = (&self.output, self.command.is_empty()) else {
                anyhow::bail!("a file needs OUTPUT and `-- CMD ARGS...` (or give a finding directory with meta.json)");
            };
            let r = reduce::reduce_external(
                &self.input,
                output,
                self.command.clone(),
                self.match_out.clone(),
                self.match_err.clone(),
                timeout,
                &opts,
            )?;
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
        outln!("{}", out.display());
        Ok(())
    }
}

/// A STORM-only campaign: instances satisfiable by construction from each seed, built on
/// the reference solver's model; any `unsat` from a solver under test is a candidate.
/// Same output directory, resume and exit status as `smtstorm fuzz`.
#[derive(clap::Args)]
struct StormCmd {
    seeds: Vec<PathBuf>,
    /// Solver under test (repeatable).
    #[arg(long = "solver", required = true)]
    solvers: Vec<String>,
    /// Reference solver for models (added to the campaign if not under test).
    #[arg(long)]
    reference: String,
    /// Connective depth of fragments.
    #[arg(long, default_value_t = 64)]
    dmax: usize,
    /// Assertions per instance, at most.
    #[arg(long, default_value_t = 64)]
    amax: usize,
    /// Construction pool size.
    #[arg(long, default_value_t = 200)]
    nc: usize,
    /// Also combine with OR, XOR and ITE.
    #[arg(long)]
    extended: bool,
    /// Make every other instance incremental (push/pop blocks, one check-sat each).
    #[arg(long)]
    incremental: bool,
    /// Make every other instance check with a z3 tactic, `(check-sat-using T)`; other
    /// solvers get a plain check-sat. `unknown` answers are never findings.
    #[arg(long)]
    tactics: bool,
    #[command(flatten)]
    run: RunOpts,
}

/// Options of every campaign (`fuzz`, `storm`); unset ones keep the campaign's defaults.
#[derive(clap::Args)]
struct RunOpts {
    /// Worker threads (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Stop after this many seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Stop after this many mutants.
    #[arg(long)]
    mutants: Option<u64>,
    /// RNG seed (default 0).
    #[arg(long)]
    seed: Option<u64>,
    /// Upper limit per query, in seconds (default 10).
    #[arg(long)]
    timeout: Option<f64>,
    /// Do not bisect findings over installed releases.
    #[arg(long)]
    no_bisect: bool,
    /// Reduce each new finding for at most this many seconds after fuzzing (0: off;
    /// default 60).
    #[arg(long)]
    reduce: Option<f64>,
    /// Output directory; rerunning with the same directory resumes the campaign.
    #[arg(long)]
    out: PathBuf,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
    /// Print events as JSON lines on stdout.
    #[arg(long)]
    json: bool,
}

impl RunOpts {
    /// Applies the options that were given, then runs the campaign.
    fn run(&self, mut cfg: smtstorm::campaign::Config) -> Result<i32> {
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
        if self.no_bisect {
            cfg.bisect = false;
        }
        run_campaign(cfg, &self.out, self.quiet, self.json)
    }
}

impl StormCmd {
    fn run(&self) -> Result<i32> {
        let mut solvers = self.solvers.clone();
        if !solvers.contains(&self.reference) {
            solvers.push(self.reference.clone());
        }
        let reference = self.reference.split('=').next().unwrap_or(&self.reference).to_string();
        let cfg = smtstorm::campaign::Config {
            seeds: if self.seeds.is_empty() { vec![PathBuf::from("corpus")] } else { self.seeds.clone() },
            solvers,
            engines: vec![smtstorm::mutate::Engine::Storm],
            reference: Some(reference),
            storm: smtstorm::mutate::storm::Bounds {
                dmax: self.dmax,
                amax: self.amax,
                nc: self.nc,
                extended: self.extended,
                incremental: self.incremental,
                tactics: self.tactics,
                ..Default::default()
            },
            ..Default::default()
        };
        self.run.run(cfg)
    }
}

/// Check the STORM generator: every instance, with its witness pinned, must be `sat` for
/// the checking solvers (violations are generator bugs). Prints a summary (or JSON).
#[derive(clap::Args)]
struct StormCheckCmd {
    seeds: Vec<PathBuf>,
    /// Solver whose model builds the pools.
    #[arg(long, default_value = "z3-5.4.0")]
    reference: String,
    /// Checking solvers (default: z3-5.4.0 and cvc5).
    #[arg(long = "checker")]
    checkers: Vec<String>,
    /// Instances per seed.
    #[arg(long, default_value_t = 5)]
    instances: usize,
    /// Use only the first N seeds (sorted).
    #[arg(long)]
    limit: Option<usize>,
    /// Assertions per instance, at most.
    #[arg(long, default_value_t = 64)]
    amax: usize,
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    #[arg(long)]
    json: bool,
}

impl StormCheckCmd {
    fn run(&self) -> Result<i32> {
        let reg = smtstorm::solver::check::default_registry()?;
        let reference = smtstorm::solver::check::resolve(&reg, std::slice::from_ref(&self.reference))?.remove(0);
        let names = if self.checkers.is_empty() {
            vec!["z3-5.4.0".to_string(), "cvc5".to_string()]
        } else {
            self.checkers.clone()
        };
        let checkers = smtstorm::solver::check::resolve(&reg, &names)?;
        let mut files = smtstorm::util::files::collect_smt2(&self.seeds)?;
        if let Some(n) = self.limit {
            files.truncate(n);
        }
        let bounds = smtstorm::mutate::storm::Bounds { amax: self.amax, ..Default::default() };
        let limits =
            smtstorm::solver::Limits { time: std::time::Duration::from_secs_f64(self.timeout), ..Default::default() };
        let reps = smtstorm::oracle::witness::check(&files, &reference, &checkers, &bounds, self.instances, limits);
        let violations: usize = reps.iter().map(|r| r.violations.len()).sum();
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&reps)?);
        } else {
            let used = reps.iter().filter(|r| r.instances > 0).count();
            let inst: usize = reps.iter().map(|r| r.instances).sum();
            outln!("{} seeds, {used} with instances, {inst} instances, {violations} violations", reps.len());
            for (k, c) in checkers.iter().enumerate() {
                let (s, u, o) = reps
                    .iter()
                    .filter(|r| r.instances > 0)
                    .fold((0, 0, 0), |a, r| (a.0 + r.answers[k].1, a.1 + r.answers[k].2, a.2 + r.answers[k].3));
                outln!("  {}: sat {s}, unsat {u}, other (unknown, timeout, error) {o}", c.name);
            }
            let mut why = std::collections::BTreeMap::new();
            for r in reps.iter().filter_map(|r| r.skipped.as_ref()) {
                *why.entry(r.split(':').next().unwrap_or(r).to_string()).or_insert(0) += 1;
            }
            for (w, n) in why {
                outln!("  skipped {n}: {w}");
            }
            for r in &reps {
                for v in &r.violations {
                    outln!("VIOLATION {}: {v}", r.seed.display());
                }
            }
        }
        Ok(if violations > 0 { 1 } else { 0 })
    }
}

/// Run (or resume) a fuzzing campaign. Exit status: 0 nothing found, 10 findings stored,
/// 2 usage error.
#[derive(clap::Args)]
struct FuzzCmd {
    /// Seed files or directories (default: corpus/).
    seeds: Vec<PathBuf>,
    /// TOML campaign file with the same keys as these flags (flags override it).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Solver: a name from .solvers/solvers.toml or NAME='command args'; repeatable.
    #[arg(long = "solver")]
    solvers: Vec<String>,
    /// Engines, comma-separated: opfuzz, typefuzz, valfuzz, storm (default: all).
    #[arg(long, value_delimiter = ',')]
    engine: Vec<String>,
    #[command(flatten)]
    run: RunOpts,
}

impl FuzzCmd {
    fn run(&self) -> Result<i32> {
        let mut cfg = match &self.config {
            Some(p) => smtstorm::campaign::Config::load(p)?,
            None => Default::default(),
        };
        if !self.seeds.is_empty() {
            cfg.seeds = self.seeds.clone();
        }
        if !self.solvers.is_empty() {
            cfg.solvers = self.solvers.clone();
        }
        if !self.engine.is_empty() {
            cfg.engines = self
                .engine
                .iter()
                .map(|e| {
                    smtstorm::mutate::Engine::from_name(e).ok_or_else(|| {
                        anyhow::anyhow!("unknown engine {e:?}: available: opfuzz, typefuzz, valfuzz, storm")
                    })
                })
                .collect::<Result<_>>()?;
        }
        self.run.run(cfg)
    }
}

/// Runs (or resumes) a campaign, writes its report and returns the exit status: 10 when
/// findings are stored, 0 otherwise.
fn run_campaign(cfg: smtstorm::campaign::Config, out: &std::path::Path, quiet: bool, json: bool) -> Result<i32> {
    let reg = smtstorm::solver::check::default_registry()?;
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
    Ok(if sum.bugs + sum.seed_findings > 0 { 10 } else { 0 })
}

/// Write report.md and report.html for a campaign directory.
#[derive(clap::Args)]
struct ReportCmd {
    dir: PathBuf,
}

impl ReportCmd {
    fn run(&self) -> Result<()> {
        let (md, html) =
            smtstorm::campaign::report::write(&self.dir).map_err(|e| anyhow::anyhow!("{}: {e}", self.dir.display()))?;
        outln!("{}\n{}", md.display(), html.display());
        Ok(())
    }
}

/// Write mutants of a seed, each preceded by a comment line with its edit list (JSON).
#[derive(clap::Args)]
struct MutateCmd {
    file: PathBuf,
    /// Mutation engine: opfuzz, typefuzz or valfuzz.
    #[arg(long, default_value = "opfuzz")]
    engine: String,
    /// RNG seed: mutant i uses seed + i; the same seed gives the same mutants.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of mutants (for --bec: the number of solver rounds).
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// ValFuzz by Boolean Expression Coercion: values come from the model of this solver
    /// (a name from .solvers/solvers.toml or NAME='command args').
    #[arg(long, value_name = "SOLVER")]
    bec: Option<String>,
    /// Write mutants as DIR/<stem>-<i>.smt2 instead of to stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

impl MutateCmd {
    fn run(&self) -> Result<()> {
        use smtstorm::mutate::file as m;
        // STORM needs a model from a solver: `smtstorm fuzz --engine storm`.
        let Some(engine) =
            smtstorm::mutate::Engine::from_name(&self.engine).filter(|e| *e != smtstorm::mutate::Engine::Storm)
        else {
            anyhow::bail!("unknown engine {:?}: available: opfuzz, typefuzz, valfuzz", self.engine);
        };
        let ms = match &self.bec {
            Some(solver) => {
                if engine != smtstorm::mutate::Engine::ValFuzz {
                    anyhow::bail!("--bec belongs to --engine valfuzz");
                }
                let reg = smtstorm::solver::check::default_registry()?;
                let spec = smtstorm::solver::check::resolve(&reg, std::slice::from_ref(solver))?.remove(0);
                m::bec_mutants(&self.file, &spec, self.seed, self.count)?
            }
            None => m::mutants(&self.file, engine, self.seed, self.count)?,
        };
        if ms.is_empty() {
            eprintln!("{}: no {} mutant", self.file.display(), self.engine);
        }
        match &self.out {
            None => {
                for x in &ms {
                    out!("{}", m::render(x));
                }
            }
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                let stem = self.file.file_stem().and_then(|s| s.to_str()).unwrap_or("mutant");
                for (i, x) in ms.iter().enumerate() {
                    std::fs::write(dir.join(format!("{stem}-{i}.smt2")), m::render(x))?;
                }
            }
        }
        Ok(())
    }
}

/// Options shared by commands that run solvers.
#[derive(clap::Args, Clone)]
struct SolverOpts {
    /// Solver to use: a name from .solvers/solvers.toml, or NAME='command args'.
    /// Repeatable; default: every installed solver.
    #[arg(long = "solver")]
    solvers: Vec<String>,
    /// Per-query time limit in seconds (the solver's own limit; a watchdog kills the
    /// process group 2 s later).
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Memory limit per solver process, in MiB.
    #[arg(long, default_value_t = 8192)]
    memory_mb: u64,
}

impl SolverOpts {
    fn specs(&self) -> Result<Vec<smtstorm::solver::SolverSpec>> {
        let reg = smtstorm::solver::check::default_registry()?;
        Ok(smtstorm::solver::check::resolve(&reg, &self.solvers)?)
    }
    fn limits(&self) -> smtstorm::solver::Limits {
        smtstorm::solver::Limits {
            time: std::time::Duration::from_secs_f64(self.timeout.max(0.001)),
            memory: Some(self.memory_mb << 20),
            ..Default::default()
        }
    }
}

/// List the installed solvers (.solvers/solvers.toml) with the versions they report.
#[derive(clap::Args)]
struct SolversCmd {
    #[arg(long)]
    json: bool,
}

impl SolversCmd {
    fn run(&self) -> Result<()> {
        let reg = smtstorm::solver::check::default_registry()?;
        let found = smtstorm::solver::check::list(&reg);
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&found)?);
        } else if found.is_empty() {
            outln!("no solvers installed: run scripts/setup-solvers.sh");
        } else {
            for f in found {
                outln!(
                    "{:<14} {:<9} {}",
                    f.name,
                    format!("{:?}", f.family).to_lowercase(),
                    f.reported_version.unwrap_or_else(|| "(no version)".into())
                );
            }
        }
        Ok(())
    }
}

/// Run SMT-LIB files on solvers and print the outcome of every check-sat.
#[derive(clap::Args)]
struct CheckCmd {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    solver: SolverOpts,
    /// A fresh process per file instead of one persistent session per solver.
    #[arg(long)]
    oneshot: bool,
    #[arg(long)]
    json: bool,
}

impl CheckCmd {
    fn run(&self) -> Result<()> {
        let rows =
            smtstorm::solver::check::run(&self.files, &self.solver.specs()?, &self.solver.limits(), self.oneshot)?;
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&rows)?);
        } else {
            out!("{}", smtstorm::solver::check::table(&rows));
        }
        Ok(())
    }
}

/// Queries per second, fresh process per query vs persistent session, on generated
/// QF_LIA/QF_BV queries; answers compared; smtstorm's own CPU share measured.
#[derive(clap::Args)]
struct BenchSolversCmd {
    #[command(flatten)]
    solver: SolverOpts,
    #[arg(long, default_value_t = 500)]
    queries: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long)]
    json: bool,
}

impl BenchSolversCmd {
    fn run(&self) -> Result<()> {
        let mut all = vec![];
        for spec in self.solver.specs()? {
            let b = smtstorm::solver::bench::bench(&spec, self.queries, self.seed, &self.solver.limits())?;
            if !self.json {
                outln!(
                    "{:<14} fresh {:7.1} q/s  session {:7.1} q/s  x{:.2}  mismatches {}  own CPU {:.2}% of wall  answers {:?}",
                    b.solver, b.fresh_qps, b.session_qps, b.speedup, b.mismatches, 100.0 * b.own_cpu_share, b.answers
                );
            }
            all.push(b);
        }
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&all)?);
        }
        Ok(())
    }
}

/// Parse (and with --check, sort-check) every .smt2 file under PATHS; report acceptance,
/// round-trip fidelity, unknown symbols and throughput.
#[derive(clap::Args)]
struct ParseCmd {
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Also sort-check every accepted file.
    #[arg(long)]
    check: bool,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    json: bool,
    /// Time the parse this many times and report the median.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
}

impl ParseCmd {
    fn run(&self) -> Result<()> {
        let opts = smtstorm::smtlib::stats::ParseOptions { check: self.check, repeat: self.repeat };
        let report = smtstorm::smtlib::stats::run(&self.paths, &opts)?;
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            out!("{}", report.summary());
        }
        Ok(())
    }
}

/// Print a libFuzzer/AFL++/honggfuzz dictionary derived from the theory tables.
#[derive(clap::Args)]
struct DictCmd {}

impl DictCmd {
    fn run(&self) -> Result<()> {
        out!("{}", smtstorm::smtlib::dict::dictionary());
        Ok(())
    }
}

fn main() {
    let cli = Cli::parse();
    let r = match &cli.cmd {
        Cmd::Parse(c) => c.run(),
        Cmd::Dict(c) => c.run(),
        Cmd::Solvers(c) => c.run(),
        Cmd::Check(c) => c.run(),
        Cmd::BenchSolvers(c) => c.run(),
        Cmd::Mutate(c) => c.run(),
        Cmd::Bandit(c) => c.run(),
        Cmd::Cactus(c) => c.run(),
        Cmd::Generate(c) => match c.run() {
            Ok(code) => std::process::exit(code),
            Err(e) => Err(e),
        },
        Cmd::Report(c) => c.run(),
        Cmd::Reduce(c) => c.run(),
        Cmd::StormMinimize(c) => c.run(),
        Cmd::Triage(c) => match c.run() {
            Ok(code) => std::process::exit(code),
            Err(e) => Err(e),
        },
        Cmd::Storm(c) => match c.run() {
            Ok(code) => std::process::exit(code),
            Err(e) => Err(e),
        },
        Cmd::StormCheck(c) => match c.run() {
            Ok(code) => std::process::exit(code),
            Err(e) => Err(e),
        },
        Cmd::Fuzz(c) => match c.run() {
            Ok(code) => std::process::exit(code),
            Err(e) => Err(e),
        },
    };
    if let Err(e) = r {
        eprintln!("smtstorm: {e:#}");
        std::process::exit(2);
    }
}
