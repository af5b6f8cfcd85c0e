//! Oracles: which answers make a bug, and whom to blame.
//!
//! * **Soundness** (differential): at least two solvers give definite, conflicting answers
//!   (`sat` vs `unsat`) to the same check-sat. Blame goes to the minority of solver
//!   families (one vote per family, not per release); against a known ground truth (the
//!   unmutated seed's `:status`) to whoever contradicts it, unless all do; on a tie, to
//!   whichever side a model cross-check refutes ([`resolve_tie`]).
//! * **Self-consistency**: one solver answers `sat` and `unsat` to the same assertion
//!   stack asked twice (another tactic, a repeated check-sat; [`smtlib::framing`]). The
//!   solver contradicts itself: it is blamed with no vote, before any majority.
//! * **Crash**: the process died on a signal, an assertion or a sanitizer report.
//! * **Invalid model**: the solver's own model validation (z3 `model_validate`, cvc5
//!   `check-models`, switched on for every query) rejected the model it produced.
//! * **Failed self-check**: a self-check of the solver's own (cvc5 `check-unsat-cores`,
//!   `check-proofs`, z3 `smt.core.validate`; [`checks`]) rejected the core, proof or
//!   lemma behind its answer. Not a crash of the search and not a wrong answer.
//! * **Regression** ([`regress`]): an older release of a family decides a query its newest
//!   release (or the build under test against a `--baseline`) answers `unknown`, times
//!   out on or decides 10× slower: incompleteness, its own kind, never a wrong answer.
//! * Errors are never bugs here: a mutant one solver rejects and another accepts is a
//!   dialect matter, counted apart. Unknown and timeout are never bugs either.

use crate::smtlib::checks;
use crate::smtlib::framing::Framing;
use crate::smtlib::{self, Script};
use crate::solver::registry::version_cmp;
use crate::solver::{model, run_file, Family, Limits, Outcome, QueryResult, SolverSpec};
use std::path::Path;

pub mod checks;
pub mod confirm;
pub mod cores;
pub mod eval;
pub mod kind;
pub mod metamorphic;
pub mod reask;
pub mod regress;
pub mod semantics;
pub mod witness;

pub use kind::{BlameBy, BugKind};

/// A suspected bug.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub kind: BugKind,
    /// Index of the blamed solver; `None` for an undecided tie.
    pub blamed: Option<usize>,
    pub blame_by: BlameBy,
    /// Normalised crash message, or the answer pattern (`sat/unsat` of the blamed solver vs
    /// the others) for soundness.
    pub signature: String,
}

/// Who votes: one vote per solver family (z3, cvc5, yices, bitwuzla, ...), however many
/// of its releases run. Two z3 releases that share a bug must not outvote cvc5 on it;
/// releases of one family decide among themselves only by bisection. Every solver of
/// family `Other` (an unknown command line) is a family of its own.
pub(crate) fn voter(families: &[Family], i: usize) -> (Family, usize) {
    match families.get(i) {
        Some(Family::Other) | None => (Family::Other, i),
        Some(&f) => (f, 0),
    }
}

