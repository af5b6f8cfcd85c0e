//! BanditFuzz: performance fuzzing by construct insertion chosen with reinforcement
//! learning (Scott, Sudula, Rehman, Mora, Ganesh, FM 2021).
//!
//! Each iteration either samples a fresh script from the grammar ([`crate::generate`])
//! or mutates the best script so far by inserting a construct (an operator of the
//! grammar) at a node of its result sort ([`Edit::InsertConstruct`]). Two Thompson-sampling
//! agents ([`thompson`]) learn *which construct* to insert and *whether to mutate or
//! sample*; they are rewarded when the PAR-2 margin (the best target's PAR-2 score minus
//! the worst reference's: how much slower every target is than every reference) improves
//! on the best so far.
//! Baselines with the same budget: `single` (construct agent only, mutate or sample at
//! random) and `random` (the generator in a loop).
//!
//! Every solver run is a fresh process (timings of a persistent session depend on what
//! it solved before) under a wall-clock watchdog and a memory limit; scores use the
//! process's CPU time. References get a dynamic limit: a reference slower than the
//! fastest target minus the best margin cannot improve the margin, so it is cut there.
//! Every timing goes to `timings.jsonl`; `--replay` feeds them back instead of running
//! solvers, and the same seed then makes the same decisions (`decisions.jsonl`).
//!
//! What the public implementation got wrong and this one does not: it ignored its RNG
//! seed, saved the wrong file on disagreements, and had no quantifiers, UF or mixed
//! arithmetic. Disagreements found on the way are ordinary findings in `bugs/`.

pub mod plot;
pub mod thompson;

use crate::generate::insert::{insert, sites, Sites};
use crate::generate::{self, Grammar};
use crate::mutate::choice::{Choices, Rng};
use crate::mutate::edit::Edit;
use crate::oracle;
use crate::solver::limits::mib_to_bytes;
use crate::solver::outcome::{Outcome, QueryResult};
use crate::solver::registry::SolverSpec;
use crate::solver::{run_file, Limits};
use crate::store::campaign::{MAX_MEMORY_MB, MAX_SECONDS, MIN_MEMORY_MB, MIN_TIMEOUT_S};
use crate::store::layout::{self, BanditFile};
pub use crate::store::perf::{perf_in, PerfMeta, Strategy, Timing};
use crate::store::{Meta, Origin, Recorded, SolverAnswer, Store};
use crate::util::flags::{Mib, Named, Seconds};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use thompson::Agent;

/// A run's settings (`bandit.json` records them). Its knobs are the flags of
/// `smtstorm bandit` (clap), each declared once here with its default; the grammar,
/// targets and references are the command's to fill in.
#[derive(Clone, Debug, Serialize, Deserialize, clap::Args)]
// Not `Config`, the group id clap would give both this and the grammar's struct.
#[group(id = "bandit")]
pub struct Config {
    #[arg(skip)]
    pub grammar: generate::Config,
    #[arg(skip)]
    pub targets: Vec<SolverSpec>,
    #[arg(skip)]
    pub references: Vec<SolverSpec>,
    /// How the next input is chosen.
    #[arg(long, default_value = "bandit", value_parser = Named::<Strategy>::new("strategy"))]
    pub strategy: Strategy,
    /// RNG seed: the same seed makes the same decisions on the same timings.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// PAR-2 timeout per solver run, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, allow_negative_numbers = true,
          value_parser = Seconds::between(MIN_TIMEOUT_S, MAX_SECONDS))]
    pub timeout: f64,
    /// Memory limit per solver process, in MiB.
    // Held in bytes: the flag's parser converts.
    #[arg(long = "memory-mb", value_name = "MIB", default_value = "4096",
          value_parser = clap::builder::TypedValueParser::map(Mib::between(MIN_MEMORY_MB, MAX_MEMORY_MB), mib_to_bytes))]
    pub memory: Option<u64>,
    /// Budget in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "300", allow_negative_numbers = true,
          value_parser = Seconds::BUDGET)]
    pub time: Option<f64>,
    /// Budget in iterations (deterministic; with --time, whichever ends first).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Agents' evidence decay per update (1 = no forgetting).
    #[arg(long, default_value_t = 0.99)]
    pub decay: f64,
    /// Re-score this many of the best benchmarks at the end ...
    #[arg(long, default_value_t = 10)]
    pub keep: usize,
    /// ... this many times each (median).
    #[arg(long, default_value_t = 3)]
    pub repeats: usize,
}

