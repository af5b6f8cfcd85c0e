//! Which check-sats of a script ask the same question.
//!
//! SMT-LIB 2.6 §4.2.4: `check-sat` asks about the conjunction of the assertions on the
//! assertion stack. Two check-sat commands with nothing in between that changes the
//! stack (an `assert`, a `push`/`pop`, a `reset`) or the solver's options ask the same
//! question, however they are framed: a plain `check-sat`, z3's `check-sat-using TACTIC`,
//! or a repeat after a `get-model`. A definite `sat` to one and `unsat` to the other is a
//! bug of that solver with no second solver needed (the self-consistency oracle; Falcon,
//! ISSTA 2023, found most of its bugs by asking one formula under several configurations).

use super::ast::{CommandKind, Nullary};
use super::Script;

/// Per check-sat command (in script order): the assertion stack it asks about, and how it
/// asks. Check-sats with equal `epochs` must get the same definite answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Framing {
    pub epochs: Vec<u32>,
    /// The check command as a person reads it (`check-sat`, `check-sat-using (then
    /// fpa2bv smt)`), numbers replaced by `N` so that mutants of one bug share it.
    pub labels: Vec<String>,
    /// Whether the check sets a parameter of [`MEANING_PARAMS`]: its answer and its model
    /// are about another formula.
    pub changed: Vec<bool>,
}

/// Tactic parameters that change what a formula means (z3: division by zero as the
/// hardware does it, integers read as reals, arrays that are not extensional, division by
/// zero that need not be a function (`purify-arith :complete false`), partial function
/// interpretations, ...): a check-sat-using that sets one asks a different question,
/// never compared with the others, and a model it gives is not checked against the
/// formula (z3 answers `sat` to `(distinct a b)` over sets with `:array.extensional
/// false` and a model in which `a` and `b` are equal: not a bug; likewise `sat` to
/// `(< (ubv_to_int x) 0)` with `:bv.enable_int2bv false`, "enable support for int2bv and
/// bv2int operators").
pub const MEANING_PARAMS: &[&str] = &[
    "hi_div0",
    "ignore_int",
    "elim_and",
    "arith_lhs",
    "bv_not_simpl",
    "extensional",
    "complete",
    "partial",
    "enable_int2bv",
];

/// Commands after which the question stays the same: they read, print or declare, and
/// declaring a new symbol constrains nothing (SMT-LIB 2.6 §4.2.3).
fn keeps_question(s: &Script, c: &CommandKind) -> bool {
    match *c {
        CommandKind::Nullary(n) => !matches!(n, Nullary::Reset | Nullary::ResetAssertions),
        CommandKind::DeclareConst(..)
        | CommandKind::DeclareFun(..)
        | CommandKind::DeclareSort(..)
        | CommandKind::DefineSort(..)
        | CommandKind::DeclareDatatype(..)
        | CommandKind::DeclareDatatypes { .. }
        | CommandKind::SetInfo(_)
        | CommandKind::GetInfo(_)
        | CommandKind::GetOption(_)
        | CommandKind::GetValue(_)
        | CommandKind::Echo(_) => true,
        // A defined symbol is new: its definition constrains nothing else. (A recursive
        // definition is an axiom in z3's reading; it stays conservative.)
        CommandKind::DefineFun { rec, .. } => !rec,
        CommandKind::DefineConst(..) => true,
        CommandKind::TermCmd { name, .. } => matches!(s.str(name), "simplify" | "eval" | "display"),
        CommandKind::Other { name, .. } => matches!(s.str(name), "check-sat-using" | "get-objectives"),
        _ => false,
    }
}

