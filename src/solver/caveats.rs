//! Tactics and options a solver's own maintainers call partial, preliminary or
//! unmaintained: a wrong answer under one of them is worth less to them than one to a
//! plain `(check-sat)`, and a report that leads with it costs the fuzzer their trust
//! (issue 39). One table, with the maintainers' words and where they said them; a
//! finding that needs one of these is still kept and shown, ranked last and marked (by
//! the store's severity).

use super::Family;
use crate::smtlib::ast::{CommandKind, Nullary, Sexp, SexpId};
use crate::smtlib::lexer::Tok;

/// What the maintainers said of a tactic or option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Standing {
    /// Sound only on the formulas it was written for; not a general procedure.
    Partial,
    /// Work in progress, not yet meant for bug reports.
    Preliminary,
    /// No longer worked on.
    Unmaintained,
}

impl Standing {
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Partial => "partial",
            Standing::Preliminary => "preliminary",
            Standing::Unmaintained => "unmaintained",
        }
    }
}

/// What a caveat applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A tactic, by its name in `check-sat-using` (alone or inside a combinator).
    Tactic(&'static str),
    /// Every option whose key (without `:`, `-` read as `_`) starts with this.
    OptionPrefix(&'static str),
}

/// One entry of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caveat {
    pub family: Family,
    pub subject: Subject,
    pub standing: Standing,
    /// The part of the solver the entry is about (`sls` for the SLS tactics and every
    /// `sls.*` option alike): the maintainers' unit of triage, so findings under one
    /// component are one cause per kind and fix (the store's identity of a finding).
    pub component: &'static str,
    /// The maintainers' words, short, and where they said them.
    pub evidence: &'static str,
}

impl Caveat {
    /// The tactic or option prefix, as a person reads it.
    pub fn name(&self) -> &'static str {
        match self.subject {
            Subject::Tactic(t) | Subject::OptionPrefix(t) => t,
        }
    }
}

const SMTFD: &str = "\"do not use smtfd on formulas it does not apply to\" (Z3Prover/z3#6002)";
const EUF_COMPLETION: &str = "\"euf-completion is too preliminary to file regular bugs against\" (Z3Prover/z3#7806)";
const SLS: &str = "local search is \"not actively maintained\" (Z3Prover/z3#3220); the SLS rework \"remains work \
                   in progress and is only turned on by enabling specific configurations\" (Z3Prover/z3#7439)";

/// The table. Matching is by family, so another solver's tactic of the same name is not
/// marked.
pub const CAVEATS: &[Caveat] = &[
    Caveat {
        family: Family::Z3,
        subject: Subject::Tactic("smtfd"),
        component: "smtfd",
        standing: Standing::Partial,
        evidence: SMTFD,
    },
    Caveat {
        family: Family::Z3,
        subject: Subject::Tactic("euf-completion"),
        component: "euf-completion",
        standing: Standing::Preliminary,
        evidence: EUF_COMPLETION,
    },
    Caveat {
        family: Family::Z3,
        subject: Subject::Tactic("sls-smt"),
        component: "sls",
        standing: Standing::Unmaintained,
        evidence: SLS,
    },
    Caveat {
        family: Family::Z3,
        subject: Subject::Tactic("qfbv-sls"),
        component: "sls",
        standing: Standing::Unmaintained,
        evidence: SLS,
    },
    // `smt.sls.enable`, `sls.*` parameters, the SAT core's `sat.local_search*`.
    Caveat {
        family: Family::Z3,
        subject: Subject::OptionPrefix("smt.sls"),
        component: "sls",
        standing: Standing::Unmaintained,
        evidence: SLS,
    },
    Caveat {
        family: Family::Z3,
        subject: Subject::OptionPrefix("sls."),
        component: "sls",
        standing: Standing::Unmaintained,
        evidence: SLS,
    },
    Caveat {
        family: Family::Z3,
        subject: Subject::OptionPrefix("sat.local_search"),
        component: "sls",
        standing: Standing::Unmaintained,
        evidence: SLS,
    },
];

