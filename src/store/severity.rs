//! How much a finding matters to the people who would fix it, and so where it goes in a
//! report (issue 39). A maintainer reads a wrong answer to a plain `(check-sat)` in
//! today's release first and an invalid model under an experimental tactic of a 2021
//! release last; a fuzzer that shows them alike is easy to dismiss.
//!
//! The order, most important first: findings under no tactic or option the maintainers
//! disown ([`crate::solver::caveats`]) before those that need one; then the kind (a wrong
//! answer, then an invalid model, then a crash); then the configuration the trigger needs
//! (none, SMT-LIB's standard options, the solver's own options or command-line flags, a
//! tactic pipeline); then whether the newest installed release still fails, and how new
//! the newest failing release is; then the trigger's size (a smaller one is read first).
//! What the configuration is, is read from the reduced trigger when there is one: a
//! tactic the reduction could drop was not what the bug needed.

use super::Meta;
use crate::oracle::BugKind;
use crate::solver::caveats::{asks, caveats_in, without_self_checks, Asks, Caveat};
use crate::solver::registry::version_cmp;
use crate::solver::Family;
use std::cmp::Ordering;

/// What the bug does to a user, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Impact {
    /// `sat` for an unsatisfiable formula or `unsat` for a satisfiable one: a verifier
    /// proves wrong code correct.
    WrongAnswer,
    /// `sat` with a model that does not satisfy the formula.
    InvalidModel,
    /// The solver's own self-check rejects the certificate of its answer (an unsat core,
    /// a proof, a theory lemma): the answer may be right, what backs it is wrong.
    CheckFailed,
    /// The process dies (signal, assertion, sanitizer): loud, so less harmful.
    Crash,
    /// A newer release no longer decides what an older one did (`unknown`, a timeout, 10×
    /// slower): incompleteness, never a wrong answer.
    Regression,
}

impl Impact {
    pub fn of(kind: BugKind) -> Impact {
        match kind {
            BugKind::Soundness => Impact::WrongAnswer,
            BugKind::InvalidModel => Impact::InvalidModel,
            BugKind::CheckFailed => Impact::CheckFailed,
            BugKind::Crash => Impact::Crash,
            BugKind::Regression => Impact::Regression,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Impact::WrongAnswer => "wrong answer",
            Impact::InvalidModel => "invalid model",
            Impact::CheckFailed => "failed self-check",
            Impact::Crash => "crash",
            Impact::Regression => "regression",
        }
    }
}

/// What a user must ask for to meet the bug, most common first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Configuration {
    /// A plain `check-sat` with the solver's defaults.
    Default,
    /// Only options of SMT-LIB 2.6 §4.1.7 (`:produce-models`, ...), which every solver
    /// reads and most users set.
    StandardOptions,
    /// The solver's own options, in the script or on its command line (a configured
    /// variant such as `yices+mcsat`).
    SolverOptions,
    /// A z3 tactic pipeline (`check-sat-using`).
    Tactics,
}

impl Configuration {
    pub fn as_str(self) -> &'static str {
        match self {
            Configuration::Default => "default",
            Configuration::StandardOptions => "standard options",
            Configuration::SolverOptions => "solver options",
            Configuration::Tactics => "tactics",
        }
    }
}

