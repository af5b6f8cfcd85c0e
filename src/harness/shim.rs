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

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Number of counters (bytes) in the section.
pub const COUNTERS: usize = 1 << 14;

/// libFuzzer's extra counters (Linux: found through `__start_`/`__stop_` symbols of the
/// section). Atomics: several threads may run queries (unit tests); libFuzzer only reads
/// the bytes.
#[used]
#[link_section = "__libfuzzer_extra_counters"]
static EXTRA: [AtomicU8; COUNTERS] = [const { AtomicU8::new(0) }; COUNTERS];

/// Whether a statistic is deterministic behaviour (not time, memory or a rate).
pub fn is_behaviour(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    !["time", "memory", "mem", "rss", "seconds", "sec", "clock", "rlimit", "max-alloc"].iter().any(|w| k.contains(w))
}

/// The counter index for statistic `key` of solver `solver` with value `v`: FNV-1a of the
/// solver and key, combined with the value's order of magnitude (0, 1, 2-3, 4-7, ...).
pub fn index(solver: usize, key: &str, v: f64) -> usize {
    let bucket = if v <= 0.0 { 0 } else { 1 + (v.max(1.0).log2() as u64).min(62) };
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in (solver as u64).to_le_bytes().iter().chain(key.as_bytes()).chain(&bucket.to_le_bytes()) {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % COUNTERS as u64) as usize
}

/// Records a solver's statistics as features; returns how many counters it set.
pub fn record(solver: usize, stats: &BTreeMap<String, f64>) -> usize {
    let mut n = 0;
    for (k, &v) in stats {
        if is_behaviour(k) {
            let i = index(solver, k, v);
            if EXTRA[i].fetch_add(1, Relaxed) == 0 {
                n += 1;
            }
        }
    }
    n
}

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
    fn times_and_memory_are_not_behaviour() {
        for k in ["time", "total-time", "memory", "max-memory", "rlimit-count", "num-allocs-mem"] {
            assert!(!is_behaviour(k), "{k}");
        }
        for k in ["conflicts", "decisions", "propagations", "arith-lemmas", "rewrites"] {
            assert!(is_behaviour(k), "{k}");
        }
    }

    #[test]
    fn magnitudes_make_different_features() {
        // Same statistic, same magnitude: same counter; another magnitude: another one.
        assert_eq!(index(0, "conflicts", 5.0), index(0, "conflicts", 6.0));
        assert_ne!(index(0, "conflicts", 5.0), index(0, "conflicts", 500.0));
        assert_ne!(index(0, "conflicts", 5.0), index(1, "conflicts", 5.0));
    }
}