/// The caveat on a tactic of `family`, by its name (`-` and `_` alike, as z3 reads both).
pub fn on_tactic(family: Family, name: &str) -> Option<&'static Caveat> {
    let name = name.replace('_', "-");
    CAVEATS.iter().find(|c| c.family == family && matches!(c.subject, Subject::Tactic(t) if t == name))
}

/// The caveat on an option of `family`, by its key as written (`:smt.sls.enable`).
pub fn on_option(family: Family, key: &str) -> Option<&'static Caveat> {
    let key = key.trim_start_matches(':').to_ascii_lowercase().replace('-', "_");
    CAVEATS.iter().find(|c| {
        c.family == family && matches!(c.subject, Subject::OptionPrefix(p) if key.starts_with(&p.replace('-', "_")))
    })
}

/// Whether every check of `text` runs under a caveated component for `family`: a
/// caveated option set for the whole script (and not to `false` or `0`), or each check a
/// `check-sat-using` whose pipeline names one. A script that also asks a plain
/// `check-sat` may be about that answer (a self-contradiction between the two), so it is
/// not; nor is a text that does not parse.
pub fn every_check_under(text: &str, family: Family) -> bool {
    let Ok(s) = crate::smtlib::parse(text) else { return false };
    let off = |v: &str| matches!(v.trim(), "false" | "0");
    let global = s
        .commands
        .iter()
        .filter_map(|c| super::sandbox::set_option(&s, c))
        .any(|(k, v)| on_option(family, &k).is_some() && !off(&v));
    if global {
        return true;
    }
    let mut checks = 0;
    for c in &s.commands {
        match c.kind {
            CommandKind::Nullary(Nullary::CheckSat) | CommandKind::CheckSatAssuming(_) => return false,
            CommandKind::Other { name, args } if s.str(name) == "check-sat-using" => {
                checks += 1;
                let (tactics, keys) = pipeline_words(&s, args);
                let under = tactics.iter().any(|t| on_tactic(family, t).is_some())
                    || keys.iter().any(|k| on_option(family, k).is_some());
                if !under {
                    return false;
                }
            }
            _ => {}
        }
    }
    checks > 0
}

/// The caveats (this table) on what `text` asks of a solver of `family`:
/// its tactics and options, `using-params` keys included; each named once, in the
/// table's order.
pub fn caveats_of(text: &str, family: Family) -> Vec<&'static Caveat> {
    let Asks { tactics, options } = asks(text);
    caveats_in(family, &tactics, &without_self_checks(options))
}

pub fn caveats_in(family: Family, tactics: &[String], options: &[String]) -> Vec<&'static Caveat> {
    let mut found: Vec<&'static Caveat> = tactics
        .iter()
        .filter_map(|t| on_tactic(family, t))
        .chain(options.iter().filter_map(|o| on_option(family, o)))
        .collect();
    found.sort_by_key(|c| CAVEATS.iter().position(|x| std::ptr::eq(x, *c)));
    found.dedup_by_key(|c| c.name());
    found
}

/// What a script asks of the solver beyond its formula.
#[derive(Debug, Default)]
pub struct Asks {
    /// Every symbol of every `check-sat-using` tactic expression (combinators too: only
    /// tactic names ever match the caveats table).
    pub tactics: Vec<String>,
    /// The keys of its `set-option`s, as written (`:produce-models`), and of the
    /// `using-params` inside its `check-sat-using` pipelines (`:sls.enable`): a parameter
    /// set for one tactic is still that option.
    pub options: Vec<String>,
}

/// `options` without the self-checks' ([`crate::solver::checks`]): they never change the
/// answer, so a trigger that switches one on is in the default configuration (issue 40).
/// The standard options a check needs (`:produce-proofs` for cvc5's `:check-proofs`)
/// go with it.
pub fn without_self_checks(options: Vec<String>) -> Vec<String> {
    use super::checks::check_of_option;
    let on: Vec<_> = options.iter().filter_map(|k| check_of_option(k)).collect();
    options
        .into_iter()
        .filter(|k| check_of_option(k).is_none() && !on.iter().any(|c| c.needs.contains(&k.as_str())))
        .collect()
}