/// A finding's severity and priority.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Severity {
    pub impact: Impact,
    pub configuration: Configuration,
    /// Tactics or options of the trigger that the solver's maintainers call partial,
    /// preliminary or unmaintained.
    pub caveats: Vec<&'static Caveat>,
    /// The newest installed release of the blamed family still fails (nothing in the
    /// ladder fixed it).
    pub in_newest: bool,
    /// It does not, but no release passes after the failing ones either: the newer ones
    /// say nothing of it (out of time, `unknown`, refusing the input). Not "fixed".
    pub newest_silent: bool,
    /// The newest release seen failing: the blamed one, or a newer one bisection probed.
    pub newest_failing: Option<String>,
    pub trigger_bytes: usize,
    /// The known change of meaning between releases that explains the finding
    /// ([`crate::oracle::semantics`]): a dialect difference, not a bug.
    pub dialect: Option<String>,
    /// The blamed solver answered an `(error ...)` to the trigger before its bug showed:
    /// the bug follows an input it refused (a judge saw z3's half-declared datatype after
    /// its own error ranked P1 without a word). Read from the reduction's own check where it
    /// ran (an error the reduced bug needs), else from the stored answer, never from a
    /// trigger that can `echo` the words.
    pub after_own_error: bool,
    /// The reduced trigger is not SMT-LIB as typed (implicit conversions between Int and
    /// Real): the bug needs them, or no repair removed them (a judge read C1's "default"
    /// label as hiding that, judge29a).
    pub typing: Option<super::reduction::Typing>,
    /// The bug is in the solver's reading of a notation: with the names a `let` binds made
    /// fresh, the same formula is answered right ([`super::reduction::Notation`]). Still read first where the rest
    /// says so: every user writes `let`.
    pub notation: Option<super::reduction::Notation>,
}

/// P1 (read first) to P4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// A wrong answer or invalid model, with defaults or standard options, in the newest
    /// release, on input SMT-LIB types as it is.
    P1,
    /// Any other finding the newest release still shows.
    P2,
    /// Not shown by the newest installed release (fixed there, or the newer releases give
    /// no answer to it): worth knowing, not worth a report.
    P3,
    /// Needs a tactic or option the maintainers disown, or is a dialect difference
    /// between releases rather than a bug.
    P4,
}

impl Severity {
    /// The severity of the finding `m`, whose trigger (reduced when there is one) is
    /// `trigger`, blamed on a solver of `family` (`None`: not known, so no caveat
    /// applies). `variant`: the blamed solver is a configured variant (command-line
    /// flags added by the configuration engine).
    pub fn of(m: &Meta, trigger: &str, family: Option<Family>, variant: bool) -> Severity {
        let Asks { tactics, options } = asks(trigger);
        let options = without_self_checks(options);
        let standard = |k: &String| crate::solver::family::STANDARD_OPTIONS.contains(&k.as_str());
        let configuration = if !tactics.is_empty() {
            Configuration::Tactics
        } else if variant || options.iter().any(|k| !standard(k)) {
            Configuration::SolverOptions
        } else if !options.is_empty() {
            Configuration::StandardOptions
        } else {
            Configuration::Default
        };
        let found = family.map_or_else(Vec::new, |f| caveats_in(f, &tactics, &options));
        Severity {
            impact: Impact::of(m.kind),
            configuration,
            caveats: found,
            in_newest: m.cause.range.as_ref().map_or(m.fixed_in.is_none(), |r| r.newest_fails),
            // A newest release that says nothing (out of time, refusing the input) has not
            // fixed it, nor does it show it: only a passing release after the failing ones
            // fixed it.
            newest_silent: m
                .cause
                .range
                .as_ref()
                .is_some_and(|r| !r.newest_fails && r.fixed_in.is_none() && !r.failing().is_empty()),
            newest_failing: newest_failing(m),
            dialect: m.cause.dialect.clone(),
            trigger_bytes: trigger.len(),
            after_own_error: after_own_error(m, trigger),
            typing: m.reduction.as_ref().and_then(|r| r.typing).filter(|t| *t != super::reduction::Typing::Strict),
            notation: m.reduction.as_ref().and_then(|r| r.notation),
        }
    }

    pub fn priority(&self) -> Priority {
        if !self.caveats.is_empty() || self.dialect.is_some() {
            Priority::P4
        } else if !self.in_newest {
            Priority::P3
        } else if self.impact <= Impact::InvalidModel
            && self.configuration <= Configuration::StandardOptions
            && self.typing.is_none()
        {
            Priority::P1
        } else {
            Priority::P2
        }
    }

