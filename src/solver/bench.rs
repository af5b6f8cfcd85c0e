//! `smtstorm bench-solvers`: queries per second of each solver in a fresh process per
//! query vs one persistent session, on the same generated queries, answers compared.
//!
//! The queries are small, distinct QF_LIA and QF_BV problems generated from a seed (half
//! each), so every run and every solver sees the same ones. The session run pipelines
//! batches of 16 queries ([`Session::query_batch`]). Our own overhead is the CPU
//! time of the smtstorm process (all its threads) during the session run, as a share of
//! the run's wall time.

use crate::solver::{run_file, Limits, Outcome, Session, SolverSpec};
use serde::Serialize;
use std::time::Instant;

/// Figures for one solver.
#[derive(Debug, Clone, Serialize)]
pub struct SolverBench {
    pub solver: String,
    pub queries: usize,
    pub fresh_qps: f64,
    pub session_qps: f64,
    pub speedup: f64,
    /// Queries whose fresh and session answers differ (must be 0).
    pub mismatches: usize,
    pub answers: std::collections::BTreeMap<String, usize>,
    /// smtstorm's own CPU time during the session run / that run's wall time.
    pub own_cpu_share: f64,
    pub session_starts: u64,
}

/// Small xorshift generator: the queries depend only on `seed`.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

fn int(v: i64) -> String {
    if v < 0 {
        format!("(- {})", -v)
    } else {
        v.to_string()
    }
}

/// The `i`-th generated query (QF_LIA for even `i`, QF_BV for odd).
pub fn query(seed: u64, i: usize) -> String {
    let mut r = Rng(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut q = String::new();
    if i.is_multiple_of(2) {
        q.push_str("(set-logic QF_LIA)\n(declare-const x Int)\n(declare-const y Int)\n(declare-const z Int)\n");
        for _ in 0..(3 + r.range(0, 2)) {
            let rel = ["<=", ">=", "=", "distinct", "<"][r.range(0, 4) as usize];
            q.push_str(&format!(
                "(assert ({rel} (+ (* {} x) (* {} y) (* {} z)) {}))\n",
                int(r.range(-9, 9)),
                int(r.range(-9, 9)),
                int(r.range(-9, 9)),
                int(r.range(-30, 30))
            ));
        }
    } else {
        q.push_str("(set-logic QF_BV)\n(declare-const x (_ BitVec 8))\n(declare-const y (_ BitVec 8))\n");
        for _ in 0..(2 + r.range(0, 2)) {
            let op = ["bvadd", "bvmul", "bvand", "bvor", "bvxor", "bvsub"][r.range(0, 5) as usize];
            let rel = ["=", "bvult", "bvslt", "bvuge"][r.range(0, 3) as usize];
            q.push_str(&format!(
                "(assert ({rel} ({op} x (bvmul y #x{:02x})) #x{:02x}))\n",
                r.range(0, 255),
                r.range(0, 255)
            ));
        }
    }
    q.push_str("(check-sat)\n");
    q
}

/// Benchmarks `spec` on `n` generated queries.
pub fn bench(spec: &SolverSpec, n: usize, seed: u64, limits: &Limits) -> std::io::Result<SolverBench> {
    // Named after the solver only as a prefix, with path separators removed: a solver
    // name is the user's text and must not reach outside the temporary directory.
    let tmp = tempfile::Builder::new()
        .prefix(&format!("smtstorm-bench-{}-", crate::util::fs::safe_name(&spec.name)))
        .tempdir()?;
    let dir = tmp.path().to_path_buf();
    let queries: Vec<String> = (0..n).map(|i| query(seed, i)).collect();
    let mut paths = vec![];
    for (i, q) in queries.iter().enumerate() {
        let p = dir.join(format!("q{i}.smt2"));
        std::fs::write(&p, q)?;
        paths.push(p);
    }

    let t0 = Instant::now();
    let fresh: Vec<Outcome> = paths.iter().map(|p| run_file(spec, p, 1, limits).outcome().clone()).collect();
    let fresh_s = t0.elapsed().as_secs_f64();

    let mut s = Session::new(spec.clone(), *limits);
    let cpu0 = crate::util::cpu::own_cpu();
    let t0 = Instant::now();
    // Pipelined in batches of 16, as a campaign worker sends its mutants.
    let mut session: Vec<Outcome> = vec![];
    for chunk in queries.chunks(16) {
        let batch: Vec<(&str, usize)> = chunk.iter().map(|q| (q.as_str(), 1)).collect();
        session.extend(s.query_batch(&batch).iter().map(|r| r.outcome().clone()));
    }
    let session_s = t0.elapsed().as_secs_f64();
    let own = (crate::util::cpu::own_cpu() - cpu0).as_secs_f64();
    let starts = s.starts;
    drop(s);
    drop(tmp);

    let mismatches = fresh.iter().zip(&session).filter(|(a, b)| a != b).count();
    let mut answers = std::collections::BTreeMap::new();
    for o in &session {
        *answers.entry(o.name().to_string()).or_insert(0) += 1;
    }
    Ok(SolverBench {
        solver: spec.name.clone(),
        queries: n,
        fresh_qps: n as f64 / fresh_s,
        session_qps: n as f64 / session_s,
        speedup: fresh_s / session_s,
        mismatches,
        answers,
        own_cpu_share: own / session_s,
        session_starts: starts,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn queries_are_distinct_deterministic_and_well_sorted() {
        let qs: Vec<String> = (0..500).map(|i| super::query(7, i)).collect();
        let distinct: std::collections::BTreeSet<&String> = qs.iter().collect();
        assert_eq!(distinct.len(), 500);
        assert_eq!(qs[3], super::query(7, 3));
        for q in &qs {
            let s = crate::smtlib::parse(q).unwrap();
            assert!(crate::smtlib::check::check(&s).is_clean(), "{q}");
        }
    }
}
