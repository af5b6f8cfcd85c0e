//! The fuzz targets' environment, read once per process by [`super::runner`]'s setup.
//!
//! Configuration (environment, read once per process):
//! * `SMTSTORM_SOLVERS`: comma-separated solver names (or `NAME=command args`) from
//!   `.solvers/solvers.toml` (found from the current directory upwards, or
//!   `$SMTSTORM_SOLVERS_DIR`). Default: the newest installed z3 and yices.
//! * `SMTSTORM_REFERENCE`: the solver STORM takes models from (default: newest z3).
//! * `SMTSTORM_TIMEOUT_MS`: per-query limit (default 250; keep it below libFuzzer's
//!   `-timeout`, so a slow solver is a timeout here, not a libFuzzer timeout artifact).
//!   A fuzzer lives on executions per second: from the small seeds of `corpus/`, 2000 ms
//!   gave 55 exec/s and 100 ms 105-160, the slowest 1 % of executions (z3 overrunning its
//!   own `-t` on floating point) then still taking a quarter of the time. But a tactic
//!   pipeline ([`super::mix`]) is slower than the default one: z3 5.4.0 on 302
//!   configuration mutants of `corpus/` (issue 41, load 7 on 2 cores) took 8.9 ms at the
//!   median, 65 ms at p90, 124 ms at p95; 100 ms cut off 7 % of them, of which half
//!   finished within 500 ms and the rest (3 %) took over a second, beyond any fuzzing
//!   limit. 250 ms keeps p95 with room for load. Bugs that need long solving are the
//!   campaign's (`smtstorm fuzz --timeout`).
//! * `SMTSTORM_STORE=DIR`: the harness's bug store ([`super::kept`]; default
//!   `fuzz/store/<target>` of the checkout): seed findings go there and do not abort, and a
//!   finding the store already holds never aborts again (`-fork` jobs share it).
//! * `SMTSTORM_ON_FINDING=go-on|abort`: whether a new mutant finding, once stored, stops
//!   the run ([`super::kept::OnFinding`]; default `go-on` from a checkout, `abort` in the
//!   ClusterFuzzLite/OSS-Fuzz build).
//! * `SMTSTORM_SEEDS=DIR` (default `corpus/`) and `SMTSTORM_FIRST_SEEDS=N` (default 256, 0:
//!   all): an empty corpus gets the first N seeds of DIR, the rest are fed while the
//!   target runs ([`super::feed`]; read by [`super::start`], before this setup).
//! * `SMTSTORM_SLOW_DIR=DIR` writes every execution whose queries took ≥ 100 ms to `DIR`
//!   (the slowest solver's text, its outcome and wall time), to see where the time goes.
//! * `SMTSTORM_SHIM=0` switches the behaviour shim off (for comparisons).
//! * `SMTSTORM_REGRESSIONS=0` switches the ladder-regression oracle off. It is on where
//!   two releases of a family are among the solvers (`z3-4.8.12,z3-5.4.0`): a query the
//!   older decides and the newer gives up on, runs out of time on or answers 10× slower
//!   is a regression candidate, confirmed as a campaign confirms it (repeats, each
//!   release under a longer limit, and without smtstorm's own validation options), at a
//!   few seconds of fresh runs per candidate.
//! * `SMTSTORM_CORE_RATE=R` (0 to 1, default 0.25) and `SMTSTORM_SELF_CHECKS=N` (default
//!   32, 0 off): the campaign's answer oracles on the campaign's sample — a share `R` of
//!   the executions answered `unsat` have the solver's unsat core (or unsat assumptions)
//!   re-checked alone ([`crate::oracle::cores`]), and one execution in `N` has its
//!   definite answers re-checked under the solver's own self-checks
//!   ([`crate::oracle::checks`]: cvc5 `check-proofs`, `check-unsat-cores`, ...), each in
//!   fresh processes.
//! * `SMTSTORM_FRAMING=pushpop` frames queries as `(push 1)` ... `(pop 1)` instead of
//!   `(reset)` (z3: ~3× the executions per second, but z3 then runs its incremental
//!   engines — a different configuration; findings are still confirmed in fresh,
//!   non-incremental processes, and sessions restart every 500 queries).
//! * `z3-inprocess` among the solvers (fuzz crate built with `--features z3-inprocess`):
//!   the instrumented z3 linked into the fuzzer ([`crate::solver::inprocess`]), so z3's own
//!   edges are libFuzzer coverage. It is confirmed in a fresh z3 context, and cannot be the
//!   STORM reference.
//!
//! A finding is stored (and, under `abort`, aborts: a panic, so libFuzzer writes the input
//! to `fuzz/artifacts/`) only after every solver re-ran the input in a fresh process and
//! the same verdict came back: the store and `fuzz/artifacts/` hold real findings, not
//! session artefacts. Errors, unknowns and timeouts never count.
//!
//! A value the variables above cannot take (`SMTSTORM_TIMEOUT_MS`, `SMTSTORM_SHIM`,
//! `SMTSTORM_FUSION`, `SMTSTORM_REGRESSIONS`, `SMTSTORM_CORE_RATE`, `SMTSTORM_SELF_CHECKS`,
//! `SMTSTORM_FRAMING`, `SMTSTORM_ON_FINDING`,
//! `SMTSTORM_STATS`) stops the target at its start with the variable's name and the values
//! it takes (a typo in `SMTSTORM_TIMEOUT_MS` must not run a day at the default).

