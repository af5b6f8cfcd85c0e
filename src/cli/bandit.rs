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
    // Boxed: the run's settings hold the grammar and the solvers, and would make this
    // the one large command.
    #[command(flatten)]
    settings: Box<smtstorm::bandit::Config>,
    /// Replay timings recorded by an earlier run (its OUT/timings.jsonl) instead of
    /// running solvers: the same seed makes the same decisions.
    #[arg(long)]
    replay: Option<PathBuf>,
    /// Output directory.
    #[arg(long)]
    out: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

impl BanditCmd {
    pub(crate) fn run(&self) -> Result<()> {
        use smtstorm::bandit::{Bandit, Live, Replay, Runner};
        let reg = smtstorm::solver::resolve::default_registry()?;
        if !(0.0..=1.0).contains(&self.settings.decay) {
            anyhow::bail!("--decay must be between 0 and 1");
        }
        let mut cfg = (*self.settings).clone();
        cfg.grammar = self.grammar.config();
        cfg.targets = smtstorm::solver::resolve::resolve(&reg, &self.target)?;
        cfg.references = smtstorm::solver::resolve::resolve(&reg, &self.reference)?;
        if self.replay.is_some() {
            // A replay ends when its recorded timings do.
            cfg.time = None;
        }
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
