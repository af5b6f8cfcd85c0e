//! The self-check oracle in a campaign (issue 40, item 1): a sampled mutant's definite
//! answers are re-checked, per solver, by that solver's own self-checks in a fresh
//! process ([`oracle::checks::recheck`]); what fails is confirmed and stored like any
//! candidate ([`confirm_and_store`]), with the check options in its trigger.

use super::candidates::Judged;
use super::worker::{time_up, Turn};
use super::*;
use crate::mutate::Mutator;

/// Re-checks the mutant of `j` when it is sampled (one in [`Config::self_checks`]): every
/// solver of the turn that answered it definitely and whose release has a self-check for
/// that answer. The distinct bugs stored.
#[allow(clippy::too_many_arguments)]
pub(super) fn recheck(
    sh: &Shared,
    m: &dyn Mutator<'_>,
    j: &Judged,
    t: &Turn,
    limits: &Limits,
    tmp: &Path,
    w: usize,
    y: &mut super::stats::Yield,
) -> u64 {
    let Judged { i, engine, mutant, rs, seed_framing } = *j;
    if !oracle::checks::sampled(mutant.rng_seed, sh.cfg.self_checks) || time_up(sh) {
        return 0;
    }
    // A check under a meaning-changing parameter asks about another formula (the framing
    // is the mutant's, not its rebuilt script's: decided here).
    let framing = mutant.framing.as_ref().or(seed_framing);
    if framing.is_some_and(|f| f.changed.iter().any(|c| *c)) {
        return 0;
    }
    let Ok(script) = m.rebuild(sh.seeds[i].script(), mutant) else { return 0 };
    let tag = format!("w{w}-");
    let ask = oracle::reask::Ask {
        specs: &sh.solvers,
        families: &sh.families,
        asked: &t.solvers,
        limits,
        dir: tmp,
        tag: &tag,
        tally: &sh.counters.cores,
        tally_checks: &sh.counters.self_checks,
    };
    // The core oracle has its own sample and rules in a campaign ([`super::cores`]).
    let rates = oracle::reask::Rates { core: 0.0, self_checks: sh.cfg.self_checks };
    let t0 = Instant::now();
    let found = oracle::reask::sampled(&ask, &script, rs, mutant.rng_seed, rates, &Default::default());
    sh.counters.self_check_ms.fetch_add(t0.elapsed().as_millis() as u64, Relaxed);
    let mut new_bugs = 0;
    for (trigger, verdicts) in &found {
        for v in verdicts {
            if time_up(sh) {
                return new_bugs;
            }
            sh.counters.candidates.fetch_add(1, Relaxed);
            y.candidates += 1;
            let cand = Candidate {
                seed: i,
                trigger,
                engine: Origin::Engine(engine),
                edits: &mutant.edits,
                rng_seed: mutant.rng_seed,
                truth: None,
                seed_finding: false,
                witness: None,
            };
            new_bugs += confirm_and_store(sh, &cand, v, limits, tmp, w).is_some_and(|(_, new)| new) as u64;
        }
    }
    new_bugs
}
