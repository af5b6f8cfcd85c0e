//! Unsat cores and unsat assumptions re-checked (Murxla's oracle, Niemetz, Preiner and
//! Barrett, CAV 2022, §4 "unsat cores are checked"): after an `unsat`, the solver is asked
//! which assertions (`get-unsat-core`) or which assumptions of a `check-sat-assuming`
//! (`get-unsat-assumptions`) it used; those alone must be `unsat` too. A core that is
//! `sat` is a soundness bug of core extraction, in the default configuration: the options
//! that produce cores do not change the answer (SMT-LIB 2.6 §4.1.7 and §4.2.5 define them
//! as bookkeeping).
//!
//! Everything is built from one text, the *named script* ([`named`]): the query up to its
//! first `check-sat`, every top-level assertion named `smtstorm_aN` (`:named` names it
//! already has are kept), `(get-unsat-core)` after the check; or, for assumptions, every
//! other assertion turned into an assumption literal `smtstorm_pN` with
//! `(assert (= smtstorm_pN A))`, a `check-sat-assuming` over them and
//! `(get-unsat-assumptions)`. It is what a finding stores as its trigger: the core-only
//! script ([`core_only`]) follows from it and the solver's answer, so the campaign, the
//! confirmation ([`super::confirm`]) and the reducer's judge all decide through
//! [`recheck`], one rule.
//!
//! Who is blamed ([`recheck`]): the solver that gave the core, when it itself answers
//! `sat` on its core (it contradicts its own `unsat`), or when another family answers
//! `sat` on it and none `unsat` while the solver gives no definite answer. The solver
//! calling its core `unsat` while another family calls it `sat` is an ordinary
//! disagreement on the core-only script, for the differential judge ([`Recheck::Disagree`]).
//! Timeouts, `unknown` and errors abstain.
//!
//! A core that names something that is neither an assertion's name nor an assumption is
//! not reported: SMT-LIB says a core lists names of named assertions, but solvers list
//! named subterms as well (z3 tracks every `:named` term), the core-only script cannot be
//! built without guessing what the name stood for, and a guess is a false report in the
//! making. It abstains and is counted ([`Abstain::ForeignName`]).

use super::{BlameBy, BugKind, Verdict};
use crate::smtlib::ast::{AttrValue, CommandKind, Nullary, Sexp, Term, TermId};
use crate::smtlib::{self, Script};
use crate::solver::{Family, Outcome, QueryResult};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Prefix of the names and assumption literals this oracle adds.
pub const PREFIX: &str = "smtstorm_";

/// Which question is asked of the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `get-unsat-core` after `check-sat` on named assertions.
    Core,
    /// `get-unsat-assumptions` after `check-sat-assuming`.
    Assumptions,
}

impl Mode {
    /// A finding's signature: which of the two answers was satisfiable.
    pub fn signature(self) -> &'static str {
        match self {
            Mode::Core => "unsat core is sat",
            Mode::Assumptions => "unsat assumptions are sat",
        }
    }
}

/// Whether a verdict is this oracle's (its confirmation and reduction go through
/// [`recheck`]).
pub fn is_core_verdict(v: &Verdict) -> bool {
    v.blame_by == BlameBy::UnsatCore
}

/// Why a query says nothing about cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abstain {
    /// The script has no plain `check-sat` to name assertions for, a `push`/`pop`/reset
    /// before it, no assertion, a `:named` below the top of an assertion, or symbols
    /// with this oracle's prefix.
    NotApplicable,
    /// The solver did not answer `unsat` to the named script (timeout, unknown, error, or
    /// another answer: naming changed nothing of meaning, so a flip is for other oracles).
    NotUnsat,
    /// No core or assumption list in the output (the solver does not produce them).
    NoCore,
    /// The core names something that is not among the assertions or assumptions.
    ForeignName,
    /// The core-only script got no definite answer that decides.
    Undecided,
}

