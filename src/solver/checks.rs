//! The solvers' own self-checks (issue 40, item 1): for each family, the options that make
//! it re-check an answer it has just given, what each applies to, and the text its
//! output holds when the check fails. These options never change the answer (a correct
//! solver answers the same with them on), so a failure under them is a bug of the mode
//! users run: the configuration engine never uses them ([`is_check_option`],
//! `options/exclude.rs`) and a finding's severity counts them as no configuration at all.
//!
//! What each family offers (read from the installed releases: `cvc5 --help` text and
//! option table, bitwuzla's option table, `z3 -p`; failure texts from the libraries'
//! strings):
//! * cvc5: `check-models` (after `sat`; already on for every query as the family's model
//!   validation, [`super::family::Dialect::model_validation`]), `check-unsat-cores` and
//!   `check-proofs` (after `unsat`). A failure is a fatal internal error (the process
//!   aborts) whose text names the check. `could not check core result unknown` is a
//!   warning: the check could not decide, the answer stands.
//! * bitwuzla: `check-model` and `check-unsat-core`. Release 0.9.1 runs them (its log
//!   says `*** check unsat core`) but only `assert`s the result, which a release build
//!   compiles out: a failure is silent there. Later sources warn `model check failed` /
//!   `unsat core check failed`; those texts are classified for a release that prints them.
//! * z3: `model_validate` (the family's model validation, on for every query),
//!   `smt.core.validate` (after `unsat`; `Core could not be validated`, while `core
//!   validation produced unknown` is no finding), `smt.arith.validate` (the arithmetic
//!   solver re-checks its conflicts and propagations: a `VERIFY(validate_…)` failure).
//!   z3 5.4.0 has no `smt.proof.check` (4.8.x had one): the probe drops what a release
//!   lacks ([`probe`]).
//! * yices: none. yices-smt2 2.6.5 lists no option that checks a model, a core or a proof.

use super::allow::norm;
use super::{Family, Limits, Outcome, SolverSpec};

/// Which answers a check re-checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    Sat,
    Unsat,
    /// Any definite answer (a theory solver re-checking its own lemmas).
    Definite,
}

impl After {
    /// Whether the check applies after `o`.
    pub fn applies(self, o: &Outcome) -> bool {
        matches!(
            (self, o),
            (After::Sat | After::Definite, Outcome::Sat) | (After::Unsat | After::Definite, Outcome::Unsat)
        )
    }
}

/// One self-check of one family.
#[derive(Debug, PartialEq, Eq)]
pub struct SelfCheck {
    pub family: Family,
    /// The option that switches it on (`:NAME`, set to `true`); findings are named by it.
    pub option: &'static str,
    /// Standard options it needs alongside (SMT-LIB 2.6 §4.1.7), set to `true` first.
    pub needs: &'static [&'static str],
    pub after: After,
    /// Already on for every query of a session (the family's model validation): the
    /// oracle does not run it again.
    pub in_sessions: bool,
    /// Text in the solver's output (either stream) that says the check failed.
    pub failures: &'static [&'static str],
}

impl SelfCheck {
    /// The check's name: its option without the colon.
    pub fn name(&self) -> &'static str {
        self.option.trim_start_matches(':')
    }
}

/// Every family's self-checks. cvc5's failure texts are its library's own strings
/// (`strings libcvc5.so`): `SolverEngine::checkUnsatCore()`, the proof checker's and
/// the proof manager's messages.
pub static SELF_CHECKS: &[SelfCheck] = &[
    SelfCheck {
        family: Family::Cvc5,
        option: ":check-models",
        needs: &[":produce-models"],
        after: After::Sat,
        in_sessions: true,
        failures: &[],
    },
    SelfCheck {
        family: Family::Cvc5,
        option: ":check-unsat-cores",
        needs: &[":produce-unsat-cores"],
        after: After::Unsat,
        in_sessions: false,
        failures: &["SolverEngine::checkUnsatCore(): produced core was satisfiable"],
    },
    SelfCheck {
        family: Family::Cvc5,
        option: ":check-proofs",
        needs: &[":produce-proofs"],
        after: After::Unsat,
        in_sessions: false,
        failures: &[
            "ProofChecker::check: failed",
            "ProofChecker::check: child proof was invalid",
            "Generated a proof that is not closed by the scope",
            "ProofPostprocess::process: pedantic failure",
            "cyclic proof",
        ],
    },
    SelfCheck {
        family: Family::Bitwuzla,
        option: ":check-model",
        needs: &[":produce-models"],
        after: After::Sat,
        in_sessions: false,
        failures: &["model check failed"],
    },
    SelfCheck {
        family: Family::Bitwuzla,
        option: ":check-unsat-core",
        needs: &[":produce-unsat-cores"],
        after: After::Unsat,
        in_sessions: false,
        failures: &["unsat core check failed"],
    },
    SelfCheck {
        family: Family::Z3,
        option: ":model_validate",
        needs: &[":produce-models"],
        after: After::Sat,
        in_sessions: true,
        failures: &[],
    },
    SelfCheck {
        family: Family::Z3,
        option: ":smt.core.validate",
        needs: &[":produce-unsat-cores"],
        after: After::Unsat,
        in_sessions: false,
        failures: &["Core could not be validated"],
    },
    SelfCheck {
        family: Family::Z3,
        option: ":smt.arith.validate",
        needs: &[],
        after: After::Definite,
        in_sessions: false,
        failures: &[
            "Failed to verify: validate_conflict()",
            "Failed to verify: validate_assign(",
            "Failed to verify: validate_eq(",
            "Arithmetic proof check failed",
        ],
    },
];

