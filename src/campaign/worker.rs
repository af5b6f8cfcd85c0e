//! One worker's loop: take a turn, pre-screen its seed once, make a batch of mutants,
//! run them on every solver's session and hand suspicious answers to [`super::confirm`].

use super::batch::{claim_quota, make_batch};
use super::candidates::{candidates, count_mutant, Judged};
use super::engines::{partner_for, MutatorCache, SessionReference};
use super::prescreen::prescreen;
use super::*;
use crate::mutate::{Construction, Ctx, Mutant, Mutator, Skip};

/// [`worker`], with a panic caught: it is recorded, said in the events, and stops the
/// campaign (the other workers would otherwise wait forever for the seed it was
/// pre-screening, or the run would end with status 0 as if nothing happened).
pub(super) fn guarded(sh: &Shared, w: usize) {
    if let Err(e) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker(sh, w))) {
        let message = crate::util::error::panic_message(&*e);
        sh.events.emit(Event::WorkerPanicked { worker: w, message: message.clone() });
        sh.panics.lock().unwrap_or_else(|e| e.into_inner()).push(format!("worker {w}: {message}"));
        sh.stop.store(true, Relaxed);
    }
}

/// Whether the run's `--time` has passed.
pub(super) fn time_up(sh: &Shared) -> bool {
    sh.cfg.time.is_some_and(|t| sh.t0.elapsed() >= crate::util::time::seconds(t))
}

pub(super) fn worker(sh: &Shared, w: usize) {
    let limits = Limits {
        time: crate::util::time::seconds(sh.cfg.timeout),
        memory: Some(crate::solver::limits::mib_to_bytes(sh.cfg.memory_mb)),
        ..Limits::default()
    };
    // Sessions enforce the per-seed limits with the watchdog alone (the solver's own limit
    // is the campaign's maximum), so a short grace keeps a timeout cheap. Confirmation
    // runs use `limits`, with the solver's own limit and the full grace.
    let session_limits = Limits { grace: Duration::from_millis(200), ..limits };
    // A run's `--time` cuts the queries in flight at its end ([`Session::stop_at`]).
    let stop_at = sh.cfg.time.map(|t| sh.t0 + crate::util::time::seconds(t));
    let mut sessions: Vec<Session> = sh
        .solvers
        .iter()
        .map(|s| {
            let mut sess = Session::validating(s.clone(), session_limits);
            sess.stop_at = stop_at;
            sess
        })
        .collect();
    let tmp = crate::store::layout::tmp(&sh.out);
    let mut prepared = MutatorCache::default();
    while !sh.stop.load(Relaxed) {
        let job = sh.sched.lock().unwrap_or_else(|e| e.into_inner()).next();
        match job {
            None => {
                // Nothing to do now: others may still be pre-screening seeds that will
                // become ready; when nothing is left at all, the worker ends.
                let sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
                if sched.screening == 0 && sched.ready.is_empty() && !sched.unscreened() {
                    break;
                }
                drop(sched);
                std::thread::sleep(Duration::from_millis(20));
            }
            Some(Job::Prescreen(i)) => {
                let t = Instant::now();
                prescreen(sh, &mut sessions, i, &limits, &tmp, w);
                // The scheduler bounds pre-screening's share of the time by this.
                let spent = t.elapsed();
                sh.sched.lock().unwrap_or_else(|e| e.into_inner()).screened += spent.as_secs_f64();
                sh.counters.prescreen_ms.fetch_add(spent.as_millis() as u64, Relaxed);
            }
            Some(Job::Fuzz { seed, engine, turn }) => {
                // Fault injection for the test of `guarded` (as the fault proxy is for
                // solvers): a worker that panics must stop the campaign with an error.
                if std::env::var_os("SMTSTORM_INJECT_PANIC").is_some_and(|v| v == "worker") {
                    panic!("injected by SMTSTORM_INJECT_PANIC=worker");
                }
                if sh.seeds[seed].grown.is_some() {
                    sh.counters.grown_turns.fetch_add(1, Relaxed);
                }
                let t = Instant::now();
                fuzz_batch(sh, &mut prepared, &mut sessions, seed, engine, turn, &limits, &tmp, w);
                sh.counters.fuzz_ms.fetch_add(t.elapsed().as_millis() as u64, Relaxed);
            }
        }
    }
    drop(sessions); // kills the solver processes
}

