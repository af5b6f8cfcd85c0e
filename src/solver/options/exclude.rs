//! Which tactics, parameters and options are never used, by their names and the
//! solver's own descriptions: those that change only output or resources, run in
//! parallel, or change what a formula means (the module's documentation says why).

/// Why a self-check's option ([`crate::solver::checks`]) is never used: it re-checks
/// the answer and never changes it, so it is no configuration (its failures are the
/// self-check oracle's, a default-mode bug).
pub(super) const SELF_CHECK: &str = "a self-check (never changes the answer)";

/// Why a tactic is not used, from its description (`None`: usable). `fail`, `skip` and
/// friends decide nothing; `horn` reads only Horn clauses (z3 4.8.5 throws on others).
pub(super) fn tactic_excluded(name: &str, description: &str) -> Option<&'static str> {
    let d = description.to_ascii_lowercase();
    if ["fail", "fail-if-undecided", "skip", "collect-statistics"].contains(&name) {
        return Some("control");
    }
    if d.contains("approximation") || d.contains("premises") {
        return Some("changes the question");
    }
    if d.contains("parallel") {
        return Some("parallel");
    }
    if d.contains("testing") || d.contains("horn") || d.contains("statistics") {
        return Some("not a general tactic");
    }
    None
}

/// Whether a tactic decides goals (a pipeline ends in one).
pub(super) fn decides(name: &str, description: &str) -> bool {
    let d = description.to_ascii_lowercase();
    name == "smt"
        || name == "default"
        || d.starts_with("builtin strategy for solving")
        || d.contains("solve goal using")
        || d.starts_with("(try to) solve")
        || d.starts_with("apply a qsat solver")
        || d.starts_with("apply a nl-qsat solver")
}

/// Why a parameter is not used (`None`: usable): it only changes output, resources or
/// threads, or it changes the meaning of the formula.
pub(super) fn param_excluded(name: &str, description: &str) -> Option<&'static str> {
    // A tactic's parameters are listed without their module (`arith.validate` for
    // `smt.arith.validate`).
    if crate::solver::checks::is_check_option(name) || crate::solver::checks::is_check_option(&format!("smt.{name}")) {
        return Some(SELF_CHECK);
    }
    let n = name.to_ascii_lowercase();
    let d = description.to_ascii_lowercase();
    if crate::smtlib::framing::MEANING_PARAMS.iter().any(|m| n.contains(m))
        || n.contains("hi_fp_unspecified")
        || d.contains("approximat")
        || d.contains("unsound")
    {
        return Some("changes the meaning");
    }
    const OUTPUT_OR_RESOURCE: &[&str] = &[
        "timeout",
        "memory",
        "rlimit",
        "max_",
        "verbose",
        "trace",
        "log",
        "dump",
        "file",
        "proof",
        "stats",
        "statistics",
        "print",
        "produce",
        "core",
        "model",
        "threads",
        "thread",
        "parallel",
        "debug",
        "check_",
        "validate",
    ];
    if OUTPUT_OR_RESOURCE.iter().any(|k| n.contains(k)) {
        return Some("output or resources");
    }
    None
}

/// Why an option a solver lists (cvc5's, bitwuzla's, yices') is not used (`None`: usable), from
/// its name and description: it only changes output, resources, proofs or what else is
/// produced; it reads or writes other inputs; it is a seed or a thread count; or it
/// changes what a script means (declarations kept across pops; a problem solved as
/// another one).
pub(super) fn listed_option_excluded(name: &str, description: &str) -> Option<&'static str> {
    if crate::solver::checks::is_check_option(name) {
        return Some(SELF_CHECK);
    }
    // Declarations kept across pops or shared between redeclarations; a problem solved
    // as another one.
    const MEANING: &[&str] =
        &["global-declarations", "fresh-declarations", "solve-bv-as-int", "solve-int-as-bv", "solve-real-as-int"];
    // yices' bounded MCSat search answers `unsat` where no model is within the bound:
    // `--mcsat --mcsat-nra-bound --mcsat-nra-bound-max=1` says `unsat` to `x*x > 1000`.
    if MEANING.contains(&name) || name.contains("unsound") || name.contains("approx") || name.contains("nra-bound") {
        return Some("changes the meaning");
    }
    const NOT_SEARCH: &[&str] = &[
        "print",
        "produce",
        "proof",
        "stats",
        "dump",
        "output",
        "verbos",
        "help",
        "version",
        "show-config",
        "interactive",
        "incremental",
        "lang",
        "parse-only",
        "preprocess-only",
        "strict-parsing",
        "quiet",
        "seed",
        "tlimit",
        "rlimit",
        "-limit",
        "timeout",
        "thread",
        "check-",
        "sygus",
        "interpolant",
        "abduct",
        "difficulty",
        "learned",
        "cores",
        "safe-options",
        "reproducible",
        "filename",
        "channel",
        "copyright",
        "err",
        "dag-thresh",
        "expr-depth",
        "flatten-ho-chains",
        "bv-print",
        "fp-print",
        "inst-format",
        "trace",
        "debug",
        "dbg",
        "log-level",
        "assertions",
        "function-value",
        "early-exit",
    ];
    // How models are printed or checked (`model-cores`, `model-u-print`); not
    // `finite-model-find`, a search. bitwuzla's `write-cnf` writes a file; its
    // propagation step counts say they are "used as a limit".
    let d = description.to_ascii_lowercase();
    // By description: limits, files, what is displayed, statistics, the session mode.
    const NOT_SEARCH_SAID: &[&str] =
        &["limit", "file", "display", "max number", "statistics", "push/pop", "interactive", "threads"];
    if ["in", "out"].contains(&name)
        || name.starts_with("model-")
        || name.starts_with("write-")
        || NOT_SEARCH_SAID.iter().any(|k| d.contains(k))
        || NOT_SEARCH.iter().any(|k| name.contains(k))
    {
        return Some("output, resources or inputs");
    }
    None
}
