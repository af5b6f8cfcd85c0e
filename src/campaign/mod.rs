//! `smtstorm fuzz`: a campaign of mutation engines against several solvers.
//!
//! Workers each own one persistent session per solver. Seeds are pre-screened once on
//! every solver: a seed that already makes solvers disagree or crash is a *seed finding*
//! (stored apart), a solver that rejects a seed never gets its mutants, and the seed's own
//! solving time sets its mutants' time limit. Then (seed, engine) pairs are served round
//! robin, a batch of mutants per turn, so one slow seed cannot eat the campaign; seeds
//! whose mutants keep timing out or erroring, or that spent their time budget, are
//! demoted. Every candidate is re-run in fresh processes before it is stored
//! ([`oracle`]), bisected over the installed releases of the blamed solver, and
//! deduplicated ([`store`]).

pub mod report;
pub mod triage;

use crate::oracle::{self, BlameBy, BugKind};
use crate::store;
pub use crate::store::campaign::{CampaignFile, Config};
use crate::util::hash::mix;
use crate::util::stop::stop_flag;

use crate::mutate::{choice::Rng, edit::strip_status, opfuzz, storm::instance_body, Engine, Prepared};
use crate::smtlib::{self, Script};
use crate::solver::{session_text, Limits, Outcome, QueryResult, Registry, Session, SolverSpec};
use crate::util::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use store::{Meta, Recorded, SolverAnswer, Store};

/// Counters, shared by the workers and read by the progress line.
#[derive(Default, Debug)]
pub struct Counters {
    pub mutants: AtomicU64,
    pub solver_calls: AtomicU64,
    /// Mutants every solver that got them read without an error.
    pub valid: AtomicU64,
    /// Mutants at least one solver rejected with an error (dialect / invalid).
    pub invalid: AtomicU64,
    pub timeouts: AtomicU64,
    pub candidates: AtomicU64,
    /// Candidates that did not reproduce in fresh processes.
    pub unconfirmed: AtomicU64,
    pub new_bugs: AtomicU64,
    pub duplicates: AtomicU64,
    pub seed_findings: AtomicU64,
    pub seeds_ready: AtomicU64,
    pub seeds_demoted: AtomicU64,
    pub seeds_rejected: AtomicU64,
    /// Candidates on mutants that repeat their seed's own failure (same kind and blame,
    /// same crash message).
    pub inherited: AtomicU64,
}

/// A serialisable snapshot of [`Counters`] (one line of `stats.jsonl`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    pub run: u32,
    pub elapsed: f64,
    pub campaign_elapsed: f64,
    pub mutants: u64,
    pub solver_calls: u64,
    pub valid: u64,
    pub invalid: u64,
    pub timeouts: u64,
    pub candidates: u64,
    pub unconfirmed: u64,
    pub new_bugs: u64,
    pub duplicates: u64,
    pub seed_findings: u64,
    pub seeds_ready: u64,
    pub seeds_demoted: u64,
    pub seeds_rejected: u64,
    #[serde(default)]
    pub inherited: u64,
    /// CPU seconds of smtstorm itself (not the solvers).
    pub own_cpu: f64,
}

impl Counters {
    fn snapshot(&self, run: u32, elapsed: f64, before: f64) -> Stats {
        Stats {
            run,
            elapsed,
            campaign_elapsed: before + elapsed,
            mutants: self.mutants.load(Relaxed),
            solver_calls: self.solver_calls.load(Relaxed),
            valid: self.valid.load(Relaxed),
            invalid: self.invalid.load(Relaxed),
            timeouts: self.timeouts.load(Relaxed),
            candidates: self.candidates.load(Relaxed),
            unconfirmed: self.unconfirmed.load(Relaxed),
            new_bugs: self.new_bugs.load(Relaxed),
            duplicates: self.duplicates.load(Relaxed),
            seed_findings: self.seed_findings.load(Relaxed),
            seeds_ready: self.seeds_ready.load(Relaxed),
            seeds_demoted: self.seeds_demoted.load(Relaxed),
            seeds_rejected: self.seeds_rejected.load(Relaxed),
            inherited: self.inherited.load(Relaxed),
            own_cpu: crate::util::cpu::own_cpu_seconds(),
        }
    }
}

/// Where events go: `OUT/events.jsonl`, and stdout as JSON lines with `--json`.
pub struct Events {
    path: PathBuf,
    stdout: bool,
    lock: Mutex<()>,
}

impl Events {
    pub fn emit(&self, v: serde_json::Value) {
        let line = v.to_string();
        let _g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let _ = crate::util::fs::append_line(&self.path, &line);
        if self.stdout {
            // A closed stdout must not kill a campaign (the events are in the file too).
            use std::io::Write as _;
            let _ = writeln!(std::io::stdout(), "{line}");
        }
    }
}

/// A loaded seed.
struct Seed {
    path: PathBuf,
    script: Script,
    hash: String,
    /// A STORM witness line in the file (fuzzer artifacts of `storm_target`).
    witness: Option<Vec<(String, String)>>,
}

#[derive(Clone, Debug, Default)]
struct SeedState {
    /// Solvers (indices) that read the seed.
    solvers: Vec<usize>,
    /// Time limit for its mutants.
    limit: Duration,
    tested: u64,
    bad: u64,
    spent: Duration,
    active: bool,
    /// What the seed's own findings were: (kind, blamed solver or `None` for an undecided
    /// tie, crash message). Mutants of the seed that repeat one inherit the seed's bug:
    /// they are counted, not reported as new.
    seed_blames: Vec<(BugKind, Option<usize>, String)>,
    /// A worker is running a batch of this seed.
    busy: bool,
    /// Fuzzing turns handed out (engines take turns in order).
    turns: u64,
}

enum Job {
    Prescreen(usize),
    Fuzz { seed: usize, engine: Engine, turn: u64 },
}

struct Scheduler {
    prescreen: VecDeque<usize>,
    /// Pre-screens handed out and not finished.
    screening: usize,
    ready: Vec<usize>,
    state: Vec<SeedState>,
    toggle: bool,
    engines: Vec<Engine>,
    budget: Option<Duration>,
}

