//! The bundled seed corpus: every file parses, round-trips, sort-checks clean, and real
//! solvers give exactly the `(set-info :status ...)` that precedes each check-sat.

mod common;

use common::*;
use smtstorm::smtlib;
use std::path::PathBuf;
use std::time::Duration;

fn corpus() -> Vec<(PathBuf, String)> {
    corpus_files()
        .into_iter()
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap();
            (p, t)
        })
        .collect()
}

#[test]
fn corpus_covers_the_theories_and_checks_clean() {
    let files = corpus();
    assert!(files.len() >= 60, "corpus/ has {} seeds, want at least 60", files.len());
    let mut logics = std::collections::BTreeSet::new();
    for (p, text) in &files {
        let s = smtlib::parse(text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let again = smtlib::parse(&smtlib::print(&s)).unwrap();
        assert!(again == s, "{}: round trip changed the AST", p.display());
        let c = smtlib::check::check(&s);
        assert!(c.is_clean(), "{}: {:?}", p.display(), c.diagnostics);
        assert!(!expected(&s).is_empty(), "{}: no check-sat", p.display());
        logics.insert(s.logic().unwrap_or("none").to_string());
    }
    for want in [
        "QF_UF", "QF_LIA", "QF_NIA", "QF_LRA", "QF_NRA", "QF_LIRA", "QF_BV", "QF_FP", "QF_S", "QF_SLIA", "QF_AX",
        "QF_ALIA", "QF_ABV", "QF_DT", "QF_DTLIA", "UFLIA", "LIA", "UF",
    ] {
        assert!(logics.contains(want), "no corpus seed for {want}");
    }
}

#[test]
fn z3_answers_match_status() {
    let z3 = solver_bin("z3-5.4.0/bin/z3");
    let mut wrong = vec![];
    for (p, text) in corpus() {
        let s = smtlib::parse(&text).unwrap();
        let out = run_solver(&z3, &["-smt2"], &p, Duration::from_secs(30));
        assert!(!out.contains("(error"), "{}: z3 reports an error:\n{out}", p.display());
        if answers(&out) != expected(&s) {
            wrong.push(format!("{}: z3 {:?}, status {:?}", p.display(), answers(&out), expected(&s)));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn yices_answers_match_status_on_its_logics() {
    let yices = solver_bin("yices/bin/yices-smt2");
    let supported = ["QF_UF", "QF_LIA", "QF_LRA", "QF_BV", "QF_AX", "QF_ABV", "QF_ALIA", "QF_NRA", "QF_NIA"];
    let mut n = 0;
    for (p, text) in corpus() {
        let s = smtlib::parse(&text).unwrap();
        // yices reads standard SMT-LIB only: no constant arrays, no z3 commands.
        let dialect = ["(as const", "(push)", "define-const", "(eval", "(simplify", "check-sat-assuming"];
        if !supported.contains(&s.logic().unwrap_or("")) || dialect.iter().any(|d| text.contains(d)) {
            continue;
        }
        let out = run_solver(&yices, &["--incremental"], &p, Duration::from_secs(30));
        assert!(!out.contains("(error"), "{}: yices reports an error:\n{out}", p.display());
        assert_eq!(answers(&out), expected(&s), "{}", p.display());
        n += 1;
    }
    assert!(n >= 20, "only {n} seeds were checked with yices");
}
