//! A script a solver reads leniently, written as SMT-LIB types it: every `Int` argument
//! where an application wants a `Real` converted explicitly, and `to_real` of a `Real`
//! dropped. SMT-LIB 2.6's Reals_Ints theory converts only by `to_real` (its theory
//! declaration); z3 and cvc5 also accept `(< 0.0 0)` and `(to_real 0.0)`, and real suites
//! and fuzzers' mutants use both. A bug that needs that leniency is a bug of the solver's
//! extension, not of its SMT-LIB; a bug that does not should be reported on standard
//! input (the reducer tries [`strict`] on every reduction it keeps).
//!
//! The repair is a search with the sort checker as its judge ([`super::check`]), not a
//! second sort inference: candidate edits (drop a `to_real`, write a numeral as a
//! decimal, wrap a term in `to_real`) are tried one at a time, and one is kept when the
//! checker finds fewer diagnostics, or as many and fewer conversions
//! ([`super::check::Checked::coercions`]), no diagnostic it did not find before (a
//! wrapped sort or binder would trade its conversions for one), and the parser kept no
//! more of the script as text it could not read (a broken command has no conversions
//! left to count).

use super::ast::CommandKind;
use super::lexer::{Lexer, Tok, Token};
use super::Script;

/// Scripts with more tokens than this are not searched: each candidate edit re-checks
/// the whole script (a reduced trigger has tens of tokens).
const MAX_TOKENS: usize = 2_000;

/// Candidate edits checked at most, over the whole search: a bound on its time (one parse
/// and check of a 2,000-token script is well under a millisecond in a release build).
const MAX_TRIES: usize = 4_000;

/// What [`strict`] found.
#[derive(Clone, Debug)]
pub enum Strict {
    /// Nothing to repair: no implicit conversion (or a logic whose numerals are Reals).
    Standard,
    /// The script as SMT-LIB types it.
    Repaired(Box<Script>),
    /// Conversions no edit here removes, or a Real under a logic of Ints alone.
    Unrepaired,
    /// Too large to search, or the search's bound reached: nothing is claimed.
    Unsearched,
}

/// What the checker says of a candidate: (diagnostics, conversions), and how much of it
/// the parser kept as text it could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Score {
    /// The checker's diagnostics, by message.
    diagnostics: Vec<String>,
    coercions: u32,
    unread: usize,
}

impl Score {
    /// Whether a `to_real` of a Real is among the diagnostics (what an unwrap repairs).
    fn to_real_of_real(&self) -> bool {
        self.diagnostics.iter().any(|d| d.contains("to_real"))
    }

    /// Whether `self` is a repair of `from`, no worse for the parser than `first`.
    fn improves(&self, from: &Score, first: &Score) -> bool {
        self.unread <= first.unread
            && self.diagnostics.iter().all(|d| from.diagnostics.contains(d))
            && (self.diagnostics.len(), self.coercions) < (from.diagnostics.len(), from.coercions)
    }
}

/// What a logic says of mixing Ints and Reals (SMT-LIB's logic catalogue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mixing {
    /// Reals alone (`RDL`, `LRA`, `NRA`, cvc5's `NRAT`): a numeral is a Real.
    RealsOnly,
    /// Ints alone (`IDL`, `LIA`, `NIA`): a Real is outside the logic, repaired or not.
    IntsOnly,
    /// `AUFLIRA` and `AUFNIRA`, whose logic files make an Int argument of a Real operator
    /// syntactic sugar for `to_real`: the conversion is standard there.
    Sugar,
    /// Both sorts, conversions explicit (`LIRA`, `ALL`, no logic).
    Explicit,
}

fn mixing(logic: &str) -> Mixing {
    let l = logic.to_ascii_uppercase();
    let mut rest = l.as_str();
    for prefix in ["HO_", "SEP_", "QF_"] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    if matches!(rest, "AUFLIRA" | "AUFNIRA") {
        return Mixing::Sugar;
    }
    match rest.trim_start_matches(|c: char| "AXUFDTBVPSC".contains(c)) {
        "RDL" | "LRA" | "NRA" | "NRAT" => Mixing::RealsOnly,
        "IDL" | "LIA" | "NIA" => Mixing::IntsOnly,
        _ => Mixing::Explicit,
    }
}

