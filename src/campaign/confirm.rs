//! A candidate becomes a finding only here: judged again in fresh processes, bisected,
//! deduplicated and stored.

use super::*;

/// A suspected bug on its way to the store.
pub(super) struct Candidate<'a> {
    pub(super) seed: usize,
    pub(super) trigger: &'a Script,
    pub(super) engine: Origin,
    pub(super) edits: &'a [crate::mutate::edit::Edit],
    pub(super) rng_seed: u64,
    /// Expected answers when known (a seed's `:status`, STORM's witness).
    pub(super) truth: Option<&'a [Outcome]>,
    pub(super) seed_finding: bool,
    /// STORM's model: re-validated before an `unsat` becomes a finding.
    pub(super) witness: Option<&'a [(String, String)]>,
}

/// Re-runs a candidate in fresh processes on every solver that reads the seed; if the
/// same verdict comes back (same kind, same blamed solver), bisects and stores it.
/// Returns the confirmed verdict, and whether it was stored as a new bug (not a duplicate
/// of a stored one, nor the seed's own).
pub(super) fn confirm_and_store(
    sh: &Shared,
    cand: &Candidate,
    v: &oracle::Verdict,
    limits: &Limits,
    tmp: &Path,
    w: usize,
) -> Option<(oracle::Verdict, bool)> {
    let Candidate { seed: i, trigger, ref engine, edits, rng_seed, truth, seed_finding, witness } = *cand;
    let seed = &sh.seeds[i];
    let text = smtlib::print(trigger);
    let checks = smtlib::checks(trigger);
    // A fusion holds a second seed: a solver must read the trigger too.
    let readers: Vec<usize> = (0..sh.solvers.len())
        .filter(|&k| {
            sh.solvers[k].cannot_read(seed.script()).is_none()
                && (*engine != Engine::Fusion || sh.solvers[k].cannot_read(trigger).is_none())
        })
        .collect();
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
    let framing = crate::smtlib::framing::framing(trigger);
    let again = match truth {
        Some(t) if *engine == Engine::Fusion => oracle::judge_constructed(&all, &sh.families, t, Some(&framing)),
        _ => oracle::judge(&all, &sh.families, truth, Some(&framing)),
    };
    let mut verdict = match again.iter().find(|x| x.kind == v.kind && x.blamed == v.blamed) {
        Some(x) if witness.is_some() && x.blame_by == BlameBy::Status => {
            oracle::Verdict { blame_by: BlameBy::Witness, ..x.clone() }
        }
        Some(x) => x.clone(),
        None => {
            sh.counters.unconfirmed.fetch_add(1, Relaxed);
            sh.events.emit(Event::Unconfirmed {
                seed: crate::util::path::shown(&seed.path),
                engine: engine.clone(),
                kind: v.kind,
                blamed: v.blamed.map(|b| sh.solvers[b].name.clone()),
                signature: v.signature.clone(),
                edits: Some(edits.to_vec()),
                why: None,
            });
            return None;
        }
    };
    if let (BugKind::Crash, Some(b)) = (verdict.kind, verdict.blamed) {
        if !crash_survives_more_memory(&sh.solvers[b], &files[b], checks, limits, &verdict.signature) {
            sh.counters.unconfirmed.fetch_add(1, Relaxed);
            sh.events.emit(Event::Unconfirmed {
                seed: crate::util::path::shown(&seed.path),
                engine: engine.clone(),
                kind: verdict.kind,
                blamed: Some(sh.solvers[b].name.clone()),
                signature: verdict.signature.clone(),
                edits: None,
                why: Some("does not crash the same way with twice the memory".into()),
            });
            return None;
        }
    }
    // A crash on a signal gets its crash state from gdb (issue 24): the frames, not the
    // signal, tell two segfaults apart.
    let frames = match (verdict.kind, verdict.blamed) {
        (BugKind::Crash, Some(b)) if verdict.signature.starts_with("SIG") => {
            crate::solver::backtrace::crash_state(&sh.solvers[b], &files[b], limits).unwrap_or_default()
        }
        _ => vec![],
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
        if verdict.blamed.is_none() {
            sh.counters.undecided.fetch_add(1, Relaxed);
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
                .and_then(|s| sh.solvers[k].without_foreign_options(&s))
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
            sh.events.emit(Event::WitnessInvalid { seed: crate::util::path::shown(&seed.path), sat, refuted });
            return None;
        }
    }
    if !seed_finding {
        let sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
        let repeats = sched.state[i].seed_blames.iter().any(|(k, b, sig)| {
            *k == verdict.kind
                && *b == verdict.blamed
                && ((verdict.kind == BugKind::Soundness && verdict.blame_by != BlameBy::SelfContradiction)
                    || *sig == verdict.signature)
        });
        drop(sched);
        if repeats {
            sh.counters.inherited.fetch_add(1, Relaxed);
            sh.events.emit(Event::Inherited {
                seed: crate::util::path::shown(&seed.path),
                kind: verdict.kind,
                signature: verdict.signature.clone(),
            });
            return Some((verdict, false));
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
        let itself = verdict.blame_by == BlameBy::SelfContradiction;
        let good = |r: &QueryResult| -> bool {
            let crashed = r.crash.is_some() || r.outcomes.iter().any(|o| matches!(o, Outcome::Crash { .. }));
            if kind == BugKind::Crash {
                return oracle::crash_fixed(r);
            }
            if itself {
                // Fixed: the release answers the same question the same way (definitely,
                // at least twice, or the contradiction has only gone quiet).
                return !crashed
                    && oracle::self_contradiction(r, &framing).is_none()
                    && r.outcomes.iter().filter(|o| o.is_definite()).count() >= 2;
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
            outcomes: r.outcomes.iter().chain(&r.crash).cloned().collect(),
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
        origin: engine.clone(),
        edits: edits.to_vec(),
        seed_slice: seed.kept().map(<[usize]>::to_vec),
        rng_seed,
        found_at: sh.elapsed_before + sh.t0.elapsed().as_secs_f64(),
        found_unix: now,
        run: sh.run,
        trigger_bytes: text.len(),
        duplicates: 0,
        seed_finding,
        reduction: None,
        merged_keys: vec![],
        merged_from: vec![],
        cause: Default::default(),
        frames,
    };
    // A STORM trigger carries its witness as a comment line (solvers never see it).
    let stored = match witness {
        Some(wit) => format!("{}\n{text}", crate::mutate::storm::witness_line(wit)),
        None => text,
    };
    // A failed write is tried once more; if it fails again the finding is counted, said on
    // the progress line and in the events (with everything needed to store it by hand),
    // and the campaign ends with status 3: a confirmed bug is never dropped silently.
    let rec = {
        let mut store = sh.store.lock().unwrap_or_else(|e| e.into_inner());
        store.record(meta.clone(), &stored).or_else(|_| store.record(meta.clone(), &stored))
    };
    let new = matches!(rec, Ok(Recorded::New(_)));
    match rec {
        Ok(Recorded::New(dir)) => {
            if seed_finding {
                sh.counters.seed_findings.fetch_add(1, Relaxed);
            } else {
                sh.counters.new_bugs.fetch_add(1, Relaxed);
            }
            sh.events.emit(Event::Finding {
                dir: crate::util::path::shown(&dir),
                kind: meta.kind,
                blamed: meta.blamed.clone(),
                fixed_in: meta.fixed_in.clone(),
                seed: meta.seed.clone(),
                engine: engine.clone(),
                seed_finding,
            });
        }
        Ok(Recorded::Duplicate(dir)) => {
            sh.counters.duplicates.fetch_add(1, Relaxed);
            sh.events.emit(Event::Duplicate {
                dir: crate::util::path::shown(&dir),
                seed: crate::util::path::shown(&seed.path),
            });
        }
        Err(e) => {
            sh.counters.store_errors.fetch_add(1, Relaxed);
            sh.events.emit(Event::StoreFailed {
                error: e.to_string(),
                meta: Box::new(meta.clone()),
                trigger: stored.clone(),
            });
        }
    }
    Some((verdict, new))
}

/// A crash is stored only if it happens again, with the same message, when the solver
/// gets twice the memory: a solver that dies because an allocation failed under the
/// address-space limit (z3 4.x segfaults when it cannot map its first pages) is a limit
/// hit, not a bug, and does not crash the same way with more room. Without a memory
/// limit there is nothing to double.
pub(super) fn crash_survives_more_memory(
    spec: &SolverSpec,
    file: &Path,
    checks: usize,
    limits: &Limits,
    signature: &str,
) -> bool {
    let Some(bytes) = limits.memory else { return true };
    let more = Limits { memory: Some(bytes.saturating_mul(2)), ..*limits };
    let r = crate::solver::run_file(spec, file, checks, &more);
    let crash = r.crash.clone().or_else(|| r.outcomes.iter().find(|o| matches!(o, Outcome::Crash { .. })).cloned());
    matches!(crash, Some(Outcome::Crash { message, .. }) if message == signature)
}
