//! The self-check oracle (issue 40, item 1): a query a solver answered definitely is run
//! again in a fresh process with the self-checks that re-check that answer switched on
//! ([`crate::solver::checks`]: cvc5's `check-unsat-cores` and `check-proofs` after
//! `unsat`, z3's `smt.core.validate` and `smt.arith.validate`, ...). The checks never
//! change the answer, so what fails under them is a bug of the mode users run. What the
//! solver says is judged like any answer ([`super::judge`]): a failed check is a
//! [`super::BugKind::CheckFailed`] blamed by [`super::BlameBy::SelfCheck`] — neither a
//! crash of the search nor a wrong answer. A check that could not decide (`could not
//! check core result unknown`) is no finding, and neither is a crash under the check
//! options (the checker's own, [`recheck`]).
//!
//! The candidate's trigger is the query with the check options at its start: the one
//! fresh-process confirmation ([`super::confirm`]) reruns it as it is, the reducer keeps
//! the options (without them nothing fails), and `solver trigger.smt2` shows the failure.

use super::{BugKind, Verdict};
use crate::smtlib::{self, Script};
use crate::solver::checks::{options_text, probe, SelfCheck};
use crate::solver::{run_file, Family, Limits, Outcome, SolverSpec};
use std::path::Path;

/// The self-checks `spec` runs after `outcomes` (its answers to one query): those its
/// release accepts ([`probe`]) that re-check one of the definite answers.
pub fn applicable(spec: &SolverSpec, outcomes: &[Outcome]) -> Vec<&'static SelfCheck> {
    if !outcomes.iter().any(Outcome::is_definite) {
        return vec![];
    }
    probe(spec).into_iter().filter(|c| outcomes.iter().any(|o| c.after.applies(o))).collect()
}

/// `s` with `checks` switched on at its start (before its logic: SMT-LIB 2.6 §4.1.7 lets
/// `:produce-proofs` and friends be set in start mode only).
pub fn with_checks(s: &Script, checks: &[&SelfCheck]) -> Option<Script> {
    smtlib::parse(&format!("{}{}", options_text(checks), smtlib::print(s))).ok()
}

/// Whether the mutant drawn with `rng_seed` is re-checked when one in `every` is (0:
/// none): a draw of its own seed, so a campaign's choice is reproducible.
pub fn sampled(rng_seed: u64, every: u32) -> bool {
    every > 0 && crate::util::hash::mix(&[rng_seed, 0x5e1f_c4ec]).is_multiple_of(u64::from(every))
}

/// What re-checking one query found.
#[derive(Debug)]
pub struct Rechecked {
    /// The query with the check options: the trigger of any candidate.
    pub trigger: Script,
    /// The candidates against the re-checked solver: its failed self-checks.
    pub verdicts: Vec<Verdict>,
    /// The run's outcomes (for counting and tests).
    pub outcomes: Vec<Outcome>,
}

/// Re-checks solver `k`'s answers `outcomes` to `s` in a fresh process (file `dir/{tag}selfcheck-{k}.smt2`,
/// removed after): `None` when no self-check applies or the file cannot be written.
#[allow(clippy::too_many_arguments)]
pub fn recheck(
    specs: &[SolverSpec],
    families: &[Family],
    k: usize,
    s: &Script,
    outcomes: &[Outcome],
    dir: &Path,
    tag: &str,
    limits: &Limits,
) -> Option<Rechecked> {
    let spec = &specs[k];
    let checks = applicable(spec, outcomes);
    if checks.is_empty() {
        return None;
    }
    let trigger = with_checks(s, &checks)?;
    let file = dir.join(format!("{tag}selfcheck-{k}.smt2"));
    std::fs::write(&file, super::confirm::fresh_text(spec, &trigger)).ok()?;
    let r = run_file(spec, &file, smtlib::checks(&trigger), limits);
    let _ = std::fs::remove_file(&file);
    let mut results = vec![None; specs.len()];
    results[k] = Some(&r);
    let framing = smtlib::framing::framing(&trigger);
    // Only a failed check: a crash under the check options is the checker's own (z3 5.4.0
    // overflows its stack re-validating cores of string queries: every nested context
    // validates its core again, under an option z3 warns "users should not set"), not a
    // bug of the mode users run.
    let verdicts = super::judge(&results, families, None, Some(&framing))
        .into_iter()
        .filter(|v| v.blamed == Some(k) && v.kind == BugKind::CheckFailed)
        .collect();
    Some(Rechecked { trigger, verdicts, outcomes: r.outcomes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_draw_in_every_n_is_sampled_and_none_at_zero() {
        let hits = (0..10_000u64).filter(|&s| sampled(s, 10)).count();
        assert!((800..1200).contains(&hits), "{hits}");
        assert!((0..1000u64).all(|s| sampled(s, 1)));
        assert!(!(0..1000u64).any(|s| sampled(s, 0)));
    }
}