/// `s` with its implicit `Int`-to-`Real` conversions made explicit and its `to_real`s of
/// a `Real` dropped, searched as the module says.
pub fn strict(s: &Script) -> Strict {
    let text = super::print(s);
    let Some(first) = score(&text) else { return Strict::Unsearched };
    let tape = Lexer::new(text.as_bytes()).tape();
    let word = |t: &Token| text.get(t.start as usize..t.end as usize).unwrap_or("");
    let ints = tape.iter().any(|t| t.kind == Tok::Symbol && matches!(word(t), "Int" | "to_real" | "to_int" | "is_int"));
    match s.logic().map(mixing) {
        // A numeral is a Real there: only a declared Int (or a conversion function,
        // outside such a logic anyway) can be converted implicitly.
        Some(Mixing::RealsOnly) if !ints => return Strict::Standard,
        Some(Mixing::Sugar) if !first.to_real_of_real() => return Strict::Standard,
        Some(Mixing::IntsOnly) if first.coercions > 0 => return Strict::Unrepaired,
        _ => {}
    }
    if first.coercions == 0 && !first.to_real_of_real() {
        return Strict::Standard;
    }
    let mut best = (text, first.clone());
    let mut tries = 0;
    while best.1.coercions > 0 || best.1.to_real_of_real() {
        let tape = Lexer::new(best.0.as_bytes()).tape();
        if tape.len() > MAX_TOKENS || tape.last().is_some_and(|t| t.kind == Tok::Error) || tries >= MAX_TRIES {
            return Strict::Unsearched;
        }
        let from = &best.1;
        let next = candidates(&best.0, &tape).take(MAX_TRIES - tries).find_map(|c| {
            tries += 1;
            score(&c).filter(|sc| sc.improves(from, &first)).map(|sc| (c, sc))
        });
        match next {
            Some(n) => best = n,
            None if tries >= MAX_TRIES => return Strict::Unsearched,
            None => return Strict::Unrepaired,
        }
    }
    super::parse(&best.0).map_or(Strict::Unrepaired, |s| Strict::Repaired(Box::new(s)))
}

/// The checker's [`Score`] of `text`; `None` when it does not parse.
fn score(text: &str) -> Option<Score> {
    let s = super::parse(text).ok()?;
    let c = super::check::check(&s);
    let unread = s.verbatim.len() + s.commands.iter().filter(|c| matches!(c.kind, CommandKind::Other { .. })).count();
    let diagnostics = c.diagnostics.into_iter().map(|d| d.message).collect();
    Some(Score { diagnostics, coercions: c.coercions, unread })
}