/// What re-checking a core said.
#[derive(Debug)]
pub enum Recheck {
    Abstain(Abstain),
    /// The core is `unsat` (or nobody said `sat`).
    Holds {
        core: usize,
        of: usize,
    },
    /// The core's solver is blamed ([`BlameBy::UnsatCore`]).
    Wrong {
        verdict: Verdict,
        core_only: Script,
        results: Vec<Option<QueryResult>>,
    },
    /// The core's solver calls it `unsat`, another family `sat`: an ordinary disagreement
    /// on `core_only`, for [`super::judge`].
    Disagree {
        core_only: Script,
        results: Vec<Option<QueryResult>>,
    },
}

/// A campaign's tally of this oracle (measurements for its sampling rate).
#[derive(Debug, Default)]
pub struct Tally {
    /// Unsat mutants sampled.
    pub sampled: AtomicU64,
    /// Sampled mutants the named script could be built for.
    pub applicable: AtomicU64,
    /// Cores parsed and re-checked (whole answer: holds, wrong or disagree).
    pub checked: AtomicU64,
    /// Cores strictly smaller than the assertions.
    pub smaller: AtomicU64,
    pub foreign: AtomicU64,
    pub wrong: AtomicU64,
    pub disagree: AtomicU64,
    /// Fresh solver processes this oracle started.
    pub processes: AtomicU64,
}

/// [`Tally`] as `stats.jsonl` holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    pub sampled: u64,
    pub applicable: u64,
    pub checked: u64,
    pub smaller: u64,
    pub foreign: u64,
    pub wrong: u64,
    pub disagree: u64,
    pub processes: u64,
}

impl Tally {
    pub fn snapshot(&self) -> Counts {
        Counts {
            sampled: self.sampled.load(Relaxed),
            applicable: self.applicable.load(Relaxed),
            checked: self.checked.load(Relaxed),
            smaller: self.smaller.load(Relaxed),
            foreign: self.foreign.load(Relaxed),
            wrong: self.wrong.load(Relaxed),
            disagree: self.disagree.load(Relaxed),
            processes: self.processes.load(Relaxed),
        }
    }

    /// Counts what a recheck said.
    pub fn count(&self, r: &Recheck) {
        let c = match r {
            Recheck::Abstain(Abstain::ForeignName) => &self.foreign,
            Recheck::Abstain(_) => return,
            Recheck::Holds { core, of } => {
                if core < of {
                    self.smaller.fetch_add(1, Relaxed);
                }
                &self.checked
            }
            Recheck::Wrong { .. } => &self.wrong,
            Recheck::Disagree { .. } => &self.disagree,
        };
        c.fetch_add(1, Relaxed);
    }
}

/// Whether a mutant with this RNG seed is in the sample (`rate` in 0..=1): a function of
/// the seed alone, so a rerun samples the same mutants.
pub fn sampled(rng_seed: u64, rate: f64) -> bool {
    let draw = crate::util::hash::mix(&[rng_seed, 0xC0DE]) % 1_000_000;
    (draw as f64) < rate * 1e6
}

/// The mode a sampled mutant is checked in: cores and assumptions alternate by seed.
pub fn mode_for(rng_seed: u64) -> Mode {
    if crate::util::hash::mix(&[rng_seed, 0xA55]).is_multiple_of(2) {
        Mode::Core
    } else {
        Mode::Assumptions
    }
}

/// The top-level `:named` name of an assertion's term, if it has one.
fn top_name(s: &Script, t: TermId) -> Option<String> {
    let Term::Annot(_, attrs) = *s.term(t) else { return None };
    s.attr_list(attrs).iter().find(|a| s.str(a.key) == ":named").and_then(|a| match a.value {
        AttrValue::Sexp(x) => match s.sexps[x.index()] {
            Sexp::Atom(_, v) => Some(s.sym(v).to_string()),
            Sexp::List(_) => None,
        },
        _ => None,
    })
}

