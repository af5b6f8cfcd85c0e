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

mod batch;
mod candidates;
mod confirm;
mod engines;
pub mod event;
mod grow;
mod instability;
mod prescreen;
mod reask;
mod regress;
pub mod regroup;
pub mod report;
mod schedule;
mod stats;
pub mod triage;
mod worker;

use confirm::{confirm_and_store, Candidate};
pub use event::{Event, Events};
use schedule::{Found, Job, Scheduler, Seed, SeedState};
pub use stats::{Counters, Stats};

use crate::oracle::{self, BlameBy, BugKind};
use crate::store;
pub use crate::store::campaign::{CampaignFile, Config, Shard};
use crate::util::hash::mix;
use crate::util::stop::stop_flag;

use crate::mutate::{choice::Rng, edit::strip_status, Engine};
use crate::smtlib::{self, Script};
use crate::solver::{Limits, Outcome, QueryResult, Registry, Session, SolverSpec};
use crate::util::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use store::{Meta, Origin, Recorded, SolverAnswer, Store};

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
    /// `solvers[i].family`: who votes ([`oracle::judge`]).
    families: Vec<crate::solver::Family>,
    ladder: Vec<SolverSpec>,
    /// The suite's seeds, then those grown from mutants ([`grow`]).
    seeds: grow::Seeds,
    /// What the campaign has seen of the solvers' behaviour, and the seeds it grew.
    growth: Mutex<grow::Growth>,
    sched: Mutex<Scheduler>,
    store: Mutex<Store>,
    counters: Counters,
    events: Events,
    out: PathBuf,
    run: u32,
    t0: Instant,
    elapsed_before: f64,
    stop: AtomicBool,
    /// Mutants this run may still test (`--mutants N`): a batch claims its share before it
    /// asks any solver, so a run tests exactly N, not N rounded up to whole batches.
    quota: Option<std::sync::atomic::AtomicU64>,
    /// Seeds skipped at their pre-screen, by reason: a run in which every seed was
    /// skipped fuzzed nothing, and says why ([`Error::NothingToFuzz`]).
    skipped: Mutex<std::collections::BTreeMap<String, usize>>,
    /// Panics of workers (each stops the campaign: the run ends with an error).
    panics: Mutex<Vec<String>>,
    /// STORM pools per seed, built on the first STORM turn (`None`: no usable model).
    storm: Mutex<std::collections::HashMap<usize, Option<Arc<crate::mutate::storm::Pools>>>>,
    /// Index of the reference solver.
    reference: usize,
    /// The configuration engine's tactics and parameters ([`configuration_space`]).
    options: crate::solver::options::Options,
    /// What the configuration engine learned of which options matter on which logic.
    learning: Mutex<crate::mutate::config::Learning>,
    /// Per solver, quick pre-screens in a row that cut it ([`prescreen::QuickCuts`]).
    quick_cuts: prescreen::QuickCuts,
}

/// The configuration engine's space: the tactics and parameters every z3 release under
/// test lists, and the options every cvc5 (bitwuzla) release under test accepts (one
/// mutant goes to all releases of a family). A family's part is empty when none of it is
/// under test or one release cannot be asked, which is said. Also which family reads
/// which option, from every table read ([`crate::solver::OptionOwners`]), for the
/// campaign's solvers.
fn configuration_space(
    solvers: &[SolverSpec],
    events: &Events,
) -> (crate::solver::options::Options, crate::solver::OptionOwners) {
    use crate::solver::{options, Family, OptionOwners};
    let mut owners = OptionOwners::default();
    // One thread per release: each asks its own process (a few seconds each).
    let asked_of = |family: Family, owners: &mut OptionOwners| -> Option<options::Options> {
        let of: Vec<&SolverSpec> = solvers.iter().filter(|s| s.family == family).collect();
        let asked: Vec<std::io::Result<(options::Options, bool)>> = std::thread::scope(|sc| {
            let handles: Vec<_> = of.iter().map(|spec| sc.spawn(|| options::extract_cached(spec))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(std::io::Error::other("panicked")))).collect()
        });
        for (spec, r) in of.iter().zip(&asked) {
            if let Ok((o, _)) = r {
                o.add_owners(spec.family, owners);
            }
        }
        let mut tables = vec![];
        for (spec, r) in of.iter().zip(asked) {
            match r {
                Ok((o, cached)) => {
                    events.emit(Event::Options {
                        solver: spec.name.clone(),
                        tactics: o.tactics.len(),
                        set_options: o.set_options.len(),
                        cached,
                    });
                    tables.push(o)
                }
                Err(e) => {
                    events.emit(Event::OptionsUnavailable { solver: spec.name.clone(), why: e.to_string() });
                    return None;
                }
            }
        }
        Some(options::intersect(&tables))
    };
    let z3 = asked_of(Family::Z3, &mut owners).unwrap_or_default();
    // Options go to the one family whose table lists them ([`OptionOwners::owner`], as
    // far as the tables read so far tell); a name both cvc5 and bitwuzla list is never
    // set.
    let mut set_options = vec![];
    for family in [Family::Cvc5, Family::Bitwuzla] {
        let o = asked_of(family, &mut owners).unwrap_or_default();
        set_options.extend(o.set_options.into_iter().filter(|p| owners.owner(&format!(":{}", p.name)) == Some(family)));
    }
    (options::Options { tactics: z3.tactics, set_options, ..Default::default() }, owners)
}

