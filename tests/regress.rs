//! The ladder-regression oracle (issue 40, item 3) with real solvers: a query an older z3
//! release decides and the newest one does not is a `regression` finding with the release
//! that introduced it; with `--baseline`, every other build of the family is compared
//! against the baseline; on queries two identical builds answer (nothing can regress) it
//! stays silent. Faults are injected by `fixtures/fault_proxy.py` around a real z3 (the
//! answers it does not replace are the real solver's): `unknown-if` answers `unknown` at
//! once, `hang-if` never answers — both deterministic, no timing luck.

mod common;
use common::*;
use serde_json::Value;
use smtstorm::oracle::regress;
use smtstorm::solver::{run_file, Family, Limits, Outcome, SolverSpec};
use smtstorm::store::{Meta, Store};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn z3(v: &str) -> String {
    solver_bin(&format!("z3-{v}/bin/z3")).display().to_string()
}

/// A solvers directory of its own: z3 4.8.12 and 4.12.6 as installed, 4.15.4 and 5.4.0
/// through the fault proxy (so the fault "comes in" with 4.15.4), and `dev`, an
/// unversioned z3 build with the same fault.
fn solvers_dir(dir: &Path, faults: &str) -> PathBuf {
    let proxy = dir.join("fault_proxy.py");
    std::fs::copy(repo().join("tests/fixtures/fault_proxy.py"), &proxy).unwrap();
    let py = "python3";
    let p = proxy.display();
    let entry = |name: &str, version: Option<&str>, cmd: Vec<String>| {
        let v = version.map(|v| format!("version = \"{v}\"\n")).unwrap_or_default();
        format!("[solver.\"{name}\"]\nfamily = \"z3\"\n{v}command = {cmd:?}\n\n")
    };
    let proxied = |v: &str| vec![py.to_string(), p.to_string(), faults.to_string(), z3(v), "-smt2".into()];
    let toml = [
        entry("z3-4.8.12", Some("4.8.12"), vec![z3("4.8.12"), "-smt2".into()]),
        entry("z3-4.12.6", Some("4.12.6"), vec![z3("4.12.6"), "-smt2".into()]),
        entry("z3-4.15.4", Some("4.15.4"), proxied("4.15.4")),
        entry("z3-5.4.0", Some("5.4.0"), proxied("5.4.0")),
        entry("dev", None, proxied("5.4.0")),
    ]
    .concat();
    let d = dir.join("solvers");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("solvers.toml"), toml).unwrap();
    d
}

/// Seeds: one the fault makes `unknown`, one it makes hang, one it leaves alone.
fn seeds(dir: &Path) -> PathBuf {
    let d = dir.join("seeds");
    std::fs::create_dir_all(&d).unwrap();
    let lia = |x: &str| {
        format!("(set-logic QF_LIA)\n(declare-const {x} Int)\n(declare-const y Int)\n(assert (> {x} (+ y 3)))\n(assert (< y 10))\n(check-sat)\n")
    };
    std::fs::write(d.join("unknown.smt2"), lia("regress_me")).unwrap();
    std::fs::write(d.join("hang.smt2"), lia("hang_me")).unwrap();
    std::fs::write(d.join("fine.smt2"), lia("fine")).unwrap();
    d
}

fn fuzz(solvers: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(bin())
        .arg("fuzz")
        .args(args)
        .args(["--workers", "1", "--timeout", "2", "--quiet"])
        .env("SMTSTORM_SOLVERS_DIR", solvers)
        .current_dir(repo())
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into())
}

fn findings(out: &Path) -> Vec<(PathBuf, Meta)> {
    Store::list_in(out)
}

