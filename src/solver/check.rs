//! `smtstorm check` and `smtstorm solvers`: run files on solvers, list installed solvers.

use crate::smtlib;
use crate::solver::{self, run_file, Limits, Outcome, Session, SolverSpec};
use crate::util::error::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One file × solver cell.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    pub solver: String,
    pub outcomes: Vec<Outcome>,
    pub crash: Option<Outcome>,
    pub wall_s: f64,
    pub cpu_s: Option<f64>,
}

/// One file's row.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub file: String,
    /// `:status` of the file, if it states one.
    pub status: Option<String>,
    pub cells: Vec<Cell>,
}

/// Refuses, before a campaign starts, a solver that does not answer `sat` to `(set-logic
/// QF_UF) (check-sat)` in a fresh process (`--solver z3=/etc/passwd`, `/bin/true`, a
/// wrapper that cannot find its solver): a campaign over it would count its silence as
/// "no bugs found". All are asked at once; the probe file is written to `dir`.
pub fn refuse_non_solvers(solvers: &[SolverSpec], dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let probe = dir.join("smtstorm-probe.smt2");
    crate::util::fs::write_atomic(&probe, b"(set-logic QF_UF)\n(check-sat)\n").map_err(|e| Error::io(&probe, e))?;
    let limits = Limits { time: std::time::Duration::from_secs(30), ..Default::default() };
    let answers: Vec<solver::QueryResult> = std::thread::scope(|sc| {
        let hs: Vec<_> = solvers.iter().map(|s| sc.spawn(|| run_file(s, &probe, 1, &limits))).collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or_else(|_| solver::failed(vec![Outcome::Timeout], std::time::Instant::now())))
            .collect()
    });
    let _ = std::fs::remove_file(&probe);
    for (s, r) in solvers.iter().zip(answers) {
        if r.crash.is_some() || r.outcomes != [Outcome::Sat] {
            let answer = match r.outcomes.first() {
                Some(Outcome::Sat) | None => "nothing".to_string(),
                Some(o) => o.to_string(),
            };
            let answer = match r.crash {
                Some(c) => format!("{answer} and {c}"),
                None => answer,
            };
            return Err(Error::NotASolver { solver: s.name.clone(), command: s.command.join(" "), answer });
        }
    }
    Ok(())
}

/// Runs every file on every solver: through one persistent session per solver, or with
/// `oneshot`, in a fresh process per file.
pub fn run(files: &[PathBuf], solvers: &[SolverSpec], limits: &Limits, oneshot: bool) -> Result<Vec<Row>> {
    let files = crate::util::files::collect_smt2(files)?;
    let mut sessions: Vec<Option<Session>> =
        solvers.iter().map(|s| (!oneshot && s.has_session()).then(|| Session::new(s.clone(), *limits))).collect();
    let mut rows = vec![];
    // A fresh process reads the file as this solver is sent it, not the file itself
    // ([`SolverSpec::own_script`]: no option that names a file, no seed text printed).
    let tmp =
        tempfile::Builder::new().prefix("smtstorm-check-").tempdir().map_err(|e| Error::io(Path::new("TMPDIR"), e))?;
    let own_file = tmp.path().join("query.smt2");
    for f in &files {
        let text = crate::util::files::read_input_text(f)?;
        let script = smtlib::parse(&text).map_err(|e| e.in_file(f))?;
        let mut cells = vec![];
        for (spec, sess) in solvers.iter().zip(sessions.iter_mut()) {
            let own = spec.own_script(&script);
            let (query, checks) = solver::session_text(&own);
            let r = match sess {
                Some(s) => s.query(&query, checks),
                None => {
                    std::fs::write(&own_file, &query).map_err(|e| Error::io(&own_file, e))?;
                    run_file(spec, &own_file, checks, limits)
                }
            };
            cells.push(Cell {
                solver: spec.name.clone(),
                outcomes: r.outcomes,
                crash: r.crash,
                wall_s: r.wall.as_secs_f64(),
                cpu_s: r.cpu.map(|c| c.as_secs_f64()),
            });
        }
        rows.push(Row { file: f.display().to_string(), status: script.status().map(String::from), cells });
    }
    Ok(rows)
}

