//! The solver side of the fuzz targets: process-global persistent sessions, the oracles,
//! and confirmation in fresh processes before anything aborts.
//!
//! Configuration (environment, read once per process):
//! * `SMTSTORM_SOLVERS`: comma-separated solver names (or `NAME=command args`) from
//!   `.solvers/solvers.toml` (found from the current directory upwards, or
//!   `$SMTSTORM_SOLVERS_DIR`). Default: the newest installed z3 and yices.
//! * `SMTSTORM_REFERENCE`: the solver STORM takes models from (default: newest z3).
//! * `SMTSTORM_TIMEOUT_MS`: per-query limit (default 2000; keep it below libFuzzer's
//!   `-timeout`, so a slow solver is a timeout here, not a libFuzzer timeout artifact).
//! * `SMTSTORM_SHIM=0` switches the behaviour shim off (for comparisons).
//! * `SMTSTORM_FRAMING=pushpop` frames queries as `(push 1)` ... `(pop 1)` instead of
//!   `(reset)` (z3: ~3× the executions per second, but z3 then runs its incremental
//!   engines — a different configuration; findings are still confirmed in fresh,
//!   non-incremental processes, and sessions restart every 500 queries).
//!
//! A finding aborts (panics, so libFuzzer writes the input to `fuzz/artifacts/`) only
//! after every solver re-ran the input in a fresh process and the same verdict came back:
//! `fuzz/artifacts/` holds real findings, not session artefacts. Errors, unknowns and
//! timeouts never abort.

use crate::campaign::oracle::{checks, judge, Verdict};
use crate::mutate::storm::{self, Pools};
use crate::smtlib::{self, Script};
use crate::solver::{model, run_file, Limits, Outcome, QueryResult, Registry, Session, SolverSpec};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The process-global solver state of a fuzz target.
pub struct Harness {
    pub specs: Vec<SolverSpec>,
    sessions: Vec<Session>,
    pub reference: usize,
    pub limits: Limits,
    pub shim: bool,
    /// Queries framed by push/pop instead of reset ([`Harness::use_push_pop`]).
    pub push_pop: bool,
    /// STORM pools by seed text hash (`None`: no model for that seed).
    pools: HashMap<u64, Option<Pools>>,
    scratch: std::path::PathBuf,
    /// Executions so far (for statistics).
    pub execs: u64,
}

static HARNESS: OnceLock<Result<Mutex<Harness>, String>> = OnceLock::new();

