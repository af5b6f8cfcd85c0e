//! A turn's batch of mutants: distinct, each from its own draw, within a bound on their
//! text, and within the run's `--mutants` quota.

use super::*;
use crate::mutate::{Mutant, Mutator};

/// The mutant text (over all solvers) after which a turn's batch stops: a batch of
/// [`crate::store::campaign::Config::batch`] mutants is held at once, with their scripts
/// and the solvers' input, so a seed of megabytes would cost many times its size per
/// mutant (issue 37). Under half a megabyte of text a mutant (all solvers together), the
/// default batch of 8 is whole.
const BATCH_BYTES: usize = 4 << 20;

/// A batch of distinct mutants, each from its own draw, within [`BATCH_BYTES`] of text.
pub(super) fn make_batch<'s>(
    sh: &Shared,
    m: &mut (dyn Mutator<'s> + 's),
    i: usize,
    engine: Engine,
    turn: u64,
) -> Vec<Mutant> {
    let mut mutants: Vec<Mutant> = vec![];
    let mut batch_bytes = 0;
    for b in 0..sh.cfg.batch as u64 {
        // A batch holds its mutants' texts and scripts and the solvers' input at once:
        // on a seed of megabytes, fewer mutants a turn keep that within BATCH_BYTES.
        if batch_bytes >= BATCH_BYTES {
            break;
        }
        let rng_seed = mix(&[sh.cfg.seed, sh.run as u64, sh.seeds[i].draw, engine as u64, turn, b]);
        if let Some(x) = m.mutate(rng_seed) {
            batch_bytes += x.texts.iter().map(String::len).sum::<usize>();
            if !mutants.iter().any(|y| y.texts == x.texts) {
                mutants.push(x);
            }
        }
    }
    mutants
}

/// Claims the batch's share of `--mutants N`: false (and the run stops) when none is left.
pub(super) fn claim_quota(sh: &Shared, mutants: &mut Vec<Mutant>) -> bool {
    if let Some(q) = &sh.quota {
        let want = mutants.len() as u64;
        let got = match q.fetch_update(Relaxed, Relaxed, |left| Some(left.saturating_sub(want))) {
            Ok(left) | Err(left) => left.min(want),
        };
        mutants.truncate(got as usize);
        if mutants.is_empty() {
            sh.stop.store(true, Relaxed);
            return false;
        }
    }
    true
}