/// The declared defaults above, with the default grammar and no solvers.
impl Default for Config {
    fn default() -> Self {
        crate::util::flags::defaults()
    }
}

impl Config {
    pub fn new(grammar: generate::Config, targets: Vec<SolverSpec>, references: Vec<SolverSpec>) -> Config {
        Config { grammar, targets, references, ..Config::default() }
    }
}

/// Where timings come from.
pub trait Runner {
    /// Runs `spec` on `text` under `limit`; `None` when a replay has no more timings.
    fn run(&mut self, spec: &SolverSpec, text: &str, limit: f64) -> Option<(Timing, QueryResult)>;
}

/// Real solver processes; every timing is appended to `timings.jsonl`.
pub struct Live {
    scratch: PathBuf,
    memory: Option<u64>,
    log: std::fs::File,
}

impl Live {
    pub fn new(out: &Path, memory: Option<u64>) -> std::io::Result<Live> {
        let scratch = layout::tmp(out);
        std::fs::create_dir_all(&scratch)?;
        let path = layout::bandit_file(out, BanditFile::Timings);
        let log = crate::util::fs::open_store_file(&path, true)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        Ok(Live { scratch, memory, log })
    }
}

pub fn sha(text: &str) -> String {
    let d = Sha256::digest(text.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

impl Runner for Live {
    fn run(&mut self, spec: &SolverSpec, text: &str, limit: f64) -> Option<(Timing, QueryResult)> {
        let file = self.scratch.join("query.smt2");
        if std::fs::write(&file, text).is_err() {
            return None;
        }
        let limits = Limits {
            time: crate::util::time::seconds(limit.max(0.001)),
            grace: Duration::from_millis(200),
            memory: self.memory,
            ..Limits::default()
        };
        let r = run_file(spec, &file, 1, &limits);
        let t = Timing {
            sha: sha(text),
            solver: spec.name.clone(),
            limit,
            cpu: r.cpu.unwrap_or(r.wall).as_secs_f64(),
            outcome: r.outcome().clone(),
        };
        let _ = writeln!(self.log, "{}", serde_json::to_string(&t).unwrap_or_default());
        Some((t, r))
    }
}

/// Recorded timings, in the order they were recorded per (script, solver).
pub struct Replay {
    queue: HashMap<(String, String), VecDeque<Timing>>,
}

impl Replay {
    pub fn load(path: &Path) -> std::io::Result<Replay> {
        let mut queue: HashMap<(String, String), VecDeque<Timing>> = HashMap::new();
        for (i, line) in std::fs::read_to_string(path)?.lines().enumerate() {
            let t: Timing = serde_json::from_str(line).map_err(|e| {
                std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{}:{}: {e}", path.display(), i + 1))
            })?;
            queue.entry((t.sha.clone(), t.solver.clone())).or_default().push_back(t);
        }
        Ok(Replay { queue })
    }
}

impl Runner for Replay {
    fn run(&mut self, spec: &SolverSpec, text: &str, _limit: f64) -> Option<(Timing, QueryResult)> {
        let t = self.queue.get_mut(&(sha(text), spec.name.clone()))?.pop_front()?;
        let crash = matches!(t.outcome, Outcome::Crash { .. }).then(|| t.outcome.clone());
        let r = QueryResult {
            outcomes: vec![t.outcome.clone()],
            crash,
            data: vec![],
            stdout_excerpt: String::new(),
            stderr_excerpt: String::new(),
            wall: crate::util::time::seconds(t.cpu),
            cpu: Some(crate::util::time::seconds(t.cpu)),
        };
        Some((t, r))
    }
}

/// A scored script.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Score {
    pub targets: Vec<Timing>,
    pub references: Vec<Timing>,
    /// `None` when the references were cut at the dynamic limit (or not run): the margin
    /// is then known not to beat the best.
    pub margin: Option<f64>,
}

/// One decision, as `decisions.jsonl` records it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Decision {
    pub iteration: u64,
    pub action: String,
    pub construct: Option<String>,
    pub sha: String,
    pub margin: Option<f64>,
    pub improved: bool,
}

