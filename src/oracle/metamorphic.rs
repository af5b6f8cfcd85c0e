//! The metamorphic oracle (issue 40, item 4): a variant built by relations that keep
//! every check-sat's answer ([`crate::mutate::equisat`]) must get, from each solver, the
//! answer that solver gave the seed. A definite `sat`/`unsat` flip is a soundness bug of
//! that solver alone (one of its two answers is wrong), decided with no other family;
//! `unknown`, timeouts, errors and crashes abstain (a crash is the crash oracle's).
//!
//! When solvers of two or more families flip at the same check-sat, the construction is
//! doubted rather than all of them blamed (as [`super::judge_constructed`] doubts a
//! fusion's status that every family contradicts): nothing is said.
//!
//! Answer times of the variants are Mariposa's instability (Zhou et al., FMCAD 2023),
//! which campaigns measure per seed and never report as a bug
//! (`campaign::instability`).

use super::{voter, BlameBy, BugKind, Verdict};
use crate::solver::{Family, Outcome, QueryResult};

/// `Some(true)` for `sat`, `Some(false)` for `unsat`, by outcome name (the pre-screen
/// keeps names).
pub fn definite_name(n: &str) -> Option<bool> {
    match n {
        "sat" => Some(true),
        "unsat" => Some(false),
        _ => None,
    }
}

/// Each solver's definite answers per check-sat from its results (`None`: not asked).
pub fn answers_of(results: &[Option<&QueryResult>]) -> Vec<Option<Vec<Option<bool>>>> {
    results.iter().map(|r| r.map(|r| r.outcomes.iter().map(|o| definite_name(o.name())).collect())).collect()
}

/// The signature of a flip: which answer the seed got and which the variant got.
pub fn signature(seed: bool, variant: bool) -> String {
    let w = |b: bool| if b { "sat" } else { "unsat" };
    format!("{} to the seed, {} to an equisatisfiable variant", w(seed), w(variant))
}

/// The two answers a [`signature`] names (seed's, variant's).
pub fn parse_signature(sig: &str) -> Option<(Outcome, Outcome)> {
    let (a, rest) = sig.split_once(" to the seed, ")?;
    let b = rest.strip_suffix(" to an equisatisfiable variant")?;
    let o = |w: &str| match w {
        "sat" => Some(Outcome::Sat),
        "unsat" => Some(Outcome::Unsat),
        _ => None,
    };
    Some((o(a)?, o(b)?))
}

/// The variant's answers (`variant[i]`, solver `i`) judged against each solver's own
/// answers to the seed (`seed[i]`, per check-sat; `None` or a missing check abstains).
pub fn judge(
    variant: &[Option<&QueryResult>],
    seed: &[Option<Vec<Option<bool>>>],
    families: &[Family],
) -> Vec<Verdict> {
    let mut v: Vec<Verdict> = vec![];
    let checks = variant.iter().flatten().map(|r| r.outcomes.len()).max().unwrap_or(0);
    for k in 0..checks {
        let flips: Vec<(usize, bool, bool)> = variant
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let b = definite_name(r.as_ref()?.outcomes.get(k)?.name())?;
                let a = (*seed.get(i)?.as_ref()?.get(k)?)?;
                (a != b).then_some((i, a, b))
            })
            .collect();
        let voters: std::collections::HashSet<_> = flips.iter().map(|f| voter(families, f.0)).collect();
        if voters.len() != 1 {
            continue;
        }
        for (i, a, b) in flips {
            if !v.iter().any(|x| x.blamed == Some(i)) {
                v.push(Verdict {
                    kind: BugKind::Soundness,
                    blamed: Some(i),
                    blame_by: BlameBy::Metamorphic,
                    signature: signature(a, b),
                });
            }
        }
    }
    v
}

/// [`judge`] with the seed's answers as results too (confirmation reruns both sides).
pub fn judge_pair(
    variant: &[Option<&QueryResult>],
    seed: &[Option<&QueryResult>],
    families: &[Family],
) -> Vec<Verdict> {
    judge(variant, &answers_of(seed), families)
}

#[cfg(test)]
mod tests {
    use super::super::tests::r;
    use super::*;
    use Family::{Cvc5, Yices, Z3};

    #[test]
    fn one_family_flipping_is_blamed_alone_two_are_doubted_and_unknowns_abstain() {
        let (s, u, k) = (r(&[Outcome::Sat]), r(&[Outcome::Unsat]), r(&[Outcome::Unknown { reason: String::new() }]));
        let blamed = |v: &[Verdict]| v.iter().map(|x| (x.blamed, x.blame_by)).collect::<Vec<_>>();
        // z3 said sat to the seed and unsat to the variant; cvc5 sat to both.
        let v = judge_pair(&[Some(&u), Some(&s)], &[Some(&s), Some(&s)], &[Z3, Cvc5]);
        assert_eq!(blamed(&v), [(Some(0), BlameBy::Metamorphic)]);
        assert_eq!(v[0].signature, "sat to the seed, unsat to an equisatisfiable variant");
        assert_eq!(parse_signature(&v[0].signature), Some((Outcome::Sat, Outcome::Unsat)));
        // One solver alone is enough: no vote.
        assert_eq!(blamed(&judge_pair(&[Some(&s)], &[Some(&u)], &[Yices])), [(Some(0), BlameBy::Metamorphic)]);
        // Two families flip together: the construction is doubted.
        assert!(judge_pair(&[Some(&u), Some(&u)], &[Some(&s), Some(&s)], &[Z3, Cvc5]).is_empty());
        // Two releases of one family flip: both blamed.
        assert_eq!(judge_pair(&[Some(&u), Some(&u)], &[Some(&s), Some(&s)], &[Z3, Z3]).len(), 2);
        // Unknown on either side, or no answer to the seed, abstains.
        assert!(judge_pair(&[Some(&k)], &[Some(&s)], &[Z3]).is_empty());
        assert!(judge_pair(&[Some(&u)], &[Some(&k)], &[Z3]).is_empty());
        assert!(judge(&[Some(&u)], &[None], &[Z3]).is_empty());
        assert!(judge_pair(&[Some(&s), Some(&u)], &[Some(&s), Some(&u)], &[Z3, Cvc5]).is_empty());
    }
}
