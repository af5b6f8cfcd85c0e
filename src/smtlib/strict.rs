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
//! checker counts fewer conversions ([`super::check::Checked::coercions`]) or fewer
//! diagnostics and no more of either.

use super::lexer::{Lexer, Tok, Token};
use super::Script;

/// Scripts with more tokens than this are left as they are: the search re-checks the
/// script once per candidate edit (a reduced trigger has tens of tokens).
const MAX_TOKENS: usize = 2_000;

/// Edits kept at most (each one removes a conversion or a diagnostic).
const MAX_EDITS: usize = 64;

/// `s` with its implicit `Int`-to-`Real` conversions made explicit and its `to_real`s of
/// a `Real` dropped, when that leaves the checker no conversion and no more diagnostics
/// than `s` had; `None` when `s` has nothing to repair, is too large, or cannot be
/// repaired by these edits.
pub fn strict(s: &Script) -> Option<Script> {
    let text = super::print(s);
    let first = score(&text)?;
    if first == (0, 0) || !text.contains("to_real") && first.1 == 0 {
        return None;
    }
    let mut best = (text, first);
    for _ in 0..MAX_EDITS {
        if best.1 .1 == 0 && !best.0.contains("to_real") {
            break;
        }
        let tape = Lexer::new(best.0.as_bytes()).tape();
        if tape.len() > MAX_TOKENS || tape.last().is_some_and(|t| t.kind == Tok::Error) {
            return None;
        }
        let Some(next) = candidates(&best.0, &tape).find_map(|c| {
            let sc = score(&c)?;
            let (d, k) = (sc.0, sc.1);
            let (bd, bk) = best.1;
            ((d <= bd && k < bk) || (d < bd && k <= bk)).then_some((c, sc))
        }) else {
            break;
        };
        best = next;
    }
    (best.1 .1 == 0 && best.1 .0 <= first.0 && best.1 != first).then(|| super::parse(&best.0).ok()).flatten()
}

/// The checker's diagnostics and conversions on `text`; `None` when it does not parse.
fn score(text: &str) -> Option<(usize, u32)> {
    let s = super::parse(text).ok()?;
    let c = super::check::check(&s);
    Some((c.diagnostics.len(), c.coercions))
}

/// The candidate edits of `text` (tokenised as `tape`), cheapest first: each `(to_real X)`
/// as `X`; each numeral as a decimal; each term (an atom that is not an operator, or a
/// parenthesised group) wrapped in `to_real`.
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
        let (inner_start, inner_end) = (span(i + 2).0, span(end - 1).1);
        (i + 2 < end)
            .then(|| format!("{}{}{}", &text[..span(i).0], &text[inner_start..inner_end], &text[span(end).1..]))
    });
    let decimals = (0..tape.len())
        .filter(move |&i| tape[i].kind == Tok::Numeral)
        .map(move |i| format!("{}.0{}", &text[..span(i).1], &text[span(i).1..]));
    // Each token's depth (an opening parenthesis counts itself): only what is inside a
    // command's arguments is a term to wrap, never a command.
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
    let wraps = (0..tape.len()).filter_map(move |i| {
        if depth[i] < 2 {
            return None;
        }
        let after_open = i > 0 && tape[i - 1].kind == Tok::LParen;
        let end = match tape[i].kind {
            Tok::LParen => close(i)?,
            Tok::Symbol | Tok::QuotedSymbol if !after_open => i,
            _ => return None,
        };
        Some(format!("{}(to_real {}){}", &text[..span(i).0], &text[span(i).0..span(end).1], &text[span(end).1..]))
    });
    unwrap.chain(decimals).chain(wraps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict_text(t: &str) -> Option<String> {
        strict(&super::super::parse(t).unwrap()).map(|s| super::super::print(&s))
    }

    /// The implicit conversions z3 and cvc5 accept become SMT-LIB's explicit ones; a
    /// script that is SMT-LIB already, or whose mixing no edit can repair, is left alone.
    #[test]
    fn implicit_conversions_become_explicit() {
        let cases = [
            ("(assert (< 0.0 0))(check-sat)", "0.0 0.0"),
            ("(assert (= 0.0 (+ 1 0.0)))(check-sat)", "(+ 1.0 0.0)"),
            ("(assert (not (= (to_real 0.0) 0.0)))(check-sat)", "(= 0.0 0.0)"),
            ("(declare-const x Int)(declare-const y Real)(assert (< x y))(check-sat)", "(to_real x)"),
            ("(declare-fun f (Real) Bool)(declare-const n Int)(assert (f n))(check-sat)", "(f (to_real n))"),
        ];
        let mut repaired = 0;
        for (t, want) in cases {
            let s = super::super::parse(t).unwrap();
            assert!(super::super::check::check(&s).coercions > 0 || t.contains("to_real"), "{t}");
            let got = strict_text(t).unwrap_or_else(|| panic!("not repaired: {t}"));
            assert!(got.contains(want), "{t} -> {got}");
            let c = super::super::check::check(&super::super::parse(&got).unwrap());
            assert_eq!((c.coercions, c.diagnostics.len()), (0, 0), "{got}");
            repaired += 1;
        }
        assert_eq!(repaired, cases.len());
        // Already SMT-LIB: nothing to do, and Int arithmetic is never made Real.
        for t in ["(declare-const x Int)(assert (< x 0))(check-sat)", "(assert (< 0.0 1.5))(check-sat)"] {
            let s = super::super::parse(t).unwrap();
            assert_eq!(super::super::check::check(&s).coercions, 0, "{t}");
            assert_eq!(strict_text(t), None, "{t}");
        }
    }
}