impl Scheduler {
    fn next(&mut self) -> Option<Job> {
        // Pre-screening and fuzzing alternate, so a large seed set starts finding bugs
        // at once instead of after every seed has been screened.
        if !self.prescreen.is_empty() && (self.ready.is_empty() || self.flip()) {
            if let Some(s) = self.prescreen.pop_front() {
                self.screening += 1;
                return Some(Job::Prescreen(s));
            }
        }
        // Time-fair: the idle ready seed that has cost the least solver time so far gets
        // the next turn. A slow seed gets as much time as a fast one, not as many turns,
        // so it can never eat the campaign, and cheap seeds are not starved by it.
        let Some(seed) = self
            .ready
            .iter()
            .copied()
            .filter(|&s| !self.state[s].busy)
            .min_by_key(|&s| (self.state[s].spent, self.state[s].turns))
        else {
            // Every ready seed is busy: screen another one meanwhile, if any is left.
            let s = self.prescreen.pop_front()?;
            self.screening += 1;
            return Some(Job::Prescreen(s));
        };
        let st = &mut self.state[seed];
        st.busy = true;
        let n = self.engines.len() as u64;
        let engine = self.engines[(st.turns % n) as usize];
        let turn = st.turns / n;
        st.turns += 1;
        Some(Job::Fuzz { seed, engine, turn })
    }

    /// Alternates between pre-screen and fuzz turns.
    fn flip(&mut self) -> bool {
        self.toggle = !self.toggle;
        self.toggle
    }

    /// Records a batch's outcome; demotes the seed when its mutants keep failing or its
    /// time budget is spent. Returns the demotion reason.
    fn account(&mut self, seed: usize, tested: u64, bad: u64, spent: Duration) -> Option<&'static str> {
        let st = &mut self.state[seed];
        st.busy = false;
        st.tested += tested;
        st.bad += bad;
        st.spent += spent;
        if !st.active {
            return None;
        }
        let reason = if st.tested >= 16 && st.bad * 2 > st.tested {
            Some("mutants keep timing out or erroring")
        } else if self.budget.is_some_and(|b| st.spent > b) {
            Some("time budget spent")
        } else {
            None
        };
        if reason.is_some() {
            st.active = false;
            self.ready.retain(|&s| s != seed);
        }
        reason
    }
}

/// What a campaign run ended with.
#[derive(Debug)]
pub struct Summary {
    pub stats: Stats,
    /// Distinct fuzzing findings and seed findings now in the store.
    pub bugs: usize,
    pub seed_findings: usize,
}

/// Everything the workers share.
struct Shared {
    cfg: Config,
    solvers: Vec<SolverSpec>,
    ladder: Vec<SolverSpec>,
    seeds: Vec<Seed>,
    sched: Mutex<Scheduler>,
    store: Mutex<Store>,
    counters: Counters,
    events: Events,
    out: PathBuf,
    run: u32,
    t0: Instant,
    elapsed_before: f64,
    stop: AtomicBool,
    /// STORM pools per seed, built on the first STORM turn (`None`: no usable model).
    storm: Mutex<std::collections::HashMap<usize, Option<Arc<StormSeed>>>>,
    /// Index of the reference solver.
    reference: usize,
}

