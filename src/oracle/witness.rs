//! `smtstorm storm-check`: the STORM generator's own correctness, measured. For each seed,
//! pools are built from the reference solver's model, instances generated, and every
//! instance with its witness pinned is given to the checking solvers: each must answer
//! `sat`. An `unsat` is a *violation* (a generator bug, or a checker bug to look at).

use crate::mutate::choice::Rng;
use crate::mutate::storm::{self, Bounds, Pools};
use crate::smtlib::{self, Script};
use crate::solver::{model, session_text, Limits, Outcome, Session, SolverSpec};
use std::path::PathBuf;

/// What happened on one seed.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct SeedReport {
    #[serde(with = "crate::util::path::lossless")]
    pub seed: PathBuf,
    /// Why no instance was generated, if none was.
    pub skipped: Option<String>,
    pub instances: usize,
    /// (checker, answers: sat, unsat, other)
    pub answers: Vec<(String, usize, usize, usize)>,
    /// Instances some checker answered `unsat` with the witness pinned.
    pub violations: Vec<String>,
}

/// Why a seed gives no STORM pools.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NoPools {
    /// The reference cannot read the seed ([`SolverSpec::cannot_read`]).
    #[error("{0}")]
    Unreadable(String),
    #[error("no fragment")]
    NoFragment,
    #[error("the model query does not parse: {0}")]
    BadQuery(smtlib::SyntaxError),
    #[error("no get-value answer")]
    NoValues,
    #[error("get-value answered a different number of values")]
    ValueCount,
    #[error("no fragment has a Boolean value")]
    NoBooleanValue,
    #[error("reference answered {0}")]
    Answered(Outcome),
    #[error("reference answered unsat for the negation too")]
    UnsatBothWays,
}

/// Builds STORM pools for `seed` with a reference session: the seed without the options
/// the reference rejects ([`SolverSpec::own_script`]), then one query for the model and
/// every fragment's value, and a second with the negated conjunction if the seed is
/// unsat. `calls` counts the queries. This is the one place campaigns, the fuzz harness,
/// bound minimisation and `storm-check` go from a seed to its pools.
pub fn pools_for(
    seed: &Script,
    reference: &mut Session,
    bounds: &Bounds,
    rng_seed: u64,
    calls: &mut u64,
) -> Result<Pools, NoPools> {
    let script = reference.spec().own_script(seed);
    if let Some(why) = reference.spec().cannot_read(&script) {
        return Err(NoPools::Unreadable(why));
    }
    let frags = storm::fragments(&script, bounds.dmax, bounds.max_formula_bytes);
    if frags.is_empty() {
        return Err(NoPools::NoFragment);
    }
    for negate in [false, true] {
        let (q, consts) = storm::model_query(&script, &frags, negate);
        // A push/pop session takes logic and options only in its prelude (z3 rejects
        // `:produce-models` inside a scope): send the query without them.
        let q = match reference.framing {
            crate::solver::Framing::PushPop { .. } => {
                smtlib::parse(&q).map(|s| crate::solver::incremental_text(&s).0).map_err(NoPools::BadQuery)?
            }
            crate::solver::Framing::Reset => q,
        };
        let r = reference.query(&q, 1);
        *calls += 1;
        match r.outcome() {
            Outcome::Sat => {
                let values = r.data.iter().find_map(|d| model::parse_values(d).ok()).ok_or(NoPools::NoValues)?;
                if values.len() != consts.len() + frags.len() {
                    return Err(NoPools::ValueCount);
                }
                return Pools::build(&frags, &consts, &values, bounds, &mut Rng::new(rng_seed))
                    .ok_or(NoPools::NoBooleanValue);
            }
            // An unsat seed makes the `get-value` an error: try the negation.
            Outcome::Unsat | Outcome::Error { .. } if !negate => continue,
            o => return Err(NoPools::Answered(o.clone())),
        }
    }
    Err(NoPools::UnsatBothWays)
}

/// Checks `n` instances per seed.
pub fn check(
    seeds: &[PathBuf],
    reference: &SolverSpec,
    checkers: &[SolverSpec],
    bounds: &Bounds,
    n: usize,
    limits: Limits,
) -> Vec<SeedReport> {
    let mut reference = Session::new(reference.clone(), limits);
    let mut sessions: Vec<Session> = checkers.iter().map(|c| Session::new(c.clone(), limits)).collect();
    let mut out = vec![];
    for (si, path) in seeds.iter().enumerate() {
        let mut rep = SeedReport { seed: path.clone(), ..Default::default() };
        let Some(script) = std::fs::read(path).ok().and_then(|b| smtlib::parse_bytes(&b).ok()) else {
            rep.skipped = Some("does not parse".into());
            out.push(rep);
            continue;
        };
        let pools = match pools_for(&script, &mut reference, bounds, si as u64, &mut 0) {
            Ok(p) => p,
            Err(e) => {
                rep.skipped = Some(e.to_string());
                out.push(rep);
                continue;
            }
        };
        rep.answers = checkers.iter().map(|c| (c.name.clone(), 0, 0, 0)).collect();
        for k in 0..n as u64 {
            let Some(a) = pools.instance(bounds, &mut Rng::new(k * 7919 + si as u64)) else { continue };
            let Ok(inst) = storm::instance_script(&reference.spec().own_script(&script), a) else { continue };
            rep.instances += 1;
            let pinned = storm::pinned(&inst, &pools.witness);
            let Ok(pinned) = smtlib::parse(&pinned) else { continue };
            for (c, sess) in sessions.iter_mut().enumerate() {
                if sess.spec().cannot_read(&pinned).is_some() {
                    continue;
                }
                let s = sess.spec().own_script(&pinned);
                let (q, checks) = session_text(&s);
                match sess.query(&q, checks).outcome() {
                    Outcome::Sat => rep.answers[c].1 += 1,
                    Outcome::Unsat => {
                        rep.answers[c].2 += 1;
                        rep.violations.push(format!("{}: {}", sess.spec().name, smtlib::print(&s)));
                    }
                    _ => rep.answers[c].3 += 1,
                }
            }
        }
        out.push(rep);
    }
    out
}