/// The answers to a query, judged. `results[i]` is `None` for a solver that does not read
/// the script; `families[i]` is its family. `truth` is the expected answer per check-sat
/// when known.
///
/// Soundness, per check-sat: each family whose releases agree casts one vote; a family
/// whose releases disagree casts none. The answer with more votes is expected, and every
/// release that gave the other answer is blamed (`majority`): a minority family's, or the
/// wrong side of a split family when another family backs the other side. Equal votes
/// (among them: only one family answered, and its releases disagree) are an undecided tie,
/// left to the model cross-check ([`resolve_tie`]). Against a known `truth`, whoever
/// contradicts it is blamed (`status`) — unless every definite answer contradicts it
/// ([`status_mismatch`]): then the status, not the solvers, is wrong.
///
/// With the script's `framing`, a solver that contradicts itself is blamed first
/// ([`self_contradictions`]); the votes then skip it.
pub fn judge(
    results: &[Option<&QueryResult>],
    families: &[Family],
    truth: Option<&[Outcome]>,
    framing: Option<&Framing>,
) -> Vec<Verdict> {
    let mut v = vec![];
    if let Some(f) = framing {
        for (i, r) in results.iter().enumerate() {
            if let Some(x) = r.and_then(|r| self_contradiction(r, f)) {
                v.push(Verdict { blamed: Some(i), ..x });
            }
        }
    }
    for (i, r) in results.iter().enumerate() {
        let Some(r) = r else { continue };
        let crash = r.crash.clone().or_else(|| r.outcomes.iter().find(|o| matches!(o, Outcome::Crash { .. })).cloned());
        if let Some(Outcome::Crash { message, .. }) = crash {
            v.push(Verdict { kind: BugKind::Crash, blamed: Some(i), blame_by: BlameBy::Crash, signature: message });
        }
    }
    // A check under a meaning-changing parameter is about another formula: its model is
    // not checked and its answer does not vote.
    let changed = |k: usize| framing.is_some_and(|f| f.changed.get(k) == Some(&true));
    for (i, r) in results.iter().enumerate() {
        if let Some(Outcome::InvalidModel { message }) = r.and_then(|r| {
            r.outcomes
                .iter()
                .enumerate()
                .find(|(k, o)| matches!(o, Outcome::InvalidModel { .. }) && !changed(*k))
                .map(|x| x.1)
        }) {
            let sig = invalid_model_signature(message);
            v.push(Verdict {
                kind: BugKind::InvalidModel,
                blamed: Some(i),
                blame_by: BlameBy::Validation,
                signature: sig,
            });
        }
    }
    // A self-check the query switched on failed ([`checks`]): the solver is blamed by
    // itself, no vote needed.
    for (i, r) in results.iter().enumerate() {
        if let Some(Outcome::CheckFailed { message }) =
            r.and_then(|r| r.outcomes.iter().find(|o| matches!(o, Outcome::CheckFailed { .. })))
        {
            v.push(Verdict {
                kind: BugKind::CheckFailed,
                blamed: Some(i),
                blame_by: BlameBy::SelfCheck,
                signature: message.clone(),
            });
        }
    }
    let truth = truth.filter(|t| status_mismatch(results, t).is_none());
    let checks = results.iter().flatten().map(|r| r.outcomes.len()).max().unwrap_or(0);
    let word = |b: bool| if b { "sat" } else { "unsat" };
    for k in (0..checks).filter(|&k| !changed(k)) {
        let ans = definite_answers(results, k);
        let truth_k = truth.and_then(|t| t.get(k)).and_then(definite);
        if let Some(t) = truth_k {
            for &(i, a) in ans.iter().filter(|a| a.1 != t) {
                if !v.iter().any(|x: &Verdict| x.kind == BugKind::Soundness && x.blamed == Some(i)) {
                    v.push(Verdict {
                        kind: BugKind::Soundness,
                        blamed: Some(i),
                        blame_by: BlameBy::Status,
                        signature: format!("{} where {} is expected", word(a), word(t)),
                    });
                }
            }
            continue;
        }
        if ans.iter().all(|a| a.1) || ans.iter().all(|a| !a.1) {
            continue;
        }
        // One vote per family that answered with one voice.
        let mut votes: std::collections::HashMap<(Family, usize), (bool, bool)> = Default::default();
        for &(i, a) in &ans {
            let e = votes.entry(voter(families, i)).or_insert((false, false));
            if a {
                e.0 = true;
            } else {
                e.1 = true;
            }
        }
        let sat_votes = votes.values().filter(|&&(s, u)| s && !u).count();
        let unsat_votes = votes.values().filter(|&&(s, u)| u && !s).count();
        if sat_votes == unsat_votes {
            if !v.iter().any(|x| x.kind == BugKind::Soundness) {
                v.push(Verdict {
                    kind: BugKind::Soundness,
                    blamed: None,
                    blame_by: BlameBy::Undecided,
                    signature: "tie".into(),
                });
            }
            continue;
        }
        let expected = sat_votes > unsat_votes;
        for &(i, a) in ans.iter().filter(|a| a.1 != expected) {
            if !v.iter().any(|x| x.kind == BugKind::Soundness && x.blamed == Some(i)) {
                v.push(Verdict {
                    kind: BugKind::Soundness,
                    blamed: Some(i),
                    blame_by: BlameBy::Majority,
                    signature: format!("{} where {} is expected", word(a), word(expected)),
                });
            }
        }
    }
    v
}

