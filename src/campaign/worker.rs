//! One worker's loop: take a turn, pre-screen its seed once, make a batch of mutants,
//! run them on every solver's session and hand suspicious answers to [`super::confirm`].

use super::*;

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
fn time_up(sh: &Shared) -> bool {
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
                let t = Instant::now();
                fuzz_batch(sh, &mut prepared, &mut sessions, seed, engine, turn, &limits, &tmp, w);
                sh.counters.fuzz_ms.fetch_add(t.elapsed().as_millis() as u64, Relaxed);
            }
        }
    }
    drop(sessions); // kills the solver processes
}

/// Counts a candidate and its voters: the solver families (each unknown command line its
/// own) that answered at least one check-sat definitely.
fn count_candidate(sh: &Shared, rs: &[Option<&QueryResult>]) {
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
/// solver needs its own copy (the common case: this runs for every mutant).
pub(super) fn per_solver_texts(sh: &Shared, s: &Script) -> Vec<String> {
    let mut plain: Option<String> = None;
    sh.solvers
        .iter()
        .map(|spec| match spec.without_foreign_options(s) {
            Some(own) => session_text(&own).0,
            None => plain.get_or_insert_with(|| session_text(s).0).clone(),
        })
        .collect()
}

/// The first slice of `s`'s assertions ([`smtlib::ast::assertion_slices`]) that one of
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
    for keep in smtlib::ast::assertion_slices(s) {
        let slice = smtlib::ast::keep_commands(s, &keep);
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
fn gave_up(r: &QueryResult, limit: Duration) -> bool {
    !r.outcomes.is_empty()
        && r.outcomes.iter().all(|o| matches!(o, Outcome::Unknown { .. }))
        && r.wall.as_secs_f64() >= 0.9 * limit.as_secs_f64()
}

/// Queries spent looking for a slice of one slow seed (ddmin's first two levels are six
/// slices: each gets at least one try).
const SLICE_CALLS: usize = 8;

/// The mutant text (over all solvers) after which a turn's batch stops: a batch of
/// [`crate::store::campaign::Config::batch`] mutants is held at once, with their scripts
/// and the solvers' input, so a seed of megabytes would cost many times its size per
/// mutant (issue 37). Under half a megabyte of text a mutant (all solvers together), the
/// default batch of 8 is whole.
const BATCH_BYTES: usize = 4 << 20;

pub(super) fn prescreen(sh: &Shared, sessions: &mut [Session], i: usize, limits: &Limits, tmp: &Path, w: usize) {
    let seed = &sh.seeds[i];
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
        let mut jobs: Vec<crate::solver::BatchJob> = vec![];
        for (k, sess) in sessions.iter_mut().enumerate() {
            if let Some(r) = sh.solvers[k].cannot_read(seed.script()) {
                why.push(format!("{}: {r}", sh.solvers[k].name));
                continue;
            }
            sess.set_time_limit(limits.time);
            asked.push(k);
            jobs.push((sess, &queries[k][..]));
        }
        let answers = crate::solver::query_batches(&mut jobs);
        drop(jobs);
        for (k, r) in asked.into_iter().zip(answers.into_iter().map(|mut rs| rs.pop())) {
            let Some(r) = r else { continue };
            sh.counters.solver_calls.fetch_add(1, Relaxed);
            match r.outcome() {
                Outcome::Error { message } => why.push(format!("{}: {message}", sh.solvers[k].name)),
                Outcome::Timeout => {
                    why.push(format!("{}: timeout", sh.solvers[k].name));
                    timed_out.push(k);
                }
                _ => {
                    readers.push(k);
                    slowest = slowest.max(r.wall);
                    if gave_up(&r, limits.time) {
                        timed_out.push(k);
                    }
                }
            }
            results[k] = Some(r);
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
        // A STORM instance is satisfiable by construction: its witness is the truth.
        let witness = seed.witness.as_deref().filter(|_| sh.cfg.triage);
        let t = match witness {
            Some(_) => Some(vec![Outcome::Sat; checks]),
            None => truth(seed.script()),
        };
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
        let framing = crate::smtlib::framing::framing(&script);
        for v in oracle::judge(&refs, &sh.families, t.as_deref(), Some(&framing)) {
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
        sh.counters.seeds_demoted.fetch_add(1, Relaxed);
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
        sh.counters.seeds_ready.fetch_add(1, Relaxed);
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn fuzz_batch<'s>(
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
    let (mut solvers, mut limit, mut seed_blames) = {
        let s = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
        (s.state[i].solvers.clone(), s.state[i].limit, s.state[i].seed_blames.clone())
    };
    let t0 = Instant::now();
    // Fusion's partner for this turn, with the solvers both seeds reach.
    let partner = if engine == Engine::Fusion {
        let Some(p) = fusion_partner(sh, i, turn) else {
            // No partner yet (others may still be screened): the turn costs the seed nothing.
            sh.sched.lock().unwrap_or_else(|e| e.into_inner()).account(i, engine, Found::failed(0), t0.elapsed());
            return;
        };
        (solvers, limit) = (p.solvers.clone(), p.limit.min(limits.time));
        seed_blames.extend(p.seed_blames.iter().cloned());
        Some(p)
    } else {
        None
    };
    let parts = partner.as_ref().and_then(|p| {
        Some((
            crate::mutate::fusion::Part::new(seed.script())?,
            crate::mutate::fusion::Part::new(sh.seeds[p.seed].script())?,
        ))
    });
    let pools = if engine == Engine::Storm {
        let p = storm_pools(sh, sessions, i, limits);
        if p.is_none() {
            if let Some(r) =
                sh.sched.lock().unwrap_or_else(|e| e.into_inner()).account(i, engine, Found::failed(4), t0.elapsed())
            {
                sh.counters.seeds_demoted.fetch_add(1, Relaxed);
                sh.events.emit(Event::SeedDemoted { seed: crate::util::path::shown(&seed.path), why: r.to_string() });
            }
            return;
        }
        p
    } else {
        None
    };
    // BEC works on ValFuzz's preparation of the seed (its constant sites).
    let mut answers = std::mem::take(&mut prepared_cache.bec_answers);
    let prep_engine = if engine == Engine::Bec { Engine::ValFuzz } else { engine };
    let logic = seed.script().logic().unwrap_or("none");
    if engine == Engine::Config && sh.cfg.config_learning {
        // What the campaign has learned so far of this logic's configurations.
        prepared_cache.get(sh, i, engine);
        let weights = sh.learning.lock().unwrap_or_else(|e| e.into_inner()).weights(logic);
        if let Some((Prepared::Config(p), _)) = prepared_cache.map.get_mut(&(i, engine)) {
            p.set_weights(Some(weights));
        }
    }
    let (prepared, seed_text) = prepared_cache.get(sh, i, prep_engine);
    let bec_made = match prepared {
        Prepared::ValFuzz(vp) if engine == Engine::Bec => {
            bec_mutants(sh, sessions, vp, &solvers, i, turn, limit, &mut answers)
        }
        _ => vec![],
    };
    let mut mutants: Vec<Mutant> = vec![];
    let mut batch_bytes = 0;
    for b in 0..sh.cfg.batch as u64 {
        // A batch holds its mutants' texts and scripts and the solvers' input at once:
        // on a seed of megabytes, fewer mutants a turn keep that within BATCH_BYTES.
        if batch_bytes >= BATCH_BYTES {
            break;
        }
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
                        Some((vec![e], None, texts, checks, None))
                    })
            }
            None => {
                // Fusion's and BEC's edits do not replay from the seed alone: their
                // scripts are always kept.
                let replays = !matches!(engine, Engine::Fusion | Engine::Bec);
                let script_mutant = |edits, mut m: Script| {
                    strip_status(&mut m);
                    let texts: Vec<String> = per_solver_texts(sh, &m);
                    let checks = smtlib::checks(&m);
                    let framing = Some(crate::smtlib::framing::framing(&m));
                    let big = texts.iter().map(String::len).max().unwrap_or(0) > KEEP_SCRIPT_BYTES;
                    let m = (!(big && replays)).then_some(m);
                    (edits, m, texts, checks, framing)
                };
                match (prepared, seed_text) {
                    _ if engine == Engine::Fusion => parts.as_ref().zip(partner.as_ref()).and_then(|((a, b), p)| {
                        let (recipe, m) = crate::mutate::fusion::fuse(a, b, p.sat, &mut Rng::new(rng_seed))?;
                        let other = sh.seeds[p.seed].path.display().to_string();
                        Some(script_mutant(vec![crate::mutate::edit::Edit::Fuse { other, recipe }], m))
                    }),
                    _ if engine == Engine::Bec => {
                        bec_made.get(b as usize).map(|(e, m)| script_mutant(e.clone(), m.clone()))
                    }
                    // OpFuzz's common case, an operator swap that keeps the sort: the
                    // seed's text with one symbol replaced; the script is only built for a
                    // candidate.
                    (Prepared::OpFuzz(op), Some(st)) => match opfuzz::choose(op, &mut Rng::new(rng_seed)) {
                        Some(opfuzz::Choice::Swap { edits, term, to }) => st
                            .swapped(seed.script(), term, to)
                            .map(|t| (edits, None, vec![t; sh.solvers.len()], st.checks, None)),
                        Some(opfuzz::Choice::Checked(edits, m)) => Some(script_mutant(edits, *m)),
                        None => None,
                    },
                    _ => prepared.mutate(&mut Rng::new(rng_seed)).map(|(e, m)| script_mutant(e, m)),
                }
            }
        };
        if let Some((edits, script, texts, checks, framing)) = made {
            batch_bytes += texts.iter().map(String::len).sum::<usize>();
            if !mutants.iter().any(|x| x.texts == texts) {
                mutants.push(Mutant { rng_seed, edits, script, texts, checks, framing });
            }
        }
    }
    prepared_cache.bec_answers = answers;
    if mutants.is_empty() {
        // Nothing to mutate with this engine: count it against the seed so a seed no
        // engine can change is eventually demoted.
        if let Some(r) =
            sh.sched.lock().unwrap_or_else(|e| e.into_inner()).account(i, engine, Found::failed(4), t0.elapsed())
        {
            sh.counters.seeds_demoted.fetch_add(1, Relaxed);
            sh.events.emit(Event::SeedDemoted { seed: crate::util::path::shown(&seed.path), why: r.to_string() });
        }
        return;
    }
    if let Some(q) = &sh.quota {
        let want = mutants.len() as u64;
        let got = match q.fetch_update(Relaxed, Relaxed, |left| Some(left.saturating_sub(want))) {
            Ok(left) | Err(left) => left.min(want),
        };
        mutants.truncate(got as usize);
        if mutants.is_empty() {
            sh.stop.store(true, Relaxed);
            return;
        }
    }
    let mut results: Vec<Vec<Option<QueryResult>>> = vec![vec![None; sh.solvers.len()]; mutants.len()];
    // The solvers are separate processes: each gets its batch at the same time (one poll
    // over all of them), so a batch costs the slowest solver, not their sum.
    let texts: Vec<Vec<(&str, usize)>> =
        (0..sessions.len()).map(|k| mutants.iter().map(|m| (m.texts[k].as_str(), m.checks)).collect()).collect();
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
    if time_up(sh) {
        // The run's time is up: answers cut at its end are not judged (and confirming a
        // candidate would run past it).
        return;
    }
    for (k, rs) in per_solver {
        sh.counters.solver_calls.fetch_add(rs.len() as u64, Relaxed);
        for (j, r) in rs.into_iter().enumerate() {
            results[j][k] = Some(r);
        }
    }
    {
        let all = results.iter().flat_map(|r| r.iter().enumerate().filter_map(|(k, q)| q.as_ref().map(|q| (k, q))));
        sh.counters.tallies.lock().unwrap_or_else(|e| e.into_inner()).count_outcomes(&sh.solvers, all);
    }
    // The seed's pre-screen answers, for the configuration engine's learning.
    let baseline = if engine == Engine::Config {
        sh.sched.lock().unwrap_or_else(|e| e.into_inner()).state[i].baseline.clone()
    } else {
        vec![]
    };
    // This batch's yield for the report's per-engine and per-logic tables.
    let mut batch_yield = super::stats::Yield::default();
    // Distinct bugs this turn stored (not duplicates): what the engine is credited with.
    let mut new_bugs = 0;
    let mut bad = 0;
    // OpFuzz swaps sent as text keep the seed's commands, so its framing; STORM's
    // instances have one question per instance and none.
    let seed_framing = pools.is_none().then(|| crate::smtlib::framing::framing(seed.script()));
    for (j, Mutant { rng_seed, edits, script: m, checks, framing: own_framing, .. }) in mutants.iter().enumerate() {
        sh.counters.mutants.fetch_add(1, Relaxed);
        batch_yield.mutants += 1;
        let rs: Vec<Option<&QueryResult>> = results[j].iter().map(|r| r.as_ref()).collect();
        let errored = rs.iter().flatten().any(|r| r.outcomes.iter().any(|o| matches!(o, Outcome::Error { .. })));
        // A solver that gave up at the limit counts as timed out: it says nothing about
        // the mutant, and a seed whose mutants all do so is retired.
        let timed_out =
            rs.iter().flatten().any(|r| r.outcomes.iter().any(|o| matches!(o, Outcome::Timeout)) || gave_up(r, limit));
        let exhausted = rs.iter().flatten().any(|r| r.outcomes.iter().any(|o| matches!(o, Outcome::Resource { .. })));
        if exhausted {
            sh.counters.resources.fetch_add(1, Relaxed);
        }
        if errored {
            sh.counters.invalid.fetch_add(1, Relaxed);
        } else {
            sh.counters.valid.fetch_add(1, Relaxed);
            batch_yield.valid += 1;
        }
        if timed_out {
            sh.counters.timeouts.fetch_add(1, Relaxed);
        }
        bad += (errored || timed_out || exhausted) as u64;
        if engine == Engine::Config {
            learn(sh, &baseline, logic, edits, &rs);
        }
        // A STORM instance is satisfied by its witness: any `unsat` is a candidate. A
        // fusion has its seeds' answer by construction.
        let built_answer = match &partner {
            Some(p) if p.sat => Outcome::Sat,
            Some(_) => Outcome::Unsat,
            None => Outcome::Sat,
        };
        let constructed = vec![built_answer; (*checks).max(1)];
        let truth = (pools.is_some() || partner.is_some()).then_some(&constructed[..]);
        let framing = own_framing.as_ref().or(seed_framing.as_ref());
        let verdicts = match truth {
            Some(t) if partner.is_some() => oracle::judge_constructed(&rs, &sh.families, t, framing),
            _ => oracle::judge(&rs, &sh.families, truth, framing),
        };
        for mut v in verdicts {
            if pools.is_some() && v.blame_by == BlameBy::Status {
                v.blame_by = BlameBy::Witness;
            }
            // Soundness repeats are known from the blame alone; a crash only after the
            // fresh run has given its normalised message (checked in confirmation).
            if pools.is_none()
                && v.kind == BugKind::Soundness
                && seed_blames.iter().any(|(k, b, sig)| {
                    // A self-contradiction is its own bug: another framing's is not the seed's.
                    *k == v.kind && *b == v.blamed && (v.blame_by != BlameBy::SelfContradiction || *sig == v.signature)
                })
            {
                sh.counters.inherited.fetch_add(1, Relaxed);
                continue;
            }
            count_candidate(sh, &rs);
            batch_yield.candidates += 1;
            let built;
            let trigger = match (m, &pools) {
                (Some(m), _) => m,
                (None, Some(p)) => {
                    match crate::mutate::edit::apply_with_baseline(seed.script(), edits, p.seed_diagnostics) {
                        Ok(s) => {
                            built = s;
                            &built
                        }
                        Err(e) => {
                            // The text was sent without the sort re-check; an instance the
                            // check refuses is the generator's doing, not a finding.
                            sh.events.emit(Event::StormInstanceRefused {
                                seed: crate::util::path::shown(&seed.path),
                                why: e.to_string(),
                            });
                            continue;
                        }
                    }
                }
                (None, None) => match crate::mutate::edit::apply_unchecked(seed.script(), edits) {
                    // An OpFuzz swap sent as text (see `SeedText`), or a large mutant's
                    // script dropped once printed (see `KEEP_SCRIPT_BYTES`).
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
                engine: Origin::Engine(engine),
                edits,
                rng_seed: *rng_seed,
                truth,
                seed_finding: false,
                witness: pools.as_ref().map(|p| &p.pools.witness[..]),
            };
            if time_up(sh) {
                // Confirming takes fresh processes, a per-query limit each: none is started
                // once the run's time is up.
                break;
            }
            new_bugs += confirm_and_store(sh, &cand, &v, limits, tmp, w).is_some_and(|(_, new)| new) as u64;
        }
    }
    sh.counters.tallies.lock().unwrap_or_else(|e| e.into_inner()).add(engine.name(), logic, batch_yield);
    let spent = t0.elapsed();
    if let Some(r) = sh.sched.lock().unwrap_or_else(|e| e.into_inner()).account(
        i,
        engine,
        Found { tested: mutants.len() as u64, bad, new_bugs },
        spent,
    ) {
        sh.counters.seeds_demoted.fetch_add(1, Relaxed);
        sh.counters.seeds_ready.fetch_sub(1, Relaxed);
        sh.events.emit(Event::SeedDemoted { seed: crate::util::path::shown(&seed.path), why: r.to_string() });
    }
}

/// Counts a configuration mutant for the engine's learning
/// ([`crate::mutate::config::Learning`]): only one whose edits are all configuration (a
/// formula edit would change behaviour by itself), and only the solvers its edits address
/// (z3 for a tactic, cvc5 for options). It had an effect when one of them answered a
/// check-sat with an outcome the seed never got, or took over twice or under half the
/// seed's time (where either is over 20 ms: below that, time is noise).
#[allow(clippy::type_complexity)]
fn learn(
    sh: &Shared,
    baseline: &[Option<(Vec<&'static str>, Duration)>],
    logic: &str,
    edits: &[crate::mutate::edit::Edit],
    rs: &[Option<&QueryResult>],
) {
    use crate::mutate::edit::Edit;
    use crate::solver::Family;
    if !edits.iter().all(|e| matches!(e, Edit::AskAgain { .. } | Edit::SetOptions { .. } | Edit::PushSplit { .. })) {
        return;
    }
    let keys = crate::mutate::config::Learning::keys(edits);
    if keys.is_empty() {
        return;
    }
    // Every solver of the campaign carries its option tables' owners.
    let owners = sh.solvers.first().map(|s| s.option_owners.clone()).unwrap_or_default();
    let families: Vec<Family> = edits
        .iter()
        .flat_map(|e| match e {
            Edit::AskAgain { .. } => vec![Family::Z3],
            Edit::SetOptions { options } => {
                options.iter().filter_map(|(n, _)| owners.owner(&format!(":{n}"))).collect()
            }
            _ => vec![],
        })
        .collect();
    let mut seen = false;
    let mut effect = false;
    for (k, r) in rs.iter().enumerate() {
        let (Some(r), Some(Some((names, wall)))) = (r, baseline.get(k)) else { continue };
        if !families.contains(&sh.solvers[k].family) {
            continue;
        }
        seen = true;
        let new_outcome = r.outcomes.iter().any(|o| !names.contains(&o.name()));
        let (a, b) = (r.wall.as_secs_f64(), wall.as_secs_f64());
        let new_time = a.max(b) > 0.020 && (a > 2.0 * b || 2.0 * a < b);
        effect |= new_outcome || new_time;
    }
    if seen {
        sh.learning.lock().unwrap_or_else(|e| e.into_inner()).record(logic, &keys, effect);
        sh.counters.config_learned.fetch_add(1, Relaxed);
        sh.counters.config_effects.fetch_add(effect as u64, Relaxed);
    }
}

/// The seed a fusion turn fuses with, and what the fusion's answers are judged with.
pub(super) struct Partner {
    pub(super) seed: usize,
    /// Both seeds' status: the fusion's answer by construction.
    pub(super) sat: bool,
    /// Solvers that read both seeds.
    pub(super) solvers: Vec<usize>,
    /// Both seeds' limits added (the fusion solves both).
    pub(super) limit: Duration,
    pub(super) seed_blames: Vec<(BugKind, Option<usize>, String)>,
}

/// A partner for seed `i`'s fusion turn: another ready seed with the same known status
/// that some solver reads with it, drawn from the turn's seed (the draw depends on which
/// seeds are ready, so the partner's path is stored with the edit, which replays without
/// the draw). `None` when `i`'s status is unknown or no such seed is ready.
fn fusion_partner(sh: &Shared, i: usize, turn: u64) -> Option<Partner> {
    let sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
    let me = &sched.state[i];
    let sat = me.fusion?;
    let both = |j: usize| -> Vec<usize> {
        me.solvers.iter().copied().filter(|k| sched.state[j].solvers.contains(k)).collect()
    };
    let pool: Vec<usize> = sched
        .ready
        .iter()
        .copied()
        .filter(|&j| j != i && sched.state[j].fusion == Some(sat) && !both(j).is_empty())
        .collect();
    if pool.is_empty() {
        return None;
    }
    let mut rng = Rng::new(mix(&[sh.cfg.seed, sh.run as u64, i as u64, Engine::Fusion as u64, turn, 0xf05e]));
    let j = pool[crate::mutate::choice::Choices::below(&mut rng, pool.len())?];
    Some(Partner {
        seed: j,
        sat,
        solvers: both(j),
        limit: me.limit + sched.state[j].limit,
        seed_blames: sched.state[j].seed_blames.clone(),
    })
}

/// A seed as STORM's engine uses it, built once: its pools, and per solver the text every
/// instance starts with and whether it reads z3's tactics. Instances are sent as text
/// ([`instance_body`] after the solver's prefix); only a candidate is built as a script.
pub(super) struct StormSeed {
    pub(super) pools: crate::mutate::storm::Pools,
    pub(super) prefixes: Vec<String>,
    pub(super) tactics: Vec<bool>,
    pub(super) seed_diagnostics: usize,
}

/// The STORM pools of seed `i`, built once: the reference solver's model of the seed's
/// assertions (of their negated conjunction if the seed is unsat) and every fragment's
/// value, in one query.
pub(super) fn storm_pools(sh: &Shared, sessions: &mut [Session], i: usize, limits: &Limits) -> Option<Arc<StormSeed>> {
    if let Some(p) = sh.storm.lock().unwrap_or_else(|e| e.into_inner()).get(&i) {
        return p.clone();
    }
    let seed = &sh.seeds[i];
    let r = sh.reference;
    let sess = &mut sessions[r];
    sess.set_time_limit(limits.time);
    let mut calls = 0;
    let rng_seed = mix(&[sh.cfg.seed, i as u64, 0x5708]);
    let built = crate::oracle::witness::pools_for(seed.script(), sess, &sh.cfg.storm, rng_seed, &mut calls);
    sh.counters.solver_calls.fetch_add(calls, Relaxed);
    let pools = built.ok().map(|p| {
        let prefixes = sh
            .solvers
            .iter()
            .map(|spec| crate::mutate::edit::recombine_prefix(&spec.own_script(seed.script())))
            .collect();
        Arc::new(StormSeed {
            pools: p,
            prefixes,
            tactics: sh.solvers.iter().map(|spec| spec.family.reads_check_sat_using()).collect(),
            seed_diagnostics: crate::smtlib::check::check(seed.script()).diagnostics.len(),
        })
    });
    if pools.is_none() {
        sh.events.emit(Event::StormNoModel { seed: crate::util::path::shown(&seed.path) });
    }
    sh.storm.lock().unwrap_or_else(|e| e.into_inner()).insert(i, pools.clone());
    pools
}

/// One batch of Boolean Expression Coercion mutants of seed `i` (ValFuzz, Wolff 2021,
/// §3.2): the reference solver picks constants under which chosen Boolean sub-terms of
/// the seed are forced true or false; each answer is cached by its query, so a turn that
/// asks again costs no call. Empty when the reference does not read the seed or the
/// seed has no constants to coerce.
#[allow(clippy::too_many_arguments)]
fn bec_mutants(
    sh: &Shared,
    sessions: &mut [Session],
    vp: &crate::mutate::valfuzz::Prepared,
    readers: &[usize],
    i: usize,
    turn: u64,
    limit: Duration,
    answers: &mut std::collections::HashMap<u64, crate::mutate::valfuzz::BecAnswer>,
) -> Vec<(Vec<crate::mutate::edit::Edit>, Script)> {
    use crate::mutate::valfuzz;
    let r = sh.reference;
    if !readers.contains(&r) {
        return vec![];
    }
    // The plan (holes and monitored sub-terms) is the seed's own; the rounds vary by turn.
    let Some(plan) = valfuzz::bec_plan(vp, 16, &mut Rng::new(mix(&[sh.cfg.seed, i as u64, 0xbec]))) else {
        return vec![];
    };
    let mut rng = Rng::new(mix(&[sh.cfg.seed, sh.run as u64, i as u64, Engine::Bec as u64, turn]));
    if answers.len() > 4096 {
        answers.clear();
    }
    let sess = &mut sessions[r];
    sess.set_time_limit(limit);
    let mut calls = 0;
    let out = valfuzz::bec(vp, &plan, sh.cfg.batch, &mut rng, &mut |q| {
        let key = crate::util::hash::fnv1a(q.as_bytes());
        answers
            .entry(key)
            .or_insert_with(|| {
                calls += 1;
                crate::mutate::file::bec_answer(sess, q)
            })
            .clone()
    });
    sh.counters.solver_calls.fetch_add(calls, Relaxed);
    out
}

/// Seeds prepared for an engine (sort check, scope walk, sites), kept for their next
/// turns: preparing costs more than the mutants themselves. Bounded; the oldest go first.
#[derive(Default)]
pub(super) struct PreparedCache<'s> {
    /// BEC's reference answers by query hash ([`bec_mutants`]).
    pub(super) bec_answers: std::collections::HashMap<u64, crate::mutate::valfuzz::BecAnswer>,
    /// A prepared seed, and for OpFuzz its session text with operator offsets when every
    /// solver reads the same text (no foreign options to remove).
    pub(super) map: std::collections::HashMap<(usize, Engine), (Prepared<'s>, Option<crate::mutate::opfuzz::SeedText>)>,
    /// The entries in the order they were made, with their seed's bytes.
    order: VecDeque<((usize, Engine), usize)>,
    /// The seed bytes behind the entries held.
    bytes: usize,
}

impl<'s> PreparedCache<'s> {
    const CAPACITY: usize = 512;
    /// The seed bytes whose preparations are held at once. A preparation takes about nine
    /// times its seed's text: on a suite of kilobyte seeds all 512 fit, while a seed of
    /// megabytes is held alone, so a turn over its engines keeps one preparation at a
    /// time instead of one per engine (issue 37: memory linear in the input).
    const BYTES: usize = 1 << 20;
    pub(super) fn get(
        &mut self,
        sh: &'s Shared,
        seed: usize,
        engine: Engine,
    ) -> &(Prepared<'s>, Option<crate::mutate::opfuzz::SeedText>) {
        let key = (seed, engine);
        if !self.map.contains_key(&key) {
            let script = sh.seeds[seed].script();
            let weight = script.text.len();
            while !self.order.is_empty() && (self.order.len() >= Self::CAPACITY || self.bytes + weight > Self::BYTES) {
                if let Some((old, bytes)) = self.order.pop_front() {
                    self.map.remove(&old);
                    self.bytes -= bytes;
                }
            }
            self.bytes += weight;
            let text = (engine == Engine::OpFuzz
                && sh.solvers.iter().all(|spec| spec.without_foreign_options(script).is_none()))
            .then(|| {
                let mut plain = script.clone();
                strip_status(&mut plain);
                crate::mutate::opfuzz::SeedText::new(&plain)
            });
            self.map.insert(key, (Prepared::with_options(engine, script, &sh.options), text));
            self.order.push_back((key, weight));
        }
        &self.map[&key]
    }
}

/// A mutant in a batch.
pub(super) struct Mutant {
    rng_seed: u64,
    edits: Vec<crate::mutate::edit::Edit>,
    /// The mutant's script, when it is kept: STORM's instances, OpFuzz's swaps sent as
    /// text and mutants of over [`KEEP_SCRIPT_BYTES`] are rebuilt from the seed and
    /// their edits for a candidate only.
    script: Option<Script>,
    /// Its session text per solver.
    texts: Vec<String>,
    checks: usize,
    /// Its framing, when it differs from the seed's (a kept or dropped script's).
    framing: Option<crate::smtlib::framing::Framing>,
}

/// A mutant script larger than this (in printed bytes) is not held beside its texts while
/// the batch is asked: a parsed script takes about eight times its text, and on a seed of
/// megabytes the batch's scripts were most of a turn's memory (issue 37). Its edits rebuild
/// it for a candidate, which is rare.
const KEEP_SCRIPT_BYTES: usize = 64 << 10;
