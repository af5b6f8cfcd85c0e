//! Issue 37 ("a seed is untrusted input"), items 1, 3, 4, 8 and 9: seeds, file names,
//! solvers and flags chosen as an attacker or a careless user would, against the real
//! binary and real solvers. Each test asserts what a user relies on: no file written
//! outside the store, no fake finding, exit statuses that tell the truth, no panic.
//!
//! `SMTSTORM_TEST_BIN=/path/to/smtstorm` runs them against another build (how each was
//! seen to fail on 41afc40).

mod common;

use common::{bin, solver_bin, tempdir};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// `smtstorm ARGS` in `dir` with extra environment: (exit status, stdout, stderr, wall).
fn run_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String, Duration) {
    let t0 = Instant::now();
    let mut c = Command::new(bin());
    c.args(args).current_dir(dir).env("SMTSTORM_SOLVERS_DIR", solvers_dir());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
        t0.elapsed(),
    )
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String, Duration) {
    run_env(dir, args, &[])
}

fn solvers_dir() -> PathBuf {
    std::env::var_os("SMTSTORM_SOLVERS_DIR").map(PathBuf::from).unwrap_or_else(|| common::repo().join(".solvers"))
}

/// Every file beneath `dir`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// The file- and text-typed options of every installed family, read from the solvers'
/// own tables as `smtstorm` reads them (z3's `-p`; the drivers' `--smtstorm-options`),
/// plus SMT-LIB's output channels and the drivers' `out`/`err`. Each is a way a seed
/// could name a file.
fn file_options() -> Vec<(&'static str, String)> {
    let mut v: Vec<(&'static str, String)> = vec![];
    for k in ["regular-output-channel", "diagnostic-output-channel"] {
        for f in ["z3", "cvc5", "yices", "bitwuzla"] {
            v.push((f, k.into()));
        }
    }
    let z3 = Command::new(solver_bin("z3-5.4.0/bin/z3")).arg("-p").output().unwrap();
    let table = smtstorm::solver::allow::parse_z3(&String::from_utf8_lossy(&z3.stdout));
    for (k, kind) in &table {
        if *kind == smtstorm::solver::allow::ValueKind::Text {
            v.push(("z3", k.clone()));
        }
    }
    for (family, driver) in [("cvc5", "cvc5/cvc5-smt2"), ("bitwuzla", "bitwuzla/bitwuzla-smt2")] {
        let out = Command::new(solver_bin(driver)).arg("--smtstorm-options").output().unwrap();
        let table = smtstorm::solver::allow::parse_listed(&String::from_utf8_lossy(&out.stdout));
        for (k, kind) in &table {
            if *kind == smtstorm::solver::allow::ValueKind::Text {
                v.push((family, k.replace('_', "-")));
            }
        }
        for k in ["out", "err"] {
            v.push((family, k.into()));
        }
    }
    v
}

/// Item 1: every file-typed option of every installed family, with an absolute path as
/// a bare symbol, a quoted symbol and a string, in seeds run by `check` (sessions and
/// fresh processes) and `fuzz` (every engine, confirmations): no file appears outside
/// the store, and a file that was there keeps its content. Run with both layers, and
/// with the text layer alone (`SMTSTORM_NO_LANDLOCK=1`).
#[test]
fn seed_file_options_never_write_outside_the_scratch_directory() {
    let d = tempdir("hostile-fileopts");
    let outside = d.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    let seeds = d.join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    let options = file_options();
    assert!(options.len() >= 20, "too few file options read from the solvers: {options:?}");
    let mut n = 0;
    for (i, (family, key)) in options.iter().enumerate() {
        let target = outside.join(format!("{family}-{i}"));
        let t = target.display();
        let victim = victim.display();
        for (form, value) in [("bare", format!("{t}")), ("quoted", format!("|{t}|")), ("string", format!("\"{t}\""))] {
            let text = format!(
                "(set-option :{key} {value})\n(set-option :{key} {victim})\n(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 1))\n(check-sat)\n(get-model)\n"
            );
            std::fs::write(seeds.join(format!("{family}-{i}-{form}.smt2")), text).unwrap();
            n += 1;
        }
    }
    let all = ["--solver", "z3-5.4.0", "--solver", "cvc5", "--solver", "yices", "--solver", "bitwuzla"];
    for env in [vec![], vec![("SMTSTORM_NO_LANDLOCK", "1")]] {
        let seeds_arg = seeds.to_str().unwrap();
        let mut args = vec!["check", "--timeout", "5"];
        args.extend(all);
        let files: Vec<String> =
            std::fs::read_dir(&seeds).unwrap().map(|e| e.unwrap().path().display().to_string()).collect();
        args.extend(files.iter().map(String::as_str));
        let (code, _, err, _) = run_env(&d, &args, &env);
        assert!(code == 0 || code == 1, "check: {code} {err}");
        let mut oneshot = args.clone();
        oneshot.insert(1, "--oneshot");
        run_env(&d, &oneshot, &env);
        let store = d.join(format!("store-{}", env.len()));
        let mut fz = vec!["fuzz", seeds_arg, "--time", "15", "--workers", "2", "--out", store.to_str().unwrap()];
        fz.extend(all);
        let (code, _, err, _) = run_env(&d, &fz, &env);
        assert!(code == 0 || code == 10, "fuzz: {code} {err}");
        let leaked: Vec<PathBuf> =
            files_under(&outside).into_iter().filter(|p| *p != outside.join("victim.txt")).collect();
        assert!(leaked.is_empty(), "{env:?}: solvers wrote outside the store: {leaked:?}");
        assert_eq!(
            std::fs::read_to_string(outside.join("victim.txt")).unwrap(),
            "keep me\n",
            "{env:?}: victim truncated"
        );
    }
    eprintln!("{n} seeds of {} file options, quoted and bare: nothing written outside", options.len());
}

/// Item 1, the kernel layer alone: a solver whose own command line names a file (z3's
/// `sat.drat.file`, which no script filter sees) cannot create it outside the scratch
/// directory when Landlock is there; without it (`SMTSTORM_NO_LANDLOCK=1`) it can, which
/// shows the test would see a write.
#[test]
fn landlock_alone_keeps_solver_writes_in_scratch() {
    let d = tempdir("hostile-landlock");
    std::fs::write(d.join("q.smt2"), "(declare-const x Int)(assert (> x 1))(check-sat)\n").unwrap();
    let z3 = solver_bin("z3-5.4.0/bin/z3");
    let target = d.join("drat-proof");
    let solver = format!("zd={} sat.drat.file={} sat.euf=true", z3.display(), target.display());
    let (code, out, err, _) = run(&d, &["check", "--solver", &solver, "q.smt2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("sat"), "{out}");
    let confined = !target.exists();
    let (_, out2, _, _) = run(&d, &["solvers"]);
    if out2.contains("no Landlock") {
        eprintln!("this kernel has no Landlock: only the text layer holds here ({out2})");
        return;
    }
    assert!(confined, "z3 wrote {} outside the scratch directory under Landlock", target.display());
    run_env(&d, &["check", "--solver", &solver, "q.smt2"], &[("SMTSTORM_NO_LANDLOCK", "1")]);
    assert!(
        target.exists(),
        "without Landlock z3 should have written {} (the test could not see a write)",
        target.display()
    );
}

/// Item 3: a seed whose name is not UTF-8 is fuzzed (its name shown lossily in the
/// events), and the campaign resumes over it.
#[test]
fn a_seed_name_that_is_not_utf8_is_a_seed() {
    let d = tempdir("hostile-nonutf8");
    let seeds = d.join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    let name = std::ffi::OsStr::from_bytes(b"lia-\xff\xfe.smt2");
    std::fs::copy(common::repo().join("corpus/lia_bounds.smt2"), seeds.join(name)).unwrap();
    for _ in 0..2 {
        let (code, out, err, _) = run(&d, &["fuzz", "seeds", "--solver", "z3-5.4.0", "--time", "4", "--out", "st"]);
        assert!(code == 0 || code == 10, "{code}\n{out}\n{err}");
    }
    let events = std::fs::read_to_string(d.join("st/events.jsonl")).unwrap();
    assert!(events.contains("lia-\u{fffd}\u{fffd}.smt2"), "{events}");
    assert!(events.contains("seed-ready"), "the seed was never screened: {events}");
}

/// Item 4: output a seed asks for (`echo`, z3's `simplify`/`eval`/`display` of its own
/// `error` function) is never read as the solver's error: no invalid-model finding.
#[test]
fn echoed_error_text_is_never_a_finding() {
    let d = tempdir("hostile-echo");
    let seeds = d.join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    std::fs::write(
        seeds.join("echo.smt2"),
        "(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 1))\n(check-sat)\n(echo \"(error \"\"invalid model: fake\"\")\")\n",
    )
    .unwrap();
    std::fs::write(
        seeds.join("simplify.smt2"),
        "(set-logic QF_SLIA)\n(declare-fun error (String) Bool)\n(declare-const x Int)\n(assert (> x 1))\n(check-sat)\n(simplify (error \"invalid model: fake\"))\n(eval (error \"invalid model: fake\"))\n",
    )
    .unwrap();
    let (code, out, _, _) = run(&d, &["check", "--solver", "z3-5.4.0", "--solver", "yices", "seeds/echo.smt2"]);
    assert_eq!(code, 0);
    assert!(!out.contains("invalid-model") && out.contains("sat"), "{out}");
    let (code, out, err, _) =
        run(&d, &["fuzz", "seeds", "--solver", "z3-5.4.0", "--solver", "yices", "--time", "10", "--out", "st"]);
    assert_eq!(code, 0, "a seed's own echo became a finding:\n{out}\n{err}");
    assert!(files_under(&d.join("st/bugs")).is_empty() && files_under(&d.join("st/seed-findings")).is_empty());
}

/// Item 8: a campaign that cannot fuzz anything says why and exits 2: a solver that is
/// not one, no seed, every seed skipped. A seed directory behind a symlink is read.
#[test]
fn clean_exits_do_not_hide_failure() {
    let d = tempdir("hostile-exits");
    let seeds = d.join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    std::fs::copy(common::repo().join("corpus/lia_bounds.smt2"), seeds.join("a.smt2")).unwrap();
    for (solver, said) in [("z3=/etc/passwd", "cannot start"), ("t=/bin/true", "exited before answering")] {
        let (code, _, err, _) = run(&d, &["fuzz", "seeds", "--solver", solver, "--time", "5", "--out", "st1"]);
        assert_eq!(code, 2, "{solver}: {err}");
        assert!(err.contains("not a working SMT solver") && err.contains(said), "{err}");
    }
    std::fs::create_dir_all(d.join("empty")).unwrap();
    let (code, _, err, _) = run(&d, &["fuzz", "empty", "--solver", "z3-5.4.0", "--time", "5", "--out", "st2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no seed to fuzz") && err.contains("no .smt2 file under empty"), "{err}");
    std::fs::create_dir_all(d.join("broken")).unwrap();
    std::fs::write(d.join("broken/x.smt2"), "(assert (> x\n").unwrap();
    let (code, _, err, _) = run(&d, &["fuzz", "broken", "--solver", "z3-5.4.0", "--time", "5", "--out", "st3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("none of the 1 .smt2 files reads") && err.contains("x.smt2:"), "{err}");
    std::fs::create_dir_all(d.join("skipped")).unwrap();
    std::fs::write(d.join("skipped/y.smt2"), "(declare-const x Int)\n(assert (> y 1))\n(check-sat)\n").unwrap();
    let (code, _, err, _) = run(&d, &["fuzz", "skipped", "--solver", "z3-5.4.0", "--time", "10", "--out", "st4"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("all 1 seeds were skipped") && err.contains("unknown constant y"), "{err}");
    // `linked/sub` is a link to the seeds: a walker that does not follow it finds none.
    std::fs::create_dir_all(d.join("linked")).unwrap();
    std::os::unix::fs::symlink(&seeds, d.join("linked/sub")).unwrap();
    let (code, _, err, _) = run(&d, &["fuzz", "linked", "--solver", "z3-5.4.0", "--mutants", "3", "--out", "st5"]);
    assert!(code == 0 || code == 10, "{err}");
    let ev = std::fs::read_to_string(d.join("st5/events.jsonl")).unwrap();
    assert!(ev.contains("linked/sub/a.smt2"), "{ev}");
}

/// Item 9: durations saturate, `--mutants N` tests N, `--time` ends the run within one
/// query's limit, `check --timeout 0` is refused, unknown campaign-file keys are named,
/// an I/O error says its cause once.
#[test]
fn bounds_hold() {
    let d = tempdir("hostile-bounds");
    let corpus = common::repo().join("corpus");
    let corpus = corpus.to_str().unwrap();
    let (code, _, err, _) =
        run(&d, &["fuzz", corpus, "--solver", "z3-5.4.0", "--time", "1e20", "--mutants", "5", "--out", "st1"]);
    assert!(code == 0 || code == 10, "{err}");
    let stats = std::fs::read_to_string(d.join("st1/stats.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(stats.lines().last().unwrap()).unwrap();
    assert_eq!(last["mutants"], 5, "{last}");
    std::fs::write(
        d.join("c.toml"),
        format!("seeds = [\"{corpus}\"]\nsolvers = [\"z3-5.4.0\"]\ntime = 1e308\nmutants = 2\n"),
    )
    .unwrap();
    let (code, _, err, _) = run(&d, &["fuzz", "--config", "c.toml", "--out", "st2"]);
    assert!(code == 0 || code == 10, "time = 1e308: {code} {err}");
    std::fs::write(d.join("bad.toml"), "[storm]\ndmax = 3\nno_such_key = 1\n").unwrap();
    let (code, _, err, _) = run(&d, &["fuzz", "--config", "bad.toml", "--out", "st3"]);
    assert_eq!(code, 2);
    assert!(err.contains("no_such_key") && err.contains("bad.toml"), "{err}");
    let (code, _, err, _) = run(&d, &["check", "--timeout", "0", corpus]);
    assert_eq!(code, 2);
    assert!(err.contains("--timeout 0"), "{err}");
    let (code, _, err, _) = run(&d, &["check", "no-such-file.smt2"]);
    assert_ne!(code, 0);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    // `--time 5` with a 10 s query limit: done within the limit plus a query's.
    let (code, _, err, wall) = run(&d, &["fuzz", corpus, "--time", "5", "--out", "st4"]);
    assert!(code == 0 || code == 10, "{err}");
    assert!(wall < Duration::from_secs(5 + 10 + 5), "--time 5 took {wall:?}");
    eprintln!("--time 5: {wall:?}");
}

/// Issue 38: each solver carries its own allow-list, read from the release it runs when
/// first needed, wherever its spec comes from — the registry, or a store's
/// `campaign.json` as `report` and `reduce` read it without `--solver` (these once ran
/// with the deny-list alone: the lists were registered process-wide by the first
/// `--solver` resolution). An option no table lists never reaches the solver; a listed
/// one with a typed value does.
#[test]
fn a_spec_read_back_from_a_store_uses_its_own_releases_allow_list() {
    use smtstorm::solver::{allow, Family, SolverSpec};
    let z3 = solver_bin("z3-5.4.0/bin/z3").display().to_string();
    let json = format!(r#"{{"name": "z3-5.4.0", "family": "z3", "command": ["{z3}", "-smt2"]}}"#);
    let spec: SolverSpec = serde_json::from_str(&json).unwrap();
    let table = allow::table(&spec).expect("z3 lists its parameters");
    assert!(table.len() > 100, "{} parameters", table.len());
    let seed = smtstorm::smtlib::parse(
        "(set-option :smt.arith.solver 2)\n(set-option :smtstorm.not_a_parameter 1)\n(declare-const x Int)\n(check-sat)\n",
    )
    .unwrap();
    let own = smtstorm::smtlib::print(&spec.own_script(&seed));
    assert!(own.contains(":smt.arith.solver 2") && !own.contains("not_a_parameter"), "{own}");
    // (Without the list, the deny-list alone lets it through: the list is what dropped it.)
    let bare = SolverSpec { allowed: smtstorm::solver::AllowList::known(None), ..spec.clone() };
    assert!(smtstorm::smtlib::print(&bare.own_script(&seed)).contains("not_a_parameter"));
    // Clones share the list; a family without one is never asked.
    assert!(std::ptr::eq(allow::table(&spec.clone()).unwrap(), table));
    let yices = SolverSpec::new("yices", Family::Yices, vec![solver_bin("yices/bin/yices-smt2").display().to_string()]);
    assert!(allow::table(&yices).is_none());
}