/// A turn's solvers (those that read the seed, and for a fusion its partner too), their
/// time limit, and the blames the seeds already carry.
pub(super) struct Turn {
    pub(super) solvers: Vec<usize>,
    pub(super) limit: Duration,
    pub(super) seed_blames: Vec<(BugKind, Option<usize>, String)>,
    /// The seed's own answers per solver at its pre-screen.
    pub(super) baseline: Vec<Option<(Vec<&'static str>, Duration)>>,
}

/// One turn of `engine` on seed `i`: ready its mutator, make a batch of mutants, ask
/// every solver that reads the seed, judge each mutant and confirm its candidates.
#[allow(clippy::too_many_arguments)]
pub(super) fn fuzz_batch<'s>(
    sh: &'s Shared,
    cache: &mut MutatorCache<'s>,
    sessions: &mut [Session],
    i: usize,
    engine: Engine,
    turn: u64,
    limits: &Limits,
    tmp: &Path,
    w: usize,
) {
    let t0 = Instant::now();
    let mut answers = std::mem::take(&mut cache.reference_answers);
    if answers.len() > 4096 {
        answers.clear();
    }
    let m = cache.get(sh, i, engine);
    let ready = ready(sh, m, sessions, &mut answers, i, engine, turn, limits);
    cache.reference_answers = answers;
    let m = cache.get(sh, i, engine);
    let t = match ready {
        Ok(t) => t,
        // No partner yet (others may still be screened): the turn costs the seed nothing.
        Err(Skip::Wait) => return settle(sh, i, engine, Found::failed(0), t0, None),
        Err(Skip::Nothing) => return settle(sh, i, engine, Found::failed(4), t0, Some(false)),
    };
    let mut mutants = make_batch(sh, m, i, engine, turn);
    if mutants.is_empty() {
        // Nothing to mutate with this engine: count it against the seed so a seed no
        // engine can change is eventually demoted.
        return settle(sh, i, engine, Found::failed(4), t0, Some(false));
    }
    if !claim_quota(sh, &mut mutants) {
        return;
    }
    let Some(results) = ask(sh, sessions, &mutants, &t) else { return };
    let logic = sh.seeds[i].script().logic().unwrap_or("none");
    // This batch's yield for the report's per-engine and per-logic tables.
    let mut batch_yield = super::stats::Yield::default();
    // Distinct bugs this turn stored (not duplicates): what the engine is credited with.
    let mut new_bugs = 0;
    let mut bad = 0;
    // OpFuzz swaps sent as text keep the seed's commands, so its framing; STORM's
    // instances have one question per instance and none.
    let seed_framing = (!matches!(m.construction(), Construction::Witness(_)))
        .then(|| crate::smtlib::framing::framing(sh.seeds[i].script()));
    for (mutant, rs) in mutants.iter().zip(&results) {
        let rs: Vec<Option<&QueryResult>> = rs.iter().map(|r| r.as_ref()).collect();
        let was_bad = count_mutant(sh, &rs, t.limit, &mut batch_yield);
        bad += was_bad as u64;
        if engine == Engine::Equisat {
            let shown = crate::util::path::shown(&sh.seeds[i].path);
            sh.counters.instability.lock().unwrap_or_else(|e| e.into_inner()).record(
                &shown,
                &sh.solvers,
                &t.baseline,
                &rs,
            );
        }
        if let Some(l) = m.post_exec(mutant, &rs) {
            sh.learning.lock().unwrap_or_else(|e| e.into_inner()).record(logic, &l.keys, l.effect);
            sh.counters.config_learned.fetch_add(1, Relaxed);
            sh.counters.config_effects.fetch_add(l.effect as u64, Relaxed);
        }
        let judged = Judged { i, engine, mutant, rs: &rs, seed_framing: seed_framing.as_ref() };
        let before = (batch_yield.candidates, new_bugs);
        let judging = super::candidates::Judging { sh, m: &*m, t: &t, limits, tmp, w };
        new_bugs += candidates(&judging, &judged, &mut batch_yield);
        // The unsat-core oracle and the solvers' own self-checks, on their sample.
        new_bugs += super::reask::recheck(&judging, &judged, &mut batch_yield);
        let clean = !was_bad && (batch_yield.candidates, new_bugs) == before;
        super::grow::consider(sh, &*m, i, engine, mutant, &rs, t.limit, clean);
    }
    sh.counters.tallies.lock().unwrap_or_else(|e| e.into_inner()).add(engine.name(), logic, batch_yield);
    settle(sh, i, engine, Found { tested: mutants.len() as u64, bad, new_bugs }, t0, Some(true));
}

