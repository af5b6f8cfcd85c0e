//! STORM's bound minimisation (Mansur, Christakis, Wüstholz, Zhang, ESEC/FSE 2020, §3.4):
//! instead of shrinking a bug-triggering instance syntactically, generate new instances
//! from the same seed and model with smaller generator bounds — fewer assertions
//! (`amax`), shallower fragments (`dmax`), a smaller construction pool (`nc`) — and keep
//! the smallest that still triggers the same bug. Every such instance is satisfiable by
//! construction, so the witness stays the ground truth; the typed passes then take over.

use super::judge::FindingJudge;
use super::{BoundsReport, Judge, ReduceError};
use crate::mutate::choice::Rng;
use crate::mutate::edit::{self, Edit};
use crate::mutate::storm::Bounds;
use crate::smtlib::{self, Script};
use crate::solver::{Limits, Session, SolverSpec};
use crate::store::FindingDir;
use std::path::Path;
use std::time::Duration;
use std::time::Instant;

/// Instances tried per bound setting.
pub const TRIES: u64 = 16;

/// What the minimisation found: the instance (without its witness line), its witness,
/// and the bounds it came from.
#[derive(Clone, Debug)]
pub struct Minimised {
    pub text: String,
    pub witness: Vec<(String, String)>,
    pub bounds: Bounds,
    /// Instances checked.
    pub tried: u64,
}

/// Powers of two from 1 up to and including `max`.
fn ladder(max: usize) -> Vec<usize> {
    let mut v = vec![];
    let mut x = 1;
    while x < max {
        v.push(x);
        x *= 2;
    }
    v.push(max.max(1));
    v
}

/// Searches bounds from the smallest up — for each `amax` in 1, 2, 4, ..., each `dmax` in
/// 1, 2, 4, ... (with `nc` scaled down alike) — for an instance of `seed` that `judge`
/// confirms as the same bug, and returns the first one smaller than `current_bytes`.
/// `reference` builds the pools (its model is the new witness). Stops at `deadline`.
/// `tactic`: the trigger's z3 tactic, kept in every candidate (a bug of the tactic
/// framework does not reproduce under a plain `check-sat`).
#[allow(clippy::too_many_arguments)]
pub fn minimise(
    judge: &FindingJudge,
    seed: &Script,
    reference: &SolverSpec,
    original: &Bounds,
    tactic: Option<&str>,
    current_bytes: usize,
    limits: Limits,
    deadline: Option<Instant>,
) -> Option<Minimised> {
    if reference.cannot_read(&reference.own_script(seed)).is_some() {
        return None;
    }
    let mut sess = Session::new(reference.clone(), limits);
    let mut tried = 0;
    let mut pools_by_d = vec![];
    for d in ladder(original.dmax) {
        let b = Bounds { dmax: d, nc: original.nc.min(8 * d), ..original.clone() };
        if let Ok(p) = crate::oracle::witness::pools_for(seed, &mut sess, &b, d as u64, &mut 0) {
            pools_by_d.push((b, p));
        }
    }
    for a in ladder(original.amax) {
        for (b, pools) in &pools_by_d {
            let witness = pools.witness.clone();
            let j = judge.with_witness(witness.clone());
            let mut w = j.worker(0);
            for k in 0..TRIES {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return None;
                }
                let bounds = Bounds { amax: a, incremental: false, ..b.clone() };
                let mut rng = Rng::new(k.wrapping_mul(0x9E37_79B9) ^ (a as u64) << 32 ^ b.dmax as u64);
                let Some(asserts) = pools.instance(&bounds, &mut rng) else { continue };
                let e = Edit::Recombine { assertions: asserts, blocks: vec![], tactic: tactic.map(String::from) };
                let Ok(inst) = edit::apply(seed, &[e]) else { continue };
                let text = smtlib::print(&inst);
                if text.len() >= current_bytes {
                    continue;
                }
                tried += 1;
                if w.interesting(&text) && j.confirm(&text) {
                    return Some(Minimised { text, witness, bounds, tried });
                }
            }
        }
    }
    None
}

/// `smtstorm storm-minimize`: STORM's bound minimisation alone on the finding in `dir`.
/// Writes `dir/minimized.smt2` (witness line first) and returns what it found, or `None`
/// when no smaller instance reproduces the bug within `time`.
pub fn storm_minimize_finding(
    dir: &Path,
    solvers: &[SolverSpec],
    max_time: Duration,
    time: Option<Duration>,
) -> Result<Option<BoundsReport>, ReduceError> {
    let t0 = Instant::now();
    let scratch = super::tempdir_in(dir)?;
    let dir = FindingDir::new(dir);
    let (judge, meta) = FindingJudge::for_finding(dir.path(), solvers, max_time, scratch.path())?;
    if judge.witness.is_none() {
        return Err(ReduceError::Finding(super::judge::FindingError::Unusable {
            id: meta.id.clone(),
            why: "not a STORM soundness finding (no witness line)".into(),
        }));
    }
    let trigger_path = dir.trigger_path();
    let text = crate::util::files::read_input_text(&trigger_path)?;
    let script = smtlib::parse(&text).map_err(|e| e.in_file(&trigger_path))?;
    let from = smtlib::print(&script).len();
    let Some(m) = storm_bounds(&dir, &judge, &meta, from, time.map(|t| t0 + t)) else { return Ok(None) };
    let out = dir.minimized_path();
    let body = format!("{}\n{}", crate::mutate::storm::witness_line(&m.witness), m.text);
    crate::util::fs::write_atomic(&out, body.as_bytes())
        .map_err(|e| ReduceError::Write { path: out.display().to_string(), source: e })?;
    Ok(Some(BoundsReport {
        amax: m.bounds.amax,
        dmax: m.bounds.dmax,
        nc: m.bounds.nc,
        from_bytes: from,
        to_bytes: m.text.len(),
        instances: m.tried,
    }))
}

/// Bound minimisation for a STORM finding: the seed (as the campaign recorded its path,
/// loaded and sliced as the campaign fuzzed it),
/// the campaign's bounds, and the campaign's STORM reference as the model's source.
pub(super) fn storm_bounds(
    dir: &FindingDir,
    judge: &FindingJudge,
    meta: &crate::store::Meta,
    current: usize,
    deadline: Option<Instant>,
) -> Option<Minimised> {
    let cf = super::finding::campaign_of(dir)?;
    let seed = crate::solver::seed::as_fuzzed(&std::fs::read(&meta.seed).ok()?, meta.seed_slice.as_deref()).ok()?;
    let r = crate::solver::registry::reference_index(&cf.solvers, cf.config.reference.as_deref())?;
    let mut reference = cf.solvers.get(r)?.clone();
    // The option tables the judge's solvers know (none are stored in campaign.json).
    reference.option_owners = judge.solvers.first().map(|s| s.option_owners.clone()).unwrap_or_default();
    let original = cf.config.storm;
    minimise(judge, &seed, &reference, &original, meta.storm_tactic(), current, judge.limits, deadline)
}
