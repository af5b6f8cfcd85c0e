//! The behaviour shim: coverage from what a solver *did*, for any solver binary.
//!
//! After each query the harness asks for the solver's statistics (`get-info
//! :all-statistics`, yices' `show-stats`). Deterministic counters (conflicts, decisions,
//! propagations, lemmas, rewrites, which theories and tactics ran) — never times or
//! memory — are bucketed by order of magnitude and each (solver, statistic, bucket) sets
//! one byte of libFuzzer's extra counters: the `__libfuzzer_extra_counters` section, which
//! libFuzzer clears before each input and reads as features (`ft:`) after it. An input that
//! makes the solver do something new — a statistic it never reported, or a count in a new
//! magnitude — is thereby "new coverage" and kept in the corpus.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Number of counters (bytes) in the section.
pub const COUNTERS: usize = 1 << 14;

/// libFuzzer's extra counters (Linux: found through `__start_`/`__stop_` symbols of the
/// section). Atomics: several threads may run queries (unit tests); libFuzzer only reads
/// the bytes.
#[used]
#[link_section = "__libfuzzer_extra_counters"]
static EXTRA: [AtomicU8; COUNTERS] = [const { AtomicU8::new(0) }; COUNTERS];

pub use crate::solver::behaviour::is_behaviour;

/// FNV-1a of the solver and the statistic's name: the part of [`index`] that does not
/// depend on the value ([`crate::solver::behaviour::key_hash`], the solver by its index).
fn key_hash(solver: usize, key: &str) -> u64 {
    crate::solver::behaviour::key_hash(&(solver as u64).to_le_bytes(), key)
}

fn bucketed(key_hash: u64, v: f64) -> usize {
    (crate::solver::behaviour::feature(key_hash, v) % COUNTERS as u64) as usize
}

/// The counter index for statistic `key` of solver `solver` with value `v`: FNV-1a of the
/// solver and key, combined with the value's order of magnitude (0, 1, 2-3, 4-7, ...).
pub fn index(solver: usize, key: &str, v: f64) -> usize {
    bucketed(key_hash(solver, key), v)
}

thread_local! {
    /// [`is_behaviour`] by [`key_hash`]: a solver reports the same few hundred names after
    /// every query, and in a fuzz build each substring test of `is_behaviour` is an
    /// instrumented comparison (measured: 18 % of the harness's CPU before this cache).
    static BEHAVIOUR: std::cell::RefCell<std::collections::HashMap<u64, bool>> = Default::default();
}

/// Records the statistics reply `reply` of solver `solver` as features; returns how many
/// counters it set, or `None` if `reply` is not a statistics list
/// ([`crate::solver::model::for_each_statistic`]).
pub fn record(solver: usize, reply: &str) -> Option<usize> {
    let mut n = 0;
    BEHAVIOUR
        .with_borrow_mut(|known| {
            crate::solver::model::for_each_statistic(reply, |k, v| {
                let h = key_hash(solver, k);
                if *known.entry(h).or_insert_with(|| is_behaviour(k))
                    && EXTRA[bucketed(h, v)].fetch_add(1, Relaxed) == 0
                {
                    n += 1;
                }
            })
        })
        .ok()?;
    Some(n)
}

/// Serialises the unit tests that clear the counters and count them.
#[cfg(test)]
pub static TEST_COUNTERS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// How many counters are set now (for tests and statistics).
pub fn counters_set() -> usize {
    EXTRA.iter().filter(|c| c.load(Relaxed) != 0).count()
}

/// Clears the counters (libFuzzer does this itself before each input).
pub fn clear() {
    EXTRA.iter().for_each(|c| c.store(0, Relaxed));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magnitudes_make_different_features() {
        // Same statistic, same magnitude: same counter; another magnitude: another one.
        assert_eq!(index(0, "conflicts", 5.0), index(0, "conflicts", 6.0));
        assert_ne!(index(0, "conflicts", 5.0), index(0, "conflicts", 500.0));
        assert_ne!(index(0, "conflicts", 5.0), index(1, "conflicts", 5.0));
    }

    #[test]
    fn a_reply_sets_the_counters_of_its_behaviour_statistics() {
        let _only = TEST_COUNTERS.lock().unwrap_or_else(|e| e.into_inner());
        clear();
        let reply = "(:conflicts 5 :decisions 0 :time 0.02 :max-memory 19.5 :reason-unknown \"x\")";
        assert_eq!(record(3, reply), Some(2));
        assert!(
            EXTRA[index(3, "conflicts", 5.0)].load(Relaxed) > 0 && EXTRA[index(3, "decisions", 0.0)].load(Relaxed) > 0
        );
        // Same magnitudes again: nothing new; a reply that is not statistics: None.
        assert_eq!(record(3, "(:conflicts 6 :decisions 0)"), Some(0));
        assert_eq!(record(3, "unsat"), None);
        clear();
    }
}
