//! A finding's "Expected and actual": the expected answer itself (`sat`), who agrees
//! with it on the input shown (`z3-5.4.0, yices agree`), and what the blamed solver
//! answers there. A maintainer triages "expected: sat" in a second; "the majority of
//! the other solvers' answers" sends them to re-run everything first (issue 42).

use super::rerun::Shown;
use crate::oracle::{BlameBy, BugKind};
use crate::store::{Meta, SolverAnswer};
use std::fmt::Write;

/// `(actual, expected)` of a wrong-answer signature (`unsat where sat is expected`).
fn split_signature(sig: &str) -> Option<(&str, &str)> {
    let (a, rest) = sig.split_once(" where ")?;
    Some((a.trim(), rest.strip_suffix(" is expected")?.trim()))
}

/// Names joined for a sentence: `a`, `a and b`, `a, b and c`.
fn names(v: &[&str]) -> String {
    match v {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Who agrees with `expected` and who answers `actual` too, among the solvers other
/// than the blamed one, at the checks where the blamed one answers `actual`.
fn sides<'a>(m: &Meta, shown: &'a [SolverAnswer], actual: &str, expected: &str) -> (Vec<&'a str>, Vec<&'a str>) {
    let text = |a: &SolverAnswer| a.outcomes.iter().map(|o| o.to_string()).collect::<Vec<_>>();
    let blamed = shown.iter().find(|a| a.solver == m.blamed).map(text).unwrap_or_default();
    let at: Vec<usize> = (0..blamed.len()).filter(|&i| blamed[i] == actual).collect();
    let said = |a: &SolverAnswer, word: &str| {
        let t = text(a);
        match at.is_empty() {
            true => t.iter().any(|x| x == word),
            false => at.iter().any(|&i| t.get(i).is_some_and(|x| x == word)),
        }
    };
    let others = || shown.iter().filter(|a| a.solver != m.blamed);
    let agree = others().filter(|a| said(a, expected)).map(|a| a.solver.as_str()).collect();
    let with_blamed = others().filter(|a| said(a, actual)).map(|a| a.solver.as_str()).collect();
    (agree, with_blamed)
}

/// Why a wrong answer's expected answer is the expected one, when it is not the other
/// solvers' agreement.
fn reason(by: BlameBy) -> Option<&'static str> {
    Some(match by {
        BlameBy::Status => "the seed's `:status`",
        BlameBy::Witness => "the input is satisfied by the model it was generated from",
        BlameBy::Construction => "by construction: a Semantic Fusion of two seeds with that answer",
        BlameBy::ModelCheck => "a model check settled the tie",
        // Regression mode (`--baseline`): the reference build's answer, which the
        // confirmation's model check did not refute (`oracle::confirm`).
        BlameBy::Baseline => "the baseline's answer",
        BlameBy::SelfContradiction => "its own answer to another check of the same assertions",
        BlameBy::Metamorphic => {
            "its own answer to the seed side, of which the input is an equisatisfiable variant \
             (metamorphic relations that keep every answer)"
        }
        _ => return None,
    })
}

/// The other solvers' answers on the input shown, for kinds whose expected answer is not
/// one word (`; on this input: z3-5.4.0 answers sat`).
fn others_said(m: &Meta, shown: &[SolverAnswer]) -> String {
    let v: Vec<String> = shown
        .iter()
        .filter(|a| a.solver != m.blamed)
        .map(|a| format!("{} answers `{}`", a.solver, a.outcomes_text()))
        .collect();
    match v.is_empty() {
        true => String::new(),
        false => format!(" (on this input: {})", v.join("; ")),
    }
}

