//! A seed's pre-screen: every solver answers it once; it becomes ready for fuzzing (with
//! its readers, time limit and known status), a seed finding, or is skipped with a reason.

use super::worker::time_up;
use super::*;

/// Counts a candidate and its voters: the solver families (each unknown command line its
/// own) that answered at least one check-sat definitely.
pub(super) fn count_candidate(sh: &Shared, rs: &[Option<&QueryResult>]) {
    let voters: std::collections::HashSet<(crate::solver::Family, usize)> = rs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_some_and(|r| r.outcomes.iter().any(|o| o.is_definite())))
        .map(|(k, _)| match sh.families[k] {
            crate::solver::Family::Other => (crate::solver::Family::Other, k),
            f => (f, usize::MAX),
        })
        .collect();
    sh.counters.candidates.fetch_add(1, Relaxed);
    sh.counters.definite_families.fetch_add(voters.len() as u64, Relaxed);
}

/// The seed's expected answers, one per check-sat: the `(set-info :status ...)` in force
/// when each check-sat is reached (SMT-LIB 2.6 §4.1.8: a status describes the next
/// check-sat). `None` when no check-sat has a definite status.
pub(super) fn truth(s: &Script) -> Option<Vec<Outcome>> {
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

/// The session text each solver gets ([`crate::solver::SolverSpec::own_script`]), printing the script once when no
/// solver needs its own copy ([`crate::mutate::solver_texts`]).
pub(super) fn per_solver_texts(sh: &Shared, s: &Script) -> Vec<String> {
    crate::mutate::solver_texts(&sh.solvers, s)
}

/// The first slice of `s`'s assertions ([`smtlib::slice::assertion_slices`]) that one of
/// the solvers in `who` answers `sat` or `unsat` to within a quarter of the campaign's
/// time limit (a slice that needs more leaves little time to its mutants), trying at most
/// [`SLICE_CALLS`] queries: `None` if none does.
fn answered_slice(
    sh: &Shared,
    sessions: &mut [Session],
    s: &Script,
    who: &[usize],
    limits: &Limits,
) -> Option<(Script, Vec<usize>)> {
    let floor = crate::util::time::seconds(crate::store::campaign::MIN_TIMEOUT_S);
    let limit = (limits.time / 4).max(floor).min(limits.time);
    let mut calls = 0;
    for keep in smtlib::slice::assertion_slices(s) {
        let slice = smtlib::slice::keep_commands(s, &keep);
        let checks = smtlib::checks(&slice);
        let texts = per_solver_texts(sh, &slice);
        for &k in who {
            if calls == SLICE_CALLS {
                return None;
            }
            calls += 1;
            sessions[k].set_time_limit(limit);
            let r = sessions[k].query(&texts[k], checks);
            sh.counters.solver_calls.fetch_add(1, Relaxed);
            if r.outcomes.len() == checks && r.outcomes.iter().any(Outcome::is_definite) {
                return Some((slice, keep));
            }
        }
    }
    None
}

/// Whether a solver that answered only `unknown` did so at the time limit (its own
/// limit is the campaign's, [`crate::solver::Limits`]): it ran out of time rather than
/// of theory.
pub(super) fn gave_up(r: &QueryResult, limit: Duration) -> bool {
    !r.outcomes.is_empty()
        && r.outcomes.iter().all(|o| matches!(o, Outcome::Unknown { .. }))
        && r.wall.as_secs_f64() >= 0.9 * limit.as_secs_f64()
}

/// The seed's expected answers (a STORM artifact's witness in triage: satisfiable by
/// construction; else its `:status`) and the oracles' verdicts on the answers `refs` to
/// `script`, which were asked under `limit`.
fn judged(
    sh: &Shared,
    seed: &Seed,
    script: &Script,
    refs: &[Option<&QueryResult>],
    limit: Duration,
) -> (Option<Vec<Outcome>>, Vec<oracle::Verdict>) {
    let t = match seed.witness.as_deref().filter(|_| sh.cfg.triage) {
        Some(_) => Some(vec![Outcome::Sat; smtlib::checks(script)]),
        None => truth(seed.script()),
    };
    let framing = crate::smtlib::framing::framing(script);
    let mut verdicts = oracle::judge(refs, &sh.families, t.as_deref(), Some(&framing));
    super::regress::against_baseline(sh, refs, t.as_deref(), Some(&framing), &mut verdicts);
    verdicts.extend(super::regress::candidates(sh, refs, t.as_deref(), limit, Some(&framing), &verdicts, &[]));
    (t, verdicts)
}

/// Whether `limit` cut `r` at any of its `checks` check-sats: an answer missing, a
/// timeout, or an `unknown` at the limit. ([`gave_up`] asks whether it gave up on all of
/// them; a seed whose second check-sat was cut must not be judged on its first.)
fn cut_at(r: &QueryResult, checks: usize, limit: Duration) -> bool {
    let at_limit = r.wall.as_secs_f64() >= 0.9 * limit.as_secs_f64();
    r.outcomes.len() < checks
        || r.outcomes.iter().any(|o| matches!(o, Outcome::Timeout))
        || (at_limit && r.outcomes.iter().any(|o| matches!(o, Outcome::Unknown { .. })))
}

/// Quick pre-screens in a row that cut one solver after which it gets the full limit.
const QUICK_CUTS: u32 = 16;

/// Per solver, the quick pre-screens in a row that cut it. A solver cut every time is
/// slow to start (a wrapper, a loaded machine; a cut restarts its process), not slow on
/// the seeds: after [`QUICK_CUTS`] of them it gets the full limit, until it answers
/// within the quick one again.
pub(super) struct QuickCuts(Vec<std::sync::atomic::AtomicU32>);

impl QuickCuts {
    pub(super) fn new(solvers: usize) -> QuickCuts {
        QuickCuts((0..solvers).map(|_| Default::default()).collect())
    }

    /// Whether solver `k` is asked under the quick `limit` (below the campaign's).
    fn quick(&self, k: usize, limit: Duration, limits: &Limits) -> bool {
        limit < limits.time && self.0[k].load(Relaxed) < QUICK_CUTS
    }

    /// Records a screen of solver `k`: asked under the quick limit or not, and whether
    /// what it answered was cut at the quick limit ([`cut_at`]). A solver given the full
    /// limit after its run of cuts that answers within the quick one gets it back.
    fn record(&self, k: usize, asked_quick: bool, cut: bool) {
        if asked_quick && cut {
            self.0[k].fetch_add(1, Relaxed);
        } else if !cut {
            self.0[k].store(0, Relaxed);
        }
    }
}

/// The limit of a seed's first, quick pre-screen: a tenth of the campaign's (1 s of the
/// default 10 s), never under the smallest limit a campaign admits. A seed every solver
/// answers within it is screened exactly as at the full limit (its own limit is a few
/// times its slowest answer, far below either).
fn quick_limit(full: Duration) -> Duration {
    (full / 10).max(crate::util::time::seconds(crate::store::campaign::MIN_TIMEOUT_S)).min(full)
}

/// Queries spent looking for a slice of one slow seed (ddmin's first two levels are six
/// slices: each gets at least one try).
const SLICE_CALLS: usize = 8;

pub(super) fn prescreen(sh: &Shared, sessions: &mut [Session], i: usize, limits: &Limits, tmp: &Path, w: usize) {
    let seed = &sh.seeds[i];
    // First at a tenth of the limit; at the whole limit for a seed deferred by its quick
    // screen, and in triage, which judges each artifact once.
    let deferred = sh.sched.lock().unwrap_or_else(|e| e.into_inner()).state[i].deferred;
    let mut limit = if deferred || sh.cfg.triage { limits.time } else { quick_limit(limits.time) };
    let (script, checks, results, readers, slowest, mut why) = loop {
        let mut script = seed.script().clone();
        strip_status(&mut script);
        let texts = per_solver_texts(sh, &script);
        let checks = smtlib::checks(&script);
        let mut results: Vec<Option<QueryResult>> = vec![None; sh.solvers.len()];
        let mut readers = vec![];
        let mut timed_out = vec![];
        let mut slowest = Duration::ZERO;
        let mut why = vec![];
        // Every solver that reads the seed gets it at the same time, as a fuzzing batch
        // does: the pre-screen costs the slowest solver, not the sum. On a large suite
        // pre-screening took over half the workers' time when solvers were asked in turn
        // (BENCHMARKS.md, session 19).
        let queries: Vec<[(&str, usize); 1]> = texts.iter().map(|t| [(t.as_str(), checks)]).collect();
        let mut asked = vec![];
        // Which solvers got the quick limit (the others the full one).
        let mut quick = vec![false; sh.solvers.len()];
        let mut jobs: Vec<crate::solver::BatchJob> = vec![];
        for (k, sess) in sessions.iter_mut().enumerate() {
            if let Some(r) = sh.solvers[k].cannot_read(seed.script()) {
                why.push(format!("{}: {r}", sh.solvers[k].name));
                continue;
            }
            quick[k] = sh.quick_cuts.quick(k, limit, limits);
            sess.set_time_limit(if quick[k] { limit } else { limits.time });
            asked.push(k);
            jobs.push((sess, &queries[k][..]));
        }
        let answers = crate::solver::query_batches(&mut jobs);
        drop(jobs);
        let mut quick_cut = vec![];
        for (k, r) in asked.into_iter().zip(answers.into_iter().map(|mut rs| rs.pop())) {
            let Some(r) = r else { continue };
            sh.counters.solver_calls.fetch_add(1, Relaxed);
            if limit < limits.time {
                let cut = cut_at(&r, checks, limit);
                if quick[k] && cut {
                    quick_cut.push(k);
                }
                sh.quick_cuts.record(k, quick[k], cut);
            }
            match r.outcome() {
                Outcome::Error { message } => why.push(format!("{}: {message}", sh.solvers[k].name)),
                Outcome::Timeout => {
                    why.push(format!("{}: timeout", sh.solvers[k].name));
                    timed_out.push(k);
                }
                _ => {
                    readers.push(k);
                    slowest = slowest.max(r.wall);
                    if gave_up(&r, if quick[k] { limit } else { limits.time }) {
                        timed_out.push(k);
                    }
                }
            }
            results[k] = Some(r);
        }
        if checks > 0 && !quick_cut.is_empty() {
            if time_up(sh) {
                // Cut by the run's end, not by the quick limit.
                sh.sched.lock().unwrap_or_else(|e| e.into_inner()).screening -= 1;
                return;
            }
            // The quick screen cut a solver. A seed whose answers so far already make a
            // candidate (a crash, two answers that differ, an older release deciding what
            // a newer one did not) is looked at closer now; any other waits for the full
            // limit until every seed has had its quick screen.
            let refs: Vec<Option<&QueryResult>> = results.iter().map(|r| r.as_ref()).collect();
            if !judged(sh, seed, &script, &refs, limit).1.is_empty() {
                limit = limits.time;
                continue;
            }
            sh.counters.seeds_deferred.fetch_add(1, Relaxed);
            let cut = quick_cut.iter().map(|&k| sh.solvers[k].name.clone()).collect();
            sh.events.emit(Event::SeedDeferred { seed: crate::util::path::shown(&seed.path), cut });
            sh.sched.lock().unwrap_or_else(|e| e.into_inner()).defer(i);
            return;
        }
        // Too slow for every solver that reads it (each timed out or gave up at the limit,
        // none answered sat or unsat): fuzzed as a slice of its assertions that one of them
        // decides, if there is one (then screened again as that slice).
        let decided = results.iter().flatten().any(|r| r.outcomes.iter().any(Outcome::is_definite));
        let slow = !decided && !timed_out.is_empty() && checks > 0;
        if slow && !sh.cfg.triage && seed.slice.get().is_none() {
            if let Some(slice) = answered_slice(sh, sessions, seed.script(), &timed_out, limits) {
                sh.counters.seeds_sliced.fetch_add(1, Relaxed);
                sh.events.emit(Event::SeedSliced {
                    seed: crate::util::path::shown(&seed.path),
                    commands: seed.script().commands.len(),
                    kept: slice.1.len(),
                });
                let _ = seed.slice.set(slice);
                continue;
            }
        }
        break (script, checks, results, readers, slowest, why);
    };
    if time_up(sh) {
        // The run ended during the pre-screen: what was cut says nothing of the seed.
        sh.sched.lock().unwrap_or_else(|e| e.into_inner()).screening -= 1;
        return;
    }
    let mut fusion = None;
    if checks > 0 {
        let refs: Vec<Option<&QueryResult>> = results.iter().map(|r| r.as_ref()).collect();
        let witness = seed.witness.as_deref().filter(|_| sh.cfg.triage);
        let (t, verdicts) = judged(sh, seed, &script, &refs, limits.time);
        if let Some(note) = t.as_deref().filter(|_| witness.is_none()).and_then(|t| oracle::status_mismatch(&refs, t)) {
            // Every solver contradicts the seed's :status: a note on the seed, no finding.
            sh.counters.status_mismatches.fetch_add(1, Relaxed);
            sh.events.emit(Event::StatusMismatch { seed: crate::util::path::shown(&seed.path), note });
        }
        // Semantic Fusion builds on the seed's answer: only a known one, of the whole seed
        // as loaded, in a form fusion takes apart.
        if witness.is_none() && seed.slice.get().is_none() && crate::mutate::fusion::Part::new(&script).is_some() {
            fusion = oracle::known_status(&refs, &sh.families, t.as_deref());
        }
        for v in verdicts {
            if time_up(sh) {
                break;
            }
            count_candidate(sh, &refs);
            let cand = Candidate {
                seed: i,
                trigger: &script,
                engine: if sh.cfg.triage { Origin::Triage } else { Origin::Seed },
                edits: &[],
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
            // The fresh run's signature when it confirmed: mutants' candidates are compared
            // with it, and they are confirmed in fresh processes too.
            let (blamed, signature) = match c {
                Some((c, _)) => (c.blamed, c.signature),
                None => (v.blamed, v.signature.clone()),
            };
            blames.push((v.kind, blamed, signature));
            if v.kind == BugKind::Soundness {
                blames.push((BugKind::Soundness, None, String::new()));
            }
        }
    }
    super::grow::screened(sh, i, &results);
    // Adaptive limit: a few times the seed's own solving time, within the campaign's; the
    // floor is the smallest timeout Config::validate admits, so the clamp cannot invert.
    let floor = crate::util::time::seconds(crate::store::campaign::MIN_TIMEOUT_S);
    let limit = (slowest * 5 + Duration::from_millis(250)).clamp(floor, limits.time);
    let mut sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
    sched.screening -= 1;
    let only_fusion = sched.engines == [Engine::Fusion];
    let st = &mut sched.state[i];
    st.solvers = readers.clone();
    st.limit = limit;
    st.turn_cost = slowest * sh.cfg.batch.min(u32::MAX as usize) as u32;
    st.fusion = fusion;
    st.baseline =
        results.iter().map(|r| r.as_ref().map(|r| (r.outcomes.iter().map(Outcome::name).collect(), r.wall))).collect();
    // A seed only one of several solvers reads has no second opinion, but its mutants can
    // still crash that solver, fail its model validation or make it contradict itself: it
    // is fuzzed (in the held-out run of BENCHMARKS.md, 44 of 200 seeds were cvc5's alone,
    // and the one cvc5 crash came from a model check).
    if readers.len() == 1 && sh.solvers.len() >= 2 {
        why.push("read by one solver only: crashes, invalid models and self-contradictions, no votes".into());
    }
    if sh.cfg.triage {
        // Artifacts are judged once, never fuzzed.
        drop(sched);
        sh.events.emit(Event::Triaged { seed: crate::util::path::shown(&seed.path) });
    } else if readers.is_empty() || checks == 0 || (only_fusion && fusion.is_none()) {
        drop(sched);
        sh.counters.seeds_demoted.fetch_add(seed.grown.is_none() as u64, Relaxed);
        if checks == 0 {
            why = vec!["no check-sat".to_string()];
        } else if !readers.is_empty() {
            why.push("fusion needs one check-sat whose answer is known (a :status no solver contradicts, or two solver families agreeing), no push/pop, datatypes or recursive functions".into());
        }
        *sh.skipped.lock().unwrap_or_else(|e| e.into_inner()).entry(why.join("; ")).or_default() += 1;
        sh.events.emit(Event::SeedSkipped { seed: crate::util::path::shown(&seed.path), why });
    } else {
        st.active = true;
        sched.ready.push(i);
        drop(sched);
        let names: Vec<String> = readers.iter().map(|&k| sh.solvers[k].name.clone()).collect();
        sh.events.emit(Event::SeedReady {
            seed: crate::util::path::shown(&seed.path),
            solvers: names,
            limit: limit.as_secs_f64(),
            not_sent_to: why,
            status: fusion.map(|sat| if sat { "sat" } else { "unsat" }.to_string()),
        });
        // Grown seeds read back by a resumed run are not the suite's.
        sh.counters.seeds_ready.fetch_add(seed.grown.is_none() as u64, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quick screen is cut at any of a seed's check-sats, not only at the first.
    #[test]
    fn a_cut_at_a_later_check_sat_is_a_cut() {
        let r = |o: Vec<Outcome>, ms: u64| QueryResult {
            wall: Duration::from_millis(ms),
            ..crate::solver::failed(o, std::time::Instant::now())
        };
        let unknown = || Outcome::Unknown { reason: String::new() };
        let limit = Duration::from_secs(1);
        assert!(!cut_at(&r(vec![Outcome::Sat, Outcome::Unsat], 200), 2, limit));
        assert!(cut_at(&r(vec![Outcome::Sat, Outcome::Timeout], 1000), 2, limit));
        assert!(cut_at(&r(vec![Outcome::Sat], 1000), 2, limit), "the second answer never came");
        assert!(cut_at(&r(vec![Outcome::Sat, unknown()], 950), 2, limit));
        assert!(!cut_at(&r(vec![Outcome::Sat, unknown()], 100), 2, limit), "an unknown well within the limit");
        assert!(!gave_up(&r(vec![Outcome::Sat, Outcome::Timeout], 1000), limit), "what the first version read");
    }

    /// A solver cut by [`QUICK_CUTS`] quick screens in a row gets the full limit; one
    /// answer within the quick limit gives it the quick limit back; a solver cut now and
    /// then keeps it; without a quick limit below the campaign's there is none.
    #[test]
    fn a_solver_cut_every_time_gets_the_full_limit_until_it_answers_quickly() {
        let limits = Limits { time: Duration::from_secs(10), ..Limits::default() };
        let quick = quick_limit(limits.time);
        let q = QuickCuts::new(2);
        for _ in 0..QUICK_CUTS - 1 {
            assert!(q.quick(0, quick, &limits));
            q.record(0, true, true);
            // Solver 1 is cut every other time: never a run of cuts.
            q.record(1, true, true);
            q.record(1, true, false);
        }
        assert!(q.quick(0, quick, &limits), "fifteen cuts are not yet a run");
        q.record(0, true, true);
        assert!(!q.quick(0, quick, &limits), "the sixteenth cut in a row: the full limit");
        assert!(q.quick(1, quick, &limits));
        // At the full limit, a slow answer changes nothing; one within the quick limit
        // gives the quick limit back.
        q.record(0, false, true);
        assert!(!q.quick(0, quick, &limits));
        q.record(0, false, false);
        assert!(q.quick(0, quick, &limits));
        assert!(!q.quick(1, limits.time, &limits), "no quick limit at the campaign's own");
    }
}