/// The candidate edits of `text` (tokenised as `tape`), cheapest first: each `(to_real X)`
/// as `X`; each numeral as a decimal; each term inside a command (an atom that is not an
/// operator, or a parenthesised group) wrapped in `to_real`.
fn candidates<'a>(text: &'a str, tape: &'a [Token]) -> impl Iterator<Item = String> + 'a {
    let span = |i: usize| (tape[i].start as usize, tape[i].end as usize);
    let word = move |i: usize| text.get(span(i).0..span(i).1).unwrap_or("");
    // The index of the `)` closing the group opened at `i`.
    let close = move |i: usize| {
        if tape[i].kind != Tok::LParen {
            return None;
        }
        let mut depth = 0usize;
        for (j, t) in tape.iter().enumerate().skip(i) {
            match t.kind {
                Tok::LParen => depth += 1,
                Tok::RParen => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(j);
                    }
                }
                _ => {}
            }
        }
        None
    };
    let unwrap = (0..tape.len()).filter_map(move |i| {
        let is_to_real = tape[i].kind == Tok::LParen && tape.get(i + 1).is_some_and(|_| word(i + 1) == "to_real");
        let end = if is_to_real { close(i)? } else { return None };
        // Exactly one term inside: an atom, or one group (`(to_real 1 2)` spliced into
        // its parent would change the parent's arity).
        let inner_end = match tape.get(i + 2)?.kind {
            Tok::LParen => close(i + 2)?,
            Tok::RParen => return None,
            _ => i + 2,
        };
        (inner_end + 1 == end).then(|| {
            format!("{}{}{}", &text[..span(i).0], &text[span(i + 2).0..span(inner_end).1], &text[span(end).1..])
        })
    });
    let decimals = (0..tape.len())
        .filter(move |&i| tape[i].kind == Tok::Numeral)
        .map(move |i| format!("{}.0{}", &text[..span(i).1], &text[span(i).1..]));
    // Each token's depth (an opening parenthesis counts itself): never a command wrapped.
    let mut depth = Vec::with_capacity(tape.len());
    let mut d = 0usize;
    for t in tape {
        if t.kind == Tok::LParen {
            d += 1;
        }
        depth.push(d);
        if t.kind == Tok::RParen {
            d = d.saturating_sub(1);
        }
    }
    // An atom anywhere inside a command but at a head (a definition's body is at depth
    // 1); a group inside a command's argument.
    let wraps = (0..tape.len()).filter_map(move |i| {
        let after_open = i > 0 && tape[i - 1].kind == Tok::LParen;
        let end = match tape[i].kind {
            Tok::LParen if depth[i] >= 2 => close(i)?,
            Tok::Symbol | Tok::QuotedSymbol if !after_open && depth[i] >= 1 => i,
            _ => return None,
        };
        Some(format!("{}(to_real {}){}", &text[..span(i).0], &text[span(i).0..span(end).1], &text[span(end).1..]))
    });
    unwrap.chain(decimals).chain(wraps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smtlib::{check::check, parse, parse_strict, print};

    fn strict_text(t: &str) -> Strict {
        strict(&parse(t).unwrap())
    }

    /// The implicit conversions z3 and cvc5 accept become SMT-LIB's explicit ones, each
    /// repair read by the strict parser with no diagnostic and no conversion left.
    #[test]
    fn implicit_conversions_become_explicit() {
        let cases = [
            ("(assert (< 0.0 0))(check-sat)", "0.0 0.0"),
            ("(assert (= 0.0 (+ 1 0.0)))(check-sat)", "(+ 1.0 0.0)"),
            ("(assert (not (= (to_real 0.0) 0.0)))(check-sat)", "(= 0.0 0.0)"),
            ("(assert (< (to_real 0.0) 0))(check-sat)", "(< 0.0 0.0)"),
            ("(declare-const x Int)(declare-const y Real)(assert (< x y))(check-sat)", "(to_real x)"),
            ("(declare-fun f (Real) Bool)(declare-const n Int)(assert (f n))(check-sat)", "(f (to_real n))"),
            (
                "(declare-const x Int)(declare-const y Int)(assert (= x y 0.5))(check-sat)",
                "(= (to_real x) (to_real y) 0.5)",
            ),
            ("(define-fun c () Real 0)(assert (< c 1.5))(check-sat)", "(define-fun c () Real 0.0)"),
            ("(declare-const n Int)(define-fun f () Real n)(assert (< f 1.5))(check-sat)", "Real (to_real n))"),
            (
                "(set-logic QF_LRA)(declare-const n Int)(declare-const x Real)(assert (< x n))(check-sat)",
                "(< x (to_real n))",
            ),
            (
                "(declare-const x Real)(assert (forall ((y Int)) (< x y)))(check-sat)",
                "(forall ((y Int)) (< x (to_real y)))",
            ),
            ("(declare-const x Real)(assert (let ((y 1)) (< x y)))(check-sat)", "(let ((y 1.0)) (< x y))"),
        ];
        let mut repaired = 0;
        for (t, want) in cases {
            let before = check(&parse(t).unwrap());
            assert!(before.coercions > 0 || !before.diagnostics.is_empty(), "{t}: nothing to repair");
            let Strict::Repaired(s) = strict_text(t) else { panic!("not repaired: {t}") };
            let got = print(&s);
            assert!(got.contains(want), "{t} -> {got}");
            let strict_parse = parse_strict(&got).unwrap_or_else(|e| panic!("{got}: {e:?}"));
            let c = check(&strict_parse);
            assert_eq!((c.coercions, c.diagnostics.len()), (0, 0), "{got}");
            repaired += 1;
        }
        assert_eq!(repaired, cases.len());
    }

    /// Standard input is left alone: Int arithmetic, indices, binders' sorts and
    /// floating-point conversions are never made Real, and under a logic of Reals a
    /// numeral is a Real already.
    #[test]
    fn standard_input_is_left_alone() {
        for t in [
            "(declare-const x Int)(assert (< x 0))(check-sat)",
            "(assert (< 0.0 1.5))(check-sat)",
            "(declare-const b (_ BitVec 8))(assert (= ((_ extract 7 0) b) #x00))(check-sat)",
            "(declare-const f (_ FloatingPoint 11 53))(assert (fp.eq f ((_ to_fp 11 53) RNE 1.0)))(check-sat)",
            "(declare-const x Int)(assert (forall ((y Int)) (< x y)))(check-sat)",
            "(set-logic QF_LRA)(declare-const x Real)(assert (< x (+ 1 2)))(check-sat)",
            "(set-logic QF_UFNRA)(declare-const x Real)(assert (< (* x x) 2))(check-sat)",
            "(set-logic qf_lra)(declare-const x Real)(assert (< x 1))(check-sat)",
            // AUFLIRA's logic file makes an Int argument of a Real operator sugar.
            "(set-logic AUFLIRA)(declare-const x Real)(assert (< x 1))(check-sat)",
        ] {
            assert!(matches!(strict_text(t), Strict::Standard), "{t}");
        }
        // A Real under a logic of Ints alone is outside it, whatever the repair.
        let lia = "(set-logic QF_LIA)(declare-const x Int)(assert (= (/ x 2) 1))(check-sat)";
        assert!(matches!(strict_text(lia), Strict::Unrepaired), "{lia}");
    }

    /// No repair changes more than typing: an unwrap never splices two arguments into
    /// the parent, and no sort or binder is wrapped to trade its conversions for a
    /// diagnostic.
    #[test]
    fn a_repair_changes_nothing_but_typing() {
        for (t, never) in [
            ("(assert (< 0.5 (to_real 1 2)))(check-sat)", "0.5 1"),
            (
                "(declare-const x Real)(assert (forall ((b Bool) (y Int)) (and (< x y) (bvadd b b))))(check-sat)",
                "(to_real Bool)",
            ),
            ("(declare-const x Real)(assert (forall ((y Int)) (< x y)))(assert (not 1))(check-sat)", "(to_real (y"),
        ] {
            if let Strict::Repaired(s) = strict_text(t) {
                let got = print(&s);
                assert!(!got.contains(never), "{t} -> {got}");
            }
        }
    }

    /// The checker counts each Int an application converts, once the signature is
    /// chosen: an overloaded user function's refused declaration counts nothing.
    #[test]
    fn conversions_are_counted_once_per_argument() {
        let count = |t: &str| check(&parse(t).unwrap()).coercions;
        assert_eq!(count("(assert (= 1 2 0.5))"), 2);
        assert_eq!(count("(assert (= 0.5 1 2))"), 2);
        assert_eq!(count("(assert (< (+ 1 2 0.5) 3))"), 3);
        assert_eq!(count("(assert (< (+ 1 2) 3))"), 0);
        assert_eq!(count("(declare-fun f (Int Int) Bool)(declare-fun f (Real Bool) Bool)(assert (f 1 2))"), 0);
        assert_eq!(count("(declare-fun f (Int Bool) Bool)(declare-fun f (Real Int) Bool)(assert (f 1 2))"), 1);
        assert_eq!(count("(define-fun c () Real 0)"), 1);
    }
}
