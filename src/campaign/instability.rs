//! The metamorphic engine's two uses in a campaign ([`crate::mutate::equisat`]):
//!
//! - its oracle: each solver's answer to a variant against its own answer to the seed
//!   at the pre-screen ([`metamorphic_verdicts`], [`crate::oracle::metamorphic`]);
//! - Mariposa's *instability* (Zhou et al., FMCAD 2023: 2.6 % of queries unstable in
//!   recent z3): per seed and solver, how the answers and times of equisatisfiable
//!   variants spread. It is a property of the query and the solver, never a bug: it goes
//!   to the stats (`stats.jsonl`, the report's table), never to the store.

use super::*;
use std::collections::BTreeMap;

/// The metamorphic verdicts on one variant's answers `rs`: each solver against its own
/// answers to the seed at its pre-screen (`baseline`); a solver `already` blamed for soundness on the
/// same variant (by the votes) is not blamed twice.
pub(super) fn metamorphic_verdicts(
    sh: &Shared,
    baseline: &[Option<(Vec<&'static str>, Duration)>],
    rs: &[Option<&QueryResult>],
    already: &[oracle::Verdict],
) -> Vec<oracle::Verdict> {
    let seed: Vec<Option<Vec<Option<bool>>>> = baseline
        .iter()
        .map(|b| b.as_ref().map(|(names, _)| names.iter().map(|n| oracle::metamorphic::definite_name(n)).collect()))
        .collect();
    oracle::metamorphic::judge(rs, &seed, &sh.families)
        .into_iter()
        .filter(|v| !already.iter().any(|x| x.kind == BugKind::Soundness && x.blamed == v.blamed))
        .collect()
}

/// One seed on one solver: its variants' answers and times (the seed's own pre-screen
/// answer among them).
#[derive(Clone, Debug, Default)]
struct Spread {
    /// The seed's answers (outcome names per check-sat).
    seed: Vec<&'static str>,
    n: u64,
    /// Variants whose answers differ from the seed's (`unknown` and timeouts included,
    /// errors not).
    changed: u64,
    sum: f64,
    sum2: f64,
}

/// Per (seed, solver) spreads, as workers record them.
#[derive(Debug, Default)]
pub struct Instability {
    spreads: BTreeMap<(String, String), Spread>,
}

/// Times under this count as this (the log of zero is no measure).
const FLOOR_SECONDS: f64 = 1e-3;

impl Instability {
    fn sample(s: &mut Spread, t: Duration) {
        let x = t.as_secs_f64().max(FLOOR_SECONDS).ln();
        s.n += 1;
        s.sum += x;
        s.sum2 += x * x;
    }

    /// Records one variant's answers `rs` of a seed (`seed`, shown path) whose pre-screen
    /// answers per solver are `baseline`.
    pub(super) fn record(
        &mut self,
        seed: &str,
        solvers: &[SolverSpec],
        baseline: &[Option<(Vec<&'static str>, Duration)>],
        rs: &[Option<&QueryResult>],
    ) {
        for (k, r) in rs.iter().enumerate() {
            let (Some(r), Some(Some((names, t0)))) = (r, baseline.get(k)) else { continue };
            let s = self.spreads.entry((seed.to_string(), solvers[k].name.clone())).or_insert_with(|| {
                let mut s = Spread { seed: names.clone(), ..Spread::default() };
                Self::sample(&mut s, *t0);
                s
            });
            // An error is a dialect matter (a rejected rewrite), not the query's instability.
            let answers: Vec<&'static str> = r.outcomes.iter().map(|o| o.name()).collect();
            s.changed += (answers != s.seed && !answers.contains(&"error")) as u64;
            Self::sample(s, r.wall);
        }
    }

    /// The summary a stats line carries: the seeds measured, those unstable, and the
    /// [`SHOWN`] most unstable (seed, solver) pairs.
    pub fn summary(&self) -> InstabilitySummary {
        let mut rows: Vec<SeedInstability> = self
            .spreads
            .iter()
            .filter(|(_, s)| s.n >= 2)
            .map(|((seed, solver), s)| {
                let n = s.n as f64;
                let var = (s.sum2 / n - (s.sum / n).powi(2)).max(0.0);
                SeedInstability {
                    seed: seed.clone(),
                    solver: solver.clone(),
                    variants: s.n - 1,
                    changed: s.changed,
                    log_time_sd: (var * n / (n - 1.0)).sqrt(),
                    seed_answer: s.seed.join(" "),
                }
            })
            .collect();
        let unstable = rows.iter().filter(|r| r.unstable()).count() as u64;
        let measured = rows.len() as u64;
        rows.sort_by(|a, b| {
            (b.changed as f64 / b.variants.max(1) as f64, b.log_time_sd)
                .partial_cmp(&(a.changed as f64 / a.variants.max(1) as f64, a.log_time_sd))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        rows.truncate(SHOWN);
        InstabilitySummary { measured, unstable, most: rows }
    }
}

/// (Seed, solver) pairs a stats line lists at most.
pub const SHOWN: usize = 20;

/// One seed's instability on one solver.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeedInstability {
    pub seed: String,
    pub solver: String,
    pub variants: u64,
    /// Variants answered otherwise than the seed (`unknown`, timeouts included).
    pub changed: u64,
    /// Standard deviation of the natural log of the answer time over the seed and its
    /// variants (0.69 is a factor of two).
    pub log_time_sd: f64,
    pub seed_answer: String,
}

impl SeedInstability {
    /// Mariposa's reading: a query is unstable when semantics-preserving variants change
    /// its answer. Times spread by more than a factor of two (one standard deviation)
    /// count too.
    pub fn unstable(&self) -> bool {
        self.changed > 0 || self.log_time_sd > std::f64::consts::LN_2
    }
}

/// What a stats line says of instability.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InstabilitySummary {
    /// (Seed, solver) pairs with at least one variant answered.
    pub measured: u64,
    pub unstable: u64,
    pub most: Vec<SeedInstability>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_that_change_and_times_that_spread_are_unstable() {
        let spec = SolverSpec::new("z3", crate::solver::Family::Z3, vec!["z3".into()]);
        let q = |o: Outcome, ms: u64| QueryResult {
            outcomes: vec![o],
            crash: None,
            data: vec![],
            stdout_excerpt: String::new(),
            stderr_excerpt: String::new(),
            wall: Duration::from_millis(ms),
            cpu: None,
        };
        let base = vec![Some((vec!["sat"], Duration::from_millis(100)))];
        let mut inst = Instability::default();
        for r in [q(Outcome::Sat, 100), q(Outcome::Sat, 110)] {
            inst.record("a.smt2", std::slice::from_ref(&spec), &base, &[Some(&r)]);
        }
        for r in [q(Outcome::Sat, 100), q(Outcome::Timeout, 5000)] {
            inst.record("b.smt2", std::slice::from_ref(&spec), &base, &[Some(&r)]);
        }
        let s = inst.summary();
        assert_eq!((s.measured, s.unstable), (2, 1));
        assert_eq!((s.most[0].seed.as_str(), s.most[0].changed, s.most[0].variants), ("b.smt2", 1, 2));
        assert!(s.most[1].log_time_sd < 0.1 && !s.most[1].unstable());
    }
}