/// The first pair of check-sats on one assertion stack ([`Framing::epochs`]) that `r`
/// answers `sat` and `unsat`: a soundness bug of that solver by itself. `blamed` is left
/// for the caller. The signature names both framings, e.g. `sat to check-sat, unsat to
/// check-sat-using (then fpa2bv smt)`: which configuration is wrong is the bug's identity.
pub fn self_contradiction(r: &QueryResult, f: &Framing) -> Option<Verdict> {
    let n = r.outcomes.len().min(f.epochs.len());
    for a in 0..n {
        let Some(da) = definite(&r.outcomes[a]) else { continue };
        for b in a + 1..n {
            if f.epochs[b] == f.epochs[a] && definite(&r.outcomes[b]) == Some(!da) {
                let word = |x: bool| if x { "sat" } else { "unsat" };
                return Some(Verdict {
                    kind: BugKind::Soundness,
                    blamed: None,
                    blame_by: BlameBy::SelfContradiction,
                    signature: format!("{} to {}, {} to {}", word(da), f.labels[a], word(!da), f.labels[b]),
                });
            }
        }
    }
    None
}

/// `Some(true)` for `sat`, `Some(false)` for `unsat`.
fn definite(o: &Outcome) -> Option<bool> {
    match o {
        Outcome::Sat => Some(true),
        Outcome::Unsat => Some(false),
        _ => None,
    }
}

/// [`judge`] against answers known by construction (Semantic Fusion: both seeds' agreed
/// status, [`crate::mutate::fusion`]): a contradiction is blamed by
/// [`BlameBy::Construction`]. Unlike a seed's `:status`, the truth stands when the only
/// family that answered contradicts it — a fusion finding needs no second solver. When
/// two or more families answered and all contradict it, the construction is what is
/// doubted ([`status_mismatch`]) and nothing is said.
pub fn judge_constructed(
    results: &[Option<&QueryResult>],
    families: &[Family],
    truth: &[Outcome],
    framing: Option<&Framing>,
) -> Vec<Verdict> {
    let mut v = judge(results, families, Some(truth), framing);
    for x in &mut v {
        if x.blame_by == BlameBy::Status {
            x.blame_by = BlameBy::Construction;
        }
    }
    let changed = |k: usize| framing.is_some_and(|f| f.changed.get(k) == Some(&true));
    let word = |b: bool| if b { "sat" } else { "unsat" };
    for (k, t) in truth.iter().enumerate().filter(|(k, _)| !changed(*k)) {
        let Some(t) = definite(t) else { continue };
        let ans = definite_answers(results, k);
        let voters: std::collections::HashSet<(Family, usize)> = ans.iter().map(|a| voter(families, a.0)).collect();
        if voters.len() != 1 || ans.iter().any(|a| a.1 == t) {
            continue;
        }
        for &(i, a) in &ans {
            if !v.iter().any(|x| x.kind == BugKind::Soundness && x.blamed == Some(i)) {
                v.push(Verdict {
                    kind: BugKind::Soundness,
                    blamed: Some(i),
                    blame_by: BlameBy::Construction,
                    signature: format!("{} where {} is expected", word(a), word(t)),
                });
            }
        }
    }
    v
}

/// Whether a seed's answer is known well enough to build on (Semantic Fusion's
/// correctness rests on it: a wrong status would be a false report): a single
/// check-sat, and either its `:status` with at least one definite answer agreeing and
/// none disagreeing, or without a status, two families agreeing and none disagreeing.
/// `Some(true)` for satisfiable.
pub fn known_status(results: &[Option<&QueryResult>], families: &[Family], truth: Option<&[Outcome]>) -> Option<bool> {
    let checks = results.iter().flatten().map(|r| r.outcomes.len()).max()?;
    if checks != 1 || truth.is_some_and(|t| t.len() != 1) {
        return None;
    }
    let ans = definite_answers(results, 0);
    let first = ans.first()?.1;
    if ans.iter().any(|a| a.1 != first) {
        return None;
    }
    match truth.map(|t| definite(&t[0])) {
        Some(Some(t)) => (t == first).then_some(t),
        Some(None) | None => {
            let voters: std::collections::HashSet<(Family, usize)> = ans.iter().map(|a| voter(families, a.0)).collect();
            (voters.len() >= 2).then_some(first)
        }
    }
}

/// (solver, answer is `sat`) for every definite answer to check-sat `k`.
fn definite_answers(results: &[Option<&QueryResult>], k: usize) -> Vec<(usize, bool)> {
    results.iter().enumerate().filter_map(|(i, r)| Some((i, definite((*r)?.outcomes.get(k)?)?))).collect()
}

