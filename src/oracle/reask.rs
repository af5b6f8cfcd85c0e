//! The oracles that re-ask a query a solver has answered, in fresh processes, as campaign
//! workers and the fuzz targets both run them (one driver, so a target's finding is a
//! campaign's): the unsat-core oracle ([`cores`], Murxla's) after an `unsat`, and the
//! solvers' own self-checks ([`super::checks`]) after a definite answer. Each is asked on a
//! sample drawn from the query (a mutant's RNG seed, a target input's text), so a rerun or
//! a reproduction asks the same.

use super::cores::{self, mode_for, named, other_families, parse_core, recheck, Mode, Recheck, Tally};
use super::Verdict;
use crate::smtlib::framing::Framing;
use crate::smtlib::{self, Script};
use crate::solver::{Family, Limits, Outcome, QueryResult, SolverSpec};
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;

/// Whether each solver (by its command line) gives cores and unsat assumptions, asked
/// once per process: a solver whose core command errors does not get this oracle.
static PROBES: std::sync::Mutex<Vec<(Vec<String>, Mode, bool)>> = std::sync::Mutex::new(vec![]);

/// A two-assertion contradiction every family reads (`QF_UF`: bitwuzla wants a logic).
const PROBE: &str = "(set-logic QF_UF)(declare-const b Bool)(assert b)(assert (not b))(check-sat)";

/// Whether `spec` answers [`PROBE`]'s named script in `mode` with a core.
fn gives_cores(spec: &SolverSpec, mode: Mode, dir: &Path, tag: &str, limits: &Limits) -> bool {
    let key = spec.command.clone();
    let known =
        PROBES.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(c, m, _)| *c == key && *m == mode).map(|p| p.2);
    if let Some(ok) = known {
        return ok;
    }
    let Some(named) = smtlib::parse(PROBE).ok().and_then(|s| named(&s, mode)) else { return false };
    let f = dir.join(format!("{tag}core-probe.smt2"));
    if std::fs::write(&f, super::confirm::fresh_text(spec, &named)).is_err() {
        return false;
    }
    let r = crate::solver::run_file(spec, &f, 1, limits);
    let _ = std::fs::remove_file(&f);
    // A probe that ran out of time (cvc5's interpreter start on a loaded machine) says
    // nothing of the solver: asked again next time, not refused for the whole run.
    if r.outcomes.as_slice() == [Outcome::Timeout] {
        return false;
    }
    let ok = r.outcomes.as_slice() == [Outcome::Unsat] && r.data.iter().any(|d| parse_core(d).is_some());
    PROBES.lock().unwrap_or_else(|e| e.into_inner()).push((key, mode, ok));
    ok
}

/// The solvers among `asked` whose first answer to a query was `unsat` (no crash), or
/// none where one of them answered `sat` (a disagreement is the differential judge's).
pub fn unsat_answerers(asked: &[usize], rs: &[Option<&QueryResult>]) -> Vec<usize> {
    let first = |k: usize| rs.get(k).copied().flatten().filter(|r| r.crash.is_none()).and_then(|r| r.outcomes.first());
    if asked.iter().any(|&k| first(k) == Some(&Outcome::Sat)) {
        return vec![];
    }
    asked.iter().copied().filter(|&k| first(k) == Some(&Outcome::Unsat)).collect()
}

/// Where and how the re-asking oracles run their fresh processes.
pub struct Ask<'a> {
    pub specs: &'a [SolverSpec],
    pub families: &'a [Family],
    /// Every solver that was asked the query (the readers of the core-only script).
    pub asked: &'a [usize],
    pub limits: &'a Limits,
    pub dir: &'a Path,
    /// A prefix for the scratch files (a worker's, a target's).
    pub tag: &'a str,
    pub tally: &'a Tally,
    /// Answers re-checked by a self-check.
    pub tally_checks: &'a std::sync::atomic::AtomicU64,
}

/// The unsat-core oracle on one query, as every caller runs it (campaign workers and the
/// fuzz targets): of the solvers in `unsat` (from [`unsat_answerers`]) that read the named
/// script and give cores, one drawn from `rng_seed` is asked for its core in `mode_for`
/// the seed, and the core re-checked on it and on the first other family that decides
/// ([`cores::recheck`]). The named script (a finding's trigger) and what the re-check said;
/// `None` where the oracle does not apply.
pub fn core(a: &Ask, query: &Script, unsat: &[usize], rng_seed: u64) -> Option<(Script, Recheck)> {
    let mode = mode_for(rng_seed);
    let named = named(query, mode)?;
    let readable = |k: usize| a.specs[k].cannot_read(&a.specs[k].own_script(&named)).is_none();
    let able: Vec<usize> = unsat
        .iter()
        .copied()
        .filter(|&k| readable(k) && gives_cores(&a.specs[k], mode, a.dir, a.tag, a.limits))
        .collect();
    if able.is_empty() {
        return None;
    }
    a.tally.applicable.fetch_add(1, Relaxed);
    let pick = crate::util::hash::mix(&[rng_seed, 0xB1A]) as usize;
    let blamed = able[pick % able.len()];
    // The other families in an order drawn from the seed, so that no one family always
    // judges the cores.
    let mut readers: Vec<usize> = a.asked.iter().copied().filter(|&k| readable(k)).collect();
    let n = readers.len().max(1);
    readers.rotate_left(pick / 7 % n);
    let others = other_families(a.families, &readers, blamed);
    let mut run = |k: usize, s: &Script, checks: usize| {
        a.tally.processes.fetch_add(1, Relaxed);
        let f = a.dir.join(format!("{}core-{k}.smt2", a.tag));
        if std::fs::write(&f, super::confirm::fresh_text(&a.specs[k], s)).is_err() {
            return crate::solver::failed(vec![Outcome::Timeout; checks.max(1)], std::time::Instant::now());
        }
        let r = crate::solver::run_file(&a.specs[k], &f, checks, a.limits);
        let _ = std::fs::remove_file(&f);
        r
    };
    let r = recheck(&named, blamed, &others, true, &mut run);
    a.tally.count(&r);
    Some((named, r))
}