/// Text table of `rows`.
pub fn table(rows: &[Row]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for r in rows {
        let _ = writeln!(s, "{}{}", r.file, r.status.as_ref().map(|st| format!("  (status {st})")).unwrap_or_default());
        for c in &r.cells {
            let outs: Vec<String> = c.outcomes.iter().map(|o| o.to_string()).collect();
            let crash = c.crash.as_ref().map(|o| format!("  {o}")).unwrap_or_default();
            let _ = writeln!(s, "  {:<16} {:<24} {:>8.3}s{crash}", c.solver, outs.join(" "), c.wall_s);
        }
    }
    s
}

/// An installed solver and the version it reports.
#[derive(Debug, Clone, Serialize)]
pub struct Found {
    pub name: String,
    pub family: solver::Family,
    pub command: Vec<String>,
    pub reported_version: Option<String>,
}

/// Lists the solvers of `registry`, asking each for its version.
pub fn list(registry: &solver::Registry) -> Vec<Found> {
    registry
        .solvers
        .iter()
        .map(|s| Found {
            name: s.name.clone(),
            family: s.family,
            command: s.command.clone(),
            reported_version: version(&s.command),
        })
        .collect()
}

fn version(command: &[String]) -> Option<String> {
    let out = Command::new(&command[0]).args(&command[1..]).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().next().map(|l| l.trim().to_string()).filter(|l| !l.is_empty())
}

/// Resolves `--solver` arguments, defaulting to every installed solver.
pub fn resolve(registry: &solver::Registry, args: &[String]) -> Result<Vec<SolverSpec>> {
    if args.is_empty() {
        if registry.solvers.is_empty() {
            return Err(Error::NoSolvers { registry: solver::registry::default_toml() });
        }
        solver::allow::register(&registry.solvers);
        return Ok(registry.solvers.clone());
    }
    let specs: Vec<SolverSpec> = args.iter().map(|a| registry.resolve(a)).collect::<Result<_>>()?;
    solver::allow::register(&specs);
    Ok(specs)
}

/// Resolves a campaign's `--solver` arguments: by default the newest release of every
/// installed family under test against each other. Eleven z3 releases in every query cost
/// a campaign most of its speed and add no vote (one vote per family,
/// [`crate::oracle::judge`]); the older releases serve bisection, or are named with
/// `--solver` to test them.
pub fn resolve_campaign(registry: &solver::Registry, args: &[String]) -> Result<Vec<SolverSpec>> {
    if !args.is_empty() {
        return resolve(registry, args);
    }
    let all = resolve(registry, args)?;
    Ok(all
        .iter()
        .filter(|s| {
            s.family == solver::Family::Other
                || !all.iter().any(|o| {
                    o.family == s.family
                        && solver::registry::version_cmp(
                            o.version.as_deref().unwrap_or(""),
                            s.version.as_deref().unwrap_or(""),
                        )
                        .is_gt()
                })
        })
        .cloned()
        .collect())
}

/// Loads the default registry (`.solvers/solvers.toml`).
pub fn default_registry() -> Result<solver::Registry> {
    solver::Registry::load(Path::new(&solver::registry::default_toml()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 22, item 3: a campaign's default is one release per family, the newest; named
    /// solvers are taken as named, old releases included.
    #[test]
    fn a_campaign_defaults_to_the_newest_release_of_each_family() {
        let reg = solver::Registry::parse(
            "[solver.\"z3-4.8.7\"]\nfamily = \"z3\"\nversion = \"4.8.7\"\ncommand = [\"z3\"]\n\
             [solver.\"z3-5.4.0\"]\nfamily = \"z3\"\nversion = \"5.4.0\"\ncommand = [\"z3\"]\n\
             [solver.\"z3-4.15.4\"]\nfamily = \"z3\"\nversion = \"4.15.4\"\ncommand = [\"z3\"]\n\
             [solver.yices]\nfamily = \"yices\"\ncommand = [\"yices-smt2\"]\n\
             [solver.mine]\ncommand = [\"mine\"]\n[solver.theirs]\ncommand = [\"theirs\"]\n",
        )
        .unwrap();
        let mut names: Vec<String> = resolve_campaign(&reg, &[]).unwrap().into_iter().map(|s| s.name).collect();
        names.sort();
        assert_eq!(names, ["mine", "theirs", "yices", "z3-5.4.0"]);
        let named = resolve_campaign(&reg, &["z3-4.8.7".into(), "z3-5.4.0".into()]).unwrap();
        assert_eq!(named.len(), 2);
        assert_eq!(resolve(&reg, &[]).unwrap().len(), 6);
    }
}
