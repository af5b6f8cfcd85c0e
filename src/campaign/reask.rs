//! The oracles that re-ask a mutant's answers in fresh processes, in a campaign
//! ([`oracle::reask`], the fuzz targets' driver too, under one rule): on a sample drawn
//! from the mutant's RNG seed, the unsat-core oracle after an `unsat` (`--core-rate`) and
//! the solvers' own self-checks after a definite answer (`--self-checks`). What they find
//! is confirmed and stored like every other candidate ([`confirm_and_store`]).

use super::candidates::{Judged, Judging};
use super::worker::time_up;
use super::*;

/// Re-asks the mutant of `j` when it is sampled; the distinct bugs stored.
pub(super) fn recheck(c: &Judging, j: &Judged, y: &mut super::stats::Yield) -> u64 {
    let Judging { sh, m, t, limits, tmp, w } = *c;
    let Judged { i, engine, mutant, rs, seed_framing } = *j;
    let rates = oracle::reask::Rates { core: sh.cfg.core_rate, self_checks: sh.cfg.self_checks };
    let (core_drawn, check_drawn) = rates.drawn(mutant.rng_seed);
    if !(core_drawn || check_drawn) || time_up(sh) {
        return 0;
    }
    // The checks are the mutant's (its framing, not its rebuilt script's: decided here).
    let framing = mutant.framing.as_ref().or(seed_framing);
    let truth = m.construction().answer().map(|o| vec![o; mutant.checks.max(1)]);
    let Ok(script) = m.rebuild(sh.seeds[i].script(), mutant) else { return 0 };
    let tag = format!("w{w}-");
    // A self-check (proof or model checking) costs more than the answer it checks: as
    // many as four times the campaign's limit, capped by it — the full `--timeout` the
    // self-checks had before the rule was one.
    let lim = oracle::reask::limits(limits.time, Some(limits.time), limits);
    let ask = oracle::reask::Ask {
        specs: &sh.solvers,
        families: &sh.families,
        asked: &t.solvers,
        limits: &lim,
        dir: tmp,
        tag: &tag,
        tally: &sh.counters.cores,
        tally_checks: &sh.counters.self_checks,
    };
    let known = oracle::reask::Known { truth: truth.as_deref(), inherited: &t.seed_blames };
    let t0 = Instant::now();
    let found = oracle::reask::sampled(&ask, &script, rs, mutant.rng_seed, rates, framing, known);
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