use crate::solver::SolverSpec;

/// The per-query limit without `SMTSTORM_TIMEOUT_MS` (see the module docs).
pub const DEFAULT_TIMEOUT_MS: u64 = 250;

/// The name that selects the in-process z3 in `SMTSTORM_SOLVERS`.
pub const IN_PROCESS_Z3: &str = "z3-inprocess";

/// Why the fuzz harness cannot start.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    #[error("no solvers: run scripts/setup-solvers.sh or set SMTSTORM_SOLVERS")]
    NoSolvers,
    #[error("SMTSTORM_SOLVERS: {0}")]
    Solvers(#[from] crate::util::error::Error),
    #[error("SMTSTORM_REFERENCE is not one of SMTSTORM_SOLVERS")]
    UnknownReference,
    #[error("the STORM reference cannot be {IN_PROCESS_Z3}: set SMTSTORM_REFERENCE")]
    InProcessReference,
    #[error("{IN_PROCESS_Z3} needs the z3-inprocess feature (scripts/build-instrumented-z3.sh)")]
    NoInProcessZ3,
    #[error("{}: {source}", path.display())]
    Scratch { path: std::path::PathBuf, source: std::io::Error },
    #[error("{name}={value:?}: expected {expected}")]
    Env { name: &'static str, value: String, expected: &'static str },
}

/// The environment variable `name` read by `parse` (`None` when unset); a value `parse`
/// refuses, or one that is not Unicode, is [`HarnessError::Env`].
pub(super) fn env_var<T>(
    name: &'static str,
    expected: &'static str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, HarnessError> {
    read_var(name, std::env::var_os(name), expected, parse)
}

/// [`env_var`] on the value `value` of `name`.
fn read_var<T>(
    name: &'static str,
    value: Option<std::ffi::OsString>,
    expected: &'static str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, HarnessError> {
    match value {
        None => Ok(None),
        Some(v) => match v.to_str().and_then(|s| parse(s.trim())) {
            Some(t) => Ok(Some(t)),
            None => Err(HarnessError::Env { name, value: v.to_string_lossy().into_owned(), expected }),
        },
    }
}

/// A switch: `1` on, `0` off.
pub(super) fn switch(v: &str) -> Option<bool> {
    match v {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// The spec standing for the in-process z3 (its command is never run: confirmation uses a
/// fresh z3 context instead of a fresh process). It runs inside this process, outside the
/// kernel's confinement, so the seed's options it gets are the allow-list's of an
/// installed z3 binary: the release of the library's version, else the newest.
#[cfg(feature = "z3-inprocess")]
pub(super) fn in_process_spec(reg: &crate::solver::Registry) -> Result<SolverSpec, HarnessError> {
    let version = crate::solver::inprocess::version();
    let z3s = reg.solvers.iter().filter(|s| s.family == crate::solver::Family::Z3);
    // The library says `4.15.4.0 <hash>` (z3's full version string); a release says `4.15.4`.
    let same = z3s.clone().find(|s| {
        s.version.as_deref().is_some_and(|v| {
            version == v || version.starts_with(&format!("{v}.")) || version.starts_with(&format!("{v} "))
        })
    });
    let newest = || {
        z3s.max_by(|a, b| {
            crate::solver::registry::version_cmp(a.version.as_deref().unwrap_or(""), b.version.as_deref().unwrap_or(""))
        })
    };
    let table = same.or_else(newest).and_then(|s| crate::solver::allow::table(s).cloned());
    let mut spec = SolverSpec::new(IN_PROCESS_Z3, crate::solver::Family::Z3, vec![IN_PROCESS_Z3.into()]);
    spec.version = Some(version);
    spec.allowed = crate::solver::AllowList::known(table);
    Ok(spec)
}

#[cfg(not(feature = "z3-inprocess"))]
pub(super) fn in_process_spec(_: &crate::solver::Registry) -> Result<SolverSpec, HarnessError> {
    Err(HarnessError::NoInProcessZ3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value a harness variable cannot take is an error naming the variable, the value
    /// and what it takes; unset is `None`; a good value is read.
    #[test]
    fn a_bad_environment_value_is_said_not_replaced_by_the_default() {
        let read = |v: Option<&str>| read_var("SMTSTORM_SHIM", v.map(Into::into), "1 or 0", switch);
        assert!(matches!(read(None), Ok(None)));
        assert_eq!(read(Some("yes")).unwrap_err().to_string(), "SMTSTORM_SHIM=\"yes\": expected 1 or 0");
        assert!(matches!(read(Some(" 0 ")), Ok(Some(false))));
        assert!(matches!(read(Some("1")), Ok(Some(true))));
    }
}
