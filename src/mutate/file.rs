//! `smtstorm mutate`: mutants of one seed, each with the edits that made it.

use crate::mutate::fusion::{self, Part};
use crate::mutate::{bec, choice::Rng, edit::Edit, valfuzz, Engine, Prepared};
use crate::smtlib;
use crate::solver::{model, Limits, Outcome, Session, SolverSpec};
use crate::util::error::Result;
use std::path::Path;

/// A mutant and its description.
pub struct Mutant {
    pub edits: Vec<Edit>,
    pub text: String,
}

/// The seed at `path`, without options that would make a solver write files
/// ([`crate::solver::sandbox`]): mutants are for running.
fn read(path: &Path) -> Result<smtlib::Script> {
    let text = crate::util::files::read_input_text(path)?;
    let s = smtlib::parse(&text).map_err(|e| e.in_file(path))?;
    Ok(crate::solver::sandbox::without_file_writers(&s).unwrap_or(s))
}

fn finish(edits: Vec<Edit>, mut m: smtlib::Script) -> Mutant {
    crate::mutate::edit::strip_status(&mut m);
    Mutant { edits, text: smtlib::print(&m) }
}

/// Up to `count` mutants of the seed at `path`; mutant `i` uses RNG seed `seed + i`, so
/// each one replays on its own.
pub fn mutants(path: &Path, engine: Engine, seed: u64, count: usize) -> Result<Vec<Mutant>> {
    let script = read(path)?;
    let prepared = Prepared::new(engine, &script);
    Ok((0..count as u64)
        .filter_map(|i| prepared.mutate(&mut Rng::new(seed.wrapping_add(i))))
        .map(|(e, m)| finish(e, m))
        .collect())
}

/// Semantic Fusion mutants of the seeds at `path` and `other` ([`crate::mutate::fusion`]);
/// mutant `i` uses RNG seed `seed + i`. Both seeds' `:status` is taken on trust here (a
/// campaign, `smtstorm fuzz --engine fusion`, confirms it with the solvers first): it
/// must be the same, `sat` or `unsat`, and each seed fusable (one check-sat after its
/// assertions, no push/pop, datatypes, recursive functions or `match`).
pub fn fusion_mutants(path: &Path, other: &Path, seed: u64, count: usize) -> Result<Vec<Mutant>> {
    let (a, b) = (read(path)?, read(other)?);
    let sat = match (a.status(), b.status()) {
        (Some("sat"), Some("sat")) => true,
        (Some("unsat"), Some("unsat")) => false,
        _ => {
            return Err(crate::util::error::Error::Input {
                path: other.to_path_buf(),
                why: format!("fusion needs a :status (sat or unsat), the same as {}'s", path.display()),
            })
        }
    };
    let (mut a, mut b) = (a, b);
    crate::mutate::edit::strip_status(&mut a);
    crate::mutate::edit::strip_status(&mut b);
    let (Some(pa), Some(pb)) = (Part::new(&a), Part::new(&b)) else {
        return Err(crate::util::error::Error::Invalid {
            key: "with",
            flag: Some("--with"),
            value: format!("{} and {}", path.display(), other.display()),
            expected:
                "seeds with one check-sat after their assertions, no push/pop, datatypes, recursive functions or match",
        });
    };
    let other = other.display().to_string();
    Ok((0..count as u64)
        .filter_map(|i| fusion::fuse(&pa, &pb, sat, &mut Rng::new(seed.wrapping_add(i))))
        .map(|(recipe, m)| finish(vec![Edit::Fuse { other: other.clone(), recipe }], m))
        .collect())
}

/// A BEC answer from a solver session: `sat` with the `get-value` pairs, `unsat`, or
/// given up.
pub fn bec_answer(session: &mut Session, query: &str) -> bec::BecAnswer {
    let r = session.query(query, 1);
    match r.outcome() {
        Outcome::Sat => match r.data.first().map(|d| model::parse_values(d)) {
            Some(Ok(v)) => bec::BecAnswer::Values(v),
            _ => bec::BecAnswer::GaveUp,
        },
        Outcome::Unsat => bec::BecAnswer::Impossible,
        _ => bec::BecAnswer::GaveUp,
    }
}

/// ValFuzz mutants by Boolean Expression Coercion, with `solver` as the reference that
/// supplies values: at most `rounds` queries.
pub fn bec_mutants(path: &Path, solver: &SolverSpec, seed: u64, rounds: usize) -> Result<Vec<Mutant>> {
    let script = read(path)?;
    let p = valfuzz::Prepared::new(&script);
    let mut rng = Rng::new(seed);
    let Some(plan) = bec::bec_plan(&p, 16, &mut rng) else { return Ok(vec![]) };
    let mut session = Session::new(solver.clone(), Limits::default());
    let out = bec::bec(&p, &plan, rounds, &mut rng, &mut |q| bec_answer(&mut session, q));
    Ok(out.into_iter().map(|(e, m)| finish(e, m)).collect())
}

/// A mutant as a file: one comment line with the edits (JSON), then the script.
pub fn render(m: &Mutant) -> String {
    format!("; smtstorm-edits: {}\n{}", serde_json::to_string(&m.edits).unwrap_or_default(), m.text)
}