/// When every definite answer to a check-sat contradicts the seed's `:status` (and there
/// is at least one), the status is what is wrong, not every solver at once: a seed note
/// (`status-mismatch`), never a finding. Returns what the note says.
pub fn status_mismatch(results: &[Option<&QueryResult>], truth: &[Outcome]) -> Option<String> {
    truth.iter().enumerate().find_map(|(k, t)| {
        let t = definite(t)?;
        let ans = definite_answers(results, k);
        let word = if t { "unsat" } else { "sat" };
        (!ans.is_empty() && ans.iter().all(|a| a.1 != t))
            .then(|| format!("check-sat {}: every solver answers {word}, the seed's :status says the opposite", k + 1))
    })
}

/// The normalised form of a model-validation message: line and column numbers differ
/// between mutants of one bug, so words with digits are dropped.
pub fn invalid_model_signature(message: &str) -> String {
    message.split_whitespace().filter(|w| !w.chars().any(|c| c.is_ascii_digit())).collect::<Vec<_>>().join(" ")
}

/// A stored signature as words for a person. A signature is a dedup key, normalised so
/// one bug's mutants share it ([`invalid_model_signature`], the crash messages of
/// `solver::outcome`): z3's "line 12 column 4: an invalid model was generated" is kept as
/// "line column an invalid model was generated", and a number in a crash message as `#`.
/// Here the position words left without their numbers go, and `#` reads "…".
pub fn signature_words(sig: &str) -> String {
    let position = |w: &str| matches!(w.trim_end_matches(':').to_ascii_lowercase().as_str(), "line" | "column" | "col");
    let words: Vec<&str> = sig.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        // A position word is orphaned at the start, or beside another position word.
        let orphan = position(w)
            && (out.is_empty() || words.get(i + 1).is_some_and(|n| position(n)) || i > 0 && position(words[i - 1]));
        if orphan {
            continue;
        }
        out.push(if *w == "#" { "…" } else { w });
    }
    let text = out.join(" ");
    if text.is_empty() {
        sig.trim().to_string()
    } else {
        text
    }
}

/// Settles a tie between a `sat` solver and an `unsat` solver on a single-check-sat
/// script. The sat solver's model is evaluated by our own evaluator ([`eval`]) where the
/// theories allow: every assertion true blames the unsat solver, one false the sat
/// solver. Otherwise the model values are asserted with the formula and given to the
/// unsat solver. If it then answers `sat`, it contradicted itself: blame it. If the sat
/// solver itself rejects its own model, blame the sat solver. Otherwise undecided.
///
/// The files live in `dir` under names no other call shares (workers settle ties at the
/// same time), and the model is asserted in front of the script's real `check-sat`
/// command, never by replacing text that a string literal could also hold.
pub fn resolve_tie(
    trigger: &Script,
    sat: &SolverSpec,
    unsat: &SolverSpec,
    dir: &Path,
    limits: &Limits,
) -> Option<bool> {
    if checks(trigger) != 1 {
        return None;
    }
    let file = tempfile::Builder::new().prefix("tie-").suffix(".smt2").tempfile_in(dir).ok()?;
    let f = file.path();
    let with_model = around_check_sat(trigger, "", "(get-model)\n");
    std::fs::write(f, format!("(set-option :produce-models true)\n{with_model}")).ok()?;
    let r = run_file(sat, f, 1, limits);
    let m = r.data.iter().find_map(|d| model::parse_model(d).ok())?;
    // Our own evaluation first: it trusts neither solver.
    match eval::check_model(trigger, &m) {
        eval::ModelCheck::Holds => return Some(false), // satisfiable: blame the unsat solver
        eval::ModelCheck::Fails(_) => return Some(true), // the sat side's model is no model
        eval::ModelCheck::Unknown => {}
    }
    let vals = m.values();
    if vals.is_empty() {
        return None;
    }
    let mut fixed = String::new();
    for (name, value) in &vals {
        fixed.push_str(&format!("(assert (= {name} {value}))\n"));
    }
    std::fs::write(f, around_check_sat(trigger, &fixed, "")).ok()?;
    let other = run_file(unsat, f, 1, limits);
    let own = run_file(sat, f, 1, limits);
    match (other.outcome(), own.outcome()) {
        (Outcome::Sat, _) => Some(false),  // blame the unsat solver
        (_, Outcome::Unsat) => Some(true), // blame the sat solver: its own model fails
        _ => None,
    }
}

