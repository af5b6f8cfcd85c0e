//! Do real solvers accept what the generator writes? (`smtstorm generate --accept N`)
//!
//! A generated script that a solver rejects is a generator bug, not a test: BanditFuzz
//! would chase "performance" that is an error message. This runs `n` scripts of every
//! theory combination through each solver (persistent sessions, one thread per solver)
//! and counts answers; every `error` is reported with the seed that regenerates it.

use super::{parse_features, Config, Grammar};
use crate::solver::outcome::Outcome;
use crate::solver::registry::SolverSpec;
use crate::solver::{Limits, Session};
use std::time::Duration;

/// A named theory combination with the generator settings it is tested with.
#[derive(Clone, Debug)]
pub struct Combination {
    pub name: &'static str,
    pub config: Config,
}

/// The combinations the generator is tested on: each theory alone, the usual SMT-LIB
/// pairings, and everything at once.
pub fn combinations() -> Vec<Combination> {
    let c = |name: &'static str, theories: &str, f: fn(&mut Config)| {
        let mut config = Config { features: parse_features(theories).expect("known names"), ..Config::default() };
        f(&mut config);
        Combination { name, config }
    };
    vec![
        c("core", "core", |_| {}),
        c("lia", "ints", |x| x.linear = true),
        c("nia", "ints", |_| {}),
        c("lra", "reals", |x| x.linear = true),
        c("nra", "reals", |_| {}),
        c("lira", "mixed", |x| x.linear = true),
        c("bv", "bv", |x| x.widths = vec![1, 4, 8, 32]),
        c("fp", "fp", |x| x.formats = vec![(8, 24), (11, 53)]),
        c("fp+bv+reals", "fp,bv,reals", |x| x.widths = vec![8, 16]),
        c("strings", "strings", |_| {}),
        c("arrays+lia", "arrays,ints", |x| x.linear = true),
        c("arrays+bv", "arrays,bv", |_| {}),
        c("uf+lia", "uf,ints", |x| x.linear = true),
        c("uf+bv", "uf,bv", |_| {}),
        c("datatypes+lia", "datatypes,ints", |x| x.linear = true),
        c("quantifiers+lia", "quantifiers,ints", |x| x.linear = true),
        c("quantifiers+uf+nra", "quantifiers,uf,reals", |_| {}),
        c("all", "all", |x| x.widths = vec![4, 8]),
    ]
}

/// Answers of one solver on one combination.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Row {
    pub combination: String,
    pub logic: String,
    pub solver: String,
    pub scripts: usize,
    pub sat: usize,
    pub unsat: usize,
    pub unknown: usize,
    pub timeout: usize,
    pub crash: usize,
    pub error: usize,
    /// `(generator seed, message)` of the first errors and crashes.
    pub examples: Vec<(u64, String)>,
}

/// Runs `n` scripts of each combination (generator seeds `seed..seed+n`) on each solver.
pub fn run(combos: &[Combination], solvers: &[SolverSpec], n: usize, seed: u64, time: Duration) -> Vec<Row> {
    let grammars: Vec<(String, Grammar)> = combos
        .iter()
        .map(|c| (c.name.to_string(), Grammar::new(c.config.clone()).expect("built-in combinations are valid")))
        .collect();
    let limits = Limits { time, ..Limits::default() };
    std::thread::scope(|scope| {
        let handles: Vec<_> = solvers
            .iter()
            .map(|spec| {
                let grammars = &grammars;
                scope.spawn(move || {
                    let mut session = Session::new(spec.clone(), limits);
                    let mut rows = vec![];
                    for (name, g) in grammars {
                        let mut row = Row {
                            combination: name.clone(),
                            logic: g.logic.clone(),
                            solver: spec.name.clone(),
                            ..Row::default()
                        };
                        for (s, text) in super::scripts(g, seed, n) {
                            row.scripts += 1;
                            let r = session.query(&text, 1);
                            match r.outcome() {
                                Outcome::Sat => row.sat += 1,
                                Outcome::Unsat => row.unsat += 1,
                                Outcome::Unknown { .. } => row.unknown += 1,
                                // Out of memory is a limit, like a timeout.
                                Outcome::Timeout | Outcome::Resource { .. } => row.timeout += 1,
                                o @ (Outcome::Crash { .. }
                                | Outcome::Error { .. }
                                | Outcome::InvalidModel { .. }
                                | Outcome::CheckFailed { .. }) => {
                                    if matches!(o, Outcome::Crash { .. }) {
                                        row.crash += 1;
                                    } else {
                                        row.error += 1;
                                    }
                                    if row.examples.len() < 5 {
                                        row.examples.push((s, o.to_string()));
                                    }
                                }
                            }
                        }
                        rows.push(row);
                    }
                    rows
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("acceptance worker")).collect()
    })
}

/// The rows as a Markdown table, then the examples.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::from(
        "| combination | logic | solver | scripts | sat | unsat | unknown | timeout | crash | error |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.combination, r.logic, r.solver, r.scripts, r.sat, r.unsat, r.unknown, r.timeout, r.crash, r.error
        ));
    }
    for r in rows.iter().filter(|r| !r.examples.is_empty()) {
        for (s, m) in &r.examples {
            out.push_str(&format!("\n- {} on {} (generator seed {s}): {m}", r.solver, r.combination));
        }
    }
    out
}