/// Runs (or resumes) a campaign writing to `out`. `quiet` silences the progress line;
/// `json` also prints events to stdout.
pub fn run(cfg: Config, registry: &Registry, out: &Path, quiet: bool, json: bool) -> Result<Summary> {
    let io = |e: std::io::Error| Error::io(out, e);
    std::fs::create_dir_all(out).map_err(io)?;
    let solvers = crate::solver::check::resolve(registry, &cfg.solvers)?;
    if solvers.is_empty() {
        return Err(Error::NoSolvers { registry: crate::solver::registry::default_toml() });
    }
    let cfile_path = out.join("campaign.json");
    let prev: Option<CampaignFile> = std::fs::read(&cfile_path).ok().and_then(|b| serde_json::from_slice(&b).ok());
    let now_unix = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let cfile = CampaignFile {
        config: cfg.clone(),
        solvers: solvers.clone(),
        runs: prev.as_ref().map_or(1, |p| p.runs + 1),
        first_start_unix: prev.as_ref().map_or(now_unix, |p| p.first_start_unix),
        elapsed_before: prev.as_ref().map_or(0.0, |p| p.elapsed_before),
    };
    crate::util::fs::write_atomic(&cfile_path, &serde_json::to_vec_pretty(&cfile).unwrap_or_default()).map_err(io)?;
    let store = Store::open(out).map_err(io)?;
    let events = Events { path: out.join("events.jsonl"), stdout: json, lock: Mutex::new(()) };
    events.emit(serde_json::json!({"event": "start", "run": cfile.runs, "solvers": solvers.iter().map(|s| &s.name).collect::<Vec<_>>()}));

    // Seeds: every file is read; one that does not parse is reported with its position
    // and skipped, never fatal.
    let files = crate::util::files::collect_smt2(&cfg.seeds)?;
    let mut seeds = vec![];
    let mut rejected = 0;
    for f in files {
        let bytes = std::fs::read(&f).map_err(|e| Error::io(&f, e))?;
        match smtlib::parse_bytes(&bytes) {
            Ok(script) => {
                let text = String::from_utf8_lossy(&bytes);
                let witness = crate::mutate::storm::read_witness(&text);
                seeds.push(Seed { hash: crate::util::hash::short_hash(&text), path: f, script, witness })
            }
            Err(e) => {
                rejected += 1;
                let err = e.in_file(&f);
                events.emit(serde_json::json!({"event": "seed-rejected", "seed": f, "error": err.to_string()}));
            }
        }
    }
    let n = seeds.len();
    let budget = cfg.time.map(|t| Duration::from_secs_f64((t * cfg.workers() as f64 / n.max(1) as f64 * 4.0).max(5.0)));
    let sched = Scheduler {
        prescreen: (0..n).collect(),
        screening: 0,
        ready: vec![],
        state: vec![SeedState::default(); n],
        toggle: false,
        engines: if cfg.engines.is_empty() { Engine::ALL.to_vec() } else { cfg.engines.clone() },
        budget,
    };
    let reference = crate::solver::registry::reference_index(&solvers, cfg.reference.as_deref())
        .ok_or_else(|| Error::UnknownReference { name: cfg.reference.clone().unwrap_or_default() })?;
    let shared = Arc::new(Shared {
        storm: Mutex::new(Default::default()),
        reference,
        ladder: registry.solvers.clone(),
        solvers,
        seeds,
        sched: Mutex::new(sched),
        store: Mutex::new(store),
        counters: Counters::default(),
        events,
        out: out.to_path_buf(),
        run: cfile.runs,
        t0: Instant::now(),
        elapsed_before: cfile.elapsed_before,
        stop: AtomicBool::new(false),
        cfg,
    });
    shared.counters.seeds_rejected.store(rejected, Relaxed);
    let tmp = out.join("tmp");
    std::fs::create_dir_all(&tmp).map_err(io)?;

    let workers: Vec<_> = (0..shared.cfg.workers())
        .map(|w| {
            let sh = shared.clone();
            std::thread::spawn(move || worker(&sh, w))
        })
        .collect();

    // Progress, stats log and stop conditions.
    let stats_path = out.join("stats.jsonl");
    let mut last_stats = Instant::now();
    let tty = !quiet && unsafe { libc::isatty(2) } == 1;
    loop {
        std::thread::sleep(Duration::from_millis(200));
        let el = shared.t0.elapsed().as_secs_f64();
        let c = &shared.counters;
        let done_time = shared.cfg.time.is_some_and(|t| el >= t);
        let done_mut = shared.cfg.mutants.is_some_and(|m| c.mutants.load(Relaxed) >= m);
        let finished = workers.iter().all(|w| w.is_finished());
        if done_time || done_mut || stop_flag().load(Relaxed) {
            shared.stop.store(true, Relaxed);
        }
        if last_stats.elapsed() >= Duration::from_secs(10) {
            let s = c.snapshot(shared.run, el, shared.elapsed_before);
            let _ = crate::util::fs::append_line(&stats_path, &serde_json::to_string(&s).unwrap_or_default());
            last_stats = Instant::now();
        }
        if !quiet {
            let s = c.snapshot(shared.run, el, shared.elapsed_before);
            let line = format!(
                "[{:>6.0}s] mutants {} ({:.0}/s) | solver calls {:.0}/s | valid {:.1}% | bugs {} new, {} dup | seed findings {} | unconfirmed {} | seeds {} ready, {} demoted",
                el,
                s.mutants,
                s.mutants as f64 / el.max(1e-3),
                s.solver_calls as f64 / el.max(1e-3),
                100.0 * s.valid as f64 / (s.valid + s.invalid).max(1) as f64,
                s.new_bugs,
                s.duplicates,
                s.seed_findings,
                s.unconfirmed,
                s.seeds_ready,
                s.seeds_demoted
            );
            if tty {
                eprint!("\r{line}\x1b[K");
            } else if last_stats.elapsed() < Duration::from_millis(200) {
                eprintln!("{line}");
            }
        }
        if finished {
            break;
        }
    }
    for w in workers {
        let _ = w.join();
    }
    if tty {
        eprintln!();
    }
    if shared.cfg.reduce > 0.0 {
        reduce_findings(&shared, out, quiet);
    }
    let el = shared.t0.elapsed().as_secs_f64();
    let stats = shared.counters.snapshot(shared.run, el, shared.elapsed_before);
    let _ = crate::util::fs::append_line(&stats_path, &serde_json::to_string(&stats).unwrap_or_default());
    let cfile = CampaignFile { elapsed_before: shared.elapsed_before + el, ..cfile };
    crate::util::fs::write_atomic(&cfile_path, &serde_json::to_vec_pretty(&cfile).unwrap_or_default()).map_err(io)?;
    let _ = std::fs::remove_dir_all(&tmp);
    let (bugs, seed_findings) = shared.store.lock().unwrap_or_else(|e| e.into_inner()).counts();
    shared
        .events
        .emit(serde_json::json!({"event": "end", "stats": &stats, "bugs": bugs, "seed_findings": seed_findings}));
    Ok(Summary { stats, bugs, seed_findings })
}

/// Reduces every stored finding that has no reduction yet (the built-in judge of
/// [`crate::reduce::judge::FindingJudge`]), each for at most `cfg.reduce` seconds, with
/// one check per worker in parallel. Stops at SIGINT/SIGTERM; what was reduced so far is
/// kept (each `reduced.smt2` is written atomically after every success).
fn reduce_findings(sh: &Shared, out: &Path, quiet: bool) {
    let opts = crate::reduce::Options {
        jobs: sh.cfg.workers(),
        time: Some(Duration::from_secs_f64(sh.cfg.reduce)),
        stop: Some(stop_flag()),
        ..Default::default()
    };
    for (meta_path, meta) in Store::list_in(out) {
        if stop_flag().load(Relaxed) {
            break;
        }
        let Some(dir) = meta_path.parent() else { continue };
        if meta.reduction.is_some() {
            continue;
        }
        let r = crate::reduce::reduce_finding(dir, &sh.solvers, &opts, Duration::from_secs_f64(sh.cfg.timeout));
        let ev = match &r {
            Ok(rep) => serde_json::json!({"event": "reduced", "id": meta.id, "kind": meta.kind,
                "original_bytes": rep.original_bytes, "reduced_bytes": rep.reduced_bytes,
                "seconds": rep.seconds, "checks": rep.checks}),
            Err(e) => serde_json::json!({"event": "reduce-failed", "id": meta.id, "why": e.to_string()}),
        };
        if !quiet {
            match &r {
                Ok(rep) => eprintln!(
                    "reduced {} {}: {} -> {} bytes in {:.1}s",
                    meta.kind, meta.id, rep.original_bytes, rep.reduced_bytes, rep.seconds
                ),
                Err(e) => eprintln!("not reduced {} {}: {e}", meta.kind, meta.id),
            }
        }
        sh.events.emit(ev);
    }
    let merged = sh.store.lock().unwrap_or_else(|e| e.into_inner()).merge_same_reductions();
    for (kept, gone) in merged {
        let id = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !quiet {
            eprintln!("merged {} into {}: their reductions are identical", id(&gone), id(&kept));
        }
        sh.events.emit(serde_json::json!({"event": "merged", "id": id(&kept), "merged": id(&gone)}));
    }
}