/// `s` printed one command a line, with `before` and `after` around its first check-sat
/// command (found in the AST, so a `"(check-sat)"` inside a string literal or a quoted
/// symbol is never taken for it).
pub fn around_check_sat(s: &Script, before: &str, after: &str) -> String {
    let mut out = String::with_capacity(s.text.len() + before.len() + after.len() + 64);
    let mut done = false;
    for c in &s.commands {
        let check = !done && s.is_check(&c.kind);
        if check {
            out.push_str(before);
        }
        out.push_str(&smtlib::printer::print_command_with(s, &c.kind, &[]));
        out.push('\n');
        if check {
            out.push_str(after);
            done = true;
        }
    }
    out
}

/// Whether a release no longer shows a crash: it answers every check (`sat`, `unsat`,
/// `unknown`, or a model its own check refuses) without crashing. A release that refuses
/// the input, runs out of time or memory says nothing about the crash: in session 16 z3
/// 4.15.4 refused a `QF_AFP` trigger ("unknown sort 'Float32'") and was taken for its fix,
/// where 5.4.0 is the first release that answers it.
pub fn crash_fixed(r: &QueryResult) -> bool {
    r.crash.is_none()
        && !r.outcomes.is_empty()
        && r.outcomes.iter().all(|o| {
            matches!(o, Outcome::Sat | Outcome::Unsat | Outcome::Unknown { .. } | Outcome::InvalidModel { .. })
        })
}

/// What [`bisect`] found: the first release that answers correctly (if one was found),
/// every probe with what it answered, and whether the search was cut short.
#[derive(Debug, Default)]
pub struct Bisection {
    pub fixed_in: Option<String>,
    /// (release, answers), in the order run.
    pub probes: Vec<(String, String)>,
    /// A probe would have ended after `until`: the search stopped there and names no
    /// release (the probes so far do not say where it was fixed).
    pub cut: bool,
}

