//! What a solver *did* on a query, as features: hashes that are new when the solver
//! behaves in a way not seen before. The fuzz harness's behaviour shim
//! (`harness::shim`) feeds them to libFuzzer as extra counters; the campaign keeps a
//! mutant that shows one never seen as a seed of its own (`campaign::grow`). They live
//! on the solver floor because both floors above read them (house rule 21: a notion two
//! floors need moves down).
//!
//! A statistic is bucketed by order of magnitude (0, 1, 2-3, 4-7, ...), as AFL buckets
//! edge hit counts (Zalewski, "technical details", *hit counts*: 1, 2, 3, 4-7, 8-15, ...):
//! a count that doubles is new behaviour, one that moves by one is not.

use super::QueryResult;
use crate::util::hash::{fnv1a, fnv1a_from};

/// Whether a statistic is deterministic behaviour (not time, memory or a rate).
pub fn is_behaviour(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    !["time", "memory", "mem", "rss", "seconds", "sec", "clock", "rlimit", "max-alloc"].iter().any(|w| k.contains(w))
}

/// FNV-1a of the solver's identity and the statistic's name: the part of a feature that
/// does not depend on the value. The shim names a solver by its index in the harness
/// (its little-endian `u64`), the campaign by its name (stable across resumed runs).
pub fn key_hash(solver: &[u8], key: &str) -> u64 {
    fnv1a_from(fnv1a(solver), key.as_bytes())
}

/// The order of magnitude of `v`: 0 for zero or less, then 1 + ⌊log2 v⌋ (at most 63).
pub fn magnitude(v: f64) -> u64 {
    if v <= 0.0 {
        0
    } else {
        1 + (v.max(1.0).log2() as u64).min(62)
    }
}

/// The feature of a statistic whose [`key_hash`] is `key_hash` with value `v`.
pub fn feature(key_hash: u64, v: f64) -> u64 {
    fnv1a_from(key_hash, &magnitude(v).to_le_bytes())
}

/// Decade of a query's wall time in seconds: 0 under a second, 1 under ten, then 2. Wall
/// time is noise below a second (a loaded machine doubles it), and a feature that came
/// and went with the load would keep mutants for the machine's sake and make a campaign
/// with a fixed `--seed` grow other seeds each time it is run; a mutant that takes a
/// solver from milliseconds to seconds is behaviour.
pub fn time_bucket(wall: std::time::Duration) -> u64 {
    match wall.as_secs_f64() {
        s if s < 1.0 => 0,
        s if s < 10.0 => 1,
        _ => 2,
    }
}

/// The features of solver `solver`'s result `r` on a query in logic `logic`: its answer
/// pattern (every check-sat's outcome, in order, with the logic), that pattern with the
/// [`time_bucket`], and each behaviour statistic ([`is_behaviour`]) of a statistics reply
/// among its responses, if it was asked for one ([`super::model::for_each_statistic`]).
pub fn of_result(solver: &str, logic: &str, r: &QueryResult) -> Vec<u64> {
    let id = solver.as_bytes();
    let answers: Vec<&str> = r.outcomes.iter().map(|o| o.name()).collect();
    let crash = if r.crash.is_some() { ";crash" } else { "" };
    let pattern = key_hash(id, &format!("answers {logic} {}{crash}", answers.join(",")));
    let mut out = vec![pattern, fnv1a_from(pattern, &time_bucket(r.wall).to_le_bytes())];
    for d in &r.data {
        let _ = super::model::for_each_statistic(d, |k, v| {
            if is_behaviour(k) {
                out.push(feature(key_hash(id, k), v));
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Outcome;
    use std::time::Duration;

    #[test]
    fn times_and_memory_are_not_behaviour() {
        for k in ["time", "total-time", "memory", "max-memory", "rlimit-count", "num-allocs-mem"] {
            assert!(!is_behaviour(k), "{k}");
        }
        for k in ["conflicts", "decisions", "propagations", "arith-lemmas", "rewrites"] {
            assert!(is_behaviour(k), "{k}");
        }
    }

    fn result(outcomes: Vec<Outcome>, ms: u64, data: &[&str]) -> QueryResult {
        QueryResult {
            outcomes,
            crash: None,
            data: data.iter().map(|s| s.to_string()).collect(),
            stdout_excerpt: String::new(),
            stderr_excerpt: String::new(),
            wall: Duration::from_millis(ms),
            cpu: None,
        }
    }

    /// Same answers in the same second: the same features; another answer, another
    /// decade of time, another solver or a statistic in a new magnitude: a new one.
    #[test]
    fn a_result_is_new_by_answer_time_solver_and_statistics() {
        let f = |r: &QueryResult| of_result("z3", "QF_LIA", r);
        let base = f(&result(vec![Outcome::Sat], 20, &[]));
        assert_eq!(base, f(&result(vec![Outcome::Sat], 700, &[])));
        assert_eq!(base.len(), 2);
        let unsat = f(&result(vec![Outcome::Unsat], 20, &[]));
        assert!(unsat.iter().all(|x| !base.contains(x)));
        let slow = f(&result(vec![Outcome::Sat], 1500, &[]));
        assert_eq!((slow[0], slow[1] == base[1]), (base[0], false));
        assert_ne!(base, of_result("yices", "QF_LIA", &result(vec![Outcome::Sat], 20, &[])));
        let stats = f(&result(vec![Outcome::Sat], 20, &["(:conflicts 5 :time 0.01 :decisions 0)"]));
        assert_eq!(stats.len(), 4, "conflicts and decisions, never time");
        let more = f(&result(vec![Outcome::Sat], 20, &["(:conflicts 500 :time 0.9 :decisions 0)"]));
        assert_eq!(stats.iter().filter(|x| !more.contains(x)).count(), 1);
    }
}