fn worker(sh: &Shared, w: usize) {
    let limits = Limits {
        time: Duration::from_secs_f64(sh.cfg.timeout),
        memory: Some(sh.cfg.memory_mb << 20),
        ..Limits::default()
    };
    // Sessions enforce the per-seed limits with the watchdog alone (the solver's own limit
    // is the campaign's maximum), so a short grace keeps a timeout cheap. Confirmation
    // runs use `limits`, with the solver's own limit and the full grace.
    let session_limits = Limits { grace: Duration::from_millis(200), ..limits };
    let mut sessions: Vec<Session> =
        sh.solvers.iter().map(|s| Session::validating(s.clone(), session_limits)).collect();
    let tmp = sh.out.join("tmp");
    let mut prepared = PreparedCache::default();
    while !sh.stop.load(Relaxed) {
        let job = sh.sched.lock().unwrap_or_else(|e| e.into_inner()).next();
        match job {
            None => {
                // Nothing to do now: others may still be pre-screening seeds that will
                // become ready; when nothing is left at all, the worker ends.
                let sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
                if sched.screening == 0 && sched.ready.is_empty() && sched.prescreen.is_empty() {
                    break;
                }
                drop(sched);
                std::thread::sleep(Duration::from_millis(20));
            }
            Some(Job::Prescreen(i)) => prescreen(sh, &mut sessions, i, &limits, &tmp, w),
            Some(Job::Fuzz { seed, engine, turn }) => {
                fuzz_batch(sh, &mut prepared, &mut sessions, seed, engine, turn, &limits, &tmp, w)
            }
        }
    }
    drop(sessions); // kills the solver processes
}

/// The seed's expected answers, one per check-sat: the `(set-info :status ...)` in force
/// when each check-sat is reached (SMT-LIB 2.6 §4.1.8: a status describes the next
/// check-sat). `None` when no check-sat has a definite status.
fn truth(s: &Script) -> Option<Vec<Outcome>> {
    use crate::smtlib::ast::CommandKind;
    let mut cur: Option<Outcome> = None;
    let mut v = vec![];
    for c in &s.commands {
        match c.kind {
            CommandKind::SetInfo(_) if s.is_status(&c.kind) => {
                cur = match s.status_value(&c.kind) {
                    Some("sat") => Some(Outcome::Sat),
                    Some("unsat") => Some(Outcome::Unsat),
                    _ => None,
                };
            }
            ref k if s.is_check(k) => {
                v.push(cur.take().unwrap_or(Outcome::Unknown { reason: String::new() }));
            }
            _ => {}
        }
    }
    v.iter().any(|o| o.is_definite()).then_some(v)
}

/// The script each solver gets: without the `set-option`s its family would reject
/// ([`crate::solver::Family::without_foreign_options`]). Solvers of one family share a
/// copy.
fn per_solver(sh: &Shared, s: &Script) -> Vec<Script> {
    sh.solvers.iter().map(|spec| spec.own_script(s).into_owned()).collect()
}

/// The session text each solver gets ([`per_solver`]), printing the script once when no
/// solver needs its own copy (the common case: this runs for every mutant).
fn per_solver_texts(sh: &Shared, s: &Script) -> Vec<String> {
    let mut plain: Option<String> = None;
    sh.solvers
        .iter()
        .map(|spec| match spec.family.without_foreign_options(s) {
            Some(own) => session_text(&own).0,
            None => plain.get_or_insert_with(|| session_text(s).0).clone(),
        })
        .collect()
}

fn prescreen(sh: &Shared, sessions: &mut [Session], i: usize, limits: &Limits, tmp: &Path, w: usize) {
    let seed = &sh.seeds[i];
    let mut script = seed.script.clone();
    strip_status(&mut script);
    let texts = per_solver_texts(sh, &script);
    let checks = smtlib::checks(&script);
    let mut results: Vec<Option<QueryResult>> = vec![None; sh.solvers.len()];
    let mut readers = vec![];
    let mut slowest = Duration::ZERO;
    let mut why = vec![];
    for (k, sess) in sessions.iter_mut().enumerate() {
        if let Some(r) = sh.solvers[k].cannot_read(&seed.script) {
            why.push(format!("{}: {r}", sh.solvers[k].name));
            continue;
        }
        sess.set_time_limit(limits.time);
        let r = sess.query(&texts[k], checks);
        sh.counters.solver_calls.fetch_add(1, Relaxed);
        match r.outcome() {
            Outcome::Error { message } => why.push(format!("{}: {message}", sh.solvers[k].name)),
            Outcome::Timeout => why.push(format!("{}: timeout", sh.solvers[k].name)),
            _ => {
                readers.push(k);
                slowest = slowest.max(r.wall);
            }
        }
        results[k] = Some(r);
    }
    if checks > 0 {
        let refs: Vec<Option<&QueryResult>> = results.iter().map(|r| r.as_ref()).collect();
        // A STORM instance is satisfiable by construction: its witness is the truth.
        let witness = seed.witness.as_deref().filter(|_| sh.cfg.triage);
        let t = match witness {
            Some(_) => Some(vec![Outcome::Sat; checks]),
            None => truth(&seed.script),
        };
        for v in oracle::judge(&refs, t.as_deref()) {
            sh.counters.candidates.fetch_add(1, Relaxed);
            let cand = Candidate {
                seed: i,
                trigger: &script,
                engine: if sh.cfg.triage { "triage" } else { "seed" },
                edits: serde_json::json!([]),
                rng_seed: 0,
                truth: t.as_deref(),
                seed_finding: !sh.cfg.triage,
                witness,
            };
            let c = confirm_and_store(sh, &cand, &v, limits, tmp, w);
            // Even when the fresh run does not reproduce it, the seed is unreliable for
            // this solver: its mutants would mostly repeat the same failure.
            let mut s = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
            let blames = &mut s.state[i].seed_blames;
            blames.push((v.kind, c.and_then(|c| c.blamed).or(v.blamed), v.signature.clone()));
            if v.kind == BugKind::Soundness {
                blames.push((BugKind::Soundness, None, String::new()));
            }
        }
    }
    // Adaptive limit: a few times the seed's own solving time, within the campaign's.
    let limit = (slowest * 5 + Duration::from_millis(250)).clamp(Duration::from_millis(500), limits.time);
    let mut sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
    sched.screening -= 1;
    let st = &mut sched.state[i];
    st.solvers = readers.clone();
    st.limit = limit;
    // A seed only one of several solvers reads can find crashes only: not worth its turns.
    let lone = readers.len() < 2 && sh.solvers.len() >= 2;
    if lone {
        why.push("read by fewer than two solvers: no differential testing".into());
    }
    if sh.cfg.triage {
        // Artifacts are judged once, never fuzzed.
        drop(sched);
        sh.events.emit(serde_json::json!({"event": "triaged", "seed": seed.path}));
    } else if readers.is_empty() || checks == 0 || lone {
        drop(sched);
        sh.counters.seeds_demoted.fetch_add(1, Relaxed);
        sh.events.emit(serde_json::json!({"event": "seed-skipped", "seed": seed.path, "why": if checks == 0 { vec!["no check-sat".to_string()] } else { why }}));
    } else {
        st.active = true;
        sched.ready.push(i);
        drop(sched);
        let names: Vec<&str> = readers.iter().map(|&k| sh.solvers[k].name.as_str()).collect();
        sh.events.emit(serde_json::json!({"event": "seed-ready", "seed": seed.path, "solvers": names,
            "limit": limit.as_secs_f64(), "not_sent_to": why}));
        sh.counters.seeds_ready.fetch_add(1, Relaxed);
    }
}