/// The sample rates of the re-asking oracles (a campaign's `--core-rate` and
/// `--self-checks`; the fuzz targets take the same defaults).
#[derive(Clone, Copy, Debug)]
pub struct Rates {
    /// The share of `unsat` answers whose core is re-checked.
    pub core: f64,
    /// One query in this many is re-checked by the solvers' self-checks (0: never).
    pub self_checks: u32,
}

impl Rates {
    /// Whether the query drawn by `key` is in the core oracle's sample and in the
    /// self-checks' (the draws [`sampled`] makes).
    pub fn drawn(self, key: u64) -> (bool, bool) {
        (
            self.core > 0.0 && cores::sampled(key, self.core),
            self.self_checks > 0 && super::checks::sampled(key, self.self_checks),
        )
    }
}

/// The limits of the re-asking oracles' fresh processes: four times `query`, at least a
/// second (a fresh process starts up; cvc5's and bitwuzla's drivers start an
/// interpreter), and no more than `cap` where the caller has one. The fuzz targets pass
/// their per-query limit (250 ms: 1 s); a campaign passes its `--timeout` as both, so
/// its re-asks get the whole limit (a proof or model check costs more than the answer it
/// checks, and a quick pre-screen's turn has only a tenth of it).
pub fn limits(query: std::time::Duration, cap: Option<std::time::Duration>, base: &Limits) -> Limits {
    let time = (query * 4).max(std::time::Duration::from_secs(1));
    Limits { time: cap.map_or(time, |c| time.min(c)), ..*base }
}

/// What the query's own judge already knows, so that the re-asking oracles add only what
/// is new: the answer its construction gives (STORM's `sat`, a fusion's status) and the
/// bugs its seed already shows (kind, blamed solver, signature), which a mutant inherits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Known<'a> {
    pub truth: Option<&'a [Outcome]>,
    pub inherited: &'a [(super::BugKind, Option<usize>, String)],
}

/// The candidates of a sampled query (`key` draws the sample): each a trigger to confirm
/// (the named script, the core-only script, or the script with the check options) and the
/// verdicts on it, in the order to try them. One rule for campaigns and fuzz targets:
/// - no core is asked where the construction says `sat` at some check (an `unsat` there
///   is the differential judge's candidate already);
/// - a disagreement on the core alone blames someone, and not as the seed already does
///   (a tie inside one family on a script the mutant only implies is a dialect matter —
///   z3 4.8.7 and 5.4.0 read string escapes apart — and the seed's own bug repeated is
///   inherited, as for the mutant itself);
/// - a query whose checks set a meaning-changing parameter (`framing`) gets no
///   self-check: it asks about another formula.
pub fn sampled(
    ask: &Ask,
    query: &Script,
    results: &[Option<&QueryResult>],
    key: u64,
    rates: Rates,
    framing: Option<&Framing>,
    known: Known,
) -> Vec<(Script, Vec<Verdict>)> {
    let mut found = vec![];
    let unsat = unsat_answerers(ask.asked, results);
    let constructed_sat = known.truth.is_some_and(|t| t.contains(&Outcome::Sat));
    let (core_drawn, check_drawn) = rates.drawn(key);
    if core_drawn && !constructed_sat && !unsat.is_empty() {
        ask.tally.sampled.fetch_add(1, Relaxed);
        match core(ask, query, &unsat, key) {
            Some((named, Recheck::Wrong { verdict, .. })) => found.push((named, vec![verdict])),
            Some((_, Recheck::Disagree { core_only, results })) => {
                let rs: Vec<Option<&QueryResult>> = results.iter().map(Option::as_ref).collect();
                let fresh = |v: &Verdict| {
                    v.kind == super::BugKind::Soundness
                        && v.blamed.is_some()
                        && !known.inherited.iter().any(|(k, b, _)| *k == v.kind && *b == v.blamed)
                };
                let vs: Vec<Verdict> = super::judge(&rs, ask.families, None, None).into_iter().filter(fresh).collect();
                if !vs.is_empty() {
                    found.push((core_only, vs));
                }
            }
            _ => {}
        }
    }
    let changed = framing.is_some_and(|f| f.changed.iter().any(|c| *c));
    if !check_drawn || changed {
        return found;
    }
    for &k in ask.asked {
        let Some(r) = results
            .get(k)
            .copied()
            .flatten()
            .filter(|r| r.crash.is_none() && r.outcomes.iter().any(Outcome::is_definite))
        else {
            continue;
        };
        let Some(rc) =
            super::checks::recheck(ask.specs, ask.families, k, query, &r.outcomes, ask.dir, ask.tag, ask.limits)
        else {
            continue;
        };
        ask.tally_checks.fetch_add(1, Relaxed);
        if !rc.verdicts.is_empty() {
            found.push((rc.trigger, rc.verdicts));
        }
    }
    found
}
