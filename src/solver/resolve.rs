//! Which solvers a run uses: `--solver` names and `NAME=command` lines resolved against
//! the installed registry (`.solvers/solvers.toml`), a campaign's default of the newest
//! release of each family, solvers refused before a campaign when they do not answer as
//! one, and the installed ones listed with their versions (`smtstorm solvers`).

use crate::solver::{self, run_file, Limits, Outcome, SolverSpec};
use crate::util::error::{Error, Result};
use serde::Serialize;
use std::path::Path;

/// Resolves `--solver` arguments, defaulting to every installed solver.
pub fn resolve(registry: &solver::Registry, args: &[String]) -> Result<Vec<SolverSpec>> {
    if args.is_empty() {
        if registry.solvers.is_empty() {
            return Err(Error::NoSolvers { registry: solver::registry::default_toml() });
        }
        solver::allow::prime(&registry.solvers);
        return Ok(registry.solvers.clone());
    }
    let specs: Vec<SolverSpec> = args.iter().map(|a| registry.resolve(a)).collect::<Result<_>>()?;
    solver::allow::prime(&specs);
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
            // The first line of the solver's own `--version` text, asked under a time
            // limit (a solver that hangs on `--version` must not hang `smtstorm solvers`).
            reported_version: super::install::version_text(s).and_then(|t| t.lines().next().map(str::to_string)),
        })
        .collect()
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
