//! A candidate becomes a finding only here: judged again in fresh processes, bisected,
//! deduplicated and stored.

use super::*;
use crate::oracle::confirm::{Confirm, Confirmed, Expected, Refused};

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
    // Rerun, tie and witness: the one confirmation every path shares (oracle::confirm).
    // `--time`: a regression's confirmation starts no run of the newer release that could
    // end inside the reductions' reserve of the findings already stored (three runs at up
    // to three times the limit ran 90 s past a 120 s run; then, stopped at T, they still
    // took the whole reserve, and the quickstart reduced nothing).
    let until = super::before_reserve(sh, 0);
    let conf = Confirm { specs: &sh.solvers, families: &sh.families, limits, dir: tmp, tag: &format!("w{w}-"), until };
    let relations = crate::mutate::equisat::relations(edits);
    let metamorphic = (v.blame_by == BlameBy::Metamorphic).then_some(&relations[..]);
    let baseline = super::regress::baseline(sh);
    let known = Expected { truth, witness, fusion: *engine == Engine::Fusion, metamorphic, baseline };
    let unconfirmed = |v: &oracle::Verdict, edits: Option<Vec<crate::mutate::edit::Edit>>, why: Option<String>| {
        sh.counters.unconfirmed.fetch_add(1, Relaxed);
        sh.events.emit(Event::Unconfirmed {
            seed: crate::util::path::shown(&seed.path),
            engine: engine.clone(),
            kind: v.kind,
            blamed: v.blamed.map(|b| sh.solvers[b].name.clone()),
            signature: v.signature.clone(),
            edits,
            why,
        });
    };
    let Confirmed { mut verdict, fresh } = match conf.confirm(trigger, &readers, &known, v) {
        Ok(c) => c,
        Err(Refused::Unwritable) => return None,
        Err(Refused::NotReproduced) => {
            unconfirmed(v, Some(edits.to_vec()), None);
            return None;
        }
        Err(Refused::OutOfTime) => {
            unconfirmed(v, None, Some("the run's --time was up before the confirmation could end".into()));
            return None;
        }
        Err(Refused::NeedsMoreMemory(x)) => {
            unconfirmed(&x, None, Some("does not crash the same way with twice the memory".into()));
            return None;
        }
        Err(Refused::WitnessInvalid(wc)) => {
            sh.counters.unconfirmed.fetch_add(1, Relaxed);
            sh.events.emit(Event::WitnessInvalid {
                seed: crate::util::path::shown(&seed.path),
                sat: wc.sat,
                refuted: wc.refuted,
            });
            return None;
        }
    };
    if verdict.blamed.is_none() {
        sh.counters.undecided.fetch_add(1, Relaxed);
    }
    let all = fresh.all();
    let blamed_file = verdict.blamed.and_then(|b| fresh.file(b).map(|f| (b, f)));
    let frames = fresh.crash_frames(&verdict, &sh.solvers, limits);
    if !seed_finding {
        let sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
        let repeats = sched.blames(i).iter().any(|(k, b, sig)| {
            *k == verdict.kind
                && *b == verdict.blamed
                && ((verdict.kind == BugKind::Soundness
                    && !matches!(verdict.blame_by, BlameBy::SelfContradiction | BlameBy::UnsatCore))
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
    // Bisection over newer releases of the blamed solver.
    let (mut fixed_in, mut probes) = (None, vec![]);
    // A regression is bisected for where it came in, between the release that decides and
    // the one that does not ([`super::regress::bisected`]).
    let (regression, mut cause) = (verdict.kind == BugKind::Regression, store::identity::Cause::default());
    let bisectable = blamed_file.is_some() && (regression || metamorphic.is_none());
    let mut not_bisected = (bisectable && !sh.cfg.bisect).then_some(store::NotBisected::Disabled);
    if let (true, true, Some((_, file))) = (regression, sh.cfg.bisect, blamed_file) {
        let cut;
        (probes, cause.range, verdict.signature, cut) = super::regress::bisected(sh, &verdict, &fresh, file, limits);
        if cut {
            not_bisected = Some(store::NotBisected::TimeUp);
        }
    }
    // A metamorphic flip is judged on two scripts: the ladder is not bisected on one.
    if let (false, true, Some((b, file)), None) = (regression, sh.cfg.bisect, blamed_file, metamorphic) {
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
        let framing = crate::smtlib::framing::framing(trigger);
        let itself = verdict.blame_by == BlameBy::SelfContradiction;
        let good = |r: &QueryResult| -> bool {
            let crashed = r.crash.is_some() || r.outcomes.iter().any(|o| matches!(o, Outcome::Crash { .. }));
            // A failed self-check is fixed where the release answers with the check passing.
            if kind == BugKind::Crash || kind == BugKind::CheckFailed {
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
        let found = oracle::bisect(&sh.ladder, &sh.solvers[b], file, checks, limits, &good, super::bisect_until(sh));
        (fixed_in, probes) = (found.fixed_in, found.probes);
        if found.cut {
            not_bisected = Some(store::NotBisected::TimeUp);
        }
    }
    let answers: Vec<SolverAnswer> = readers
        .iter()
        .filter_map(|&k| all[k].map(|r| (k, r)))
        .map(|(k, r)| SolverAnswer::of(&sh.solvers[k], r))
        .collect();
    let meta = Meta {
        fixed_in,
        bisection: probes,
        not_bisected,
        seed: seed.path.display().to_string(),
        seed_hash: seed.hash.clone(),
        origin: engine.clone(),
        edits: edits.to_vec(),
        seed_slice: seed.kept().map(<[usize]>::to_vec),
        rng_seed,
        found_at: sh.elapsed_before + sh.t0.elapsed().as_secs_f64(),
        run: sh.run,
        seed_finding,
        cause,
        // Regression mode: a finding that is not the build's regression is stored marked.
        known: super::regress::not_the_builds(sh, &verdict, &fresh),
        lineage: seed.grown.as_ref().map(|g| g.lineage.clone()),
        frames,
        ..Meta::found(&verdict, &sh.solvers, answers, trigger.logic(), text.len())
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