#[allow(clippy::too_many_arguments)]
fn fuzz_batch<'s>(
    sh: &'s Shared,
    prepared_cache: &mut PreparedCache<'s>,
    sessions: &mut [Session],
    i: usize,
    engine: Engine,
    turn: u64,
    limits: &Limits,
    tmp: &Path,
    w: usize,
) {
    let seed = &sh.seeds[i];
    let (solvers, limit, seed_blames) = {
        let s = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
        (s.state[i].solvers.clone(), s.state[i].limit, s.state[i].seed_blames.clone())
    };
    let t0 = Instant::now();
    let pools = if engine == Engine::Storm {
        let p = storm_pools(sh, sessions, i, limits);
        if p.is_none() {
            if let Some(r) = sh.sched.lock().unwrap_or_else(|e| e.into_inner()).account(i, 4, 4, t0.elapsed()) {
                sh.counters.seeds_demoted.fetch_add(1, Relaxed);
                sh.events.emit(serde_json::json!({"event": "seed-demoted", "seed": seed.path, "why": r}));
            }
            return;
        }
        p
    } else {
        None
    };
    let (prepared, seed_text) = prepared_cache.get(sh, i, engine);
    let mut mutants: Vec<Mutant> = vec![];
    for b in 0..sh.cfg.batch as u64 {
        let rng_seed = mix(&[sh.cfg.seed, sh.run as u64, i as u64, engine as u64, turn, b]);
        let made = match &pools {
            Some(p) => {
                // The instance's text straight from the pools; its script is only built
                // for a candidate (see `StormSeed`).
                let mut rng = Rng::new(rng_seed);
                p.pools
                    .instance(&sh.cfg.storm, &mut rng)
                    .and_then(|a| crate::mutate::storm::instance_edit(a, &sh.cfg.storm, &mut rng))
                    .and_then(|e| {
                        // At most two bodies (with and without the z3 tactic), each built once.
                        let with = if p.tactics.contains(&true) { Some(instance_body(&e, true)?) } else { None };
                        let without = if p.tactics.contains(&false) { Some(instance_body(&e, false)?) } else { None };
                        let checks = with.as_ref().or(without.as_ref())?.1;
                        let texts = (0..sh.solvers.len())
                            .map(|k| {
                                let body = if p.tactics[k] { &with } else { &without };
                                format!("{}{}", p.prefixes[k], body.as_ref().map_or("", |b| b.0.as_str()))
                            })
                            .collect();
                        Some((vec![e], None, texts, checks))
                    })
            }
            None => {
                let script_mutant = |edits, mut m: Script| {
                    strip_status(&mut m);
                    let texts: Vec<String> = per_solver_texts(sh, &m);
                    let checks = smtlib::checks(&m);
                    (edits, Some(m), texts, checks)
                };
                match (prepared, seed_text) {
                    // OpFuzz's common case, an operator swap that keeps the sort: the
                    // seed's text with one symbol replaced; the script is only built for a
                    // candidate.
                    (Prepared::OpFuzz(op), Some(st)) => match opfuzz::choose(op, &mut Rng::new(rng_seed)) {
                        Some(opfuzz::Choice::Swap { edits, term, to }) => st
                            .swapped(&seed.script, term, to)
                            .map(|t| (edits, None, vec![t; sh.solvers.len()], st.checks)),
                        Some(opfuzz::Choice::Checked(edits, m)) => Some(script_mutant(edits, *m)),
                        None => None,
                    },
                    _ => prepared.mutate(&mut Rng::new(rng_seed)).map(|(e, m)| script_mutant(e, m)),
                }
            }
        };
        if let Some((edits, m, texts, checks)) = made {
            if !mutants.iter().any(|x| x.3 == texts) {
                mutants.push((rng_seed, edits, m, texts, checks));
            }
        }
    }
    if mutants.is_empty() {
        // Nothing to mutate with this engine: count it against the seed so a seed no
        // engine can change is eventually demoted.
        if let Some(r) = sh.sched.lock().unwrap_or_else(|e| e.into_inner()).account(i, 4, 4, t0.elapsed()) {
            sh.counters.seeds_demoted.fetch_add(1, Relaxed);
            sh.events.emit(serde_json::json!({"event": "seed-demoted", "seed": seed.path, "why": r}));
        }
        return;
    }
    let mut results: Vec<Vec<Option<QueryResult>>> = vec![vec![None; sh.solvers.len()]; mutants.len()];
    // The solvers are separate processes: each gets its batch at the same time (one poll
    // over all of them), so a batch costs the slowest solver, not their sum.
    let texts: Vec<Vec<(&str, usize)>> =
        (0..sessions.len()).map(|k| mutants.iter().map(|m| (m.3[k].as_str(), m.4)).collect()).collect();
    let (ks, mut jobs): (Vec<usize>, Vec<crate::solver::BatchJob>) = sessions
        .iter_mut()
        .zip(&texts)
        .enumerate()
        .filter(|(k, _)| solvers.contains(k))
        .map(|(k, (sess, t))| {
            sess.set_time_limit(limit);
            (k, (sess, &t[..]))
        })
        .unzip();
    let per_solver: Vec<(usize, Vec<QueryResult>)> =
        ks.into_iter().zip(crate::solver::query_batches(&mut jobs)).collect();
    for (k, rs) in per_solver {
        sh.counters.solver_calls.fetch_add(rs.len() as u64, Relaxed);
        for (j, r) in rs.into_iter().enumerate() {
            results[j][k] = Some(r);
        }
    }
    let mut bad = 0;
    for (j, (rng_seed, edits, m, _, checks)) in mutants.iter().enumerate() {
        sh.counters.mutants.fetch_add(1, Relaxed);
        let rs: Vec<Option<&QueryResult>> = results[j].iter().map(|r| r.as_ref()).collect();
        let errored = rs.iter().flatten().any(|r| r.outcomes.iter().any(|o| matches!(o, Outcome::Error { .. })));
        let timed_out = rs.iter().flatten().any(|r| r.outcomes.iter().any(|o| matches!(o, Outcome::Timeout)));
        if errored {
            sh.counters.invalid.fetch_add(1, Relaxed);
        } else {
            sh.counters.valid.fetch_add(1, Relaxed);
        }
        if timed_out {
            sh.counters.timeouts.fetch_add(1, Relaxed);
        }
        bad += (errored || timed_out) as u64;
        let edits_json = serde_json::to_value(edits).unwrap_or_default();
        // A STORM instance is satisfied by its witness: any `unsat` is a candidate.
        let sat = vec![Outcome::Sat; (*checks).max(1)];
        let truth = pools.as_ref().map(|_| &sat[..]);
        for mut v in oracle::judge(&rs, truth) {
            if pools.is_some() && v.blame_by == BlameBy::Status {
                v.blame_by = BlameBy::Witness;
            }
            // Soundness repeats are known from the blame alone; a crash only after the
            // fresh run has given its normalised message (checked in confirmation).
            if pools.is_none()
                && v.kind == BugKind::Soundness
                && seed_blames.iter().any(|(k, b, _)| *k == v.kind && *b == v.blamed)
            {
                sh.counters.inherited.fetch_add(1, Relaxed);
                continue;
            }
            sh.counters.candidates.fetch_add(1, Relaxed);
            let built;
            let trigger = match (m, &pools) {
                (Some(m), _) => m,
                (None, Some(p)) => {
                    match crate::mutate::edit::apply_with_baseline(&seed.script, edits, p.seed_diagnostics) {
                        Ok(s) => {
                            built = s;
                            &built
                        }
                        Err(e) => {
                            // The text was sent without the sort re-check; an instance the
                            // check refuses is the generator's doing, not a finding.
                            sh.events.emit(serde_json::json!({"event": "storm-instance-refused", "seed": seed.path, "why": e.to_string()}));
                            continue;
                        }
                    }
                }
                (None, None) => match crate::mutate::edit::apply_unchecked(&seed.script, edits) {
                    // An OpFuzz swap sent as text (see `SeedText`).
                    Ok(mut s) => {
                        strip_status(&mut s);
                        built = s;
                        &built
                    }
                    Err(_) => continue,
                },
            };
            let cand = Candidate {
                seed: i,
                trigger,
                engine: engine.name(),
                edits: edits_json.clone(),
                rng_seed: *rng_seed,
                truth,
                seed_finding: false,
                witness: pools.as_ref().map(|p| &p.pools.witness[..]),
            };
            confirm_and_store(sh, &cand, &v, limits, tmp, w);
        }
    }
    let spent = t0.elapsed();
    if let Some(r) = sh.sched.lock().unwrap_or_else(|e| e.into_inner()).account(i, mutants.len() as u64, bad, spent) {
        sh.counters.seeds_demoted.fetch_add(1, Relaxed);
        sh.counters.seeds_ready.fetch_sub(1, Relaxed);
        sh.events.emit(serde_json::json!({"event": "seed-demoted", "seed": seed.path, "why": r}));
    }
}

