//! A fuzzing turn's mutants judged: each mutant's answers counted, its verdicts
//! ([`oracle::judge`]) against what its engine built it to be, and each candidate
//! confirmed ([`confirm_and_store`]).

use super::prescreen::{count_candidate, gave_up};
use super::worker::{time_up, Turn};
use super::*;
use crate::mutate::{Construction, Mutant, Mutator};

/// Counts a mutant's answers: errors, timeouts (a solver that gave up at the limit says
/// nothing about the mutant, and a seed whose mutants all do so is retired) and resource
/// outs. Whether it was any of them.
pub(super) fn count_mutant(
    sh: &Shared,
    rs: &[Option<&QueryResult>],
    limit: Duration,
    y: &mut super::stats::Yield,
) -> bool {
    sh.counters.mutants.fetch_add(1, Relaxed);
    y.mutants += 1;
    let any = |f: &dyn Fn(&Outcome) -> bool| rs.iter().flatten().any(|r| r.outcomes.iter().any(f));
    let errored = any(&|o| matches!(o, Outcome::Error { .. }));
    let timed_out = any(&|o| matches!(o, Outcome::Timeout)) || rs.iter().flatten().any(|r| gave_up(r, limit));
    let exhausted = any(&|o| matches!(o, Outcome::Resource { .. }));
    if exhausted {
        sh.counters.resources.fetch_add(1, Relaxed);
    }
    if errored {
        sh.counters.invalid.fetch_add(1, Relaxed);
    } else {
        sh.counters.valid.fetch_add(1, Relaxed);
        y.valid += 1;
    }
    if timed_out {
        sh.counters.timeouts.fetch_add(1, Relaxed);
    }
    errored || timed_out || exhausted
}

/// Where a turn's mutants are judged: the campaign, the mutator that made them, the
/// turn, the limits a confirmation runs under, the worker's scratch directory and index.
#[derive(Clone, Copy)]
pub(super) struct Judging<'a, 's> {
    pub(super) sh: &'a Shared,
    pub(super) m: &'a dyn Mutator<'s>,
    pub(super) t: &'a Turn,
    pub(super) limits: &'a Limits,
    pub(super) tmp: &'a Path,
    pub(super) w: usize,
}

/// A mutant with its answers, to judge.
pub(super) struct Judged<'a> {
    pub(super) i: usize,
    pub(super) engine: Engine,
    pub(super) mutant: &'a Mutant,
    pub(super) rs: &'a [Option<&'a QueryResult>],
    pub(super) seed_framing: Option<&'a crate::smtlib::framing::Framing>,
}

/// Judges a mutant's answers ([`oracle::judge`]) and confirms each candidate
/// ([`confirm_and_store`]): the distinct bugs stored.
pub(super) fn candidates(c: &Judging, j: &Judged, y: &mut super::stats::Yield) -> u64 {
    let Judging { sh, m, t, limits, tmp, w } = *c;
    let Judged { i, engine, mutant, rs, seed_framing } = *j;
    let seed = &sh.seeds[i];
    // A STORM instance is satisfied by its witness: any `unsat` is a candidate. A fusion
    // has its seeds' answer by construction.
    let construction = m.construction();
    let built = construction.answer();
    let witness = match construction {
        Construction::Witness(w) => Some(w),
        _ => None,
    };
    let fused = matches!(construction, Construction::Answer(_));
    let constructed = built.map(|o| vec![o; mutant.checks.max(1)]);
    let truth = constructed.as_deref();
    let framing = mutant.framing.as_ref().or(seed_framing);
    let mut verdicts = match truth {
        Some(t) if fused => oracle::judge_constructed(rs, &sh.families, t, framing),
        _ => oracle::judge(rs, &sh.families, truth, framing),
    };
    super::regress::against_baseline(sh, rs, truth, framing, &mut verdicts);
    verdicts.extend(super::regress::candidates(sh, rs, truth, t.limit, framing, &verdicts, &t.seed_blames));
    // An equisatisfiable variant: each solver against its own answer to the seed.
    let seed_side = matches!(m.construction(), Construction::OwnAnswers).then(|| {
        verdicts.extend(super::instability::metamorphic_verdicts(sh, &t.baseline, rs, &verdicts));
        let mut s = seed.script().clone();
        crate::mutate::edit::strip_status(&mut s);
        s
    });
    let mut new_bugs = 0;
    for mut v in verdicts {
        if witness.is_some() && v.blame_by == BlameBy::Status {
            v.blame_by = BlameBy::Witness;
        }
        // Soundness repeats are known from the blame alone; a crash only after the fresh
        // run has given its normalised message (checked in confirmation).
        if witness.is_none()
            && matches!(v.kind, BugKind::Soundness | BugKind::Regression)
            && t.seed_blames.iter().any(|(k, b, sig)| {
                // A self-contradiction is its own bug: another framing's is not the seed's.
                *k == v.kind && *b == v.blamed && (v.blame_by != BlameBy::SelfContradiction || *sig == v.signature)
            })
        {
            sh.counters.inherited.fetch_add(1, Relaxed);
            continue;
        }
        count_candidate(sh, rs);
        y.candidates += 1;
        // A mutant sent as text is built as a script for a candidate only. A metamorphic
        // finding's trigger is the seed side: its variant is rebuilt from it by the
        // relations, in confirmation and in every reduction step.
        let trigger = match m.rebuild(seed.script(), mutant) {
            _ if v.blame_by == BlameBy::Metamorphic => match &seed_side {
                Some(s) => std::borrow::Cow::Borrowed(s),
                None => continue,
            },
            Ok(s) => s,
            Err(Some(why)) => {
                sh.events.emit(Event::StormInstanceRefused { seed: crate::util::path::shown(&seed.path), why });
                continue;
            }
            Err(None) => continue,
        };
        let cand = Candidate {
            seed: i,
            trigger: &trigger,
            engine: Origin::Engine(engine),
            edits: &mutant.edits,
            rng_seed: mutant.rng_seed,
            truth,
            seed_finding: false,
            witness,
        };
        if time_up(sh) {
            // Confirming takes fresh processes, a per-query limit each: none is started
            // once the run's time is up.
            break;
        }
        new_bugs += confirm_and_store(sh, &cand, &v, limits, tmp, w).is_some_and(|(_, new)| new) as u64;
    }
    new_bugs
}