/// How many `:named` annotations the script's terms hold.
fn named_annotations(s: &Script) -> usize {
    s.terms
        .iter()
        .filter(|t| match t {
            Term::Annot(_, attrs) => s.attr_list(*attrs).iter().any(|a| s.str(a.key) == ":named"),
            _ => false,
        })
        .count()
}

/// The named script of `s` in `mode` (see the module's overview), or `None` where the
/// oracle does not apply: no plain `check-sat`, a `push`, `pop` or reset before it (the
/// core-only script would have to rebuild the stack), no assertion, a `:named` below the
/// top of an assertion or in a definition (dropping an assertion could drop a name used
/// elsewhere), or a symbol with this oracle's prefix. Incremental scripts are checked at
/// their first `check-sat`.
pub fn named(s: &Script, mode: Mode) -> Option<Script> {
    if s.text.contains(PREFIX) {
        return None;
    }
    let first = s.commands.iter().position(|c| s.is_check(&c.kind))?;
    if s.commands[first].kind != CommandKind::Nullary(Nullary::CheckSat) {
        return None;
    }
    let prefix = &s.commands[..first];
    let asserts = prefix.iter().filter(|c| matches!(c.kind, CommandKind::Assert(_))).count();
    let top_named =
        prefix.iter().filter(|c| matches!(c.kind, CommandKind::Assert(t) if top_name(s, t).is_some())).count();
    if asserts == 0 || named_annotations(s) != top_named + count_named_after(s, first) {
        return None;
    }
    let mut out = String::new();
    out.push_str(match mode {
        Mode::Core => "(set-option :produce-unsat-cores true)\n",
        Mode::Assumptions => "(set-option :produce-unsat-assumptions true)\n",
    });
    let mut assumptions = vec![];
    for (i, c) in prefix.iter().enumerate() {
        match c.kind {
            CommandKind::Push(_)
            | CommandKind::Pop(_)
            | CommandKind::Nullary(Nullary::Reset | Nullary::ResetAssertions) => return None,
            // An `echo` is dropped too: z3 and yices print its text bare, and a list-shaped
            // text must never be read as the solver's core.
            CommandKind::Nullary(_) | CommandKind::GetValue(_) | CommandKind::GetInfo(_) | CommandKind::Echo(_) => {
                continue
            }
            CommandKind::SetOption(a) if s.str(a.key).starts_with(":produce-unsat") => continue,
            ref k if s.is_status(k) => continue,
            CommandKind::Assert(t) if top_name(s, t).is_some() => {}
            // Every third assertion stays hard in the assumptions mode: the check then
            // covers assumptions next to assertions.
            CommandKind::Assert(t) if mode == Mode::Assumptions && i % 3 != 2 => {
                let p = format!("{PREFIX}p{}", assumptions.len());
                out.push_str(&format!(
                    "(declare-const {p} Bool)\n(assert (= {p} {}))\n",
                    smtlib::printer::term_to_string(s, t)
                ));
                assumptions.push(p);
                continue;
            }
            CommandKind::Assert(t) if mode == Mode::Core => {
                out.push_str(&format!("(assert (! {} :named {PREFIX}a{i}))\n", smtlib::printer::term_to_string(s, t)));
                continue;
            }
            _ => {}
        }
        out.push_str(&smtlib::printer::print_command_with(s, &c.kind, &[]));
        out.push('\n');
    }
    match mode {
        Mode::Core => out.push_str("(check-sat)\n(get-unsat-core)\n"),
        Mode::Assumptions if assumptions.is_empty() => return None,
        Mode::Assumptions => {
            out.push_str(&format!("(check-sat-assuming ({}))\n(get-unsat-assumptions)\n", assumptions.join(" ")))
        }
    }
    smtlib::parse(&out).ok()
}

/// `:named` annotations in commands from `from` on (dropped with the rest of the script).
fn count_named_after(s: &Script, from: usize) -> usize {
    let rest: String = s.commands[from..]
        .iter()
        .map(|c| smtlib::printer::print_command_with(s, &c.kind, &[]))
        .collect::<Vec<_>>()
        .join("\n");
    smtlib::parse(&rest).map_or(usize::MAX / 2, |r| named_annotations(&r))
}