/// Runs (or resumes) a campaign writing to `out`. `quiet` silences the progress line;
/// `json` also prints events to stdout. Fails at once if another process uses `out`
/// ([`store::lock`]).
/// `reconfigure`: a resumed store may run with settings other than those it was made
/// with ([`Config::differences`]); without it that is [`Error::SettingsDiffer`], decided
/// once the store is ours (a store in use says so first).
pub fn run(
    cfg: Config,
    registry: &Registry,
    out: &Path,
    quiet: bool,
    json: bool,
    reconfigure: bool,
) -> Result<Summary> {
    cfg.validate()?;
    let lock = store::lock::lock(out)?;
    if !reconfigure {
        if let Ok(Some(prev)) = CampaignFile::read(out) {
            let changes = prev.config.differences(&cfg);
            if !changes.is_empty() {
                return Err(Error::SettingsDiffer {
                    out: out.to_path_buf(),
                    changes: changes.iter().map(|(k, a, b)| format!("{k}: stored {a}, given {b}")).collect(),
                });
            }
        }
    }
    run_locked(cfg, registry, out, quiet, json, &lock)
}

/// [`run`] for a caller that already holds the store's lock (triage, which writes more
/// after the campaign).
pub fn run_locked(
    cfg: Config,
    registry: &Registry,
    out: &Path,
    quiet: bool,
    json: bool,
    _lock: &store::lock::StoreLock,
) -> Result<Summary> {
    // `--time` counts from here: loading seeds and asking z3 for its tactics are in it.
    let started = Instant::now();
    cfg.validate()?;
    let io = |e: std::io::Error| Error::io(out, e);
    crate::util::fs::create_dirs(out).map_err(io)?;
    crate::solver::sandbox::use_scratch_dir(&store::layout::scratch(out)).map_err(io)?;
    let mut solvers = crate::solver::resolve::resolve_campaign(registry, &cfg.solvers)?;
    if solvers.is_empty() {
        return Err(Error::NoSolvers { registry: crate::solver::registry::default_toml() });
    }
    crate::solver::resolve::refuse_non_solvers(&solvers, &store::layout::scratch(out))?;
    // Configured variants of solvers whose options are command-line ones (yices), asked
    // besides them ([`crate::mutate::config::command_line_variants`]); drawn from the
    // campaign's seed, so a resumed campaign asks the same ones and another seed or
    // shard others.
    let engines = if cfg.engines.is_empty() { Engine::DEFAULT.to_vec() } else { cfg.engines.clone() };
    let mut variants_said = vec![];
    if engines.contains(&Engine::Config) && !cfg.triage {
        let shard = cfg.shard.map_or(0, |s| (u64::from(s.index) << 32) | u64::from(s.count));
        let mut rng = crate::mutate::choice::Rng::new(crate::util::hash::mix(&[cfg.seed, shard, 0x7961_6365]));
        let plain: Vec<SolverSpec> =
            solvers.iter().filter(|s| s.family == crate::solver::Family::Yices).cloned().collect();
        for spec in plain {
            match crate::solver::options::extract_cached(&spec) {
                Ok((table, _)) => {
                    let vs = crate::mutate::config::command_line_variants(&spec, &table.command_line, &mut rng);
                    variants_said.push(Event::Variants {
                        solver: spec.name.clone(),
                        options: table.command_line.len(),
                        variants: vs.iter().map(|v| v.command.clone()).collect(),
                    });
                    for v in vs {
                        if !solvers.iter().any(|s| s.name == v.name) {
                            solvers.push(v);
                        }
                    }
                }
                Err(e) => {
                    variants_said.push(Event::OptionsUnavailable { solver: spec.name.clone(), why: e.to_string() })
                }
            }
        }
    }
    // A campaign.json that exists but does not read is an error, never run 1 again (which
    // would restart the run count and the campaign's clock over stored findings).
    let prev: Option<CampaignFile> = CampaignFile::read_to_resume(out)?;
    let now_unix = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let cfile = CampaignFile {
        config: cfg.clone(),
        solvers: solvers.clone(),
        runs: prev.as_ref().map_or(1, |p| p.runs + 1),
        first_start_unix: prev.as_ref().map_or(now_unix, |p| p.first_start_unix),
        elapsed_before: prev.as_ref().map_or(0.0, |p| p.elapsed_before),
    };
    cfile.write(out).map_err(io)?;
    let store = Store::open(out).map_err(io)?;
    let events = Events::new(out, json);
    for (from, to) in store.quarantined() {
        events.emit(Event::Quarantined {
            from: crate::util::path::shown(from),
            to: crate::util::path::shown(to),
            why: store::layout::META_UNREADABLE.into(),
        });
        if !quiet {
            eprintln!("smtstorm: {}: {}; moved to {}", from.display(), store::layout::META_UNREADABLE, to.display());
        }
    }
    events.emit(Event::Start { run: cfile.runs, solvers: solvers.iter().map(|s| s.name.clone()).collect() });
    // The store's history keeps what a resumed run changed (`smtstorm fuzz` refuses it
    // without `--reconfigure`; triage adds artifacts as seeds every time).
    if let Some(p) = &prev {
        let changes = p.config.differences(&cfg);
        if !changes.is_empty() {
            events.emit(Event::Reconfigured {
                changes: changes.into_iter().map(|(k, a, b)| (k.to_string(), a, b)).collect(),
            });
        }
    }
    for e in variants_said {
        events.emit(e);
    }

    // Seeds: every file is read; one that does not parse is reported with its position
    // and skipped, never fatal.
    let files = crate::util::files::collect_smt2(&cfg.seeds)?;
    if files.is_empty() && !cfg.triage {
        let paths: Vec<String> = cfg.seeds.iter().map(|p| crate::util::path::shown(p)).collect();
        return Err(Error::NoSeeds { why: format!("no .smt2 file under {}", paths.join(", ")) });
    }
    let found = files.len();
    let mut first_rejection = None;
    let mut seeds = vec![];
    let mut rejected = 0u64;
    for f in files {
        let bytes = match crate::util::files::read_input(&f) {
            Ok(b) => b,
            Err(e) => {
                // A FIFO, a device or a file over 4 GiB among the seeds: said, skipped.
                rejected += 1;
                first_rejection.get_or_insert_with(|| e.to_string());
                events.emit(Event::SeedRejected { seed: crate::util::path::shown(&f), error: e.to_string() });
                continue;
            }
        };
        if cfg.shard.is_some_and(|s| !s.takes(&bytes)) {
            continue;
        }
        match crate::solver::seed::load(&bytes) {
            Ok(crate::solver::seed::Loaded { script, sanitized, check_sat_added }) => {
                // Options that would make a solver write files go before anything is made
                // of the seed: its mutants and stored triggers never carry them (edits
                // replay on the seed without them). A seed that asserts but never asks (it
                // checks `simplify`/`eval` output) is fuzzed with a check-sat after its
                // assertions.
                if sanitized > 0 {
                    events.emit(Event::SeedSanitized { seed: crate::util::path::shown(&f), removed: sanitized });
                }
                if check_sat_added {
                    events.emit(Event::SeedCheckSatAdded { seed: crate::util::path::shown(&f) });
                }
                let text = String::from_utf8_lossy(&bytes);
                let witness = crate::mutate::storm::read_witness(&text);
                seeds.push(Seed {
                    hash: store::seed_hash(&text),
                    path: f,
                    loaded: script,
                    witness,
                    slice: Default::default(),
                    draw: seeds.len() as u64,
                    grown: None,
                })
            }
            Err(e) => {
                rejected += 1;
                let err = e.in_file(&f);
                first_rejection.get_or_insert_with(|| err.to_string());
                events.emit(Event::SeedRejected { seed: crate::util::path::shown(&f), error: err.to_string() });
            }
        }
    }
    if seeds.is_empty() && rejected as usize == found && !cfg.triage {
        return Err(Error::NoSeeds {
            why: format!("none of the {found} .smt2 files reads (the first: {})", first_rejection.unwrap_or_default()),
        });
    }
    // A shard draws from its own RNG stream: the same seed in two shards' campaigns
    // would otherwise make the same choices.
    let mut cfg = cfg;
    if let Some(sh) = cfg.shard {
        cfg.seed = crate::util::hash::mix(&[cfg.seed, u64::from(sh.index), u64::from(sh.count), 0x5a4d]);
        events.emit(Event::Shard { shard: sh.to_string(), seeds: seeds.len() });
    }
    // The configuration engine's space: what every z3 release under test lists.
    let (options, owners) =
        if engines.contains(&Engine::Config) { configuration_space(&solvers, &events) } else { Default::default() };
    // What each solver is sent keeps the options its family's table lists and drops the
    // others' ([`crate::solver::SolverSpec::own_script`]).
    for s in &mut solvers {
        s.option_owners = owners.clone();
    }
    if options.tactics.is_empty() && options.set_options.is_empty() && engines.contains(&Engine::Config) {
        // Without a table, the engine still frames checks incrementally (every family).
        events.emit(Event::EnginePartial {
            engine: Engine::Config,
            why: "no z3 or cvc5 under test listed its tactics or options: incremental framing only".into(),
        });
    }
    // The seeds grown by earlier runs, minimised (`--grow 0` leaves them stored, unread).
    let suite = seeds.len();
    let mut growth = grow::Growth::new(seeds.iter().map(|s| s.hash.as_str()));
    if cfg.grow > 0 && !cfg.triage {
        let (grown, features) = grow::resume(out, cfg.grow as usize, &seeds, &events);
        growth = grow::Growth::new(seeds.iter().chain(grown.iter()).map(|s| s.hash.as_str()));
        grow::adopt(&mut growth, suite, features, &grown);
        seeds.extend(grown);
    }
    let n = seeds.len();
    let budget =
        cfg.time.map(|t| crate::util::time::seconds((t * cfg.workers() as f64 / n.max(1) as f64 * 4.0).max(5.0)));
    let sched = Scheduler {
        prescreen: schedule::screening_order(&seeds.iter().map(|s| s.hash.as_str()).collect::<Vec<_>>(), cfg.seed),
        deferred: Default::default(),
        screened: 0.0,
        screening: 0,
        ready: vec![],
        state: vec![SeedState::default(); n],
        toggle: false,
        yields: vec![Default::default(); engines.len()],
        handed: 0,
        rotated: 0,
        engines,
        budget,
    };
    let mut sched = sched;
    for (st, s) in sched.state.iter_mut().zip(&seeds) {
        st.grown = s.grown.is_some();
        st.parent = s.grown.as_ref().and_then(|g| g.parent);
    }
    let reference = crate::solver::registry::reference_index(&solvers, cfg.reference.as_deref())
        .ok_or_else(|| Error::UnknownReference { name: cfg.reference.clone().unwrap_or_default() })?;
    if let Some(b) = cfg.baseline.as_deref().filter(|b| !solvers.iter().any(|s| s.name == *b)) {
        return Err(Error::UnknownBaseline { name: b.to_string() });
    }
    let shared = Arc::new(Shared {
        storm: Mutex::new(Default::default()),
        options,
        learning: Default::default(),
        reference,
        ladder: registry.solvers.clone(),
        families: solvers.iter().map(|s| s.family).collect(),
        quick_cuts: prescreen::QuickCuts::new(solvers.len()),
        solvers,
        // Room for every seed a run may grow, and as many retired by smaller ones.
        seeds: grow::Seeds::new(seeds, 2 * cfg.grow as usize),
        growth: Mutex::new(growth),
        sched: Mutex::new(sched),
        store: Mutex::new(store),
        counters: Counters::default(),
        events,
        out: out.to_path_buf(),
        run: cfile.runs,
        t0: started,
        elapsed_before: cfile.elapsed_before,
        stop: AtomicBool::new(false),
        quota: cfg.mutants.map(std::sync::atomic::AtomicU64::new),
        skipped: Default::default(),
        panics: Mutex::new(vec![]),
        cfg,
    });
    shared.counters.seeds_rejected.store(rejected, Relaxed);
    let tmp = store::layout::tmp(out);
    std::fs::create_dir_all(&tmp).map_err(io)?;

    let workers: Vec<_> = (0..shared.cfg.workers())
        .map(|w| {
            let sh = shared.clone();
            std::thread::spawn(move || worker::guarded(&sh, w))
        })
        .collect();

    // Progress, stats log and stop conditions.
    let stats_path = store::layout::stats(out);
    let mut last_stats = Instant::now();
    let tty = !quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
    loop {
        std::thread::sleep(Duration::from_millis(200));
        let el = shared.t0.elapsed().as_secs_f64();
        let c = &shared.counters;
        // `--time T` ends the whole run by about T: fuzzing stops early enough to leave
        // the new findings their reductions, up to a quarter of T.
        let done_time = shared.cfg.time.is_some_and(|t| el >= t - reduction_reserve(&shared, 0));
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
            // Most telling first, so that a line cut to the terminal's width keeps it.
            // Findings are counted by key here: causes are known once they are reduced
            // and regrouped, at the end ([`regroup`]).
            let mut line = format!(
                "[{:>5.0}s] findings {} new, {} seed, {} dup | {} mutants {:.0}/s, {:.0}% valid | {} calls/s | {} unconfirmed | seeds {} ready, {} demoted",
                el,
                s.new_bugs,
                s.seed_findings,
                s.duplicates,
                s.mutants,
                s.mutants as f64 / el.max(1e-3),
                100.0 * s.valid as f64 / (s.valid + s.invalid).max(1) as f64,
                (s.solver_calls as f64 / el.max(1e-3)).round(),
                s.unconfirmed,
                s.seeds_ready,
                s.seeds_demoted
            );
            if s.store_errors > 0 {
                line = format!("NOT STORED {} (see events.jsonl) | {line}", s.store_errors);
            }
            if tty {
                let line = crate::util::term::stderr_width().map_or(line.clone(), |w| crate::util::term::fit(&line, w));
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
        // A worker catches its own panics (`worker::guarded`); a join error is one that
        // escaped anyway.
        if w.join().is_err() {
            shared.panics.lock().unwrap_or_else(|e| e.into_inner()).push("a worker thread panicked".into());
        }
    }
    if tty {
        eprintln!();
    }
    let panics = std::mem::take(&mut *shared.panics.lock().unwrap_or_else(|e| e.into_inner()));
    if shared.cfg.reduce > 0.0 && panics.is_empty() {
        let deadline = shared.cfg.time.map(|t| shared.t0 + crate::util::time::seconds(t));
        reduce_findings(&shared, out, quiet, deadline);
    }
    let el = shared.t0.elapsed().as_secs_f64();
    let stats = shared.counters.snapshot(shared.run, el, shared.elapsed_before);
    let _ = crate::util::fs::append_line(&stats_path, &serde_json::to_string(&stats).unwrap_or_default());
    let cfile = CampaignFile { elapsed_before: shared.elapsed_before + el, ..cfile };
    cfile.write(out).map_err(io)?;
    let _ = std::fs::remove_dir_all(&tmp);
    let (bugs, seed_findings) = shared.store.lock().unwrap_or_else(|e| e.into_inner()).counts();
    shared.events.emit(Event::End { stats: Box::new(stats.clone()), bugs, seed_findings });
    if !panics.is_empty() {
        return Err(Error::Panicked { what: "a campaign worker".into(), message: panics.join("; ") });
    }
    let skipped = std::mem::take(&mut *shared.skipped.lock().unwrap_or_else(|e| e.into_inner()));
    if n > 0 && skipped.values().sum::<usize>() == n && !shared.cfg.triage {
        let mut why: Vec<(usize, String)> = skipped.into_iter().map(|(w, k)| (k, w)).collect();
        why.sort_by_key(|w| std::cmp::Reverse(w.0));
        return Err(Error::NothingToFuzz {
            seeds: n,
            why: why.iter().take(3).map(|(k, w)| format!("{k}: {w}")).collect::<Vec<_>>().join("; "),
        });
    }
    Ok(Summary { stats, bugs, seed_findings })
}

/// Seconds at the end of a run's `--time` kept for the reductions of the findings stored so
/// far and `more` still to come: `--reduce` each, up to a quarter of the run.
fn reduction_reserve(sh: &Shared, more: u64) -> f64 {
    if sh.cfg.reduce <= 0.0 {
        return 0.0;
    }
    let c = &sh.counters;
    let new = (c.new_bugs.load(Relaxed) + c.seed_findings.load(Relaxed) + more) as f64;
    (new * sh.cfg.reduce).min(sh.cfg.time.unwrap_or(0.0) / 4.0)
}

/// When a finding being stored must have finished bisecting (`None`: a run without
/// `--time`). `--time` bounds the whole run, and the reductions' reserve (this finding's
/// own included) comes before a bisection of the trigger as found: a reduction is ranged
/// over the releases anyway ([`regroup`]), on an input a maintainer reads. Found in the
/// quickstart, where a regression's bisection (four releases at 17 s) ran 90 s past a
/// 120 s `--time` and left no time for any reduction.
fn bisect_until(sh: &Shared) -> Option<Instant> {
    before_reserve(sh, 1)
}

/// The start of the reductions' reserve at the end of `--time` (`None`: no `--time`), for
/// the findings stored so far and `more` still to come.
fn before_reserve(sh: &Shared, more: u64) -> Option<Instant> {
    let t = sh.cfg.time?;
    Some(sh.t0 + crate::util::time::seconds(t - reduction_reserve(sh, more)))
}

/// The order findings are reduced in (issue 39): the budget goes to new causes first. A
/// finding that looks like one reduced or queued before it waits until every finding
/// with a new look has had its turn; each group stays in the order found. A look is the
/// kind with the normalised crash or validation message (the smtfd invalid model found
/// under ten logics is ten keys of one look), or, for a wrong answer, whose message says
/// little, the seed it came from.
fn reduction_order(list: Vec<(PathBuf, Meta)>) -> Vec<(PathBuf, Meta)> {
    let look = |m: &Meta| match m.kind {
        BugKind::Soundness => (m.kind, m.seed_hash.clone()),
        _ => (m.kind, m.signature.clone()),
    };
    let mut seen: std::collections::HashSet<(BugKind, String)> =
        list.iter().filter(|(_, m)| m.reduction.is_some()).map(|(_, m)| look(m)).collect();
    let (new, again): (Vec<_>, Vec<_>) =
        list.into_iter().partition(|(_, m)| m.reduction.is_none() && seen.insert(look(m)));
    new.into_iter().chain(again).collect()
}

/// Reduces every stored finding that has no reduction yet (the built-in judge of
/// [`crate::reduce::judge::FindingJudge`]), each for at most `cfg.reduce` seconds, with
/// one check per worker in parallel. Stops at SIGINT/SIGTERM; what was reduced so far is
/// kept (each `reduced.smt2` is written atomically after every success).
fn reduce_findings(sh: &Shared, out: &Path, quiet: bool, deadline: Option<Instant>) {
    for (meta_path, meta) in reduction_order(Store::list_in(out)) {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if stop_flag().load(Relaxed) || left.is_some_and(|l| l < Duration::from_millis(500)) {
            break;
        }
        let each = crate::util::time::seconds(sh.cfg.reduce);
        let opts = crate::reduce::Options {
            jobs: sh.cfg.workers(),
            time: Some(left.map_or(each, |l| l.min(each))),
            stop: Some(stop_flag()),
            ..Default::default()
        };
        let Some(dir) = meta_path.parent() else { continue };
        if meta.reduction.is_some() {
            continue;
        }
        let limit = crate::util::time::seconds(sh.cfg.timeout);
        let r = crate::reduce::reduce_finding(dir, &sh.solvers, &sh.ladder, &opts, limit);
        let ev = match &r {
            Ok(rep) => Event::Reduced {
                id: meta.id.clone(),
                kind: meta.kind,
                original_bytes: rep.original_bytes,
                reduced_bytes: rep.reduced_bytes,
                seconds: rep.seconds,
                checks: rep.checks,
            },
            Err(e) => Event::ReduceFailed { id: meta.id.clone(), why: e.to_string() },
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
    // One finding per cause: each reduction's range over the family's releases, then
    // the findings whose identities meet merged (issue 39).
    let timeout = crate::util::time::seconds(sh.cfg.timeout);
    let solvers = |_: &Path| sh.solvers.clone();
    let done = regroup::regroup(out, &sh.store, &solvers, &sh.ladder, timeout, deadline);
    let id = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if !quiet {
        for l in done.lines() {
            eprintln!("{l}");
        }
    }
    for (kept, gone) in done.merged {
        sh.events.emit(Event::Merged { id: id(&kept), merged: id(&gone) });
    }
}