/// What a run did.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Summary {
    pub strategy: Option<Strategy>,
    pub iterations: u64,
    pub seconds: f64,
    pub best_margin: Option<f64>,
    /// Sum of the positive final margins of the kept benchmarks.
    pub cumulative_margin: f64,
    pub kept: usize,
    pub findings: usize,
    pub duplicates: usize,
    /// Runs that were errors (generator bugs or dialect gaps) and crashes.
    pub errors: u64,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum BanditError {
    #[error(transparent)]
    Grammar(#[from] generate::GenError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("at least one target and one reference solver are needed")]
    Solvers,
    #[error(transparent)]
    Store(#[from] crate::util::error::Error),
}

/// The state of one run.
pub struct Bandit<'a> {
    pub cfg: Config,
    pub grammar: Grammar,
    out: PathBuf,
    runner: &'a mut dyn Runner,
    rng: Rng,
    pub constructs: Agent,
    pub actions: Agent,
    best: Option<(String, f64)>,
    /// Insertion sites of the current best script, with the hash of its text.
    sites: Option<(String, Sites)>,
    kept: Vec<PerfMeta>,
    store: Store,
    /// One process per store ([`crate::store::lock`]).
    _lock: crate::store::lock::StoreLock,
    decisions: std::fs::File,
    t0: Instant,
    pub summary: Summary,
}

impl<'a> Bandit<'a> {
    pub fn new(cfg: Config, out: &Path, runner: &'a mut dyn Runner) -> Result<Bandit<'a>, BanditError> {
        if cfg.targets.is_empty() || cfg.references.is_empty() {
            return Err(BanditError::Solvers);
        }
        let grammar = Grammar::new(cfg.grammar.clone())?;
        let lock = crate::store::lock::lock(out)?;
        crate::solver::sandbox::use_scratch_dir(&layout::scratch(out))?;
        std::fs::create_dir_all(out.join(layout::PERF))?;
        crate::util::fs::write_atomic(&layout::bandit(out), &serde_json::to_vec_pretty(&cfg).unwrap_or_default())?;
        let decisions = std::fs::File::create(layout::bandit_file(out, BanditFile::Decisions))?;
        let constructs = Agent::new(grammar.ops.clone(), cfg.decay);
        let actions = Agent::new(vec!["mutate".into(), "sample".into()], cfg.decay);
        Ok(Bandit {
            rng: Rng::new(cfg.seed),
            summary: Summary { strategy: Some(cfg.strategy), ..Summary::default() },
            cfg,
            grammar,
            out: out.to_path_buf(),
            runner,
            constructs,
            actions,
            best: None,
            sites: None,
            kept: vec![],
            store: Store::open(out)?,
            _lock: lock,
            decisions,
            t0: Instant::now(),
        })
    }

    /// Scores `text`: targets with the full limit, references with the dynamic one.
    /// `None` when a replay ran out.
    fn score(&mut self, text: &str) -> Option<(Score, Vec<QueryResult>)> {
        let t = self.cfg.timeout;
        let mut results = vec![];
        let mut targets = vec![];
        for spec in self.cfg.targets.clone() {
            let (timing, r) = self.runner.run(&spec, text, t)?;
            targets.push(timing);
            results.push(r);
        }
        // A crash or an error is a finding or a dialect gap, not slowness: such a script
        // gets no margin (and the references are not asked).
        let failed = |x: &Timing| matches!(x.outcome, Outcome::Crash { .. } | Outcome::Error { .. });
        let tmin = targets.iter().map(|x| x.par2(t)).fold(f64::INFINITY, f64::min);
        let limit = match self.best {
            Some((_, b)) => tmin - b,
            None => t,
        };
        let mut references = vec![];
        if limit <= 0.0 || targets.iter().any(failed) {
            return Some((Score { targets, references, margin: None }, results));
        }
        let mut cut = false;
        for spec in self.cfg.references.clone() {
            let l = limit.min(t);
            let (timing, r) = self.runner.run(&spec, text, l)?;
            // Cut at a dynamic limit below the timeout: this reference is at least
            // `limit` slow, so the margin cannot beat the best.
            if l < t && !(timing.outcome.is_definite() && timing.cpu < l) {
                cut = true;
            }
            references.push(timing);
            results.push(r);
            if cut {
                break;
            }
        }
        let rmax = references.iter().map(|x| x.par2(t)).fold(0.0, f64::max);
        let margin = (!cut && !references.iter().any(failed)).then_some(tmin - rmax);
        Some((Score { targets, references, margin }, results))
    }

    fn out_of_budget(&self, it: u64) -> bool {
        self.cfg.iterations.is_some_and(|n| it >= n)
            || self.cfg.time.is_some_and(|s| self.t0.elapsed().as_secs_f64() >= s)
            || crate::util::stop::stop_flag().load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Runs until the budget (or the replay) ends, then re-scores the kept benchmarks and
    /// writes the statistics and the cactus plot.
    pub fn run(&mut self) -> std::io::Result<Summary> {
        let mut it = 0u64;
        while !self.out_of_budget(it) {
            if self.step(it).is_none() {
                break; // the replay has no timings for this decision
            }
            it += 1;
        }
        self.summary.iterations = it;
        self.finish()
    }

    /// One iteration. `None` when the runner ran out.
    fn step(&mut self, it: u64) -> Option<()> {
        let mutate = match (&self.best, self.cfg.strategy) {
            (None, _) | (_, Strategy::Random) => false,
            (Some(_), Strategy::Bandit) => self.actions.choose(&mut self.rng) == 0,
            (Some(_), Strategy::Single) => self.rng.below(2)? == 0,
        };
        let mut made = None;
        if mutate {
            let (best, _) = self.best.clone().expect("mutate needs a best");
            let best_sha = sha(&best);
            if self.sites.as_ref().is_none_or(|(s, _)| *s != best_sha) {
                self.sites = sites(&self.grammar, &best).map(|s| (best_sha, s));
            }
            // A construct whose sort the best script lacks earns no reward; try others.
            for _ in 0..8 {
                let arm = self.constructs.choose(&mut self.rng);
                let op = self.constructs.arms[arm].clone();
                let (_, sites) = self.sites.as_ref()?;
                match insert(&self.grammar, &best, sites, &op, &mut self.rng) {
                    Some((e, text)) => {
                        made = Some((text, Some((arm, e))));
                        break;
                    }
                    None => self.constructs.update(arm, false),
                }
            }
        }
        let action = if made.is_some() { "mutate" } else { "sample" };
        let (text, construct) = match made {
            Some(m) => m,
            None => (self.grammar.script(&mut self.rng)?, None),
        };
        let (score, results) = self.score(&text)?;
        let improved = match (score.margin, &self.best) {
            (Some(m), Some((_, b))) => m > *b,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if self.best.is_some() && self.cfg.strategy == Strategy::Bandit {
            self.actions.update(if action == "mutate" { 0 } else { 1 }, improved);
        }
        if let Some((arm, _)) = &construct {
            self.constructs.update(*arm, improved);
        }
        let d = Decision {
            iteration: it,
            action: action.into(),
            construct: construct.as_ref().map(|(a, _)| self.constructs.arms[*a].clone()),
            sha: sha(&text),
            margin: score.margin,
            improved,
        };
        let _ = writeln!(self.decisions, "{}", serde_json::to_string(&d).unwrap_or_default());
        self.summary.errors +=
            results.iter().filter(|r| matches!(r.outcome(), Outcome::Error { .. } | Outcome::Crash { .. })).count()
                as u64;
        self.disagreements(&text, &results)?;
        if improved {
            let margin = score.margin.expect("improved");
            self.best = Some((text.clone(), margin));
            let made_by = match &construct {
                Some((_, Edit::InsertConstruct { construct, .. })) => format!("insert {construct}"),
                _ => "sample".into(),
            };
            self.keep(it, &text, margin, score, made_by).ok()?;
        }
        Some(())
    }

    fn keep(&mut self, it: u64, text: &str, margin: f64, score: Score, made_by: String) -> std::io::Result<()> {
        let id = sha(text)[..12].to_string();
        let dir = layout::perf_dir(&self.out, &id);
        let meta = PerfMeta {
            id,
            iteration: it,
            found_at: self.t0.elapsed().as_secs_f64(),
            strategy: self.cfg.strategy,
            logic: self.grammar.logic.clone(),
            bytes: text.len(),
            margin,
            timings: score.targets.into_iter().chain(score.references).collect(),
            final_cpu: vec![],
            final_par2: vec![],
            final_margin: None,
            timeout: self.cfg.timeout,
            made_by,
        };
        crate::util::fs::write_atomic(&dir.join(layout::BENCH), text.as_bytes())?;
        crate::util::fs::write_atomic(&dir.join(layout::META), &serde_json::to_vec_pretty(&meta).unwrap_or_default())?;
        self.kept.push(meta);
        Ok(())
    }

    /// Crashes and conflicting definite answers become findings, confirmed by a second
    /// run of every solver (fresh processes).
    fn disagreements(&mut self, text: &str, results: &[QueryResult]) -> Option<()> {
        let solvers: Vec<SolverSpec> = self.cfg.targets.iter().chain(&self.cfg.references).cloned().collect();
        let refs: Vec<Option<&QueryResult>> = results.iter().map(Some).collect();
        let families: Vec<_> = solvers.iter().map(|s| s.family).collect();
        if oracle::judge(&refs, &families[..refs.len()], None, None).is_empty() {
            return Some(());
        }
        let mut again = vec![];
        for spec in &solvers[..results.len()] {
            again.push(self.runner.run(spec, text, self.cfg.timeout)?.1);
        }
        let refs: Vec<Option<&QueryResult>> = again.iter().map(Some).collect();
        for v in oracle::judge(&refs, &families[..refs.len()], None, None) {
            // What each solver answered: its outcomes alone (unlike `SolverAnswer::of`, a
            // crash of the process is not added to them), as BanditFuzz has stored them.
            let answers = again
                .iter()
                .zip(&solvers)
                .map(|(r, s)| SolverAnswer {
                    solver: s.name.clone(),
                    version: s.version.clone(),
                    outcomes: r.outcomes.clone(),
                    stdout_excerpt: r.stdout_excerpt.clone(),
                    stderr_excerpt: r.stderr_excerpt.clone(),
                    seconds: r.wall.as_secs_f64(),
                })
                .collect();
            let meta = Meta {
                seed: format!("generated (bandit seed {})", self.cfg.seed),
                seed_hash: crate::store::seed_hash(text),
                origin: Origin::Bandit(self.cfg.strategy),
                rng_seed: self.cfg.seed,
                found_at: self.t0.elapsed().as_secs_f64(),
                ..Meta::found(&v, &solvers, answers, Some(&self.grammar.logic), text.len())
            };
            match self.store.record(meta, text) {
                Ok(Recorded::New(_)) => self.summary.findings += 1,
                Ok(Recorded::Duplicate(_)) => self.summary.duplicates += 1,
                Err(_) => {}
            }
        }
        Some(())
    }

    /// Re-scores the `keep` best benchmarks `repeats` times (full limits, median CPU),
    /// then writes `summary.json`, `agents.json` and `cactus.svg`.
    fn finish(&mut self) -> std::io::Result<Summary> {
        let t = self.cfg.timeout;
        let mut order: Vec<usize> = (0..self.kept.len()).collect();
        order.sort_by(|&a, &b| self.kept[b].margin.total_cmp(&self.kept[a].margin));
        order.truncate(self.cfg.keep);
        let solvers: Vec<(SolverSpec, bool)> = self
            .cfg
            .targets
            .iter()
            .map(|s| (s.clone(), true))
            .chain(self.cfg.references.iter().map(|s| (s.clone(), false)))
            .collect();
        'bench: for &k in &order {
            let text = std::fs::read_to_string(layout::perf_dir(&self.out, &self.kept[k].id).join(layout::BENCH))?;
            let mut cpu = vec![];
            let mut par2 = vec![];
            for (spec, _) in &solvers {
                let mut runs = vec![];
                for _ in 0..self.cfg.repeats.max(1) {
                    let Some((timing, _)) = self.runner.run(spec, &text, t) else { break 'bench };
                    runs.push(timing);
                }
                runs.sort_by(|a, b| a.par2(t).total_cmp(&b.par2(t)));
                let mid = &runs[runs.len() / 2];
                cpu.push((spec.name.clone(), mid.cpu));
                par2.push((spec.name.clone(), mid.par2(t)));
            }
            let tmin = par2.iter().zip(&solvers).filter(|(_, s)| s.1).map(|(p, _)| p.1).fold(f64::INFINITY, f64::min);
            let rmax = par2.iter().zip(&solvers).filter(|(_, s)| !s.1).map(|(p, _)| p.1).fold(0.0, f64::max);
            let m = &mut self.kept[k];
            m.final_cpu = cpu;
            m.final_par2 = par2;
            m.final_margin = Some(tmin - rmax);
            let dir = layout::perf_dir(&self.out, &m.id);
            crate::util::fs::write_atomic(
                &dir.join(layout::META),
                &serde_json::to_vec_pretty(&*m).unwrap_or_default(),
            )?;
        }
        let finals: Vec<f64> = self.kept.iter().filter_map(|m| m.final_margin).collect();
        self.summary.best_margin =
            finals.iter().copied().fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.max(x))));
        self.summary.cumulative_margin = finals.iter().filter(|&&x| x > 0.0).fold(0.0, |a, x| a + x);
        self.summary.kept = self.kept.len();
        self.summary.seconds = self.t0.elapsed().as_secs_f64();
        crate::util::fs::write_atomic(
            &layout::bandit_file(&self.out, BanditFile::Agents),
            &serde_json::to_vec_pretty(&serde_json::json!({
                "constructs": agent_json(&self.constructs),
                "actions": agent_json(&self.actions),
            }))
            .unwrap_or_default(),
        )?;
        crate::util::fs::write_atomic(
            &layout::bandit_file(&self.out, BanditFile::Summary),
            &serde_json::to_vec_pretty(&self.summary).unwrap_or_default(),
        )?;
        let svg = plot::cactus(&plot::series_from_perf(&self.out), t);
        crate::util::fs::write_atomic(&layout::bandit_file(&self.out, BanditFile::Cactus), svg.as_bytes())?;
        let _ = std::fs::remove_dir_all(layout::tmp(&self.out));
        Ok(self.summary.clone())
    }
}

fn agent_json(a: &Agent) -> serde_json::Value {
    let means = a.means();
    serde_json::Value::Array(
        (0..a.arms.len())
            .map(|i| {
                serde_json::json!({"arm": a.arms[i], "pulls": a.pulls[i], "rewards": a.rewards[i], "posterior_mean": means[i]})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests;