/// The framing of `s`'s check-sats. The question is the set of assertions on the stack
/// (SMT-LIB 2.6 §4.1.4: `push` opens a level, `pop` drops levels with what they hold), so
/// the same assertions asked inside a scope and again after a `pop` and re-asserting
/// them are one question. Anything else that may change it starts a new generation: an
/// option, a reset, a command this module does not know, or popping a level that
/// declared or defined something (a later declaration may reuse the name with another
/// sort, so equal assertion texts need not mean the same).
pub fn framing(s: &Script) -> Framing {
    let mut f = Framing::default();
    // Per level: the assertions' texts, and whether it declared or defined anything.
    let mut levels: Vec<(Vec<String>, bool)> = vec![(vec![], false)];
    let mut generation = 0u32;
    let mut questions: std::collections::HashMap<(u32, Vec<String>), u32> = Default::default();
    let mut next = 0u32;
    let levels_arg = |n: Option<super::ast::Str>| n.map_or(Some(1), |n| s.str(n).parse::<usize>().ok());
    // Campaigns frame every mutant, and most ask once: with a single check there is
    // nothing to compare, so the assertions are not printed.
    let compare = s.commands.iter().filter(|c| s.is_check(&c.kind)).count() > 1;
    for c in &s.commands {
        if s.is_check(&c.kind) {
            let text = super::printer::print_command_with(s, &c.kind, &[]);
            let own = match c.kind {
                // The assumptions are part of the question.
                CommandKind::CheckSatAssuming(_) => true,
                CommandKind::Other { .. } => MEANING_PARAMS.iter().any(|p| text.contains(p)),
                _ => false,
            };
            f.changed.push(matches!(c.kind, CommandKind::Other { .. }) && own);
            let epoch = if own {
                next += 1;
                next - 1
            } else {
                let mut key: Vec<String> = levels.iter().flat_map(|l| l.0.iter().cloned()).collect();
                key.sort();
                key.dedup();
                *questions.entry((generation, key)).or_insert_with(|| {
                    next += 1;
                    next - 1
                })
            };
            f.epochs.push(epoch);
            f.labels.push(label(&text));
            continue;
        }
        match c.kind {
            CommandKind::Assert(_) => {
                if let (true, Some(top)) = (compare, levels.last_mut()) {
                    top.0.push(super::printer::print_command_with(s, &c.kind, &[]));
                }
            }
            CommandKind::Push(n) => match levels_arg(n) {
                Some(n) => levels.extend((0..n).map(|_| (vec![], false))),
                None => generation += 1,
            },
            CommandKind::Pop(n) => match levels_arg(n).filter(|&n| n < levels.len()) {
                Some(n) => {
                    let dropped = levels.split_off(levels.len() - n);
                    if dropped.iter().any(|l| l.1) {
                        generation += 1;
                    }
                }
                // Popping more levels than pushed is an error: nothing after it compares.
                None => {
                    levels = vec![(vec![], false)];
                    generation += 1;
                }
            },
            CommandKind::Nullary(Nullary::ResetAssertions) => {
                levels = vec![(vec![], false)];
                generation += 1;
            }
            ref k if keeps_question(s, k) => {
                let declares = !matches!(
                    k,
                    CommandKind::Nullary(_)
                        | CommandKind::SetInfo(_)
                        | CommandKind::GetInfo(_)
                        | CommandKind::GetOption(_)
                        | CommandKind::GetValue(_)
                        | CommandKind::Echo(_)
                        | CommandKind::TermCmd { .. }
                        | CommandKind::Other { .. }
                );
                if declares {
                    if let Some(top) = levels.last_mut() {
                        top.1 = true;
                    }
                }
            }
            // `reset`, `set-option`, anything unknown: a new generation (a reset also
            // empties the stack).
            _ => {
                if matches!(c.kind, CommandKind::Nullary(Nullary::Reset)) {
                    levels = vec![(vec![], false)];
                }
                generation += 1;
            }
        }
    }
    f
}

