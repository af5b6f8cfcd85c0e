//! `smtstorm bandit`.

use super::opts::GrammarArgs;
use anyhow::Result;
use std::path::PathBuf;

/// BanditFuzz: performance fuzzing. Finds small scripts on which the targets are much
/// slower than the references (PAR-2 margin), choosing constructs to insert with
/// Thompson-sampling agents. Writes OUT/perf/<id>/{bench.smt2,meta.json}, disagreements
/// as findings in OUT/bugs, agents.json, decisions.jsonl, timings.jsonl, summary.json and
/// cactus.svg.
#[derive(clap::Args)]
pub(crate) struct BanditCmd {
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
    pub(crate) fn run(&self) -> Result<()> {
        use smtstorm::bandit::{Bandit, Config, Live, Replay, Runner, Strategy};
        let reg = smtstorm::solver::resolve::default_registry()?;
        let targets = smtstorm::solver::resolve::resolve(&reg, &self.target)?;
        let references = smtstorm::solver::resolve::resolve(&reg, &self.reference)?;
        let strategy = Strategy::from_name(&self.strategy)
            .ok_or_else(|| anyhow::anyhow!("unknown strategy {:?}: bandit, single or random", self.strategy))?;
        if !(0.0..=1.0).contains(&self.decay) {
            anyhow::bail!("--decay must be between 0 and 1");
        }
        let mut cfg = Config::new(self.grammar.config()?, targets, references);
        cfg.strategy = strategy;
        cfg.seed = self.seed;
        cfg.timeout = self.timeout;
        cfg.memory = Some(smtstorm::solver::limits::mib_to_bytes(self.memory_mb));
        cfg.time = if self.replay.is_some() { None } else { Some(self.time) };
        cfg.iterations = self.iterations;
        cfg.decay = self.decay;
        cfg.keep = self.keep;
        cfg.repeats = self.repeats;
        smtstorm::util::fs::create_dirs(&self.out)?;
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
