//! The unsat-core oracle in a campaign ([`crate::oracle::cores`]): a deterministic sample
//! of the `unsat` mutants (by their RNG seed, `core_rate` of them) has a solver that
//! answered `unsat` asked for its core or its unsat assumptions in a fresh process, and
//! the core alone checked on it and on another family. Its findings are confirmed and
//! stored like every other ([`confirm_and_store`]).

use super::candidates::Judged;
use super::worker::{time_up, Turn};
use super::*;
use crate::mutate::{Construction, Mutator};
use crate::oracle::cores::{self, Mode, Recheck};

/// Whether each solver (by its command line) gives cores and unsat assumptions, asked
/// once per process: a solver whose core command errors does not get this oracle.
static PROBES: Mutex<Vec<(Vec<String>, Mode, bool)>> = Mutex::new(vec![]);

/// A two-assertion contradiction every family reads (`QF_UF`: bitwuzla wants a logic).
const PROBE: &str = "(set-logic QF_UF)(declare-const b Bool)(assert b)(assert (not b))(check-sat)";

/// Whether `spec` answers [`PROBE`]'s named script in `mode` with a core.
fn supports(spec: &SolverSpec, mode: Mode, tmp: &Path, w: usize, limits: &Limits) -> bool {
    let key = spec.command.clone();
    if let Some(&(_, _, ok)) =
        PROBES.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(c, m, _)| *c == key && *m == mode)
    {
        return ok;
    }
    let ok = smtlib::parse(PROBE).ok().and_then(|s| cores::named(&s, mode)).is_some_and(|named| {
        let f = tmp.join(format!("w{w}-core-probe.smt2"));
        std::fs::write(&f, oracle::confirm::fresh_text(spec, &named)).is_ok() && {
            let r = crate::solver::run_file(spec, &f, 1, limits);
            let _ = std::fs::remove_file(&f);
            r.outcomes.as_slice() == [Outcome::Unsat] && r.data.iter().any(|d| cores::parse_core(d).is_some())
        }
    });
    PROBES.lock().unwrap_or_else(|e| e.into_inner()).push((key, mode, ok));
    ok
}

/// Re-checks the core of a sampled `unsat` mutant; the distinct bugs stored.
pub(super) fn check(
    sh: &Shared,
    m: &dyn Mutator<'_>,
    j: &Judged,
    t: &Turn,
    limits: &Limits,
    tmp: &Path,
    w: usize,
) -> u64 {
    let Judged { i, engine, mutant, rs, .. } = *j;
    // A STORM instance is `sat` by construction: its `unsat` is a candidate already.
    if sh.cfg.core_rate <= 0.0 || matches!(m.construction(), Construction::Witness(_)) || time_up(sh) {
        return 0;
    }
    let first = |k: usize| rs.get(k).copied().flatten().filter(|r| r.crash.is_none()).and_then(|r| r.outcomes.first());
    let unsat: Vec<usize> = t.solvers.iter().copied().filter(|&k| first(k) == Some(&Outcome::Unsat)).collect();
    // A `sat` next to the `unsat` is the differential judge's.
    if unsat.is_empty() || t.solvers.iter().any(|&k| first(k) == Some(&Outcome::Sat)) {
        return 0;
    }
    if !cores::sampled(mutant.rng_seed, sh.cfg.core_rate) {
        return 0;
    }
    sh.counters.cores.sampled.fetch_add(1, Relaxed);
    let seed = &sh.seeds[i];
    let Ok(trigger) = m.rebuild(seed.script(), mutant) else { return 0 };
    let mode = cores::mode_for(mutant.rng_seed);
    let Some(named) = cores::named(&trigger, mode) else { return 0 };
    let readable = |k: usize| sh.solvers[k].cannot_read(&sh.solvers[k].own_script(&named)).is_none();
    // The check gets twice the turn's limit (at least a second: fresh processes start up).
    let lim = Limits { time: (t.limit * 2).max(Duration::from_secs(1)).min(limits.time), ..*limits };
    let able: Vec<usize> =
        unsat.into_iter().filter(|&k| readable(k) && supports(&sh.solvers[k], mode, tmp, w, &lim)).collect();
    if able.is_empty() {
        return 0;
    }
    sh.counters.cores.applicable.fetch_add(1, Relaxed);
    let pick = crate::util::hash::mix(&[mutant.rng_seed, 0xB1A]) as usize;
    let blamed = able[pick % able.len()];
    // The other families in an order drawn from the seed, so that no one family always
    // judges the cores.
    let mut readers: Vec<usize> = t.solvers.iter().copied().filter(|&k| readable(k)).collect();
    let n = readers.len().max(1);
    readers.rotate_left(pick / 7 % n);
    let others = cores::other_families(&sh.families, &readers, blamed);
    let mut run = |k: usize, s: &Script, checks: usize| {
        sh.counters.cores.processes.fetch_add(1, Relaxed);
        let f = tmp.join(format!("w{w}-core-{k}.smt2"));
        if std::fs::write(&f, oracle::confirm::fresh_text(&sh.solvers[k], s)).is_err() {
            return crate::solver::failed(vec![Outcome::Timeout; checks.max(1)], Instant::now());
        }
        let r = crate::solver::run_file(&sh.solvers[k], &f, checks, &lim);
        let _ = std::fs::remove_file(&f);
        r
    };
    let r = cores::recheck(&named, blamed, &others, true, &mut run);
    sh.counters.cores.count(&r);
    let cand = |trigger| Candidate {
        seed: i,
        trigger,
        engine: Origin::Engine(engine),
        edits: &mutant.edits,
        rng_seed: mutant.rng_seed,
        truth: None,
        seed_finding: false,
        witness: None,
    };
    match r {
        Recheck::Wrong { verdict, .. } => {
            count_core_candidate(sh);
            confirm_and_store(sh, &cand(&named), &verdict, limits, tmp, w).is_some_and(|(_, new)| new) as u64
        }
        // The solver and another family disagree on the core alone: an ordinary
        // candidate on the core-only script (its answer is not the mutant's: no truth).
        Recheck::Disagree { core_only, results } => {
            let rs: Vec<Option<&QueryResult>> = results.iter().map(Option::as_ref).collect();
            let mut new = 0;
            // Only a verdict with someone to blame, and not one the seed already carries:
            // a tie inside one family on a script the mutant only implies is a dialect
            // matter (z3 4.8.7 and 5.4.0 read string escapes apart), and the seed's own
            // bug repeated is inherited, as for the mutant itself.
            let fresh = |v: &oracle::Verdict| {
                v.kind == BugKind::Soundness
                    && v.blamed.is_some()
                    && !t.seed_blames.iter().any(|(k, b, _)| *k == v.kind && *b == v.blamed)
            };
            for v in oracle::judge(&rs, &sh.families, None, None).into_iter().filter(fresh) {
                count_core_candidate(sh);
                new += confirm_and_store(sh, &cand(&core_only), &v, limits, tmp, w).is_some_and(|(_, n)| n) as u64;
            }
            new
        }
        _ => 0,
    }
}

fn count_core_candidate(sh: &Shared) {
    sh.counters.candidates.fetch_add(1, Relaxed);
}