/// A seed as STORM's engine uses it, built once: its pools, and per solver the text every
/// instance starts with and whether it reads z3's tactics. Instances are sent as text
/// ([`instance_body`] after the solver's prefix); only a candidate is built as a script.
struct StormSeed {
    pools: crate::mutate::storm::Pools,
    prefixes: Vec<String>,
    tactics: Vec<bool>,
    seed_diagnostics: usize,
}

/// The STORM pools of seed `i`, built once: the reference solver's model of the seed's
/// assertions (of their negated conjunction if the seed is unsat) and every fragment's
/// value, in one query.
fn storm_pools(sh: &Shared, sessions: &mut [Session], i: usize, limits: &Limits) -> Option<Arc<StormSeed>> {
    if let Some(p) = sh.storm.lock().unwrap_or_else(|e| e.into_inner()).get(&i) {
        return p.clone();
    }
    let seed = &sh.seeds[i];
    let r = sh.reference;
    let sess = &mut sessions[r];
    sess.set_time_limit(limits.time);
    let mut calls = 0;
    let rng_seed = mix(&[sh.cfg.seed, i as u64, 0x5708]);
    let built = crate::oracle::witness::pools_for(&seed.script, sess, &sh.cfg.storm, rng_seed, &mut calls);
    sh.counters.solver_calls.fetch_add(calls, Relaxed);
    let pools = built.ok().map(|p| {
        let prefixes = sh
            .solvers
            .iter()
            .map(|spec| crate::mutate::edit::recombine_prefix(&spec.own_script(&seed.script)))
            .collect();
        Arc::new(StormSeed {
            pools: p,
            prefixes,
            tactics: sh.solvers.iter().map(|spec| spec.family.reads_check_sat_using()).collect(),
            seed_diagnostics: crate::smtlib::check::check(&seed.script).diagnostics.len(),
        })
    });
    if pools.is_none() {
        sh.events.emit(serde_json::json!({"event": "storm-no-model", "seed": seed.path}));
    }
    sh.storm.lock().unwrap_or_else(|e| e.into_inner()).insert(i, pools.clone());
    pools
}