    /// The report's order: most important first.
    pub fn cmp_importance(&self, other: &Severity) -> Ordering {
        (self.priority(), self.impact, self.configuration)
            .cmp(&(other.priority(), other.impact, other.configuration))
            .then_with(|| match (&self.newest_failing, &other.newest_failing) {
                // Newer first.
                (Some(a), Some(b)) => version_cmp(b, a),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            })
            .then(self.trigger_bytes.cmp(&other.trigger_bytes))
    }

    /// One line for a report: `P1 · wrong answer · default · newest fails`, with the
    /// caveats named.
    pub fn summary(&self) -> String {
        let mut s = format!("{:?} · {} · {}", self.priority(), self.impact.as_str(), self.configuration.as_str());
        if let Some(d) = &self.dialect {
            s.push_str(&format!(" · dialect difference ({d}), not a bug"));
        } else if self.newest_silent {
            s.push_str(" · the newer releases give no answer to it");
        } else if !self.in_newest {
            s.push_str(" · fixed in a newer release");
        }
        if self.after_own_error {
            s.push_str(" · after the solver's own error on the input");
        }
        match self.typing {
            Some(super::reduction::Typing::Lenient) => {
                s.push_str(" · needs its lenient typing (conversions between Int and Real SMT-LIB does not make)")
            }
            Some(_) => s.push_str(" · its input is not SMT-LIB (conversions between Int and Real)"),
            None => {}
        }
        if let Some(n) = self.notation {
            s.push_str(&format!(
                " · in its reading of `{}` (with its bound names made fresh, the same formula is answered right)",
                n.as_str()
            ));
        }
        for c in &self.caveats {
            s.push_str(&format!(" · `{}` is {} by its maintainers", c.name(), c.standing.as_str()));
        }
        s
    }
}

/// Whether the finding's bug comes after the blamed solver's own error on its input. Once
/// its reduction was checked ([`super::reduction::Report::own_error`]), that says: an
/// error the reduction needs. Before, the blamed solver's stored answer says: an
/// `(error ...)` line before its first answer ([`first_own_error`]), unless the trigger
/// echoes (it could print those words itself).
fn after_own_error(m: &Meta, trigger: &str) -> bool {
    if let Some(own) = m.reduction.as_ref().and_then(|r| r.own_error.as_ref()) {
        return matches!(own, super::reduction::OwnError::Refused { .. });
    }
    let echoes = crate::smtlib::parse(trigger).map_or(trigger.contains("echo"), |s| echoes(&s));
    !echoes && m.answers.iter().filter(|a| a.solver == m.blamed).any(|a| first_own_error(&a.stdout_excerpt).is_some())
}

