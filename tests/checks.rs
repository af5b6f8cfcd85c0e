//! The self-check oracle (issue 40, item 1) with real solvers: each release gets the
//! self-checks it accepts; a failed check (injected by `fixtures/fault_proxy.py` around a
//! real z3 and a real cvc5: no release at hand fails one on the shared seeds, see
//! /work/notes/h-checks.md) is a finding of its own kind, confirmed in a fresh process,
//! reproduced by the solver alone on the stored trigger, and kept by the reducer; 200
//! correct queries re-checked by cvc5 and z3 give no finding; the configuration engine
//! never sets a check option.

mod common;

use common::{py_solver, real, repo, shared_seed_files, solver_bin, tempdir};
use smtstorm::oracle::checks::recheck;
use smtstorm::oracle::confirm::{fresh_text, Confirm, Expected};
use smtstorm::oracle::{BlameBy, BugKind, Verdict};
use smtstorm::solver::checks::{is_check_option, probe};
use smtstorm::solver::{run_file, Family, Limits, Outcome, SolverSpec};
use std::time::Duration;

fn z3(version: &str) -> SolverSpec {
    real(&format!("z3-{version}/bin/z3"), Family::Z3, &["-smt2"])
}

/// `real` (a command) behind the fault proxy with `faults`, as a solver of `family`.
fn faulty(dir: &std::path::Path, family: Family, faults: &str, real: &[String]) -> SolverSpec {
    let p = dir.join("fault_proxy.py");
    std::fs::copy(repo().join("tests/fixtures/fault_proxy.py"), &p).unwrap();
    let mut command = vec!["python3".to_string(), p.display().to_string(), faults.to_string()];
    command.extend(real.iter().cloned());
    SolverSpec::new("faulty", family, command)
}

fn limits() -> Limits {
    Limits { time: Duration::from_secs(20), ..Limits::default() }
}

#[test]
fn each_release_gets_the_self_checks_it_accepts() {
    let names = |s: &SolverSpec| probe(s).iter().map(|c| c.name()).collect::<Vec<_>>();
    assert_eq!(names(&py_solver("cvc5", Family::Cvc5)), ["check-unsat-cores", "check-proofs"]);
    assert_eq!(names(&py_solver("bitwuzla", Family::Bitwuzla)), ["check-model", "check-unsat-core"]);
    assert_eq!(names(&z3("5.4.0")), ["smt.core.validate", "smt.arith.validate"]);
    // z3 4.8.12 errors on `smt.arith.validate` ("unknown parameter"): it does not get it.
    assert_eq!(names(&z3("4.8.12")), ["smt.core.validate"]);
    assert!(names(&real("yices/bin/yices-smt2", Family::Yices, &[])).is_empty(), "yices offers none");
}