#[test]
fn a_release_that_stops_deciding_is_a_regression_with_where_it_came_in() {
    let dir = tempdir("regress-ladder");
    let solvers = solvers_dir(&dir, "unknown-if:regress_me,hang-if:hang_me");
    let seeds = seeds(&dir);
    let out = dir.join("out");
    let (code, err) = fuzz(
        &solvers,
        &[
            seeds.to_str().unwrap(),
            "--solver",
            "z3-4.8.12",
            "--solver",
            "z3-5.4.0",
            "--engine",
            "opfuzz",
            "--mutants",
            "24",
            "--reduce",
            "20",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 10, "{err}");
    let all = findings(&out);
    // Incompleteness is never a wrong answer: only regressions, blamed on the newest.
    assert!(all.iter().all(|(_, m)| m.kind == smtstorm::oracle::BugKind::Regression), "{all:#?}");
    let of = |text: &str| {
        all.iter()
            .find(|(p, _)| std::fs::read_to_string(p.parent().unwrap().join("trigger.smt2")).unwrap().contains(text))
            .unwrap_or_else(|| panic!("no finding on the {text} seed: {all:#?}\n{err}"))
            .clone()
    };
    for (text, how) in [("regress_me", "unknown"), ("hang_me", "timeout")] {
        let (path, m) = of(text);
        assert_eq!(m.blamed, "z3-5.4.0");
        assert_eq!(m.blame_by, smtstorm::oracle::BlameBy::Ladder);
        assert_eq!(m.signature, format!("{how} where z3-4.8.12 decides, introduced in 4.15.4"));
        // Both timings are stored: the older release's decided median, the newer's.
        let older = m.answers.iter().find(|a| a.solver == "z3-4.8.12").unwrap();
        assert_eq!(older.outcomes, vec![Outcome::Sat]);
        assert!(older.seconds > 0.0);
        let newer = m.answers.iter().find(|a| a.solver == "z3-5.4.0").unwrap();
        assert!(!newer.outcomes.iter().any(Outcome::is_definite), "{newer:?}");
        // Bisected (4.12.6 decides, 4.15.4 does not); after reduction the range is
        // computed again on the reduced trigger, with the same answer.
        let range = m.cause.range.as_ref().expect("a range");
        assert_eq!(range.introduced_in.as_deref(), Some("4.15.4"), "{range:?}");
        assert!(range.newest_fails);
        let dir = path.parent().unwrap();
        if m.reduction.is_none() {
            // The campaign's reduction budget did not reach it: reduced here, as a user
            // would (a regression's judge once refused every trigger, unseen while this
            // test let an unreduced finding pass).
            let reduce = Command::new(bin())
                .args(["reduce", dir.to_str().unwrap(), "-j", "1"])
                .env("SMTSTORM_SOLVERS_DIR", &solvers)
                .current_dir(repo())
                .output()
                .unwrap();
            assert!(reduce.status.success(), "reduce {}: {}", dir.display(), String::from_utf8_lossy(&reduce.stderr));
        }
        // The reduction keeps what makes the newer release fail.
        let reduced = std::fs::read_to_string(dir.join("reduced.smt2")).expect("a reduction");
        assert!(reduced.contains(text), "{reduced}");
        let report = std::fs::read_to_string(dir.join("report.md")).unwrap_or_default();
        assert!(report.contains("regression") && report.contains("not a wrong answer"), "{report}");
    }
    // The seed the fault leaves alone gives nothing.
    assert!(!all
        .iter()
        .any(|(p, _)| std::fs::read_to_string(p.parent().unwrap().join("trigger.smt2")).unwrap().contains("fine")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_build_is_compared_against_its_baseline() {
    let dir = tempdir("regress-baseline");
    let solvers = solvers_dir(&dir, "unknown-if:regress_me");
    let seeds = seeds(&dir);
    let out = dir.join("out");
    let s = seeds.to_str().unwrap();
    let o = out.to_str().unwrap();
    // A baseline that is not in the run is a usage error naming it.
    let (code, err) = fuzz(&solvers, &[s, "--solver", "dev", "--baseline", "z3-4.12.6", "--out", o, "--mutants", "1"]);
    assert_ne!(code, 0);
    assert!(err.contains("baseline \"z3-4.12.6\""), "{err}");
    let _ = std::fs::remove_dir_all(&out);
    let args = [s, "--solver", "z3-4.12.6", "--solver", "dev", "--baseline", "z3-4.12.6", "--engine", "opfuzz"];
    let (code, err) = fuzz(&solvers, &[&args[..], &["--mutants", "8", "--reduce", "0", "--out", o]].concat());
    assert_eq!(code, 10, "{err}");
    let all = findings(&out);
    assert_eq!(all.len(), 1, "{all:#?}");
    let m = &all[0].1;
    assert_eq!((m.kind.as_str(), m.blamed.as_str(), m.blame_by.as_str()), ("regression", "dev", "baseline"));
    assert_eq!(m.signature, "unknown where z3-4.12.6 decides, introduced in dev");
    let campaign: Value = serde_json::from_str(&std::fs::read_to_string(out.join("campaign.json")).unwrap()).unwrap();
    assert_eq!(campaign["config"]["baseline"], "z3-4.12.6", "{campaign}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two names for one binary: nothing can regress, so every candidate (timing noise on a
/// loaded machine) must die in confirmation. 200 shared seeds, each asked once of both;
/// the test fails if fewer than 50 were decided (nothing exercised).
#[test]
fn silent_on_two_hundred_queries_nothing_can_regress_on() {
    let dir = tempdir("regress-silent");
    let spec = |name: &str, version: &str| {
        let mut s = SolverSpec::new(name, Family::Z3, vec![z3("5.4.0"), "-smt2".into()]);
        s.version = Some(version.into());
        s
    };
    let specs = vec![spec("z3-older", "5.3.0"), spec("z3-newer", "5.4.0")];
    let families = vec![Family::Z3, Family::Z3];
    let limits = Limits { time: Duration::from_secs(3), ..Limits::default() };
    let files = shared_seed_files();
    let step = (files.len() / 200).max(1);
    let (mut asked, mut decided, mut candidates, mut confirmed) = (0, 0, 0, vec![]);
    for f in files.iter().step_by(step).take(200) {
        let Ok(mut s) = smtstorm::smtlib::parse(&std::fs::read_to_string(f).unwrap_or_default()) else { continue };
        smtstorm::mutate::edit::strip_status(&mut s);
        let checks = smtstorm::smtlib::checks(&s);
        if checks == 0 {
            continue;
        }
        asked += 1;
        let rs: Vec<_> = std::thread::scope(|t| {
            let runs: Vec<_> = specs
                .iter()
                .enumerate()
                .map(|(k, sp)| {
                    let file = dir.join(format!("q{k}.smt2"));
                    let s = &s;
                    let limits = &limits;
                    t.spawn(move || {
                        std::fs::write(&file, smtstorm::oracle::confirm::fresh_text(sp, s)).unwrap();
                        run_file(sp, &file, checks, limits)
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        if regress::decided(&rs[0]).is_some() {
            decided += 1;
        }
        let refs: Vec<_> = rs.iter().map(Some).collect();
        for v in regress::candidates(&refs, &specs, None, None, limits.time) {
            candidates += 1;
            let conf = smtstorm::oracle::confirm::Confirm {
                specs: &specs,
                families: &families,
                limits: &limits,
                dir: &dir,
                tag: "c-",
                until: None,
            };
            if let Ok(c) = conf.confirm(&s, &[0, 1], &Default::default(), &v) {
                confirmed.push((f.clone(), c.verdict));
            }
        }
    }
    eprintln!("asked {asked}, older decided {decided}, candidates {candidates}, confirmed {}", confirmed.len());
    assert!(asked >= 150 && decided >= 50, "too little exercised: asked {asked}, decided {decided}");
    assert!(confirmed.is_empty(), "false regressions: {confirmed:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two seeds with known z3 bugs: `escapes` (the `\u{41}` escape; z3 4.8.7 answers
/// `unsat`, 5.4.0 `sat`: the SMT-LIB 2.6 escapes came in 4.8.9) and `smtfd` (the smtfd
/// tactic segfaults every z3 from 4.8.7 to 5.4.0).
const ESCAPES: &str =
    "(set-logic QF_SLIA)\n(declare-const x Int)\n(assert (= (str.len \"\\u{41}\") 1))\n(assert (< x 10))\n(check-sat)\n";
const SMTFD: &str =
    "(declare-fun A () (Array Int Real))\n(assert (< (select A 1) (select A 0)))\n(check-sat-using smtfd)\n";

/// Regression mode, end to end with real solvers: z3 4.8.7 stands in for a team's own
/// build ("dev", given as `dev=PATH`: an unversioned build of the family) and z3 5.4.0
/// for the last release it is compared against (`--baseline z3-5.4.0`). Only two builds
/// of one family run, so the differential oracle has one vote and would see a tie.
/// * dev's wrong answer on `escapes` that the baseline gets right is a soundness finding
///   blamed on dev by the baseline, the baseline's `sat` expected, confirmed in fresh
///   processes (both answers stored);
/// * the smtfd crash both share is stored marked (dev's: the baseline crashes too; the
///   baseline's own: not a build under test), listed apart in the report, and a run that
///   finds only it exits 0;
/// * `recheck` of the first store: on z3-5.4.0 the wrong answer is fixed and the crash
///   still fails (exit 10); on z3-4.8.5 (no smtfd tactic) the crash input is refused;
///   a store with only the fixed finding exits 0.
#[test]
fn a_build_is_blamed_for_what_its_baseline_gets_right_and_shared_bugs_are_not_news() {
    let dir = tempdir("regress-dev");
    let dev = format!("dev={}", z3("4.8.7"));
    let run = |seeds: &[(&str, &str)], out: &Path| {
        let s = out.with_extension("seeds");
        std::fs::create_dir_all(&s).unwrap();
        for (name, text) in seeds {
            std::fs::write(s.join(name), text).unwrap();
        }
        let (s, o) = (s.to_str().unwrap().to_string(), out.to_str().unwrap().to_string());
        let args = ["fuzz", &s, "--solver", &dev, "--solver", "z3-5.4.0", "--baseline", "z3-5.4.0"];
        let rest = ["--engine", "opfuzz", "--mutants", "4", "--workers", "1", "--reduce", "0", "--no-bisect"];
        let (code, _, err) = smtstorm(&[&args[..], &rest[..], &["--out", &o, "--quiet"]].concat());
        (code, err, findings(out))
    };
    let out = dir.join("both");
    let (code, err, all) = run(&[("escapes.smt2", ESCAPES), ("smtfd.smt2", SMTFD)], &out);
    assert_eq!(code, 10, "dev's wrong answer is news: {err}");
    let seed = |kind: &str, blamed: &str| {
        all.iter()
            .find(|(_, m)| m.seed_finding && m.kind.as_str() == kind && m.blamed == blamed)
            .unwrap_or_else(|| panic!("no {kind} seed finding of {blamed}: {all:#?}"))
            .1
            .clone()
    };
    let wrong = seed("soundness", "dev");
    assert_eq!(wrong.blame_by, smtstorm::oracle::BlameBy::Baseline);
    assert_eq!(wrong.signature, "unsat where sat is expected", "the baseline's answer expected");
    assert_eq!(wrong.known, None);
    let said = |m: &Meta, who: &str| m.answers.iter().find(|a| a.solver == who).map(|a| a.outcomes.clone());
    assert_eq!(said(&wrong, "dev"), Some(vec![Outcome::Unsat]));
    assert_eq!(said(&wrong, "z3-5.4.0"), Some(vec![Outcome::Sat]));
    let shared = seed("crash", "dev");
    assert!(shared.known.as_deref().is_some_and(|k| k.contains("the baseline crashes too")), "{shared:?}");
    let own = seed("crash", "z3-5.4.0");
    assert!(own.known.as_deref().is_some_and(|k| k.contains("not a build under test")), "{own:?}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let apart = report.find("## Not regressions of the build").expect("a part for what is not the build's");
    assert!(report[apart..].contains(&shared.id) && !report[apart..].contains(&wrong.id), "{report}");
    // Only the shared crash: nothing is news (unless a mutant found an unshared bug).
    let out2 = dir.join("shared");
    let (code, err, all2) = run(&[("smtfd.smt2", SMTFD)], &out2);
    assert!(all2.iter().any(|(_, m)| m.seed_finding && m.kind.as_str() == "crash" && m.known.is_some()), "{all2:#?}");
    let news = all2.iter().filter(|(_, m)| m.known.is_none()).count();
    assert_eq!(code, if news == 0 { 0 } else { 10 }, "{news} unmarked findings: {err}");

    // recheck: per finding, the right words and exit status.
    let recheck = |store: &Path, build: &str| {
        let (code, printed, err) = smtstorm(&["recheck", store.to_str().unwrap(), "--solver", build, "--json"]);
        let lines: Vec<Value> = printed.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let of = |id: &str| {
            lines.iter().find(|v| v["finding"] == id).map(|v| v["verdict"].as_str().unwrap_or("").to_string())
        };
        (code, of(&wrong.id), of(&shared.id), err)
    };
    let (code, w, c, err) = recheck(&out, "z3-5.4.0");
    assert_eq!((w.as_deref(), c.as_deref(), code), (Some("fixed"), Some("still fails"), 10), "{err}");
    let (_, w, c, err) = recheck(&out, "z3-4.8.5");
    assert_eq!((w.as_deref(), c.as_deref()), (Some("still fails"), Some("refuses input")), "{err}");
    // The fixed finding alone: exit 0.
    let fixed_only = dir.join("fixed-only");
    let copy = Command::new("cp").arg("-a").arg(&out).arg(&fixed_only).status().unwrap();
    assert!(copy.success());
    for (p, m) in findings(&fixed_only) {
        if m.id != wrong.id {
            std::fs::remove_dir_all(p.parent().unwrap()).unwrap();
        }
    }
    let (code, w, _, err) = recheck(&fixed_only, "z3-5.4.0");
    assert_eq!((w.as_deref(), code), (Some("fixed"), 0), "{err}");
    assert!(err.contains(": 0 still fail, 1 fixed, 0 refuse the input, 0 undecided on z3-5.4.0"), "{err}");
    // A build that gives up (`unknown`, the fault proxy around the real z3 5.4.0) on the
    // wrong answer's trigger has not fixed it: undecided, not fixed.
    let gave_up = solvers_dir(&dir, "unknown-if:str.len");
    let o = Command::new(bin())
        .args(["recheck", fixed_only.to_str().unwrap(), "--solver", "z3-5.4.0"])
        .env("SMTSTORM_SOLVERS_DIR", &gave_up)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(": 0 still fail, 0 fixed, 0 refuse the input, 1 undecided on z3-5.4.0"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 42 (review): a build that FIXES a bug of its baseline is not blamed for it. With
/// only the build and the baseline running nothing contradicts the baseline, so its
/// answer would be taken for right; confirmation settles the split as a tie is settled
/// (the `sat` side's model). The wrong side is z3 5.4.0 behind the fault proxy's
/// `flip-if` (the real answers, `sat` and `unsat` swapped), the right one z3 5.4.0 itself,
/// on a satisfiable QF_LIA query our evaluator checks a model of. The build right and
/// the baseline wrong: the verdict goes to the baseline (a model check's); the other
/// way round the build's `unsat` stays its wrong answer, the baseline's `sat` expected.
#[test]
fn a_build_that_fixes_its_baseline_s_bug_is_not_blamed_for_it() {
    use smtstorm::oracle::confirm::{Confirm, Expected};
    use smtstorm::oracle::{BlameBy, BugKind, Verdict};
    let dir = tempdir("regress-fixes");
    let proxy = dir.join("fault_proxy.py");
    std::fs::copy(repo().join("tests/fixtures/fault_proxy.py"), &proxy).unwrap();
    let real = SolverSpec::new("real", Family::Z3, vec![z3("5.4.0"), "-smt2".into()]);
    let wrong = SolverSpec::new(
        "flipped",
        Family::Z3,
        vec!["python3".into(), proxy.display().to_string(), "flip-if:flip_me".into(), z3("5.4.0"), "-smt2".into()],
    );
    let text = "(set-logic QF_LIA)\n(declare-const flip_me Int)\n(declare-const y Int)\n\
                (assert (> flip_me (+ y 3)))\n(assert (< y 10))\n(check-sat)\n";
    let limits = Limits { time: Duration::from_secs(10), ..Limits::default() };
    let families = vec![Family::Z3, Family::Z3];
    let trigger = smtstorm::smtlib::parse(text).unwrap();
    let confirm = |build: &SolverSpec, base: &SolverSpec| {
        let specs = vec![build.clone(), base.clone()];
        let c = Confirm { specs: &specs, families: &families, limits: &limits, dir: &dir, tag: "t-", until: None };
        let first: Vec<_> = specs.iter().map(|s| run_file_text(s, &dir, text, &limits)).collect();
        let rs: Vec<_> = first.iter().map(Some).collect();
        let v = regress::wrong_answers(&rs, &specs, 1, None, None);
        assert_eq!(v.len(), 1, "the build and the baseline split: {first:?}");
        let known = Expected { baseline: Some(1), ..Expected::default() };
        let got = c.confirm(&trigger, &[0, 1], &known, &v[0]).expect("confirmed");
        (v[0].clone(), got.verdict)
    };
    let (candidate, fixed) = confirm(&real, &wrong);
    assert_eq!((candidate.blamed, candidate.blame_by), (Some(0), BlameBy::Baseline));
    assert_eq!(candidate.signature, "sat where unsat is expected");
    let back = Verdict {
        kind: BugKind::Soundness,
        blamed: Some(1),
        blame_by: BlameBy::ModelCheck,
        signature: "unsat where sat is expected".into(),
    };
    assert_eq!(fixed, back, "the build's model holds: the baseline's bug");
    let (candidate, broken) = confirm(&wrong, &real);
    assert_eq!(candidate.signature, "unsat where sat is expected");
    assert_eq!(broken, candidate, "the baseline's model holds: the build's wrong answer");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `text` run once by `spec` in a fresh process.
fn run_file_text(spec: &SolverSpec, dir: &Path, text: &str, limits: &Limits) -> smtstorm::solver::QueryResult {
    let f = dir.join(format!("{}-query.smt2", spec.name));
    std::fs::write(&f, text).unwrap();
    run_file(spec, &f, 1, limits)
}

/// A regression that only smtstorm's own validation option makes is refused: z3 5.4.0
/// behind the fault proxy gives up (`unknown`) on any query that sets `:model_validate`
/// (the option changes z3's search: a hand judge found a 5.4.0 "timeout" that was 0.03 s
/// without it, judge27a), and answers as the real 5.4.0 otherwise. The same proxy giving
/// up on a name of the query itself is confirmed: the refusal is the option's.
#[test]
fn a_regression_only_the_validation_option_makes_is_refused() {
    use smtstorm::oracle::confirm::Confirm;
    let dir = tempdir("regress-validate");
    let proxy = dir.join("fault_proxy.py");
    std::fs::copy(repo().join("tests/fixtures/fault_proxy.py"), &proxy).unwrap();
    let older = SolverSpec::new("z3-4.8.12", Family::Z3, vec![z3("4.8.12"), "-smt2".into()]);
    let newer = |fault: &str| {
        let cmd = vec!["python3".into(), proxy.display().to_string(), fault.into(), z3("5.4.0"), "-smt2".into()];
        let mut s = SolverSpec::new("z3-5.4.0", Family::Z3, cmd);
        s.version = Some("5.4.0".into());
        s
    };
    let limits = Limits { time: Duration::from_secs(10), ..Limits::default() };
    let families = [Family::Z3, Family::Z3];
    let text = "(set-logic QF_LIA)\n(declare-const regress_me Int)\n(assert (> regress_me 2))\n(check-sat)\n";
    let trigger = smtstorm::smtlib::parse(text).unwrap();
    let mut outcomes = vec![];
    for fault in ["unknown-if:model_validate", "unknown-if:regress_me"] {
        let mut older = older.clone();
        older.version = Some("4.8.12".into());
        let specs = vec![older, newer(fault)];
        // Both faults make the candidate: the sessions' queries carry the option.
        let file = dir.join("q.smt2");
        std::fs::write(&file, smtstorm::oracle::confirm::fresh_text(&specs[1], &trigger)).unwrap();
        let rs: Vec<_> = specs.iter().map(|s| run_file(s, &file, 1, &limits)).collect();
        let refs: Vec<_> = rs.iter().map(Some).collect();
        let v = regress::candidates(&refs, &specs, None, None, limits.time);
        assert_eq!(v.len(), 1, "{fault}: {rs:?}");
        let c = Confirm { specs: &specs, families: &families, limits: &limits, dir: &dir, tag: "v-", until: None };
        outcomes.push(c.confirm(&trigger, &[0, 1], &Default::default(), &v[0]).is_ok());
        // A campaign's `--time`: the confirmed one is not confirmed when the newer
        // release's runs (10 s limits) could not end before it.
        if fault == "unknown-if:regress_me" {
            let until = Some(std::time::Instant::now() + Duration::from_secs(5));
            let c = Confirm { until, ..c };
            let late = c.confirm(&trigger, &[0, 1], &Default::default(), &v[0]);
            assert!(
                matches!(late, Err(smtstorm::oracle::confirm::Refused::OutOfTime)),
                "{:?}",
                late.map(|c| c.verdict)
            );
        }
    }
    assert_eq!(outcomes, [false, true], "refused under the option only, confirmed for the query's own name");
    let _ = std::fs::remove_dir_all(&dir);
}