/// Why the harness cannot start (printed once, then every target panics with it: a
/// misconfigured fuzzer must not run silently without solvers).
fn setup() -> Result<Harness, String> {
    let reg = Registry::load(&crate::solver::registry::default_toml()).unwrap_or_default();
    let names: Vec<String> = match std::env::var("SMTSTORM_SOLVERS") {
        Ok(v) => v.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect(),
        Err(_) => {
            let newest_z3 = crate::campaign::reference_index(&reg.solvers, None).map(|i| reg.solvers[i].name.clone());
            let yices = reg.solvers.iter().find(|s| s.family == crate::solver::Family::Yices).map(|s| s.name.clone());
            newest_z3.into_iter().chain(yices).collect()
        }
    };
    if names.is_empty() {
        return Err("no solvers: run scripts/setup-solvers.sh or set SMTSTORM_SOLVERS".into());
    }
    let specs = crate::tools::check::resolve(&reg, &names).map_err(|e| e.to_string())?;
    let reference = crate::campaign::reference_index(&specs, std::env::var("SMTSTORM_REFERENCE").ok().as_deref())
        .ok_or("SMTSTORM_REFERENCE is not one of SMTSTORM_SOLVERS")?;
    let ms = std::env::var("SMTSTORM_TIMEOUT_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000u64);
    let shim = std::env::var("SMTSTORM_SHIM").map_or(true, |v| v != "0");
    let mut h = Harness::new(specs, reference, Duration::from_millis(ms), shim)?;
    if std::env::var("SMTSTORM_FRAMING").is_ok_and(|v| v == "pushpop") {
        h.use_push_pop();
    }
    Ok(h)
}

impl Harness {
    /// A harness over `specs` (STORM models from `specs[reference]`), each query limited to
    /// `time`; `shim` asks for statistics after every query (the behaviour shim).
    pub fn new(specs: Vec<SolverSpec>, reference: usize, time: Duration, shim: bool) -> Result<Harness, String> {
        let limits = Limits { time, grace: Duration::from_millis(500), ..Limits::default() };
        let sessions = specs.iter().map(|s| Session::validating(s.clone(), limits)).collect();
        let scratch = std::env::temp_dir().join(format!("smtstorm-harness-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
        Ok(Harness {
            specs,
            sessions,
            reference,
            limits,
            shim,
            push_pop: false,
            pools: HashMap::new(),
            scratch,
            execs: 0,
        })
    }

    /// Switches the solvers that support it to push/pop sessions (see the module docs).
    pub fn use_push_pop(&mut self) {
        self.push_pop = true;
        for (k, spec) in self.specs.iter().enumerate() {
            if spec.family.dialect().push_pop {
                let mut spec = spec.clone();
                spec.restart_every = Some(spec.restart_every.unwrap_or(500).min(500));
                let opts = spec.family.dialect().model_validation;
                self.sessions[k] = Session::incremental(spec, self.limits, opts);
            }
        }
    }
}

/// The harness, started on first use.
pub fn harness() -> std::sync::MutexGuard<'static, Harness> {
    match HARNESS.get_or_init(|| setup().map(Mutex::new)) {
        Ok(m) => m.lock().unwrap_or_else(|e| e.into_inner()),
        Err(e) => panic!("smtstorm harness: {e}"),
    }
}

/// What one execution found (the targets panic on `Finding`; tests look at it).
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    Nothing,
    /// A confirmed bug: kind, blamed solver, signature.
    Finding {
        kind: String,
        solver: String,
        signature: String,
    },
}

impl Found {
    /// Aborts with the finding (the libFuzzer artifact is the input).
    pub fn abort_on_finding(self) {
        if let Found::Finding { kind, solver, signature } = self {
            panic!("smtstorm: confirmed {kind} bug in {solver}: {signature}");
        }
    }
}

impl Harness {
    /// Runs `s` on every solver that reads it, through the sessions; records statistics
    /// in the shim. `results[i]` is `None` for a solver that does not read it.
    fn run_all(&mut self, s: &Script) -> Vec<Option<QueryResult>> {
        let n = checks(s);
        let shim = self.shim;
        // One thread per solver: an execution costs the slowest solver, not their sum.
        let results: Vec<Option<QueryResult>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .specs
                .iter()
                .zip(self.sessions.iter_mut())
                .map(|(spec, sess)| {
                    (spec.cannot_read(s).is_none()).then(|| {
                        let fam = spec.family;
                        let own = fam.without_foreign_options(s);
                        let script = own.as_ref().unwrap_or(s);
                        let (mut text, _) = match sess.framing {
                            crate::solver::Framing::PushPop { .. } => crate::solver::incremental_text(script),
                            crate::solver::Framing::Reset => crate::solver::session_text(script),
                        };
                        if let Some(cmd) = fam.dialect().statistics.filter(|_| shim) {
                            text.push_str(cmd);
                            text.push('\n');
                        }
                        scope.spawn(move || sess.query(&text, n))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.and_then(|h| h.join().ok())).collect()
        });
        for (k, r) in results.iter().enumerate() {
            if let Some(st) = r.as_ref().and_then(|r| r.data.iter().rev().find_map(|d| model::parse_statistics(d).ok()))
            {
                super::shim::record(k, &st);
            }
        }
        results
    }

    /// Re-runs `s` on every solver in a fresh process.
    fn run_fresh(&self, s: &Script) -> Vec<Option<QueryResult>> {
        let n = checks(s);
        (0..self.specs.len())
            .map(|k| {
                let spec = &self.specs[k];
                if spec.cannot_read(s).is_some() {
                    return None;
                }
                let own = spec.family.without_foreign_options(s);
                let text =
                    format!("{}{}", spec.family.dialect().model_validation, smtlib::print(own.as_ref().unwrap_or(s)));
                let f = self.scratch.join(format!("confirm-{k}.smt2"));
                std::fs::write(&f, text).ok()?;
                Some(run_file(spec, &f, n, &self.limits))
            })
            .collect()
    }

    fn named(&self, v: &Verdict) -> Found {
        Found::Finding {
            kind: v.kind.to_string(),
            solver: v.blamed.map_or("undecided".into(), |b| self.specs[b].name.clone()),
            signature: v.signature.clone(),
        }
    }

    /// The differential oracle (crash, invalid model, conflicting definite answers),
    /// confirmed in fresh processes.
    pub fn differential(&mut self, s: &Script) -> Found {
        self.execs += 1;
        let results = self.run_all(s);
        let refs: Vec<Option<&QueryResult>> = results.iter().map(|r| r.as_ref()).collect();
        let verdicts = judge(&refs, None);
        for v in verdicts.iter().filter(|v| v.blamed.is_some()) {
            let fresh = self.run_fresh(s);
            let refs: Vec<Option<&QueryResult>> = fresh.iter().map(|r| r.as_ref()).collect();
            if judge(&refs, None).iter().any(|x| x.kind == v.kind && x.blamed == v.blamed) {
                return self.named(v);
            }
        }
        Found::Nothing
    }

    /// The STORM oracle: the instance is satisfied by `witness`, so `unsat` from any solver
    /// is a bug — confirmed by that solver in a fresh process and by the reference finding
    /// the instance with the witness pinned satisfiable.
    pub fn storm(&mut self, s: &Script, witness: &[(String, String)]) -> Found {
        self.execs += 1;
        let results = self.run_all(s);
        let mut found = Found::Nothing;
        for (k, r) in results.iter().enumerate() {
            let Some(r) = r else { continue };
            if let Some(Outcome::Crash { message, .. }) = r.crash.clone() {
                if let Some(v) = self.confirm_crash(s, k, &message) {
                    return v;
                }
            }
            if !r.outcomes.contains(&Outcome::Unsat) || found != Found::Nothing {
                continue;
            }
            let fresh = self.run_fresh(s);
            if !fresh[k].as_ref().is_some_and(|f| f.outcomes.contains(&Outcome::Unsat)) {
                continue;
            }
            let pinned = storm::pinned(s, witness);
            let Ok(p) = smtlib::parse(&pinned) else { continue };
            let r = self.reference;
            if self.specs[r].cannot_read(&p).is_some() {
                continue;
            }
            let f = self.scratch.join("pinned.smt2");
            let own = self.specs[r].family.without_foreign_options(&p);
            if std::fs::write(&f, smtlib::print(own.as_ref().unwrap_or(&p))).is_err() {
                continue;
            }
            let pr = run_file(&self.specs[r], &f, checks(&p).max(1), &self.limits);
            if !pr.outcomes.is_empty() && pr.outcomes.iter().all(|o| *o == Outcome::Sat) {
                found = Found::Finding {
                    kind: "soundness".into(),
                    solver: self.specs[k].name.clone(),
                    signature: "unsat for an instance its witness satisfies".into(),
                };
            }
        }
        found
    }

    fn confirm_crash(&self, s: &Script, k: usize, message: &str) -> Option<Found> {
        let fresh = self.run_fresh(s);
        let f = fresh.get(k)?.as_ref()?;
        match &f.crash {
            Some(Outcome::Crash { message: m, .. }) if m == message => {
                Some(Found::Finding { kind: "crash".into(), solver: self.specs[k].name.clone(), signature: m.clone() })
            }
            _ => None,
        }
    }

    /// STORM pools for a seed, built once per distinct seed text with the reference
    /// session (`None` when the reference has no model for it).
    pub fn pools(&mut self, seed: &Script, bounds: &storm::Bounds) -> Option<&Pools> {
        let text = smtlib::print(seed);
        let digest: [u8; 32] =
            sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(text.as_bytes())).into();
        let key = u64::from_le_bytes(digest[..8].try_into().unwrap_or_default());
        if !self.pools.contains_key(&key) {
            if self.pools.len() > 4096 {
                self.pools.clear();
            }
            let r = self.reference;
            let script = self.specs[r].family.without_foreign_options(seed).unwrap_or_else(|| seed.clone());
            let p = if self.specs[r].cannot_read(&script).is_none() {
                crate::tools::storm_check::pools_for(&script, &mut self.sessions[r], bounds, key, &mut 0).ok()
            } else {
                None
            };
            self.pools.insert(key, p);
        }
        self.pools.get(&key).and_then(|p| p.as_ref())
    }
}

/// `opfuzz_target` / `valfuzz_target`: the differential oracle on the input.
pub fn differential_target(data: &[u8]) -> Found {
    differential_input(&mut harness(), data)
}

/// [`differential_target`] on a given harness.
pub fn differential_input(h: &mut Harness, data: &[u8]) -> Found {
    let Ok(s) = smtlib::parse_bytes(data) else { return Found::Nothing };
    if checks(&s) == 0 {
        return Found::Nothing;
    }
    h.differential(&s)
}

/// `storm_target`: an input with a witness line is a STORM instance (any `unsat` is a
/// bug); without one it is a seed, checked differentially.
pub fn storm_target(data: &[u8]) -> Found {
    storm_input(&mut harness(), data)
}

/// [`storm_target`] on a given harness.
pub fn storm_input(h: &mut Harness, data: &[u8]) -> Found {
    let Ok(s) = smtlib::parse_bytes(data) else { return Found::Nothing };
    if checks(&s) == 0 {
        return Found::Nothing;
    }
    match std::str::from_utf8(data).ok().and_then(storm::read_witness) {
        Some(w) => h.storm(&s, &w),
        None => h.differential(&s),
    }
}