/// The command the solver refused before its first answer, given its output `stdout` to
/// the text it was sent (`sent`): its index among `sent`'s commands and its keyword, read
/// from the line its first error names (`(error "line L column C: ...")`, z3's form;
/// `(error "at line L ...")`, yices'). The command is the last one starting at or before
/// that line (z3 names where a command ends). `None` when no error came before an
/// answer, when the error names no line (cvc5's do not: a line-less error would make
/// every finding after one a single cause), when the excerpt cut the error short, or
/// when `sent` echoes (z3 and yices print echo text bare, so the words could be its own).
pub fn refused_command(stdout: &str, sent: &str) -> Option<(usize, String)> {
    let script = crate::smtlib::parse(sent).ok()?;
    if echoes(&script) {
        return None;
    }
    let error = first_own_error(stdout)?;
    let rest = error.strip_prefix("(error \"")?;
    let rest = rest.strip_prefix("at ").unwrap_or(rest).strip_prefix("line ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let line: u32 = digits.parse().ok()?;
    // A complete error line only: the excerpt can end inside one (`line 1...`).
    if !error.ends_with("\")") {
        return None;
    }
    let at = |i: usize| crate::smtlib::lexer::line_col(script.text.as_bytes(), script.command_offsets[i]).0;
    let i = (0..script.commands.len().min(script.command_offsets.len())).rev().find(|&i| at(i) <= line)?;
    let printed = crate::smtlib::printer::print_command_with(&script, &script.commands[i].kind, &[]);
    let keyword = printed.trim_start_matches('(').split(|c: char| c.is_whitespace() || c == ')').next()?;
    Some((i, keyword.to_string()))
}

/// The first `(error ...)` line of `stdout` before its first answer: an error after it is
/// about the answer (z3 reports a failed `model_validate` or `smt.core.validate` as an
/// error after `sat`/`unsat`), not about the input.
fn first_own_error(stdout: &str) -> Option<&str> {
    let answer = |l: &str| matches!(l, "sat" | "unsat" | "unknown");
    stdout.lines().map(str::trim).take_while(|l| !answer(l)).find(|l| l.starts_with("(error "))
}

/// Whether `s` has an `echo`, whose text z3 and yices print bare.
fn echoes(s: &crate::smtlib::Script) -> bool {
    s.commands.iter().any(|c| matches!(c.kind, crate::smtlib::ast::CommandKind::Echo(..)))
}

/// The newest release seen failing: from the reduced trigger's regression range when it
/// was run ([`super::identity::Range`]); else the blamed release, or a newer one bisection
/// probed before the fix (bisection searches the releases newer than the blamed one; a
/// probe older than the first fixed release failed).
fn newest_failing(m: &Meta) -> Option<String> {
    if let Some(r) = &m.cause.range {
        return r.failing().into_iter().max_by(|a, b| version_cmp(a, b)).map(str::to_string);
    }
    let failed = m
        .bisection
        .iter()
        .map(|(v, _)| v.as_str())
        .filter(|v| m.fixed_in.as_deref().is_none_or(|f| version_cmp(v, f).is_lt()));
    m.blamed_version.as_deref().into_iter().chain(failed).max_by(|a, b| version_cmp(a, b)).map(str::to_string)
}

/// The severity of the stored finding `m` in `dir`, read from its best input (the
/// reduction, else the trigger); the blamed solver's family and whether it is a
/// configured variant as identity reads them ([`super::identity::blamed_family`]).
pub fn of_finding(dir: &super::FindingDir, m: &Meta, solvers: &[crate::solver::SolverSpec]) -> Severity {
    let (_, text) = dir.best_input();
    let (family, variant) = super::identity::blamed_family(&m.blamed, solvers);
    Severity::of(m, &as_sent(&text, &m.blamed, family, solvers), Some(family), variant)
}

/// `text` as the blamed solver is sent it: a trigger is the union of what every family
/// gets (another family's options, `check-sat-using` that others get lowered), and
/// what the blamed solver never saw does not make its bug need an option (a judge saw a
/// z3 crash ranked "solver options" for cvc5's `:incremental`). The run's spec of the
/// blamed solver (or of the base of a configured variant) when there is one, else its
/// family's fixed rules; a text that does not parse is read as it is.
fn as_sent(text: &str, blamed: &str, family: Family, solvers: &[crate::solver::SolverSpec]) -> String {
    let Ok(script) = crate::smtlib::parse(text) else { return text.to_string() };
    let base = blamed.split_once('+').map_or(blamed, |(b, _)| b);
    let own = match solvers.iter().find(|s| s.name == blamed).or_else(|| solvers.iter().find(|s| s.name == base)) {
        Some(spec) => spec.without_foreign_options(&script),
        None => family.without_foreign_options(&script, &Default::default(), None),
    };
    own.map_or_else(|| text.to_string(), |s| crate::smtlib::print(&s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::BlameBy;
    use crate::store::SolverAnswer;

    fn meta(kind: BugKind, fixed_in: Option<&str>) -> Meta {
        let mut m: Meta = serde_json::from_value(serde_json::json!({
            "id": "x", "kind": kind.as_str(), "blamed": "z3-4.8.12", "blamed_version": "4.8.12",
            "blame_by": BlameBy::Majority.as_str(), "logic": "ALL", "signature": "", "fixed_in": fixed_in,
            "bisection": [], "answers": [], "seed": "", "seed_hash": "", "engine": "opfuzz",
            "edits": [], "rng_seed": 0, "found_at": 0.0, "found_unix": 0, "run": 1,
            "trigger_bytes": 0, "duplicates": 0, "seed_finding": false
        }))
        .unwrap();
        m.bisection = vec![("4.13.4".into(), "sat".into()), ("4.8.17".into(), "unsat".into())];
        m
    }

    const PLAIN: &str = "(declare-const x Int)(assert (> x 0))(check-sat)";

    /// The options another family gets in a union trigger are not the blamed solver's
    /// configuration; its own tactic is, and a family that gets `check-sat-using`
    /// lowered is in the default configuration.
    #[test]
    fn configuration_is_what_the_blamed_solver_is_sent() {
        let union = "(set-option :incremental false)\n(set-option :nl-ext-tplanes true)\n(declare-const x Int)\n(assert (> x 0))\n(check-sat-using smtfd)\n";
        let z3 = as_sent(union, "z3-4.8.12", Family::Z3, &[]);
        assert!(!z3.contains(":incremental") && !z3.contains(":nl-ext") && z3.contains("smtfd"), "{z3}");
        let cvc5 = as_sent(union, "cvc5", Family::Cvc5, &[]);
        assert!(cvc5.contains(":nl-ext-tplanes") && !cvc5.contains("smtfd"), "{cvc5}");
        let m = meta(BugKind::Crash, None);
        let s = Severity::of(&m, &z3, Some(Family::Z3), false);
        assert_eq!((s.configuration, s.caveats.len()), (Configuration::Tactics, 1));
        let s = Severity::of(
            &m,
            &as_sent(&union.replace("(check-sat-using smtfd)", "(check-sat)"), "z3", Family::Z3, &[]),
            Some(Family::Z3),
            false,
        );
        assert_eq!(s.configuration, Configuration::Default);
    }

    /// The command a solver refused is read from the line its complete error names (z3's
    /// `line L column C`, yices' `at line L`), the last command starting at or before it
    /// (z3 names where a multi-line command ends); an error that names no line, is cut
    /// short, comes after the answer, or could be an `echo`'s words is none.
    #[test]
    fn the_refused_command_is_the_one_at_the_errors_line() {
        let sent = "(set-option :produce-models true)\n(declare-datatypes ((T 0)) (((f (m (Array T T))))))\n(declare-const b T)\n(assert\n  (= b b))\n(check-sat)\n";
        let z3 = "(error \"line 2 column 27: datatype is not co-variant\")\nsat\n";
        assert_eq!(super::refused_command(z3, sent), Some((1, "declare-datatypes".to_string())));
        let third = "(error \"line 3 column 1: unknown sort\")\nsat\n";
        assert_eq!(super::refused_command(third, sent), Some((2, "declare-const".to_string())));
        let end = "(error \"line 5 column 9: not Boolean\")\nsat\n";
        assert_eq!(super::refused_command(end, sent), Some((3, "assert".to_string())), "where it ends");
        let yices = "(error \"at line 3, column 1: undefined sort\")\n";
        assert_eq!(super::refused_command(yices, sent), Some((2, "declare-const".to_string())));
        let nameless = "(error \"Datatype sort T is not well-founded\")\nsat\n";
        assert_eq!(super::refused_command(nameless, sent), None, "no line");
        assert_eq!(super::refused_command("(error \"line 1...", sent), None, "cut short");
        assert_eq!(super::refused_command("sat\n(error \"line 2 column 1: model\")\n", sent), None, "after");
        assert_eq!(super::refused_command("sat\n", sent), None);
        let echo = format!("{sent}(echo \"(error x)\")\n");
        assert_eq!(super::refused_command(z3, &echo), None, "echo could print it");
    }

    /// A finding after the blamed solver's own `(error ...)` says so; another solver's
    /// error, or error words a trigger's `echo` could have printed, do not.
    #[test]
    fn a_finding_after_the_solvers_own_error_says_so() {
        let answer = |solver: &str, stdout: &str| SolverAnswer {
            solver: solver.into(),
            version: None,
            outcomes: vec![],
            stdout_excerpt: stdout.into(),
            stderr_excerpt: String::new(),
            seconds: 0.0,
        };
        let mut m = meta(BugKind::InvalidModel, None);
        let z3 = Some(Family::Z3);
        let refused = "(error \"line 3 column 10: invalid datatype declaration\")\nsat\n";
        m.answers = vec![answer("z3-4.8.12", refused)];
        let s = Severity::of(&m, PLAIN, z3, false);
        assert!(s.after_own_error && s.summary().contains("after the solver's own error"), "{}", s.summary());
        // z3's failed model validation is an error after the answer: about the answer.
        m.answers = vec![answer("z3-4.8.12", "sat\n(error \"line 9 column 10: an invalid model was generated\")\n")];
        assert!(!Severity::of(&m, PLAIN, z3, false).after_own_error, "an error after the answer");
        m.answers = vec![answer("z3-4.8.12", "sat\n"), answer("cvc5", refused)];
        assert!(!Severity::of(&m, PLAIN, z3, false).after_own_error, "another solver's error");
        m.answers = vec![answer("z3-4.8.12", refused)];
        let echo = format!("(echo \"(error x)\"){PLAIN}");
        assert!(!Severity::of(&m, &echo, z3, false).after_own_error, "echo could print it");
    }

    /// A wrong answer that needs the solver's lenient typing is not read first (its
    /// input is not SMT-LIB), and its line says why.
    #[test]
    fn a_bug_of_lenient_typing_says_so_and_is_not_p1() {
        let mut m = meta(BugKind::Soundness, None);
        let z3 = Some(Family::Z3);
        assert_eq!(Severity::of(&m, PLAIN, z3, false).priority(), Priority::P1);
        m.reduction = Some(super::super::reduction::Report {
            typing: Some(super::super::reduction::Typing::Lenient),
            ..Default::default()
        });
        let s = Severity::of(&m, PLAIN, z3, false);
        assert_eq!(s.priority(), Priority::P2);
        assert!(s.summary().contains("lenient typing"), "{}", s.summary());
        m.reduction.as_mut().unwrap().typing = Some(super::super::reduction::Typing::Unrepaired);
        let s = Severity::of(&m, PLAIN, z3, false);
        assert_eq!(s.priority(), Priority::P2);
        assert!(s.summary().contains("not SMT-LIB"), "{}", s.summary());
        m.reduction.as_mut().unwrap().typing = Some(super::super::reduction::Typing::Strict);
        assert_eq!(Severity::of(&m, PLAIN, z3, false).priority(), Priority::P1);
        // A bug in the solver's reading of `let` is a default-mode bug: still P1, and said.
        m.reduction.as_mut().unwrap().notation = Some(super::super::reduction::Notation::Let);
        let s = Severity::of(&m, PLAIN, z3, false);
        assert_eq!(s.priority(), Priority::P1);
        assert!(s.summary().contains("reading of `let`"), "{}", s.summary());
    }

    #[test]
    fn configuration_is_read_from_the_trigger() {
        let z3 = Some(Family::Z3);
        let m = meta(BugKind::Soundness, None);
        let of = |t: &str, variant| Severity::of(&m, t, z3, variant);
        assert_eq!(of(PLAIN, false).configuration, Configuration::Default);
        assert_eq!(of(PLAIN, true).configuration, Configuration::SolverOptions);
        let std = format!("(set-option :produce-models true){PLAIN}");
        assert_eq!(of(&std, false).configuration, Configuration::StandardOptions);
        let own = format!("(set-option :smt.arith.solver 2){PLAIN}");
        assert_eq!(of(&own, false).configuration, Configuration::SolverOptions);
        let tactic = "(declare-const x Int)(assert (> x 0))(check-sat-using (then simplify (using-params smtfd :x 1)))";
        let s = of(tactic, false);
        assert_eq!((s.configuration, s.priority()), (Configuration::Tactics, Priority::P4));
        assert_eq!(s.caveats.iter().map(|c| c.name()).collect::<Vec<_>>(), ["smtfd"]);
        // Read token by token when the parser refuses the text.
        let broken = "(assert (> x 0)(check-sat-using smtfd)";
        assert_eq!(of(broken, false).caveats.len(), 1);
        // Another family's tactic of that name is not marked.
        assert!(Severity::of(&m, tactic, Some(Family::Cvc5), false).caveats.is_empty());
        // A disowned parameter set for one tactic (`using-params`) is marked as the
        // option is (session 24's judge: `:sls.enable` there ranked P2), also when the
        // text is read token by token.
        let params = "(declare-fun m () (_ BitVec 1))(assert (= m (bvredor m)))(check-sat-using (using-params ufnia :sls.enable true))";
        assert_eq!(of(params, false).priority(), Priority::P4);
        assert_eq!(
            of(&params.replace("(assert", "(assert ("), false).caveats.iter().map(|c| c.component).collect::<Vec<_>>(),
            ["sls"]
        );
        // Issue 40: a self-check's options (and the standard ones it needs) are no
        // configuration: a failed `check-proofs` under them is a default-mode bug; another
        // option beside them still counts.
        let c = meta(BugKind::CheckFailed, None);
        let checked = format!("(set-option :produce-proofs true)(set-option :check-proofs true){PLAIN}");
        let s = Severity::of(&c, &checked, Some(Family::Cvc5), false);
        assert_eq!((s.configuration, s.impact), (Configuration::Default, Impact::CheckFailed));
        let core = format!("(set-option :produce-unsat-cores true)(set-option :smt.core.validate true){PLAIN}");
        assert_eq!(of(&core, false).configuration, Configuration::Default);
        let more = format!("(set-option :produce-models true)(set-option :check-unsat-cores true){PLAIN}");
        assert_eq!(of(&more, false).configuration, Configuration::StandardOptions);
    }

    #[test]
    fn the_order_puts_todays_plain_wrong_answers_first() {
        let z3 = Some(Family::Z3);
        let wrong_today = Severity::of(&meta(BugKind::Soundness, None), PLAIN, z3, false);
        let wrong_old = Severity::of(&meta(BugKind::Soundness, Some("4.8.17")), PLAIN, z3, false);
        let crash_today = Severity::of(&meta(BugKind::Crash, None), PLAIN, z3, false);
        let model_options = Severity::of(&meta(BugKind::InvalidModel, None), PLAIN, z3, true);
        let smtfd = Severity::of(&meta(BugKind::Soundness, None), "(check-sat-using smtfd)", z3, false);
        assert_eq!(wrong_today.priority(), Priority::P1);
        assert_eq!((crash_today.priority(), model_options.priority()), (Priority::P2, Priority::P2));
        assert_eq!(wrong_old.priority(), Priority::P3);
        let mut all = vec![&smtfd, &wrong_old, &crash_today, &model_options, &wrong_today];
        all.sort_by(|a, b| a.cmp_importance(b));
        assert_eq!(all, [&wrong_today, &model_options, &crash_today, &wrong_old, &smtfd]);
        // The newest failing release: 4.13.4 was probed failing, nothing fixed it.
        assert_eq!(wrong_today.newest_failing.as_deref(), Some("4.13.4"));
        // With the fix at 4.8.17, only releases below it failed.
        assert_eq!(wrong_old.newest_failing.as_deref(), Some("4.8.12"));
    }
}