/// The self-check whose option is `key` (`:NAME` or `NAME`).
pub fn check_of_option(key: &str) -> Option<&'static SelfCheck> {
    let k = norm(key);
    SELF_CHECKS.iter().find(|c| norm(c.option) == k)
}

/// Whether `key` switches on a self-check: an option that never changes the answer, so
/// never a configuration that could (the configuration engine never sets one).
pub fn is_check_option(key: &str) -> bool {
    check_of_option(key).is_some()
}

/// The self-checks of `family`.
pub fn of(family: Family) -> impl Iterator<Item = &'static SelfCheck> {
    SELF_CHECKS.iter().filter(move |c| c.family == family)
}

/// The `set-option` lines that switch `checks` on, the options they need first (each
/// once).
pub fn options_text(checks: &[&SelfCheck]) -> String {
    let mut out = String::new();
    let mut seen: Vec<&str> = vec![];
    for key in checks.iter().flat_map(|c| c.needs.iter().copied()).chain(checks.iter().map(|c| c.option)) {
        if !seen.contains(&key) {
            seen.push(key);
            out.push_str(&format!("(set-option {key} true)\n"));
        }
    }
    out
}

/// The failed self-check that a solver's output reports, as the normalised message a
/// finding carries: `NAME: TEXT`, with the check's option name and the failure text the
/// table lists (positions and terms the solver prints after it vary between runs of one
/// bug and are left out).
pub fn failure_in(text: &str) -> Option<String> {
    SELF_CHECKS
        .iter()
        .find_map(|c| c.failures.iter().find(|f| text.contains(**f)).map(|f| format!("{}: {f}", c.name())))
}

/// cvc5's `check-models` failing: it aborts with an internal error that names the model
/// check and the theories whose assertions the model falsifies (`SolverEngine::checkModel():
/// ERRORS SATISFYING ASSERTIONS WITH MODEL { THEORY_FP THEORY_ARRAYS }`). That is a model
/// the solver's own validation rejected — an invalid model, as z3's `model_validate` error
/// is — not a crash of the search: read as a crash, every such failure had one crash
/// state (`check_models.cpp:251`) and unrelated models were stored as one cause (issue
/// 39, judge26a). The message keeps the theories (they tell causes apart before a
/// reduction does) and drops the assertion text (it varies between runs of one bug).
pub fn model_check_failure_in(text: &str) -> Option<String> {
    const CVC5: &str = "SolverEngine::checkModel(): ERRORS SATISFYING ASSERTIONS WITH MODEL";
    let at = text.find(CVC5)?;
    let rest = &text[at + CVC5.len()..];
    let line = rest.lines().next().unwrap_or("").trim().trim_end_matches(':').trim();
    let theories = line.strip_prefix('{').and_then(|l| l.split_once('}')).map(|(t, _)| t.split_whitespace());
    Some(match theories {
        Some(t) => format!("check-models: model falsifies assertions of {}", t.collect::<Vec<_>>().join(" ")),
        None => "check-models: model falsifies assertions".into(),
    })
}

/// Whether an outcome's message is a failed self-check's ([`failure_in`]), and which.
pub fn check_of_failure(message: &str) -> Option<&'static SelfCheck> {
    let (name, _) = message.split_once(": ")?;
    SELF_CHECKS.iter().find(|c| c.name() == name)
}

