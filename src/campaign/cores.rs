//! The unsat-core oracle in a campaign ([`crate::oracle::cores`]): a deterministic sample
//! of the `unsat` mutants (by their RNG seed, `core_rate` of them) has a solver that
//! answered `unsat` asked for its core or its unsat assumptions in a fresh process, and
//! the core alone checked on it and on another family. Its findings are confirmed and
//! stored like every other ([`confirm_and_store`]).

use super::candidates::Judged;
use super::worker::{time_up, Turn};
use super::*;
use crate::mutate::{Construction, Mutator};
use crate::oracle::cores::{self, Recheck};
use crate::oracle::reask;

/// Re-checks the core of a sampled `unsat` mutant; the distinct bugs stored.
pub(super) fn check(
    sh: &Shared,
    m: &dyn Mutator<'_>,
    j: &Judged,
    t: &Turn,
    limits: &Limits,
    tmp: &Path,
    w: usize,
) -> u64 {
    let Judged { i, engine, mutant, rs, .. } = *j;
    // A STORM instance is `sat` by construction: its `unsat` is a candidate already.
    if sh.cfg.core_rate <= 0.0 || matches!(m.construction(), Construction::Witness(_)) || time_up(sh) {
        return 0;
    }
    // A `sat` next to the `unsat` is the differential judge's.
    let unsat = reask::unsat_answerers(&t.solvers, rs);
    if unsat.is_empty() || !cores::sampled(mutant.rng_seed, sh.cfg.core_rate) {
        return 0;
    }
    sh.counters.cores.sampled.fetch_add(1, Relaxed);
    let seed = &sh.seeds[i];
    let Ok(trigger) = m.rebuild(seed.script(), mutant) else { return 0 };
    // The check gets twice the turn's limit (at least a second: fresh processes start up).
    let lim = Limits { time: (t.limit * 2).max(Duration::from_secs(1)).min(limits.time), ..*limits };
    let tag = format!("w{w}-");
    let ask = reask::Ask {
        specs: &sh.solvers,
        families: &sh.families,
        asked: &t.solvers,
        limits: &lim,
        dir: tmp,
        tag: &tag,
        tally: &sh.counters.cores,
        tally_checks: &sh.counters.self_checks,
    };
    let Some((named, r)) = reask::core(&ask, &trigger, &unsat, mutant.rng_seed) else { return 0 };
    let cand = |trigger| Candidate {
        seed: i,
        trigger,
        engine: Origin::Engine(engine),
        edits: &mutant.edits,
        rng_seed: mutant.rng_seed,
        truth: None,
        seed_finding: false,
        witness: None,
    };
    match r {
        Recheck::Wrong { verdict, .. } => {
            count_core_candidate(sh);
            confirm_and_store(sh, &cand(&named), &verdict, limits, tmp, w).is_some_and(|(_, new)| new) as u64
        }
        // The solver and another family disagree on the core alone: an ordinary
        // candidate on the core-only script (its answer is not the mutant's: no truth).
        Recheck::Disagree { core_only, results } => {
            let rs: Vec<Option<&QueryResult>> = results.iter().map(Option::as_ref).collect();
            let mut new = 0;
            // Only a verdict with someone to blame, and not one the seed already carries:
            // a tie inside one family on a script the mutant only implies is a dialect
            // matter (z3 4.8.7 and 5.4.0 read string escapes apart), and the seed's own
            // bug repeated is inherited, as for the mutant itself.
            let fresh = |v: &oracle::Verdict| {
                v.kind == BugKind::Soundness
                    && v.blamed.is_some()
                    && !t.seed_blames.iter().any(|(k, b, _)| *k == v.kind && *b == v.blamed)
            };
            for v in oracle::judge(&rs, &sh.families, None, None).into_iter().filter(fresh) {
                count_core_candidate(sh);
                new += confirm_and_store(sh, &cand(&core_only), &v, limits, tmp, w).is_some_and(|(_, n)| n) as u64;
            }
            new
        }
        _ => 0,
    }
}

fn count_core_candidate(sh: &Shared) {
    sh.counters.candidates.fetch_add(1, Relaxed);
}
