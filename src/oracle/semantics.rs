//! The ladder's known changes of meaning (issue 39): releases of one family that read the
//! same text as different formulas. A finding that only releases before such a change
//! show, and whose trigger uses what changed, is a dialect difference — the old release
//! read another formula — not a bug a maintainer would accept today.
//!
//! Each entry keeps its evidence: the smallest script that tells the two meanings apart
//! and what the releases answered (measured on the installed ladder, 2026-11-26).

use crate::solver::registry::version_cmp;
use crate::solver::Family;

/// One change of meaning between two releases of a family.
#[derive(Debug)]
pub struct MeaningChange {
    /// Stable name, stored in a finding's `meta.json` (`cause.dialect`).
    pub id: &'static str,
    pub family: Family,
    /// The first release that reads the new meaning.
    pub since: &'static str,
    /// What changed, for the report.
    pub what: &'static str,
    /// The evidence: a script and the answers on each side of the change.
    pub evidence: &'static str,
    /// Whether a trigger's text uses what changed.
    pub used_by: fn(&str) -> bool,
}

impl MeaningChange {
    /// The family's name as reports write it.
    pub fn family_name(&self) -> &'static str {
        match self.family {
            Family::Z3 => "z3",
            Family::Cvc5 => "cvc5",
            Family::Yices => "yices",
            Family::Bitwuzla => "bitwuzla",
            Family::Other => "the solver",
        }
    }
}

/// The table. Every release of a family is compared with `since` by
/// [`crate::solver::registry::version_cmp`].
pub const CHANGES: &[MeaningChange] = &[
    MeaningChange {
        id: "z3-string-escapes-2.6",
        family: Family::Z3,
        since: "4.8.9",
        what: "z3 4.8.9 reads string literals as SMT-LIB 2.6 does: `\\u{41}` (and `\\ud`, `\\u{d..}`) is one \
               character; before, the six characters as written",
        evidence: "(assert (= (str.len \"\\u{41}\") 1)) (check-sat): unsat on z3 4.8.5, 4.8.7, 4.8.8; sat on \
                   4.8.9, 4.8.10, 4.8.12, 4.8.17, 4.12.6, 5.4.0",
        used_by: |t| string_literals(t).any(|s| s.contains("\\u")),
    },
    MeaningChange {
        id: "z3-string-escapes-x",
        family: Family::Z3,
        since: "4.8.12",
        what: "z3 4.8.12 no longer reads the pre-2.6 escape `\\x41` as one character (SMT-LIB 2.6 has only \
               `\\u` escapes): four characters as written",
        evidence: "(assert (= (str.len \"\\x41\") 1)) (check-sat): sat on z3 4.8.5 to 4.8.10; unsat on 4.8.12, \
                   4.8.17, 4.12.6, 5.4.0",
        used_by: |t| string_literals(t).any(|s| s.contains("\\x")),
    },
];

/// The string literals of a script's text (their contents, quotes and all), from the
/// lexer: a `\u` in a comment or a quoted symbol is not one.
fn string_literals(text: &str) -> impl Iterator<Item = &str> {
    use crate::smtlib::lexer::{Lexer, Tok};
    Lexer::new(text.as_bytes())
        .tape()
        .into_iter()
        .filter(|t| t.kind == Tok::String)
        .filter_map(move |t| text.get(t.start as usize..t.end as usize))
}

/// The change of meaning that explains a finding of `family` whose trigger is `text`, if
/// any: every release that shows it is older than the change, at least one release from
/// the change on answers it without the bug, and the trigger uses what changed.
pub fn explains(family: Family, failing: &[&str], passing: &[&str], text: &str) -> Option<&'static MeaningChange> {
    CHANGES.iter().find(|c| {
        c.family == family
            && !failing.is_empty()
            && failing.iter().all(|v| version_cmp(v, c.since).is_lt())
            && passing.iter().any(|v| !version_cmp(v, c.since).is_lt())
            && (c.used_by)(text)
    })
}

/// The change of meaning with this id.
pub fn change(id: &str) -> Option<&'static MeaningChange> {
    CHANGES.iter().find(|c| c.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_old_releases_and_a_trigger_that_uses_the_change() {
        let t = "(assert (= (str.len \"\\u{41}\") 1)) ; \\x\n(check-sat)";
        let c = explains(Family::Z3, &["4.8.7", "4.8.8"], &["4.8.9", "5.4.0"], t).map(|c| c.id);
        assert_eq!(c, Some("z3-string-escapes-2.6"));
        // A newer release fails too: a bug, whatever the text.
        assert!(explains(Family::Z3, &["4.8.8", "4.8.9"], &["5.4.0"], t).is_none());
        // No release from the change on answers: nothing shows the new meaning.
        assert!(explains(Family::Z3, &["4.8.8"], &["4.8.7"], t).is_none());
        // No escape in a string literal (the one in the comment does not count).
        assert!(explains(Family::Z3, &["4.8.8"], &["4.8.9"], "(assert (= \"a\" \"b\")) ; \\u{41}").is_none());
        assert!(explains(Family::Cvc5, &["4.8.8"], &["4.8.9"], t).is_none());
        let x = "(assert (= (str.len \"\\x41\") 1))";
        assert_eq!(explains(Family::Z3, &["4.8.10"], &["4.8.12"], x).map(|c| c.id), Some("z3-string-escapes-x"));
        assert!(change("z3-string-escapes-x").is_some());
    }
}
