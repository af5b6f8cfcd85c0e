//! Helpers shared by the integration tests: finding the installed solvers and running a
//! real solver binary on a file with a hard time limit.

#![allow(dead_code)]

use smtstorm::smtlib::ast::{AttrValue, CommandKind, Nullary, Sexp};
use smtstorm::smtlib::Script;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the `smtstorm` binary from the repository root: (exit status, stdout, stderr).
pub fn smtstorm(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_smtstorm")).args(args).current_dir(repo()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The binary under test: `SMTSTORM_TEST_BIN`, else this build's (the hostile tests run
/// against another build so, e.g. to show they fail on an older one).
pub fn bin() -> PathBuf {
    std::env::var_os("SMTSTORM_TEST_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_smtstorm")), PathBuf::from)
}

/// A fresh temporary directory for one test (by name and process id).
pub fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("smtstorm-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.smt2` file of the shared cvc5 regression seeds (`../shared/seeds/cvc5-regress`
/// beside the checkout), sorted; `corpus/` where they are not there.
pub fn shared_seed_files() -> Vec<PathBuf> {
    let shared = repo().join("../shared/seeds/cvc5-regress");
    let dir = if shared.is_dir() { shared } else { repo().join("corpus") };
    let mut files = vec![];
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "smt2") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Path of an installed solver binary under `.solvers/` (or `$SMTSTORM_SOLVERS_DIR`).
/// Panics with the command to run when it is missing: a test that needs a real solver
/// never passes silently without one.
pub fn solver_bin(rel: &str) -> PathBuf {
    let dir = std::env::var_os("SMTSTORM_SOLVERS_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join(".solvers"));
    let p = dir.join(rel);
    assert!(p.exists(), "{} is missing: run scripts/setup-solvers.sh --minimal", p.display());
    p
}

/// Runs `bin args... file`, killing it after `limit`; returns stdout.
pub fn run_solver(bin: &Path, args: &[&str], file: &Path, limit: Duration) -> String {
    let mut child = Command::new(bin)
        .args(args)
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
    let t0 = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{} timed out on {}", bin.display(), file.display());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The answers (`sat`/`unsat`/`unknown` lines) in a solver's output.
pub fn answers(out: &str) -> Vec<String> {
    out.lines().map(str::trim).filter(|l| matches!(*l, "sat" | "unsat" | "unknown")).map(String::from).collect()
}

/// The `.smt2` files of `corpus/`, sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo().join("corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "smt2"))
        .collect();
    v.sort();
    v
}

/// The expected answer of each check-sat: the `(set-info :status ...)` just before it.
pub fn expected(s: &Script) -> Vec<String> {
    let mut pending = None;
    let mut out = vec![];
    for c in &s.commands {
        match c.kind {
            CommandKind::SetInfo(a) if s.str(a.key) == ":status" => {
                if let AttrValue::Sexp(x) = a.value {
                    if let Sexp::Atom(_, v) = s.sexps[x.index()] {
                        pending = Some(s.str(v).to_string());
                    }
                }
            }
            CommandKind::Nullary(Nullary::CheckSat) | CommandKind::CheckSatAssuming(_) => {
                out.push(pending.take().expect("every check-sat needs its own :status"));
            }
            _ => {}
        }
    }
    out
}

/// A solver binary under `.solvers/` as a spec.
pub fn real(rel: &str, family: smtstorm::solver::Family, args: &[&str]) -> smtstorm::solver::SolverSpec {
    let mut command = vec![solver_bin(rel).display().to_string()];
    command.extend(args.iter().map(|a| a.to_string()));
    smtstorm::solver::SolverSpec::new(rel, family, command)
}

/// cvc5 or bitwuzla through its Python package and scripts/drivers/smt2-driver.py.
pub fn py_solver(name: &str, family: smtstorm::solver::Family) -> smtstorm::solver::SolverSpec {
    let driver = solver_bin(&format!("{name}/{name}-smt2")).display().to_string();
    smtstorm::solver::SolverSpec::new(name, family, vec!["python3".into(), driver])
}

/// Each solver's first answer on `s` (without the options its family rejects), the
/// solvers side by side, each on its own file in `work` (named by its index).
pub fn ask_all(
    specs: &[&smtstorm::solver::SolverSpec],
    s: &Script,
    work: &Path,
    limits: &smtstorm::solver::Limits,
) -> Vec<Option<smtstorm::solver::Outcome>> {
    std::thread::scope(|t| {
        let runs: Vec<_> = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let file = work.join(format!("q{i}.smt2"));
                t.spawn(move || {
                    std::fs::write(&file, smtstorm::smtlib::print(&spec.own_script(s))).unwrap();
                    smtstorm::solver::run_file(spec, &file, 1, limits).outcomes.first().cloned()
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    })
}

/// The shared seeds Semantic Fusion accepts (`:status` stripped), each with the
/// satisfiability its own `(set-info :status …)` states (`None` when it states none or
/// `unknown`) and its text's length, sorted by the FNV-1a hash of the text: a sample taken
/// from the front is chosen by content, the same on every machine.
pub fn fusable_shared_seeds() -> Vec<(PathBuf, Script, Option<bool>, usize)> {
    let mut out: Vec<(String, PathBuf, Script, Option<bool>, usize)> = vec![];
    for f in shared_seed_files() {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let Ok(mut s) = smtstorm::smtlib::parse(&text) else { continue };
        let sat = match s.status() {
            Some("sat") => Some(true),
            Some("unsat") => Some(false),
            _ => None,
        };
        smtstorm::mutate::edit::strip_status(&mut s);
        if smtstorm::mutate::fusion::Part::new(&s).is_some() {
            out.push((smtstorm::util::hash::short_hash(&text), f, s, sat, text.len()));
        }
    }
    out.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    out.into_iter().map(|(_, f, s, sat, len)| (f, s, sat, len)).collect()
}

/// The fault proxy (`tests/fixtures/fault_proxy.py`, copied into `dir`) around a real
/// z3 5.4.0 with `faults`, as a `--solver` argument naming it `faulty`.
pub fn proxy(dir: &Path, faults: &str) -> String {
    let p = dir.join("fault_proxy.py");
    std::fs::copy(repo().join("tests/fixtures/fault_proxy.py"), &p).unwrap();
    format!("faulty=python3 {} {faults} {} -smt2", p.display(), solver_bin("z3-5.4.0/bin/z3").display())
}

/// Starts the `smtstorm` binary from the repository root with `args`, its output
/// discarded (a campaign a test kills or waits for).
pub fn spawn_quiet(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_smtstorm"))
        .args(args)
        .current_dir(repo())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}