/// `(check-sat-using (then simplify smt))` → `check-sat-using (then simplify smt)`, with
/// numerals as `N` (symbols with digits, `fpa2bv`, stay).
fn label(command: &str) -> String {
    let inner = command.trim().strip_prefix('(').and_then(|c| c.strip_suffix(')')).unwrap_or(command);
    let spaced = inner.replace('(', " ( ").replace(')', " ) ");
    let words: Vec<&str> = spaced
        .split_whitespace()
        .map(|w| if w.chars().all(|c| c.is_ascii_digit() || c == '.') { "N" } else { w })
        .collect();
    words.join(" ").replace("( ", "(").replace(" )", ")")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_sats_on_one_stack_share_an_epoch_and_anything_that_changes_it_splits() {
        let s = crate::smtlib::parse(
            "(declare-const x Int)(assert (> x 0))(check-sat)(get-model)(check-sat-using (then simplify smt))\
             (declare-const y Int)(check-sat-using (using-params smt :arith.ignore_int true))\
             (check-sat-assuming ((> x 2)))(check-sat)\
             (assert (< x 5))(check-sat)(push 1)(check-sat)(pop 1)(check-sat)(set-option :smt.random_seed 3)(check-sat)",
        )
        .unwrap();
        let f = framing(&s);
        assert_eq!(f.epochs.len(), 9);
        let e = &f.epochs;
        // check-sat, check-sat-using, and the check-sat after a check-sat-assuming: one question.
        assert!(e[0] == e[1] && e[1] == e[4], "{e:?}");
        // A meaning-changing parameter and the assumptions make questions of their own.
        assert!(e[2] != e[0] && e[3] != e[0] && e[2] != e[3], "{e:?}");
        // An assertion and a set-option start a new question; a push or pop that leaves
        // the same assertions on the stack does not.
        assert!(!e[..5].contains(&e[5]), "{e:?}");
        assert!(e[5] == e[6] && e[6] == e[7], "{e:?}");
        assert!(!e[..8].contains(&e[8]), "{e:?}");
        assert_eq!(f.labels[1], "check-sat-using (then simplify smt)");
        assert_eq!(f.labels[8], "check-sat");
        // Only the meaning-changing tactic asks about another formula.
        assert_eq!(f.changed, [false, false, true, false, false, false, false, false, false]);
        assert_eq!(
            label("(check-sat-using (using-params smt :random_seed 17))"),
            "check-sat-using (using-params smt :random_seed N)"
        );
    }

    /// Issue 23, item 1 (incremental framing): the same assertions asked inside a scope
    /// and again after popping and re-asserting them are one question; other assertions,
    /// a popped declaration, an unbalanced pop or a reset make new ones.
    #[test]
    fn the_question_is_the_set_of_assertions_on_the_stack() {
        let e = |text: &str| framing(&crate::smtlib::parse(text).unwrap()).epochs;
        let same = e("(declare-const x Int)(assert (> x 0))(push 1)(assert (< x 9))(check-sat)(get-model)(pop 1)\
                      (assert (< x 9))(check-sat)(assert (> x 0))(check-sat)");
        assert!(same[0] == same[1] && same[1] == same[2], "{same:?}");
        let other = e("(declare-const x Int)(assert (> x 0))(push 1)(assert (< x 9))(check-sat)(pop 1)(check-sat)\
                       (push 2)(assert (< x 9))(check-sat)(pop 2)(assert (< x 9))(check-sat)");
        assert!(other[0] != other[1] && other[2] == other[0] && other[3] == other[0], "{other:?}");
        // A level that declared something is popped: the same text may mean another symbol.
        let redeclared = e("(push 1)(declare-const x Int)(assert (> x 0))(check-sat)(pop 1)\
                            (declare-const x Real)(assert (> x 0))(check-sat)");
        assert_ne!(redeclared[0], redeclared[1]);
        // Too many pops, a reset: nothing after compares with what came before.
        let broken = e("(declare-const x Int)(assert (> x 0))(check-sat)(pop 1)(assert (> x 0))(check-sat)");
        assert_ne!(broken[0], broken[1]);
        let reset = e(
            "(declare-const x Int)(assert (> x 0))(check-sat)(reset)(declare-const x Int)(assert (> x 0))(check-sat)",
        );
        assert_ne!(reset[0], reset[1]);
    }

    /// Issue 22, item 5: a seed that asserts but never asks gets a check-sat after its
    /// last assertion; one that asks already, or asserts nothing, is left alone.
    #[test]
    fn a_seed_without_check_sat_gets_one_after_its_assertions() {
        let s = crate::smtlib::parse(
            "(declare-const x Int)(assert (> x 1))(simplify (+ x 1))(assert (< x 5))(get-value (x))",
        )
        .unwrap();
        let asked = crate::smtlib::slice::with_check_sat(&s).unwrap();
        assert_eq!(
            crate::smtlib::print(&asked),
            "(declare-const x Int)\n(assert (> x 1))\n(simplify (+ x 1))\n(assert (< x 5))\n(check-sat)\n(get-value (x))\n"
        );
        assert_eq!(asked.command_offsets.len(), asked.commands.len());
        assert!(crate::smtlib::slice::with_check_sat(&asked).is_none());
        assert!(crate::smtlib::slice::with_check_sat(&crate::smtlib::parse("(simplify (+ 1 2))").unwrap()).is_none());
    }

    /// Issue 22, item 5: a seed too slow for every solver is fuzzed as a slice of its
    /// assertions: halves, then quarters, each keeping every other command (named
    /// assertions too) but the `:status`, which no longer describes a slice.
    #[test]
    fn slices_keep_all_but_part_of_the_unnamed_assertions() {
        use crate::smtlib::slice::{assertion_slices, keep_commands};
        let s = crate::smtlib::parse(
            "(set-info :status unsat)(declare-const x Int)(assert (> x 1))(assert (! (< x 9) :named n))\
             (assert (< x 5))(push 1)(assert (= x 3))(assert (= x 4))(check-sat-assuming (n))",
        )
        .unwrap();
        let slices = assertion_slices(&s);
        let texts: Vec<String> = slices.iter().map(|k| crate::smtlib::print(&keep_commands(&s, k))).collect();
        let common = "(declare-const x Int)\n";
        let tail = "(check-sat-assuming (n))\n";
        assert_eq!(texts.len(), 6, "{texts:#?}");
        assert_eq!(
            texts[0],
            format!("{common}(assert (> x 1))\n(assert (! (< x 9) :named n))\n(assert (< x 5))\n(push 1)\n{tail}")
        );
        assert_eq!(
            texts[1],
            format!("{common}(assert (! (< x 9) :named n))\n(push 1)\n(assert (= x 3))\n(assert (= x 4))\n{tail}")
        );
        assert_eq!(texts[2], format!("{common}(assert (> x 1))\n(assert (! (< x 9) :named n))\n(push 1)\n{tail}"));
        assert_eq!(texts[5], format!("{common}(assert (! (< x 9) :named n))\n(push 1)\n(assert (= x 4))\n{tail}"));
        for k in &slices {
            assert_eq!(keep_commands(&s, k).command_offsets.len(), k.len());
        }
        // One unnamed assertion: nothing to split.
        assert!(assertion_slices(&crate::smtlib::parse("(declare-const x Int)(assert (> x 1))(check-sat)").unwrap())
            .is_empty());
    }
}