/// Fixed-in bisection over the installed releases of the blamed solver's family that are
/// newer than it: the first release whose answer is `good` (for a crash: does not crash;
/// for soundness: gives the expected definite answer). Releases are assumed to stay fixed
/// once fixed (binary search); every probe is recorded. No probe starts that could run
/// past `until` (a campaign's `--time` bounds its bisections too).
pub fn bisect(
    ladder: &[SolverSpec],
    blamed: &SolverSpec,
    file: &Path,
    checks: usize,
    limits: &Limits,
    good: &dyn Fn(&QueryResult) -> bool,
    until: Option<std::time::Instant>,
) -> Bisection {
    let mut b = Bisection::default();
    let Some(bv) = blamed.version.as_deref() else { return b };
    let mut newer: Vec<&SolverSpec> = ladder
        .iter()
        .filter(|s| s.family == blamed.family && s.version.as_deref().is_some_and(|v| version_cmp(v, bv).is_gt()))
        .collect();
    newer.sort_by(|a, b| version_cmp(a.version.as_deref().unwrap_or(""), b.version.as_deref().unwrap_or("")));
    let (mut lo, mut hi) = (0usize, newer.len()); // first good index in [lo, hi]
    while lo < hi {
        if crate::util::time::would_overrun(until, limits.time) {
            b.cut = true;
            return b;
        }
        let mid = (lo + hi) / 2;
        let r = run_file(newer[mid], file, checks, limits);
        let ok = good(&r);
        b.probes.push((
            newer[mid].version.clone().unwrap_or_default(),
            r.outcomes.iter().map(|o| o.to_string()).collect::<Vec<_>>().join(" "),
        ));
        if ok {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    b.fixed_in = newer.get(lo).and_then(|s| s.version.clone());
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A result with these answers (shared by the oracles' tests).
    pub(crate) fn r(o: &[Outcome]) -> QueryResult {
        QueryResult {
            outcomes: o.to_vec(),
            crash: None,
            data: vec![],
            stdout_excerpt: String::new(),
            stderr_excerpt: String::new(),
            wall: Duration::ZERO,
            cpu: None,
        }
    }

    #[test]
    fn a_crash_is_fixed_only_where_a_release_answers() {
        assert!(crash_fixed(&r(&[Outcome::Sat, Outcome::Unknown { reason: String::new() }])));
        let crash = Outcome::Crash { signal: Some(11), exit_code: None, message: "SIGSEGV".into() };
        assert!(!crash_fixed(&r(&[Outcome::Sat, crash])));
        assert!(!crash_fixed(&r(&[Outcome::Error { message: "unknown sort 'Float32'".into() }])));
        assert!(!crash_fixed(&r(&[Outcome::Timeout])));
        assert!(!crash_fixed(&r(&[])));
    }

    use Family::{Cvc5, Yices, Z3};

    /// Issue 24: what a person reads is words, not a dedup key's leftovers.
    #[test]
    fn signatures_read_as_words() {
        let sig = invalid_model_signature("line 12 column 4: an invalid model was generated");
        assert_eq!(sig, "line column an invalid model was generated");
        assert_eq!(signature_words(&sig), "an invalid model was generated");
        assert_eq!(signature_words("SIGSEGV: failed at # bytes"), "SIGSEGV: failed at … bytes");
        assert_eq!(signature_words("ASSERTION VIOLATION ast.cpp:375"), "ASSERTION VIOLATION ast.cpp:375");
        assert_eq!(signature_words("unsat where sat is expected"), "unsat where sat is expected");
        assert_eq!(signature_words("error at line column x"), "error at x");
        assert_eq!(signature_words("line"), "line");
    }

    #[test]
    fn blame_goes_to_the_minority_or_against_the_truth_and_unknowns_are_never_bugs() {
        let (s, u, k) = (r(&[Outcome::Sat]), r(&[Outcome::Unsat]), r(&[Outcome::Unknown { reason: String::new() }]));
        let v = judge(&[Some(&u), Some(&s), Some(&s)], &[Z3, Cvc5, Yices], None, None);
        assert_eq!(v.len(), 1);
        assert_eq!((v[0].kind, v[0].blamed, v[0].blame_by), (BugKind::Soundness, Some(0), BlameBy::Majority));
        assert_eq!(v[0].signature, "unsat where sat is expected");
        assert!(judge(&[Some(&u), Some(&k), None], &[Z3, Cvc5, Yices], None, None).is_empty(), "unknown is not a bug");
        assert!(judge(&[Some(&s), Some(&s)], &[Z3, Cvc5], None, None).is_empty());
        let tie = judge(&[Some(&s), Some(&u)], &[Z3, Cvc5], None, None);
        assert_eq!(tie[0].blamed, None);
        let truth = [Outcome::Sat];
        let v = judge(&[Some(&u), Some(&s)], &[Z3, Cvc5], Some(&truth), None);
        assert_eq!((v[0].blamed, v[0].blame_by), (Some(0), BlameBy::Status));
        let e = r(&[Outcome::Error { message: "x".into() }]);
        assert!(judge(&[Some(&e), Some(&s)], &[Z3, Cvc5], None, None).is_empty(), "errors are dialect, not bugs");
        let mut c = r(&[Outcome::Sat]);
        c.crash = Some(Outcome::Crash { signal: Some(11), exit_code: None, message: "SIGSEGV".into() });
        let v = judge(&[Some(&c), Some(&s)], &[Z3, Cvc5], None, None);
        assert_eq!((v[0].kind, v[0].blamed, v[0].signature.as_str()), (BugKind::Crash, Some(0), "SIGSEGV"));
        assert!(version_cmp("4.8.10", "4.8.9").is_gt());
    }

    /// Issue 23, item 2: a fusion's constructed answer blames a lone contradicting family
    /// (no second solver needed) but not two families that both contradict it; a seed's
    /// status is known only when nothing contradicts it.
    #[test]
    fn constructed_truth_blames_one_family_alone_and_doubts_itself_against_two() {
        let (s, u) = (r(&[Outcome::Sat]), r(&[Outcome::Unsat]));
        let k = r(&[Outcome::Unknown { reason: String::new() }]);
        let sat = [Outcome::Sat];
        let blamed = |v: &[Verdict]| -> Vec<(Option<usize>, BlameBy)> {
            v.iter().filter(|x| x.kind == BugKind::Soundness).map(|x| (x.blamed, x.blame_by)).collect()
        };
        // One solver, contradicting: blamed (judge alone says nothing: the :status guard).
        assert!(judge(&[Some(&u)], &[Z3], Some(&sat), None).is_empty());
        assert_eq!(blamed(&judge_constructed(&[Some(&u)], &[Z3], &sat, None)), vec![(Some(0), BlameBy::Construction)]);
        // Two releases of one family, both contradicting, the other gave up: both blamed.
        let v = judge_constructed(&[Some(&u), Some(&u), Some(&k)], &[Z3, Z3, Cvc5], &sat, None);
        assert_eq!(blamed(&v), vec![(Some(0), BlameBy::Construction), (Some(1), BlameBy::Construction)]);
        // Another family agrees with the construction: the contradicting one is blamed.
        let v = judge_constructed(&[Some(&u), Some(&s)], &[Z3, Cvc5], &sat, None);
        assert_eq!(blamed(&v), vec![(Some(0), BlameBy::Construction)]);
        assert_eq!(v[0].signature, "unsat where sat is expected");
        // Two families both contradict it: the construction is doubted, nothing said.
        assert!(blamed(&judge_constructed(&[Some(&u), Some(&u)], &[Z3, Cvc5], &sat, None)).is_empty());
        // Agreement is no finding.
        assert!(judge_constructed(&[Some(&s), Some(&s)], &[Z3, Cvc5], &sat, None).is_empty());

        let unsat = [Outcome::Unsat];
        let unknown = [Outcome::Unknown { reason: String::new() }];
        assert_eq!(known_status(&[Some(&u), Some(&k)], &[Z3, Cvc5], Some(&unsat)), Some(false));
        assert_eq!(known_status(&[Some(&u), Some(&s)], &[Z3, Cvc5], Some(&unsat)), None, "contradicted");
        assert_eq!(known_status(&[Some(&s)], &[Z3], Some(&unsat)), None, "the only answer contradicts the status");
        assert_eq!(known_status(&[Some(&k)], &[Z3], Some(&unsat)), None, "nobody answered");
        assert_eq!(known_status(&[Some(&s), Some(&s)], &[Z3, Cvc5], None), Some(true), "two families agree");
        assert_eq!(known_status(&[Some(&s), Some(&s)], &[Z3, Z3], Some(&unknown)), None, "one family alone");
        let two = r(&[Outcome::Sat, Outcome::Sat]);
        assert_eq!(known_status(&[Some(&two), Some(&two)], &[Z3, Cvc5], None), None, "two check-sats");
    }

    /// Issue 21, items 2 and 3: releases of one family do not outvote another family, a
    /// split family is decided by the other families, one family alone is undecided, and
    /// a status every solver contradicts is a seed note, not a finding against all.
    #[test]
    fn one_vote_per_family_and_a_status_all_contradict_is_no_finding() {
        let (s, u) = (r(&[Outcome::Sat]), r(&[Outcome::Unsat]));
        let blamed = |v: &[Verdict]| -> Vec<(Option<usize>, BlameBy)> {
            v.iter().filter(|x| x.kind == BugKind::Soundness).map(|x| (x.blamed, x.blame_by)).collect()
        };
        // z3 4.8.7 and z3 5.4.0 (unsat) against cvc5 (sat): one vote each, a tie.
        let v = judge(&[Some(&u), Some(&u), Some(&s)], &[Z3, Z3, Cvc5], None, None);
        assert_eq!(blamed(&v), vec![(None, BlameBy::Undecided)]);
        // ... and with yices siding with cvc5, both z3 releases are blamed.
        let v = judge(&[Some(&u), Some(&u), Some(&s), Some(&s)], &[Z3, Z3, Cvc5, Yices], None, None);
        assert_eq!(blamed(&v), vec![(Some(0), BlameBy::Majority), (Some(1), BlameBy::Majority)]);
        // A split z3 with cvc5 backing the newer release: the older one is blamed.
        let v = judge(&[Some(&u), Some(&s), Some(&s)], &[Z3, Z3, Cvc5], None, None);
        assert_eq!(blamed(&v), vec![(Some(0), BlameBy::Majority)]);
        // A split z3 alone, however many releases: undecided.
        let v = judge(&[Some(&u), Some(&s), Some(&s)], &[Z3, Z3, Z3], None, None);
        assert_eq!(blamed(&v), vec![(None, BlameBy::Undecided)]);
        // Solvers of unknown family each vote.
        let v = judge(&[Some(&u), Some(&s), Some(&s)], &[Family::Other, Family::Other, Family::Other], None, None);
        assert_eq!(blamed(&v), vec![(Some(0), BlameBy::Majority)]);
        // A wrong :status: every solver answers unsat where it says sat.
        let truth = [Outcome::Sat];
        let all = [Some(&u), Some(&u), Some(&u)];
        assert!(status_mismatch(&all, &truth).is_some());
        assert!(blamed(&judge(&all, &[Z3, Cvc5, Yices], Some(&truth), None)).is_empty());
        // One solver agreeing with the status keeps the status as the judge.
        let v = judge(&[Some(&u), Some(&s), Some(&u)], &[Z3, Cvc5, Yices], Some(&truth), None);
        assert_eq!(blamed(&v), vec![(Some(0), BlameBy::Status), (Some(2), BlameBy::Status)]);
        assert_eq!(status_mismatch(&[Some(&u), Some(&s)], &truth), None);
    }

    /// Issue 22, item 1: a solver that answers `sat` then `unsat` to one assertion stack
    /// is blamed by itself, even when it is the only family that answered; the same
    /// answers across an `assert` are no contradiction.
    #[test]
    fn a_solver_contradicting_itself_on_one_stack_is_blamed_without_a_vote() {
        let s = smtlib::parse(
            "(declare-const x Real)(assert (> x 0.0))(check-sat)(check-sat-using smt)(check-sat-using (then fpa2bv smt))(assert (< x 0.0))(check-sat)",
        )
        .unwrap();
        let f = smtlib::framing::framing(&s);
        let z3 = r(&[Outcome::Sat, Outcome::Sat, Outcome::Unsat, Outcome::Unsat]);
        let cvc5 = r(&[Outcome::Sat, Outcome::Sat, Outcome::Sat, Outcome::Unsat]);
        let v = judge(&[Some(&z3), Some(&cvc5)], &[Z3, Cvc5], None, Some(&f));
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!((v[0].blamed, v[0].blame_by), (Some(0), BlameBy::SelfContradiction));
        assert_eq!(v[0].signature, "sat to check-sat, unsat to check-sat-using (then fpa2bv smt)");
        // Alone, with no other family: still a finding.
        let v = judge(&[Some(&z3)], &[Z3], None, Some(&f));
        assert_eq!((v[0].blamed, v[0].blame_by), (Some(0), BlameBy::SelfContradiction));
        // Without the framing (or across the second assert) only the votes speak.
        let v = judge(&[Some(&z3), Some(&cvc5)], &[Z3, Cvc5], None, None);
        assert_eq!((v[0].blamed, v[0].blame_by), (None, BlameBy::Undecided));
        let consistent = r(&[Outcome::Sat, Outcome::Unknown { reason: String::new() }, Outcome::Sat, Outcome::Unsat]);
        assert!(judge(&[Some(&consistent)], &[Z3], None, Some(&f)).is_empty(), "unknown and a new assert are fine");
    }

    /// A check-sat-using under a meaning-changing parameter asks about another formula:
    /// z3's invalid model there (`:array.extensional false`, equal sets that are
    /// `distinct`) and its answer against the other solvers' are no finding; the same
    /// invalid model on a plain check is one.
    #[test]
    fn a_check_under_a_meaning_changing_parameter_neither_votes_nor_is_validated() {
        let s = smtlib::parse(
            "(declare-const a (Array Int Bool))(declare-const b (Array Int Bool))(assert (distinct a b))(check-sat)\
             (check-sat-using (using-params smt :array.extensional false))",
        )
        .unwrap();
        let f = smtlib::framing::framing(&s);
        let bad = Outcome::InvalidModel { message: "invalid model".into() };
        let z3 = r(&[Outcome::Sat, bad.clone()]);
        let cvc5 = r(&[Outcome::Sat, Outcome::Sat]);
        assert!(judge(&[Some(&z3), Some(&cvc5)], &[Z3, Cvc5], None, Some(&f)).is_empty());
        let unsat = r(&[Outcome::Sat, Outcome::Unsat]);
        assert!(judge(&[Some(&unsat), Some(&cvc5)], &[Z3, Cvc5], None, Some(&f)).is_empty());
        let plain = r(&[bad, Outcome::Sat]);
        let v = judge(&[Some(&plain), Some(&cvc5)], &[Z3, Cvc5], None, Some(&f));
        assert_eq!(v.iter().map(|x| (x.blamed, x.blame_by)).collect::<Vec<_>>(), [(Some(0), BlameBy::Validation)]);
    }

    /// Issue 21, item 4: the model goes in front of the real check-sat, not of a
    /// `"(check-sat)"` string literal that comes first.
    #[test]
    fn the_model_is_inserted_at_the_check_sat_command_of_the_ast() {
        let s = smtlib::parse("(declare-const s String)\n(assert (= s \"(check-sat)\"))\n(check-sat)\n(check-sat)\n")
            .unwrap();
        let t = around_check_sat(&s, "(assert (= s s))\n", "(get-model)\n");
        assert_eq!(
            t,
            "(declare-const s String)\n(assert (= s \"(check-sat)\"))\n(assert (= s s))\n(check-sat)\n(get-model)\n(check-sat)\n"
        );
    }
}