/// The self-checks `spec`'s release accepts (beyond those on in sessions): each is
/// probed once per process and solver command, on a query whose answer it re-checks,
/// and kept when the release answers that query with it on and without an error. A
/// release that lacks one (z3 5.4.0's missing `smt.proof.check`) simply does not get it.
pub fn probe(spec: &SolverSpec) -> Vec<&'static SelfCheck> {
    type Cache = std::collections::HashMap<Vec<String>, Vec<&'static SelfCheck>>;
    static PROBED: std::sync::Mutex<Option<Cache>> = std::sync::Mutex::new(None);
    if let Some(v) = PROBED.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(|m| m.get(&spec.command)) {
        return v.clone();
    }
    let limits = Limits { time: std::time::Duration::from_secs(10), ..Limits::default() };
    let kept: Vec<&'static SelfCheck> =
        of(spec.family).filter(|c| !c.in_sessions && accepted(spec, c, &limits)).collect();
    PROBED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(Default::default)
        .insert(spec.command.clone(), kept.clone());
    kept
}

/// Whether `spec` answers a small query that `check` re-checks, with the check on,
/// correctly and without an error.
fn accepted(spec: &SolverSpec, check: &SelfCheck, limits: &Limits) -> bool {
    // Two Boolean assertions and a bit-vector logic every family reads (bitwuzla reads no
    // arithmetic); an arithmetic check is probed on a sat and on an unsat query.
    let unsat = check.after != After::Sat;
    let body = if unsat { "(assert p)\n(assert (not p))\n" } else { "(assert p)\n" };
    let text = format!("{}(set-logic QF_BV)\n(declare-const p Bool)\n{body}(check-sat)\n", options_text(&[check]));
    let Ok(file) = tempfile::Builder::new().prefix("smtstorm-probe-").suffix(".smt2").tempfile() else { return false };
    if std::fs::write(file.path(), text).is_err() {
        return false;
    }
    let r = super::run_file(spec, file.path(), 1, limits);
    let want = if unsat { Outcome::Unsat } else { Outcome::Sat };
    r.crash.is_none() && r.outcomes == [want]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_failures_and_names_read_from_one_table() {
        assert!(is_check_option(":check-unsat-cores") && is_check_option("smt.core.validate"));
        assert!(is_check_option(":model-validate"), "z3 reads - for _");
        assert!(!is_check_option(":produce-proofs") && !is_check_option(":smt.arith.solver"));
        let cvc5 =
            "Fatal failure within void cvc5::internal::SolverEngine::checkUnsatCore() at /p/solver_engine.cpp:1512\n\
                    Internal error detected SolverEngine::checkUnsatCore(): produced core was satisfiable.";
        let m = failure_in(cvc5).unwrap();
        assert_eq!(m, "check-unsat-cores: SolverEngine::checkUnsatCore(): produced core was satisfiable");
        assert_eq!(check_of_failure(&m).map(|c| c.option), Some(":check-unsat-cores"));
        assert_eq!(failure_in("SolverEngine::checkUnsatCore(): could not check core result unknown."), None);
        assert_eq!(failure_in("core validation produced unknown"), None, "undecided is not a failure");
        assert_eq!(check_of_failure("SIGSEGV: x"), None);
        let opts =
            options_text(&[check_of_option(":check-proofs").unwrap(), check_of_option(":check-unsat-cores").unwrap()]);
        assert_eq!(
            opts,
            "(set-option :produce-proofs true)\n(set-option :produce-unsat-cores true)\n\
             (set-option :check-proofs true)\n(set-option :check-unsat-cores true)\n"
        );
        assert_eq!(of(Family::Yices).count(), 0, "yices offers none");
        // cvc5 1.4.2's check-models abort (a Float32-indexed array model at -0, judge26a).
        let models = "Fatal failure within void cvc5::internal::smt::CheckModels::checkModel(...) at /project/src/smt/check_models.cpp:251\n\
            Internal error detected SolverEngine::checkModel(): ERRORS SATISFYING ASSERTIONS WITH MODEL { THEORY_FP THEORY_ARRAYS }:\n\
            assertion:     (= (fp #b0 #b00000000 #b00000000000000000000000) (select b (fp #b1 #b00000000 #b00000000000000000000000)))\n";
        assert_eq!(
            model_check_failure_in(models).as_deref(),
            Some("check-models: model falsifies assertions of THEORY_FP THEORY_ARRAYS")
        );
        assert_eq!(model_check_failure_in("Fatal failure within f() at /p/theory_arith.cpp:9"), None);
        assert!(After::Definite.applies(&Outcome::Sat) && After::Unsat.applies(&Outcome::Unsat));
        assert!(!After::Unsat.applies(&Outcome::Sat) && !After::Definite.applies(&Outcome::Timeout));
    }
}