/// The "Expected and actual" lines of a finding's `report.md`, from the answers to the
/// input the report shows.
pub(super) fn lines(r: &mut String, m: &Meta, shown: &Shown) {
    let blamed = shown.answers.iter().find(|a| a.solver == m.blamed);
    let actual = blamed.map_or("not re-run".to_string(), |a| a.outcomes_text());
    let words = crate::oracle::signature_words(&m.signature);
    let others = others_said(m, &shown.answers);
    match m.kind {
        BugKind::Crash => {
            let _ = writeln!(r, "- Expected: an answer (`sat`, `unsat` or `unknown`), or an error message{others}");
            let _ = writeln!(r, "- Actual: {words}");
            if !m.frames.is_empty() {
                // The crash state: what tells this crash from the solver's other ones.
                let _ = writeln!(r, "- Crash state (top frames in the solver's code, from gdb):");
                for f in &m.frames {
                    let _ = writeln!(r, "  - `{f}`");
                }
            }
        }
        BugKind::InvalidModel => {
            let _ =
                writeln!(r, "- Expected: `sat` with a model that satisfies every assertion, or another answer{others}");
            let _ = writeln!(r, "- Actual: {actual}");
        }
        BugKind::CheckFailed => {
            // The check options in the input never change the answer: the solver's own
            // re-check of its answer (core, proof, lemma) is what failed.
            let _ = writeln!(r, "- Expected: the answer, with the self-check the input switches on passing{others}");
            let _ = writeln!(r, "- Actual: {actual} ({words})");
        }
        BugKind::Regression => {
            let older = crate::oracle::regress::older_in(&m.signature).unwrap_or("an older release");
            match shown.answers.iter().find(|a| a.solver == older) {
                Some(a) => {
                    let _ = writeln!(
                        r,
                        "- Expected: `{}`, the answer {older} gives on this input (in {:.2} s), within 10× its time",
                        a.outcomes_text(),
                        a.seconds
                    );
                }
                None => {
                    let _ = writeln!(r, "- Expected: the answer {older} gives, within 10× its time");
                }
            }
            let secs = blamed.map_or(0.0, |a| a.seconds);
            let _ = writeln!(r, "- Actual: {actual} after {secs:.2} s ({words})");
            let _ = writeln!(r, "- Incompleteness, not a wrong answer: no answer given is contradicted");
        }
        BugKind::Soundness if m.blame_by == BlameBy::UnsatCore => {
            let _ = writeln!(
                r,
                "- Expected: `unsat` for the assertions of the solver's own unsat core (or unsat assumptions) alone{others}"
            );
            let _ = writeln!(r, "- Actual: {actual} ({words})");
        }
        BugKind::Soundness => {
            let expected = match split_signature(&m.signature) {
                Some((a, t)) => {
                    let (agree, also) = sides(m, &shown.answers, a, t);
                    let mut why: Vec<String> = reason(m.blame_by).map(String::from).into_iter().collect();
                    match agree.len() {
                        0 => why.push("no other solver answers it on this input".into()),
                        1 => why.push(format!("{} agrees", agree[0])),
                        _ => why.push(format!("{} agree", names(&agree))),
                    }
                    if !also.is_empty() {
                        why.push(format!(
                            "{} also answer{} `{a}`",
                            names(&also),
                            if also.len() == 1 { "s" } else { "" }
                        ));
                    }
                    format!("`{t}` ({})", why.join("; "))
                }
                None => format!("{}{others}", reason(m.blame_by).unwrap_or("the other solvers' answer")),
            };
            let _ = writeln!(r, "- Expected: {expected}");
            let _ = writeln!(r, "- Actual: {actual} ({words})");
        }
    }
    if let Some(a) = blamed.filter(|a| !a.stderr_excerpt.trim().is_empty() || !a.stdout_excerpt.trim().is_empty()) {
        let out = format!("{}\n{}", a.stdout_excerpt.trim(), a.stderr_excerpt.trim());
        let _ = writeln!(r, "\nOutput:\n\n```\n{}\n```", super::finding::scrub_paths(out.trim()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_answer_signature_names_both_answers() {
        assert_eq!(split_signature("unsat where sat is expected"), Some(("unsat", "sat")));
        assert_eq!(split_signature("unsat core is sat"), None);
        assert_eq!(names(&["a", "b", "c"]), "a, b and c");
    }

    /// Issue 42: a build's wrong answer under `--baseline` says where its expected answer
    /// comes from.
    #[test]
    fn a_wrong_answer_against_the_baseline_expects_the_baseline_s_answer() {
        assert_eq!(reason(BlameBy::Baseline), Some("the baseline's answer"));
        assert_eq!(reason(BlameBy::Majority), None);
    }
}