/// The mode of a named script: what it asks after its check.
pub fn mode_of(named: &Script) -> Option<Mode> {
    named.commands.iter().find_map(|c| match c.kind {
        CommandKind::Nullary(Nullary::GetUnsatCore) => Some(Mode::Core),
        CommandKind::Nullary(Nullary::GetUnsatAssumptions) => Some(Mode::Assumptions),
        _ => None,
    })
}

/// The elements of a core as the solver printed it (`(a b (not p))`), each with its
/// whitespace collapsed and `|bars|` removed; `None` if `text` is not one list.
pub fn parse_core(text: &str) -> Option<Vec<String>> {
    let t = text.trim();
    let inner = t.strip_prefix('(')?.strip_suffix(')')?;
    let mut out = vec![];
    let b = inner.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if b[i] == b'(' {
            let mut depth = 0usize;
            while i < b.len() {
                match b[i] {
                    b'(' => depth += 1,
                    b')' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            if depth != 0 {
                return None;
            }
        } else if b[i] == b'|' {
            i += 1;
            while i < b.len() && b[i] != b'|' {
                i += 1;
            }
            i = (i + 1).min(b.len());
        } else if b[i] == b')' {
            return None;
        } else {
            while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'(' && b[i] != b')' {
                i += 1;
            }
        }
        let el = inner.get(start..i)?;
        out.push(smtlib::ast::unquote(&el.split_whitespace().collect::<Vec<_>>().join(" ")).to_string());
    }
    Some(out)
}

/// The core in a result: the last response that is a list (the core is asked last).
fn core_in(r: &QueryResult) -> Option<Vec<String>> {
    r.data.iter().rev().find_map(|d| parse_core(d))
}

/// What a named script names: assertion names, or the assumption literals (as printed).
fn names_of(named: &Script) -> Vec<String> {
    let mut v = vec![];
    for c in &named.commands {
        match c.kind {
            CommandKind::Assert(t) => v.extend(top_name(named, t)),
            CommandKind::CheckSatAssuming(l) => {
                v.extend(named.term_list(l).iter().map(|&t| {
                    smtlib::printer::term_to_string(named, t).split_whitespace().collect::<Vec<_>>().join(" ")
                }))
            }
            _ => {}
        }
    }
    v
}

/// The core-only script: the named script's declarations and definitions, its assertions
/// that are not named or whose name is in `core` (a name of the script's own not in it
/// becomes a `define-fun` of the assertion, so later uses of the name still read), the
/// assumptions in `core` asserted, and a plain `check-sat`. `None` if a name in `core` is
/// foreign (see the module's overview).
pub fn core_only(named: &Script, core: &[String]) -> Option<Script> {
    let names = names_of(named);
    if core.iter().any(|n| !names.contains(n)) {
        return None;
    }
    // `get-unsat-assumptions` names a subset of the assumptions only: every assertion,
    // named or not, stays (dropping a seed's own `:named` assertions made two false
    // reports, the dropped one being `false` by itself), in a script asking for
    // assumptions, reductions included, which may have turned `check-sat-assuming` into `check-sat`.
    let assumptions = mode_of(named) == Some(Mode::Assumptions)
        || named.commands.iter().any(|c| matches!(c.kind, CommandKind::CheckSatAssuming(_)));
    let mut out = String::new();
    for c in &named.commands {
        match c.kind {
            CommandKind::SetOption(a) if named.str(a.key).starts_with(":produce-unsat") => continue,
            CommandKind::Nullary(Nullary::GetUnsatCore | Nullary::GetUnsatAssumptions) => continue,
            CommandKind::Assert(t) if !assumptions => match top_name(named, t) {
                Some(n) if !core.contains(&n) => {
                    if !n.starts_with(PREFIX) {
                        let Term::Annot(body, _) = *named.term(t) else { continue };
                        let body = smtlib::printer::term_to_string(named, body);
                        out.push_str(&format!("(define-fun {} () Bool {body})\n", smtlib::ast::symbol_text(&n)));
                    }
                    continue;
                }
                _ => {}
            },
            CommandKind::CheckSatAssuming(l) => {
                for &t in named.term_list(l) {
                    let p = smtlib::printer::term_to_string(named, t);
                    if core.contains(&p.split_whitespace().collect::<Vec<_>>().join(" ")) {
                        out.push_str(&format!("(assert {p})\n"));
                    }
                }
                out.push_str("(check-sat)\n");
                continue;
            }
            _ => {}
        }
        out.push_str(&smtlib::printer::print_command_with(named, &c.kind, &[]));
        out.push('\n');
    }
    smtlib::parse(&out).ok()
}

/// Re-checks the core `blamed` gives for `named`: runs it on `named` (through `run`:
/// solver index, script, check-sats), builds the core-only script and runs it on `blamed`
/// and on `others` (solvers of other families; all of them, or with `first_only` until
/// one gives a definite answer). See the module's overview for who is blamed.
pub fn recheck(
    named: &Script,
    blamed: usize,
    others: &[usize],
    first_only: bool,
    run: &mut dyn FnMut(usize, &Script, usize) -> QueryResult,
) -> Recheck {
    let Some(mode) = mode_of(named) else { return Recheck::Abstain(Abstain::NotApplicable) };
    let r = run(blamed, named, 1);
    if r.crash.is_some() || r.outcomes.as_slice() != [Outcome::Unsat] {
        return Recheck::Abstain(Abstain::NotUnsat);
    }
    let Some(core) = core_in(&r) else { return Recheck::Abstain(Abstain::NoCore) };
    let Some(k) = core_only(named, &core) else { return Recheck::Abstain(Abstain::ForeignName) };
    let n = 1 + others.iter().copied().chain([blamed]).max().unwrap_or(0);
    let mut results: Vec<Option<QueryResult>> = vec![None; n];
    let definite = |r: &QueryResult| r.crash.is_none() && r.outcomes.len() == 1 && r.outcomes[0].is_definite();
    let rb = run(blamed, &k, 1);
    let self_sat = definite(&rb) && rb.outcomes[0] == Outcome::Sat;
    let self_unsat = definite(&rb) && rb.outcomes[0] == Outcome::Unsat;
    results[blamed] = Some(rb);
    let (mut sat, mut unsat) = (false, false);
    // A confirmation asks every family (the finding's report shows what each says).
    if !self_sat || !first_only {
        for &o in others {
            let ro = run(o, &k, 1);
            let d = definite(&ro);
            sat |= d && ro.outcomes[0] == Outcome::Sat;
            unsat |= d && ro.outcomes[0] == Outcome::Unsat;
            results[o] = Some(ro);
            if first_only && d {
                break;
            }
        }
    }
    let verdict = Verdict {
        kind: BugKind::Soundness,
        blamed: Some(blamed),
        blame_by: BlameBy::UnsatCore,
        signature: mode.signature().into(),
    };
    if self_sat || (sat && !unsat && !self_unsat) {
        return Recheck::Wrong { verdict, core_only: k, results };
    }
    if self_unsat && sat {
        return Recheck::Disagree { core_only: k, results };
    }
    let of = names_of(named).len();
    if !self_unsat && !unsat {
        return Recheck::Abstain(Abstain::Undecided);
    }
    Recheck::Holds { core: core.len(), of }
}

/// The solvers of other families than `blamed`'s among `readers` (one voter each:
/// [`super::voter`]), in the order given.
pub fn other_families(families: &[Family], readers: &[usize], blamed: usize) -> Vec<usize> {
    let me = super::voter(families, blamed);
    let mut seen = vec![me];
    readers
        .iter()
        .copied()
        .filter(|&k| {
            let v = super::voter(families, k);
            let new = !seen.contains(&v);
            seen.push(v);
            new
        })
        .collect()
}

/// The confirmation of this oracle's verdicts ([`super::confirm::Confirm::confirm_with`]
/// sends them here): `named` (the stored trigger) rerun on the blamed solver in a fresh
/// process, its core-only script on it and on every other family among `readers`; the
/// same blame and signature must come back. No fixed-in bisection: a newer release gives
/// another core, and the files are left out of the result for that reason.
pub fn confirm(
    c: &super::confirm::Confirm,
    named: &Script,
    readers: &[usize],
    v: &Verdict,
    run: &mut dyn FnMut(usize, &std::path::Path, usize) -> QueryResult,
) -> Result<super::confirm::Confirmed, super::confirm::Refused> {
    use super::confirm::{fresh_text, Confirmed, Fresh, Refused};
    let Some(b) = v.blamed else { return Err(Refused::NotReproduced) };
    let others = other_families(c.families, readers, b);
    let mut unwritable = false;
    let mut fresh_run = |k: usize, s: &Script, checks: usize| {
        let f = c.dir.join(format!("{}core-{k}.smt2", c.tag));
        if std::fs::write(&f, fresh_text(&c.specs[k], s)).is_err() {
            unwritable = true;
        }
        let r = run(k, &f, checks);
        let _ = std::fs::remove_file(&f);
        r
    };
    let again = recheck(named, b, &others, false, &mut fresh_run);
    if unwritable {
        return Err(Refused::Unwritable);
    }
    match again {
        Recheck::Wrong { verdict, mut results, .. }
            if verdict.blamed == v.blamed && verdict.signature == v.signature =>
        {
            results.resize(c.specs.len(), None);
            let readers = std::iter::once(b).chain(others).collect();
            let fresh = Fresh { checks: 1, readers, files: vec![None; c.specs.len()], results };
            Ok(Confirmed { verdict, fresh })
        }
        _ => Err(Refused::NotReproduced),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(t: &str) -> Script {
        smtlib::parse(t).unwrap()
    }

    /// (before, mode, after) triples: names kept, status and old core options dropped,
    /// the script cut at its first check-sat.
    #[test]
    fn named_scripts_name_every_assertion_and_keep_existing_names() {
        let s = p("(set-info :status unsat)(set-logic QF_LIA)(declare-const x Int)(assert (> x 0))\
                   (assert (! (< x 0) :named mine))(assert (= x 3))(check-sat)(assert false)(check-sat)");
        let n = smtlib::print(&named(&s, Mode::Core).unwrap());
        assert_eq!(
            n,
            "(set-option :produce-unsat-cores true)\n(set-logic QF_LIA)\n(declare-const x Int)\n\
             (assert (! (> x 0) :named smtstorm_a3))\n(assert (! (< x 0) :named mine))\n\
             (assert (! (= x 3) :named smtstorm_a5))\n(check-sat)\n(get-unsat-core)\n"
        );
        let a = smtlib::print(&named(&s, Mode::Assumptions).unwrap());
        assert_eq!(
            a,
            "(set-option :produce-unsat-assumptions true)\n(set-logic QF_LIA)\n(declare-const x Int)\n\
             (declare-const smtstorm_p0 Bool)\n(assert (= smtstorm_p0 (> x 0)))\n(assert (! (< x 0) :named mine))\n\
             (assert (= x 3))\n(check-sat-assuming (smtstorm_p0))\n(get-unsat-assumptions)\n"
        );
        // A seed's `echo` (printed bare by z3 and yices) never reaches the named script.
        let e = p("(declare-const b Bool)(echo \"(x y)\")(assert b)(assert (not b))(check-sat)");
        assert!(!smtlib::print(&named(&e, Mode::Core).unwrap()).contains("echo"));
        // Not applicable: a nested name, a push before the check, our prefix, no check.
        assert!(named(&p("(declare-const b Bool)(assert (and (! b :named n) b))(check-sat)"), Mode::Core).is_none());
        assert!(named(&p("(push 1)(assert false)(check-sat)"), Mode::Core).is_none());
        assert!(named(&p("(declare-const smtstorm_a0 Bool)(assert smtstorm_a0)(check-sat)"), Mode::Core).is_none());
        assert!(named(&p("(assert false)"), Mode::Core).is_none());
    }

    #[test]
    fn core_only_keeps_the_core_and_defines_dropped_names() {
        let s = p("(declare-const x Int)(assert (> x 0))(assert (! (< x 0) :named mine))(assert (= x 3))\
                   (assert (=> mine false))(check-sat)");
        let n = named(&s, Mode::Core).unwrap();
        let k = core_only(&n, &["smtstorm_a1".into(), "smtstorm_a3".into()]).unwrap();
        assert_eq!(
            smtlib::print(&k),
            "(declare-const x Int)\n(assert (! (> x 0) :named smtstorm_a1))\n(define-fun mine () Bool (< x 0))\n\
             (assert (! (= x 3) :named smtstorm_a3))\n(check-sat)\n"
        );
        assert!(core_only(&n, &["nobody".into()]).is_none(), "a foreign name");
        // Assumptions: every assertion stays, named or not (only assumptions are left
        // out of a core); before, the seed's own `mine` was dropped, and with it the
        // conflict: two false reports where it was `false` by itself.
        let a = named(&s, Mode::Assumptions).unwrap();
        let k = core_only(&a, &["smtstorm_p0".into()]).unwrap();
        assert_eq!(
            smtlib::print(&k),
            "(declare-const x Int)\n(declare-const smtstorm_p0 Bool)\n(assert (= smtstorm_p0 (> x 0)))\n\
             (assert (! (< x 0) :named mine))\n(declare-const smtstorm_p1 Bool)\n(assert (= smtstorm_p1 (= x 3)))\n\
             (declare-const smtstorm_p2 Bool)\n(assert (= smtstorm_p2 (=> mine false)))\n(assert smtstorm_p0)\n(check-sat)\n"
        );
        let k = core_only(&a, &[]).unwrap();
        assert!(smtlib::print(&k).contains("(assert (! (< x 0) :named mine))"), "{}", smtlib::print(&k));
        // The same once a reduction has turned `check-sat-assuming` into `check-sat` (the
        // two false reports' reduced triggers).
        let r = p("(set-option :produce-unsat-assumptions true)(set-logic QF_UF)(assert (! false :named a0))\
                   (check-sat)(get-unsat-assumptions)");
        let k = core_only(&r, &[]).unwrap();
        assert_eq!(smtlib::print(&k), "(set-logic QF_UF)\n(assert (! false :named a0))\n(check-sat)\n");
    }

    #[test]
    fn cores_parse_as_printed_by_each_family() {
        assert_eq!(parse_core("(a b)").unwrap(), ["a", "b"]);
        assert_eq!(parse_core("(\na\n|b|\n)").unwrap(), ["a", "b"]);
        assert_eq!(parse_core("((not  p) q)").unwrap(), ["(not p)", "q"]);
        assert_eq!(parse_core("()").unwrap(), Vec::<String>::new());
        assert!(parse_core("sat").is_none());
        assert!(parse_core("((a)").is_none());
    }

    #[test]
    fn sampling_is_a_function_of_the_seed_and_the_rate() {
        let n = (0..10_000u64).filter(|&s| sampled(s, 0.25)).count();
        assert!((2_000..3_000).contains(&n), "{n}");
        assert_eq!((0..100u64).filter(|&s| sampled(s, 0.0)).count(), 0);
        assert_eq!((0..100u64).filter(|&s| sampled(s, 1.0)).count(), 100);
        assert!(
            (0..100u64).any(|s| mode_for(s) == Mode::Core) && (0..100u64).any(|s| mode_for(s) == Mode::Assumptions)
        );
    }
}