/// A satisfiable core, as cvc5 reports it (fatal error, SIGABRT) and as z3 does (an error
/// reply), on an `unsat` the solver gives correctly without the check.
#[test]
fn a_failed_core_check_is_a_finding_of_its_own_confirmed_reproduced_and_reduced() {
    let dir = tempdir("checks-fire");
    let s = smtstorm::smtlib::parse(
        "(set-logic QF_LIA)\n(declare-const fault_core Int)\n(declare-const y Int)\n(assert (> fault_core 0))\n\
         (assert (= y (+ fault_core 1)))\n(assert (< fault_core 0))\n(check-sat)\n",
    )
    .unwrap();
    let cvc5_cmd = vec!["python3".to_string(), solver_bin("cvc5/cvc5-smt2").display().to_string()];
    let z3_cmd = vec![solver_bin("z3-5.4.0/bin/z3").display().to_string(), "-smt2".to_string()];
    let cases = [
        (Family::Cvc5, cvc5_cmd, "check-unsat-cores: SolverEngine::checkUnsatCore(): produced core was satisfiable"),
        (Family::Z3, z3_cmd, "smt.core.validate: Core could not be validated"),
    ];
    for (family, cmd, signature) in cases {
        let bad = faulty(&dir, family, "checkfail-if:fault_core", &cmd);
        let specs = [bad.clone(), real("yices/bin/yices-smt2", Family::Yices, &[])];
        let families: Vec<Family> = specs.iter().map(|s| s.family).collect();
        let limits = limits();
        // Without the check: a correct `unsat`, no finding.
        let plain = dir.join("plain.smt2");
        std::fs::write(&plain, fresh_text(&bad, &s)).unwrap();
        assert_eq!(run_file(&bad, &plain, 1, &limits).outcomes, [Outcome::Unsat], "{family:?}");
        // Re-checked: a failed self-check, blamed on the solver by itself.
        let rc = recheck(&specs, &families, 0, &s, &[Outcome::Unsat], &dir, "t-", &limits).expect("a check applies");
        let want = Verdict {
            kind: BugKind::CheckFailed,
            blamed: Some(0),
            blame_by: BlameBy::SelfCheck,
            signature: signature.into(),
        };
        assert_eq!(rc.verdicts, std::slice::from_ref(&want), "{family:?}: {:?}", rc.outcomes);
        // Confirmed by the one fresh-process confirmation, every reader rerun.
        let conf = Confirm { specs: &specs, families: &families, limits: &limits, dir: &dir, tag: "c-", until: None };
        let c = conf.confirm(&rc.trigger, &[0, 1], &Expected::default(), &want).expect("confirmed");
        assert_eq!(c.verdict, want);
        assert_eq!(c.fresh.results[1].as_ref().unwrap().outcomes, [Outcome::Unsat], "yices is not sent the check");
        // The stored trigger holds the check options: the solver alone shows the failure.
        let text = smtstorm::smtlib::print(&rc.trigger);
        assert!(text.contains("(set-option :produce-unsat-cores true)"), "{text}");
        let stored = dir.join("trigger.smt2");
        std::fs::write(&stored, &text).unwrap();
        let alone = run_file(&bad, &stored, 1, &limits);
        assert_eq!(alone.outcomes, [Outcome::CheckFailed { message: signature.into() }], "{family:?}");
        // The reducer keeps the failure, hence the check options.
        let judge = smtstorm::reduce::judge::FindingJudge {
            solvers: vec![bad.clone()],
            symptom: smtstorm::reduce::judge::Symptom::CheckFailed { signature: signature.into() },
            witness: None,
            limits,
            dir: dir.clone(),
            fresh_only: true.into(),
            keeps_logic: false,
            keep_passing: vec![],
        };
        let opts = smtstorm::reduce::Options { jobs: 1, time: Some(Duration::from_secs(90)), ..Default::default() };
        let (reduced, _) = smtstorm::reduce::reduce(&rc.trigger, &judge, &opts, None, "").expect("reduces");
        assert!(reduced.len() < text.len(), "{reduced}");
        let check = if family == Family::Z3 { ":smt.core.validate" } else { ":check-unsat-cores" };
        assert!(reduced.contains(check) && reduced.contains("fault_core"), "{reduced}");
        std::fs::write(&stored, &reduced).unwrap();
        assert_eq!(run_file(&bad, &stored, 1, &limits).outcomes, [Outcome::CheckFailed { message: signature.into() }]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// 200 correct queries from the shared seeds (small ones, by content hash), each answered
/// by cvc5 and z3 5.4.0 and re-checked by their self-checks: no finding. Which queries a
/// solver decides in time varies; that none of the re-checks is a finding does not.
#[test]
fn two_hundred_correct_queries_rechecked_give_no_finding() {
    let dir = tempdir("checks-silence");
    let specs = [py_solver("cvc5", Family::Cvc5), z3("5.4.0")];
    let families: Vec<Family> = specs.iter().map(|s| s.family).collect();
    let limits = Limits { time: Duration::from_secs(5), ..Limits::default() };
    let mut seeds: Vec<(u64, smtstorm::smtlib::Script)> = shared_seed_files()
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok().filter(|t| t.len() < 1500)?;
            let mut s = smtstorm::smtlib::parse(&text).ok()?;
            smtstorm::mutate::edit::strip_status(&mut s);
            (smtstorm::smtlib::checks(&s) >= 1).then(|| (smtstorm::util::hash::fnv1a(text.as_bytes()), s))
        })
        .collect();
    seeds.sort_by_key(|x| x.0);
    let (mut queries, mut rechecked, mut failures) = (0, 0, vec![]);
    for (_, s) in seeds.iter() {
        if queries == 200 {
            break;
        }
        let mut asked = false;
        for (k, spec) in specs.iter().enumerate() {
            if spec.cannot_read(&spec.own_script(s)).is_some() {
                continue;
            }
            asked = true;
            let f = dir.join(format!("q{k}.smt2"));
            std::fs::write(&f, fresh_text(spec, s)).unwrap();
            let r = run_file(spec, &f, smtstorm::smtlib::checks(s), &limits);
            if r.crash.is_some() {
                continue;
            }
            if let Some(rc) = recheck(&specs, &families, k, s, &r.outcomes, &dir, "s-", &limits) {
                rechecked += 1;
                if !rc.verdicts.is_empty() {
                    failures.push((spec.name.clone(), smtstorm::smtlib::print(s), rc.verdicts));
                }
            }
        }
        queries += asked as usize;
    }
    // A checkout without `../shared` beside it (a clone elsewhere) has `corpus/` only:
    // every one of its seeds is asked, and at least 50.
    let shared = repo().join("../shared/seeds/cvc5-regress").is_dir();
    if shared {
        assert_eq!(queries, 200, "not enough shared seeds");
    } else {
        assert!(queries >= 50, "only {queries} seeds of corpus/ asked");
    }
    assert!(failures.is_empty(), "self-check findings on correct queries: {failures:#?}");
    assert!(rechecked >= 50, "only {rechecked} answers re-checked");
    eprintln!("{queries} queries, {rechecked} answers re-checked, 0 findings");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A self-check never changes the answer: the configuration engine never draws one as a
/// configuration (the tables it draws from are the installed releases' own).
#[test]
fn the_configuration_engine_never_sets_a_check_option() {
    let mut seen = 0;
    for spec in [py_solver("cvc5", Family::Cvc5), py_solver("bitwuzla", Family::Bitwuzla), z3("5.4.0")] {
        let (table, _) = smtstorm::solver::options::extract_cached(&spec).expect("option table");
        let names: Vec<String> = table
            .set_options
            .iter()
            .chain(&table.command_line)
            .map(|p| p.name.clone())
            .chain(table.tactics.iter().flat_map(|t| t.params.iter().map(|p| format!("smt.{}", p.name))))
            .collect();
        seen += names.len();
        let checks: Vec<&String> = names.iter().filter(|n| is_check_option(n)).collect();
        assert!(checks.is_empty(), "{}: {checks:?}", spec.name);
    }
    assert!(seen > 100, "the tables list {seen} options");
    // ... while each solver's allow-list (every option its release lists, read from it)
    // lets each family's own check options reach it, and only it.
    let specs = [py_solver("cvc5", Family::Cvc5), py_solver("bitwuzla", Family::Bitwuzla), z3("5.4.0")];
    for spec in &specs {
        assert!(smtstorm::solver::allow::table(spec).is_some(), "{} lists its options", spec.name);
    }
    let q = smtstorm::smtlib::parse("(set-logic QF_BV)\n(declare-const p Bool)\n(assert p)\n(check-sat)\n").unwrap();
    let all: Vec<_> = smtstorm::solver::checks::SELF_CHECKS.iter().collect();
    let every = smtstorm::oracle::checks::with_checks(&q, &all).unwrap();
    for spec in &specs {
        let own = smtstorm::smtlib::print(&spec.own_script(&every));
        for c in &all {
            let line = format!("(set-option {} true)", c.option);
            assert_eq!(own.contains(&line), c.family == spec.family, "{}: {line} in\n{own}", spec.name);
        }
    }
    // Each family's checks exist in its release (so the exclusion is not vacuous).
    for (option, family) in [(":check-unsat-cores", Family::Cvc5), (":check-model", Family::Bitwuzla)] {
        assert!(smtstorm::solver::checks::check_of_option(option).is_some_and(|c| c.family == family));
    }
}