/// Seeds prepared for an engine (sort check, scope walk, sites), kept for their next
/// turns: preparing costs more than the mutants themselves. Bounded; the oldest go first.
#[derive(Default)]
struct PreparedCache<'s> {
    /// A prepared seed, and for OpFuzz its session text with operator offsets when every
    /// solver reads the same text (no foreign options to remove).
    map: std::collections::HashMap<(usize, Engine), (Prepared<'s>, Option<crate::mutate::opfuzz::SeedText>)>,
    order: VecDeque<(usize, Engine)>,
}

impl<'s> PreparedCache<'s> {
    const CAPACITY: usize = 512;
    fn get(
        &mut self,
        sh: &'s Shared,
        seed: usize,
        engine: Engine,
    ) -> &(Prepared<'s>, Option<crate::mutate::opfuzz::SeedText>) {
        let key = (seed, engine);
        if !self.map.contains_key(&key) {
            if self.order.len() >= Self::CAPACITY {
                if let Some(old) = self.order.pop_front() {
                    self.map.remove(&old);
                }
            }
            let script = &sh.seeds[seed].script;
            let text = (engine == Engine::OpFuzz
                && sh.solvers.iter().all(|spec| spec.family.without_foreign_options(script).is_none()))
            .then(|| {
                let mut plain = script.clone();
                strip_status(&mut plain);
                crate::mutate::opfuzz::SeedText::new(&plain)
            });
            self.map.insert(key, (Prepared::new(engine, script), text));
            self.order.push_back(key);
        }
        &self.map[&key]
    }
}

/// A mutant in a batch: (RNG seed, edits, script, text per solver, check-sats).
/// A mutant: RNG seed, edits, the script (STORM's instances: built only for a candidate),
/// per-solver session texts, check count.
type Mutant = (u64, Vec<crate::mutate::edit::Edit>, Option<Script>, Vec<String>, usize);

/// A suspected bug on its way to the store.
struct Candidate<'a> {
    seed: usize,
    trigger: &'a Script,
    engine: &'a str,
    edits: serde_json::Value,
    rng_seed: u64,
    /// Expected answers when known (a seed's `:status`, STORM's witness).
    truth: Option<&'a [Outcome]>,
    seed_finding: bool,
    /// STORM's model: re-validated before an `unsat` becomes a finding.
    witness: Option<&'a [(String, String)]>,
}

