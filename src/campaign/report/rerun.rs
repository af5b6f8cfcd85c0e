//! The answers a finding's pages show are to the input they show (issue 42). A stored
//! finding's answers are to `trigger.smt2`, as it was confirmed; its reduction can read
//! otherwise (a parse error at "line 6 column 10" of a 2-line input). So when the pages
//! show `reduced.smt2`, each solver that answered the trigger is asked the reduced input
//! again, as the page's command asks it (`repro/SOLVER.smt2`), in a fresh process.
//!
//! The answers are kept in `repro/answers.json`, keyed by the exact text and command, so
//! writing the report again (every campaign ends by writing it) re-runs only what changed.

use crate::solver::{Outcome, SolverSpec};
use crate::store::{layout, FindingDir, Meta, SolverAnswer};
use serde::{Deserialize, Serialize};

/// Where a finding keeps its answers to the input shown, beside the repro files.
const ANSWERS: &str = "answers.json";

/// One solver's answer to its repro file, and what it was asked.
#[derive(Clone, Serialize, Deserialize)]
struct Cached {
    /// Hash of the command line, the version and the repro file's text.
    key: String,
    answer: SolverAnswer,
}

/// What a finding's pages show as the answers to their input.
pub(super) struct Shown {
    /// Each solver's answer to that input, in the order the finding stored them.
    pub answers: Vec<SolverAnswer>,
    /// Whether these answers were obtained by running the shown input again (a
    /// reduction) rather than being the confirmed answers to the trigger.
    pub rerun: bool,
}

fn key(spec: &SolverSpec, text: &str, timeout: f64) -> String {
    let limit = crate::util::time::seconds(timeout.max(0.001));
    let argv = spec.file_argv(std::path::Path::new("FILE"), limit).join(" ");
    crate::util::hash::short_hash(&format!("{argv}\n{:?}\n{text}", spec.version))
}

fn read_cache(f: &FindingDir) -> Vec<Cached> {
    let path = f.path().join(layout::REPRO).join(ANSWERS);
    std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

/// The solvers of `solvers` that answered the finding's trigger, in the finding's order.
pub(super) fn asked<'a>(m: &Meta, solvers: &'a [SolverSpec]) -> Vec<&'a SolverSpec> {
    m.answers.iter().filter_map(|a| solvers.iter().find(|s| s.name == a.solver)).collect()
}

/// The answers to the input the pages show. For a trigger shown as found, the stored
/// (confirmed) answers. For a reduction, the cached answers to each solver's repro file;
/// with `run`, a solver whose answer is not cached for its current text is run now
/// (the solvers of one finding side by side) and the cache written.
pub(super) fn shown(f: &FindingDir, m: &Meta, solvers: &[SolverSpec], timeout: f64, run: bool) -> Shown {
    let (input_name, input) = f.best_input();
    if input_name == layout::TRIGGER {
        return Shown { answers: m.answers.clone(), rerun: false };
    }
    let cache = read_cache(f);
    let asked = asked(m, solvers);
    let jobs: Vec<(&SolverSpec, String, String)> = asked
        .into_iter()
        .map(|s| {
            let text = crate::oracle::confirm::fresh_text_of(s, &input);
            let k = key(s, &text, timeout);
            (s, text, k)
        })
        .collect();
    let cached = |k: &str| cache.iter().find(|c| c.key == k).map(|c| c.answer.clone());
    let answers: Vec<Option<SolverAnswer>> = if run {
        std::thread::scope(|sc| {
            let hs: Vec<_> = jobs
                .iter()
                .map(|(s, text, k)| sc.spawn(move || cached(k).or_else(|| run_one(f, s, text, timeout))))
                .collect();
            hs.into_iter().map(|h| h.join().ok().flatten()).collect()
        })
    } else {
        jobs.iter().map(|(_, _, k)| cached(k)).collect()
    };
    if run {
        let fresh: Vec<Cached> = jobs
            .iter()
            .zip(&answers)
            .filter_map(|((_, _, k), a)| a.clone().map(|answer| Cached { key: k.clone(), answer }))
            // A timeout, an `unknown` or a resource kill may be the load of the moment:
            // asked again next time, never kept for good.
            .filter(|c| {
                !c.answer
                    .outcomes
                    .iter()
                    .any(|o| matches!(o, Outcome::Timeout | Outcome::Unknown { .. } | Outcome::Resource { .. }))
            })
            .collect();
        if let Ok(text) = serde_json::to_string_pretty(&fresh) {
            let _ = crate::util::fs::write_atomic(&f.path().join(layout::REPRO).join(ANSWERS), text.as_bytes());
        }
    }
    Shown { answers: answers.into_iter().flatten().collect(), rerun: true }
}

/// Runs `spec` on its repro file (written with `text`) in a fresh process, under the
/// campaign's per-query limit.
fn run_one(f: &FindingDir, spec: &SolverSpec, text: &str, timeout: f64) -> Option<SolverAnswer> {
    f.write_repro(&spec.name, text).ok()?;
    let (_, path) = f.repro(&spec.name);
    let checks = crate::smtlib::parse(text).map_or(1, |s| crate::smtlib::ast::checks(&s)).max(1);
    let limits = crate::solver::Limits { time: crate::util::time::seconds(timeout.max(0.001)), ..Default::default() };
    let r = crate::solver::run_file(spec, &path, checks, &limits);
    // A solver that is not on this machine (a store read elsewhere) gives no answer,
    // rather than "cannot start" shown as if it were one.
    let absent =
        r.outcomes.iter().all(|o| matches!(o, Outcome::Error { message } if message.starts_with("cannot start")));
    (!absent).then(|| SolverAnswer::of(spec, &r))
}