/// Accounts a turn's yield to the seed; when that demotes it, says so (`ready`: whether
/// it counted among the ready seeds; `None`: a turn that cannot demote).
fn settle(sh: &Shared, i: usize, engine: Engine, found: Found, t0: Instant, ready: Option<bool>) {
    let demoted = sh.sched.lock().unwrap_or_else(|e| e.into_inner()).account(i, engine, found, t0.elapsed());
    let (Some(r), Some(ready)) = (demoted, ready) else { return };
    // `seeds_ready` and `seeds_demoted` count the suite's seeds ([`super::grow`]).
    let suite = sh.seeds[i].grown.is_none();
    sh.counters.seeds_demoted.fetch_add(suite as u64, Relaxed);
    if ready && suite {
        sh.counters.seeds_ready.fetch_sub(1, Relaxed);
    }
    sh.events.emit(Event::SeedDemoted { seed: crate::util::path::shown(&sh.seeds[i].path), why: r.to_string() });
}

/// Readies `m` for this turn on seed `i`: its solvers and limit (a fusion's partner
/// changes both), and what the engine may need ([`Ctx`]).
#[allow(clippy::too_many_arguments)]
fn ready<'s>(
    sh: &'s Shared,
    m: &mut (dyn Mutator<'s> + 's),
    sessions: &mut [Session],
    answers: &mut std::collections::HashMap<u64, crate::mutate::bec::BecAnswer>,
    i: usize,
    engine: Engine,
    turn: u64,
    limits: &Limits,
) -> std::result::Result<Turn, Skip> {
    let seed = &sh.seeds[i];
    let (mut solvers, mut limit, mut seed_blames, baseline) = {
        let s = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
        let st = &s.state[i];
        (st.solvers.clone(), st.limit, s.blames(i), st.baseline.clone())
    };
    let mut partner = None;
    if m.wants_partner() {
        let p = partner_for(sh, i, engine, turn).ok_or(Skip::Wait)?;
        (solvers, limit) = (p.solvers.clone(), p.limit.min(limits.time));
        seed_blames.extend(p.seed_blames.iter().cloned());
        let other = &sh.seeds[p.seed];
        partner =
            Some(crate::mutate::Partner { script: other.script(), path: other.path.display().to_string(), sat: p.sat });
    }
    let r = sh.reference;
    let seed_draw = |tag: u64| mix(&[sh.cfg.seed, seed.draw, tag]);
    let mut reference =
        SessionReference { sh, session: &mut sessions[r], seed: i, limit, campaign_limit: limits.time, answers };
    let mut ctx = Ctx {
        solvers: &sh.solvers,
        options: &sh.options,
        storm: &sh.cfg.storm,
        batch: sh.cfg.batch,
        seed_draw: &seed_draw,
        turn_draw: mix(&[sh.cfg.seed, sh.run as u64, seed.draw, engine as u64, turn]),
        reference_reads: solvers.contains(&r),
        reference: Some(&mut reference),
        partner,
        learning: sh.cfg.config_learning.then(|| (&sh.learning, seed.script().logic().unwrap_or("none"))),
        baseline: baseline.clone(),
    };
    m.prepare(seed.script(), &mut ctx)?;
    Ok(Turn { solvers, limit, seed_blames, baseline })
}

/// Every solver of the turn's answers per mutant; `None` when the run's time is up (the
/// answers cut at its end are not judged, and confirming would run past it).
fn ask(sh: &Shared, sessions: &mut [Session], mutants: &[Mutant], t: &Turn) -> Option<Vec<Vec<Option<QueryResult>>>> {
    let mut results: Vec<Vec<Option<QueryResult>>> = vec![vec![None; sh.solvers.len()]; mutants.len()];
    // The solvers are separate processes: each gets its batch at the same time (one poll
    // over all of them), so a batch costs the slowest solver, not their sum.
    let texts: Vec<Vec<(&str, usize)>> =
        (0..sessions.len()).map(|k| mutants.iter().map(|m| (m.texts[k].as_str(), m.checks)).collect()).collect();
    let (ks, mut jobs): (Vec<usize>, Vec<crate::solver::BatchJob>) = sessions
        .iter_mut()
        .zip(&texts)
        .enumerate()
        .filter(|(k, _)| t.solvers.contains(k))
        .map(|(k, (sess, q))| {
            sess.set_time_limit(t.limit);
            (k, (sess, &q[..]))
        })
        .unzip();
    let per_solver: Vec<(usize, Vec<QueryResult>)> =
        ks.into_iter().zip(crate::solver::query_batches(&mut jobs)).collect();
    if time_up(sh) {
        return None;
    }
    for (k, rs) in per_solver {
        sh.counters.solver_calls.fetch_add(rs.len() as u64, Relaxed);
        for (j, r) in rs.into_iter().enumerate() {
            results[j][k] = Some(r);
        }
    }
    let all = results.iter().flat_map(|r| r.iter().enumerate().filter_map(|(k, q)| q.as_ref().map(|q| (k, q))));
    sh.counters.tallies.lock().unwrap_or_else(|e| e.into_inner()).count_outcomes(&sh.solvers, all);
    Some(results)
}