/// The words of a `check-sat-using` pipeline (its arguments `args`): every symbol (the
/// tactics, and combinators, which no caveat names) and every `using-params` key.
fn pipeline_words(s: &crate::smtlib::Script, args: crate::smtlib::ast::List<SexpId>) -> (Vec<&str>, Vec<&str>) {
    let (mut symbols, mut keys) = (vec![], vec![]);
    let mut stack: Vec<SexpId> = s.sexp_list(args).to_vec();
    while let Some(x) = stack.pop() {
        match s.sexps[x.index()] {
            Sexp::Atom(Tok::Symbol, w) => symbols.push(s.str(w)),
            Sexp::Atom(Tok::Keyword, w) => keys.push(s.str(w)),
            Sexp::Atom(..) => {}
            Sexp::List(l) => stack.extend_from_slice(s.sexp_list(l)),
        }
    }
    (symbols, keys)
}

/// Reads `text` with the lossless parser; a text that does not parse (a hand edit) is
/// read token by token, so a finding is never left without a severity.
pub fn asks(text: &str) -> Asks {
    let Ok(s) = crate::smtlib::parse(text) else { return asks_by_tokens(text) };
    let mut a = Asks::default();
    for c in &s.commands {
        match c.kind {
            CommandKind::SetOption(attr) => a.options.push(s.str(attr.key).to_string()),
            CommandKind::Other { name, args } if s.str(name) == "check-sat-using" => {
                let (tactics, keys) = pipeline_words(&s, args);
                a.tactics.extend(tactics.into_iter().map(String::from));
                a.options.extend(keys.into_iter().map(String::from));
                // `(check-sat-using smt)` still counts: it is not what a user's plain
                // `check-sat` runs.
            }
            _ => {}
        }
    }
    a
}

/// [`asks`] for a text the parser refuses: `(set-option :k` and `(check-sat-using ...)`
/// found by their tokens.
fn asks_by_tokens(text: &str) -> Asks {
    let mut a = Asks::default();
    let words: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || c == '(' || c == ')').filter(|w| !w.is_empty()).collect();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "set-option" if i + 1 < words.len() => a.options.push(words[i + 1].to_string()),
            "check-sat-using" => {
                // The tactic expression: up to the next command's name.
                let command = |w: &&&str| {
                    [
                        "assert",
                        "check-sat",
                        "declare-",
                        "define-",
                        "get-",
                        "set-",
                        "push",
                        "pop",
                        "echo",
                        "exit",
                        "reset",
                    ]
                    .iter()
                    .any(|c| w.starts_with(c))
                };
                for w in words[i + 1..].iter().take_while(|w| !command(w)) {
                    if w.starts_with(':') {
                        a.options.push(w.to_string());
                    } else {
                        a.tactics.push(w.to_string());
                    }
                }
                // A bare `check-sat-using` still asks through a tactic.
                a.tactics.push("check-sat-using".into());
            }
            _ => {}
        }
        i += 1;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tactics_and_options_are_matched_by_family_and_spelling() {
        assert_eq!(on_tactic(Family::Z3, "smtfd").map(|c| c.standing), Some(Standing::Partial));
        assert_eq!(on_tactic(Family::Z3, "euf_completion").map(|c| c.standing), Some(Standing::Preliminary));
        assert!(on_tactic(Family::Z3, "smt").is_none());
        assert!(on_tactic(Family::Cvc5, "smtfd").is_none());
        assert_eq!(on_option(Family::Z3, ":smt.sls.enable").map(|c| c.standing), Some(Standing::Unmaintained));
        assert_eq!(on_option(Family::Z3, ":sat.local-search").map(|c| c.name()), Some("sat.local_search"));
        assert!(on_option(Family::Z3, ":smt.arith.solver").is_none());
        assert!(on_option(Family::Yices, ":smt.sls.enable").is_none());
    }

    /// Every entry names where the maintainers said it (that the installed z3 still lists
    /// each tactic is checked on the real binary in `tests/severity.rs`).
    #[test]
    fn every_entry_has_evidence() {
        for c in CAVEATS {
            assert!(c.evidence.contains("z3#"), "{c:?}");
        }
    }
}