/// Re-runs a candidate in fresh processes on every solver that reads the seed; if the
/// same verdict comes back (same kind, same blamed solver), bisects and stores it.
/// Returns the confirmed verdict.
fn confirm_and_store(
    sh: &Shared,
    cand: &Candidate,
    v: &oracle::Verdict,
    limits: &Limits,
    tmp: &Path,
    w: usize,
) -> Option<oracle::Verdict> {
    let Candidate { seed: i, trigger, engine, ref edits, rng_seed, truth, seed_finding, witness } = *cand;
    let seed = &sh.seeds[i];
    let text = smtlib::print(trigger);
    let checks = smtlib::checks(trigger);
    let readers: Vec<usize> =
        (0..sh.solvers.len()).filter(|&k| sh.solvers[k].cannot_read(&seed.script).is_none()).collect();
    // One file per distinct text the solvers get (foreign options removed per family).
    let variants = per_solver(sh, trigger);
    let mut files: Vec<PathBuf> = vec![];
    for (k, v) in variants.iter().enumerate() {
        let f = tmp.join(format!("w{w}-candidate-{k}.smt2"));
        // The same model validation as in the sessions.
        let text = format!("{}{}", sh.solvers[k].family.dialect().model_validation, smtlib::print(v));
        if std::fs::write(&f, text).is_err() {
            return None;
        }
        files.push(f);
    }
    let fresh: Vec<QueryResult> =
        readers.iter().map(|&k| crate::solver::run_file(&sh.solvers[k], &files[k], checks, limits)).collect();
    let mut all: Vec<Option<&QueryResult>> = vec![None; sh.solvers.len()];
    for (r, &k) in fresh.iter().zip(&readers) {
        all[k] = Some(r);
    }
    let again = oracle::judge(&all, truth);
    let mut verdict = match again.iter().find(|x| x.kind == v.kind && x.blamed == v.blamed) {
        Some(x) if witness.is_some() && x.blame_by == BlameBy::Status => {
            oracle::Verdict { blame_by: BlameBy::Witness, ..x.clone() }
        }
        Some(x) => x.clone(),
        None => {
            sh.counters.unconfirmed.fetch_add(1, Relaxed);
            sh.events
                .emit(serde_json::json!({"event": "unconfirmed", "seed": seed.path, "engine": engine, "kind": v.kind,
                "blamed": v.blamed.map(|b| sh.solvers[b].name.clone()), "signature": v.signature, "edits": edits}));
            return None;
        }
    };
    if verdict.blamed.is_none() {
        // A tie: settle it with a model cross-check.
        let sat = readers.iter().copied().find(|&k| all[k].is_some_and(|r| r.outcomes.first() == Some(&Outcome::Sat)));
        let unsat =
            readers.iter().copied().find(|&k| all[k].is_some_and(|r| r.outcomes.first() == Some(&Outcome::Unsat)));
        if let (Some(s), Some(u)) = (sat, unsat) {
            let both = sh.solvers[u].own_script(&variants[s]).into_owned();
            match oracle::resolve_tie(&both, &sh.solvers[s], &sh.solvers[u], tmp, limits) {
                Some(true) => {
                    verdict.blamed = Some(s);
                    verdict.signature = "sat where unsat is expected".into();
                }
                Some(false) => {
                    verdict.blamed = Some(u);
                    verdict.signature = "unsat where sat is expected".into();
                }
                None => {}
            }
            verdict.blame_by = if verdict.blamed.is_some() { BlameBy::ModelCheck } else { BlameBy::Undecided };
        }
    }
    if let (Some(wit), Some(b)) = (witness, verdict.blamed) {
        // The witness must still satisfy the instance according to every other solver
        // that reads it (and at least one): otherwise the generator, not the solver, is
        // wrong, and nothing is reported.
        let pinned = crate::mutate::storm::pinned(trigger, wit);
        let f = tmp.join(format!("w{w}-witness.smt2"));
        let others: Vec<usize> = readers.iter().copied().filter(|&k| k != b).collect();
        let mut sat = 0;
        let mut refuted = false;
        for &k in &others {
            let text = smtlib::parse(&pinned)
                .ok()
                .and_then(|s| sh.solvers[k].family.without_foreign_options(&s))
                .map_or(pinned.clone(), |s| smtlib::print(&s));
            if std::fs::write(&f, text).is_err() {
                return None;
            }
            let r = crate::solver::run_file(&sh.solvers[k], &f, checks.max(1), limits);
            if r.outcomes.contains(&Outcome::Unsat) {
                refuted = true;
            } else if r.outcomes.iter().all(|o| *o == Outcome::Sat) {
                sat += 1;
            }
        }
        let _ = std::fs::remove_file(&f);
        if refuted || sat == 0 {
            sh.counters.unconfirmed.fetch_add(1, Relaxed);
            sh.events.emit(
                serde_json::json!({"event": "witness-invalid", "seed": seed.path, "sat": sat, "refuted": refuted}),
            );
            return None;
        }
    }
    if !seed_finding {
        let sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
        let repeats = sched.state[i].seed_blames.iter().any(|(k, b, sig)| {
            *k == verdict.kind
                && *b == verdict.blamed
                && (verdict.kind == BugKind::Soundness || *sig == verdict.signature)
        });
        drop(sched);
        if repeats {
            sh.counters.inherited.fetch_add(1, Relaxed);
            sh.events.emit(serde_json::json!({"event": "inherited", "seed": seed.path, "kind": verdict.kind, "signature": verdict.signature}));
            return Some(verdict);
        }
    }
    let blamed_name = verdict.blamed.map_or("undecided".to_string(), |b| sh.solvers[b].name.clone());
    // Bisection over newer releases of the blamed solver.
    let (mut fixed_in, mut probes) = (None, vec![]);
    if let (true, Some(b)) = (sh.cfg.bisect, verdict.blamed) {
        let expected: Vec<Option<Outcome>> = (0..checks.max(1))
            .map(|c| {
                let others: Vec<&Outcome> = readers
                    .iter()
                    .filter(|&&k| k != b)
                    .filter_map(|&k| all[k].and_then(|r| r.outcomes.get(c)))
                    .filter(|o| o.is_definite())
                    .collect();
                truth.and_then(|t| t.get(c).cloned()).or_else(|| others.first().map(|o| (*o).clone()))
            })
            .collect();
        let kind = verdict.kind;
        let good = |r: &QueryResult| -> bool {
            let crashed = r.crash.is_some() || r.outcomes.iter().any(|o| matches!(o, Outcome::Crash { .. }));
            if kind == BugKind::Crash {
                return !crashed;
            }
            !crashed
                && expected.iter().enumerate().all(|(c, e)| match (e, r.outcomes.get(c)) {
                    (Some(e), Some(o)) if o.is_definite() => o == e,
                    (Some(_), _) => false,
                    (None, _) => true,
                })
        };
        (fixed_in, probes) = oracle::bisect(&sh.ladder, &sh.solvers[b], &files[b], checks, limits, &good);
    }
    let answers: Vec<SolverAnswer> = readers
        .iter()
        .zip(&fresh)
        .map(|(&k, r)| SolverAnswer {
            solver: sh.solvers[k].name.clone(),
            version: sh.solvers[k].version.clone(),
            outcomes: r.outcomes.iter().map(|o| o.to_string()).chain(r.crash.iter().map(|c| c.to_string())).collect(),
            stdout_excerpt: r.stdout_excerpt.clone(),
            stderr_excerpt: r.stderr_excerpt.clone(),
            seconds: r.wall.as_secs_f64(),
        })
        .collect();
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let meta = Meta {
        id: String::new(),
        kind: verdict.kind,
        blamed: blamed_name,
        blamed_version: verdict.blamed.and_then(|b| sh.solvers[b].version.clone()),
        blame_by: verdict.blame_by,
        logic: trigger.logic().unwrap_or("none").to_string(),
        signature: verdict.signature.clone(),
        fixed_in,
        bisection: probes,
        answers,
        seed: seed.path.display().to_string(),
        seed_hash: seed.hash.clone(),
        engine: engine.to_string(),
        edits: edits.clone(),
        rng_seed,
        found_at: sh.elapsed_before + sh.t0.elapsed().as_secs_f64(),
        found_unix: now,
        run: sh.run,
        trigger_bytes: text.len(),
        duplicates: 0,
        seed_finding,
        reduction: None,
        merged_keys: vec![],
    };
    // A STORM trigger carries its witness as a comment line (solvers never see it).
    let stored = match witness {
        Some(wit) => format!("{}\n{text}", crate::mutate::storm::witness_line(wit)),
        None => text,
    };
    let rec = sh.store.lock().unwrap_or_else(|e| e.into_inner()).record(meta.clone(), &stored);
    match rec {
        Ok(Recorded::New(dir)) => {
            if seed_finding {
                sh.counters.seed_findings.fetch_add(1, Relaxed);
            } else {
                sh.counters.new_bugs.fetch_add(1, Relaxed);
            }
            sh.events.emit(serde_json::json!({"event": "finding", "dir": dir, "kind": meta.kind, "blamed": meta.blamed, "fixed_in": meta.fixed_in, "seed": meta.seed, "engine": engine, "seed_finding": seed_finding}));
        }
        Ok(Recorded::Duplicate(dir)) => {
            sh.counters.duplicates.fetch_add(1, Relaxed);
            sh.events.emit(serde_json::json!({"event": "duplicate", "dir": dir, "seed": seed.path}));
        }
        Err(e) => sh.events.emit(serde_json::json!({"event": "store-error", "error": e.to_string()})),
    }
    Some(verdict)
}
