//! TypeFuzz-style subterm replacement (Park, Winterer, Zhang, Su, "Generative Type-Aware
//! Mutation for Testing SMT Solvers", OOPSLA 2021): a term is replaced by another term of
//! the same sort that is in scope at that position, or by a fresh application of an
//! operator of that result sort over in-scope terms.
//!
//! Works for every sort the checker knows — bit-vectors, floating point, declared sorts,
//! datatypes, arrays — because donors are matched by the checker's sort, not by syntax
//! (yinyang's typefuzz crashes on BV, FP and uninterpreted sorts). "In scope" means: the
//! donor's local variables are bound at the target to values of the same sort, and the
//! donor comes from the same or an earlier command (declaration order); `push`/`pop` and
//! anything else the scope walk cannot see is caught by the sort re-check in
//! [`edit::apply`].

use super::choice::Choices;
use super::edit::{self, Edit};
use super::scope::Scope;
use crate::smtlib::ast::*;
use crate::smtlib::check::{self, Checked};
use crate::smtlib::printer::term_to_string;
use crate::smtlib::sort::{SortKind, SortRef, Sorts};
use crate::smtlib::theory::{self, OpSig, SortPat};
use rustc_hash::FxHashMap;

/// Donors larger than this many nodes are not copied (mutants stay close to their seed).
pub const MAX_DONOR: u32 = 64;

/// A seed prepared once for many mutants.
pub struct Prepared<'a> {
    pub script: &'a Script,
    pub scope: Scope,
    checked: Checked,
    by_sort: FxHashMap<SortRef, Vec<u32>>,
    /// Nodes small enough to be donors or arguments of fresh applications.
    small: Vec<u32>,
    ops: Vec<&'static OpSig>,
    baseline: usize,
}

impl<'a> Prepared<'a> {
    pub fn new(script: &'a Script) -> Prepared<'a> {
        let checked = check::check(script);
        let scope = Scope::new(script, &checked);
        let mut by_sort: FxHashMap<SortRef, Vec<u32>> = FxHashMap::default();
        let mut small = vec![];
        for (i, n) in scope.nodes.iter().enumerate() {
            if n.sort != SortRef::UNKNOWN && !n.named() && n.size <= MAX_DONOR {
                by_sort.entry(n.sort).or_default().push(i as u32);
                small.push(i as u32);
            }
        }
        let declared = super::opfuzz::declared(script);
        let linear = super::opfuzz::is_linear(script);
        let ops = theory::table()
            .sigs
            .iter()
            .filter(|o| {
                o.dialect.is_none()
                    && o.indices == 0
                    && !o.params.is_empty()
                    && !declared.contains(o.name)
                    && !(linear && super::opfuzz::NONLINEAR.contains(&o.name))
            })
            .collect();
        let baseline = checked.diagnostics.len();
        Prepared { script, scope, checked, by_sort, small, ops, baseline }
    }

    /// Number of positions that can be replaced.
    pub fn sites(&self) -> usize {
        self.scope.nodes.iter().filter(|n| n.sort != SortRef::UNKNOWN).count()
    }
}

/// Chooses and applies one TypeFuzz edit.
pub fn mutate(seed: &Script, choices: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
    mutate_prepared(&Prepared::new(seed), choices)
}

/// [`mutate`] on a prepared seed. `None` when the source ran out or no attempt gave a
/// well-sorted mutant that differs from the seed.
pub fn mutate_prepared(p: &Prepared, choices: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
    let nodes = &p.scope.nodes;
    if nodes.is_empty() {
        return None;
    }
    for _ in 0..16 {
        let at = choices.below(nodes.len())?;
        if nodes[at].sort == SortRef::UNKNOWN {
            continue;
        }
        let text = if choices.below(4)? == 0 { fresh_application(p, at, choices)? } else { donor(p, at, choices)? };
        let Some(text) = text else { continue };
        let edits = vec![Edit::ReplaceSubterm { at: p.scope.path(at), with: text }];
        if let Ok(m) = edit::apply_with_baseline(p.script, &edits, p.baseline) {
            return Some((edits, m));
        }
    }
    None
}

/// Whether node `d` may be copied to node `at`.
fn usable(p: &Prepared, d: usize, at: usize) -> bool {
    let (nd, na) = (&p.scope.nodes[d], &p.scope.nodes[at]);
    d != at && nd.cmd <= na.cmd && p.scope.fits_at(p.script, d, at)
}

/// An in-scope term of the target's sort that prints differently. `None`: source ran out.
fn donor(p: &Prepared, at: usize, choices: &mut impl Choices) -> Option<Option<String>> {
    let Some(cands) = p.by_sort.get(&p.scope.nodes[at].sort) else { return Some(None) };
    let target = term_to_string(p.script, p.scope.nodes[at].term);
    for _ in 0..8 {
        let d = cands[choices.below(cands.len())?] as usize;
        if usable(p, d, at) {
            let text = term_to_string(p.script, p.scope.nodes[d].term);
            if text != target {
                return Some(Some(text));
            }
        }
    }
    Some(None)
}

/// `(op a1 ... an)` of the target's sort over in-scope terms. `None`: source ran out.
fn fresh_application(p: &Prepared, at: usize, choices: &mut impl Choices) -> Option<Option<String>> {
    let want = p.scope.nodes[at].sort;
    let sorts = &p.checked.sorts;
    let fitting: Vec<&OpSig> =
        p.ops.iter().copied().filter(|o| matches(&o.result, want, sorts, &mut [None; 8], &mut [None; 4])).collect();
    if fitting.is_empty() || p.small.is_empty() {
        return Some(None);
    }
    let op = fitting[choices.below(fitting.len())?];
    let (mut w, mut se) = ([None; 8], [None; 4]);
    matches(&op.result, want, sorts, &mut w, &mut se);
    let mut args = vec![];
    for param in &op.params {
        let mut found = None;
        for _ in 0..24 {
            let d = p.small[choices.below(p.small.len())?] as usize;
            let (mut w2, mut se2) = (w, se);
            if usable(p, d, at) && matches(param, p.scope.nodes[d].sort, sorts, &mut w2, &mut se2) {
                (w, se) = (w2, se2);
                found = Some(d);
                break;
            }
        }
        let Some(d) = found else { return Some(None) };
        args.push(term_to_string(p.script, p.scope.nodes[d].term));
    }
    if !op.constraints_hold(&w) {
        return Some(None);
    }
    Some(Some(format!("({} {})", op.name, args.join(" "))))
}

/// Whether sort `r` fits pattern `pat`, binding width variables `w` and sort parameters
/// `se` (the table's conventions, [`theory`]). Width expressions other than a variable or
/// a constant only match when already determined.
pub fn matches(
    pat: &SortPat,
    r: SortRef,
    sorts: &Sorts,
    w: &mut [Option<u64>; 8],
    se: &mut [Option<SortRef>; 4],
) -> bool {
    let k = sorts.kind(r);
    match (pat, k) {
        (SortPat::Bool, SortKind::Bool)
        | (SortPat::Int, SortKind::Int)
        | (SortPat::Real, SortKind::Real)
        | (SortPat::String, SortKind::String)
        | (SortPat::RegLan, SortKind::RegLan)
        | (SortPat::RoundingMode, SortKind::RoundingMode) => true,
        (SortPat::BitVec(e), SortKind::BitVec(n)) => width(e, *n, w),
        (SortPat::Float(a, b), SortKind::Float(e, s)) => width(a, *e, w) && width(b, *s, w),
        (SortPat::Param(i), _) if *k != SortKind::Unknown => match se.get_mut(*i as usize) {
            Some(slot @ None) => {
                *slot = Some(r);
                true
            }
            Some(Some(have)) => *have == r,
            None => false,
        },
        (SortPat::Con(name, ps), SortKind::Con(n, args)) => {
            &**n == *name && ps.len() == args.len() && {
                let args = args.clone();
                ps.iter().zip(args).all(|(p, a)| matches(p, a, sorts, w, se))
            }
        }
        _ => false,
    }
}

fn width(e: &theory::WExpr, n: u64, w: &mut [Option<u64>; 8]) -> bool {
    match e {
        theory::WExpr::Var(v) => match w.get_mut(*v as usize) {
            Some(slot @ None) => {
                *slot = Some(n);
                true
            }
            Some(Some(have)) => *have == n,
            None => false,
        },
        e => e.eval(w) == Some(n),
    }
}

/// TypeFuzz as a [`super::Mutator`].
pub fn mutator<'s>() -> super::mutator::Plain<'s, Prepared<'s>> {
    super::mutator::Plain::new(Prepared::new, mutate_prepared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::choice::Rng;
    use crate::smtlib::{parse, print};

    fn mutants(src: &str, n: u64) -> Vec<(Vec<Edit>, String)> {
        let s = parse(src).unwrap();
        let p = Prepared::new(&s);
        (0..n).filter_map(|i| mutate_prepared(&p, &mut Rng::new(i))).map(|(e, m)| (e, print(&m))).collect()
    }

    #[test]
    fn donors_are_in_scope_and_of_the_same_sort_for_every_sort() {
        // Bit-vectors, floating point, declared sorts, arrays, datatypes, quantifiers.
        let src = "(set-logic ALL)\n(declare-sort U 0)\n(declare-datatype L ((nil) (cons (hd Int) (tl L))))\n\
                   (declare-const u U)(declare-const v U)(declare-fun f (U) U)\n\
                   (declare-const a (_ BitVec 8))(declare-const b (_ BitVec 8))(declare-const c (_ BitVec 4))\n\
                   (declare-const x (_ FloatingPoint 8 24))(declare-const r RoundingMode)\n\
                   (declare-const m (Array Int Int))(declare-const l L)\n\
                   (assert (= (f u) v))\n(assert (bvult (bvadd a b) ((_ zero_extend 4) c)))\n\
                   (assert (fp.lt (fp.add r x x) x))\n(assert (> (select m 1) (hd l)))\n\
                   (assert (forall ((q Int)) (let ((z (+ q 1))) (> z (select m q)))))\n(check-sat)\n";
        let s = parse(src).unwrap();
        for (edits, text) in mutants(src, 400) {
            let m = parse(&text).unwrap();
            assert!(check::check(&m).is_clean(), "{edits:?}\n{text}");
            assert_eq!(print(&m), text, "round trip");
            assert_ne!(text, print(&s));
        }
        // Every theory's terms get replaced at least once.
        let all: Vec<String> = mutants(src, 400).into_iter().map(|(e, _)| serde_json::to_string(&e).unwrap()).collect();
        for needle in ["bvadd", "fp.add", "select", "(f u)", "hd"] {
            assert!(all.iter().any(|e| e.contains(needle)), "no mutant involving {needle}");
        }
    }

    #[test]
    fn bound_variables_never_leave_their_binder() {
        let src = "(declare-const y Int)\n(assert (> y 0))\n(assert (forall ((x Int)) (> (* x x) y)))\n\
                   (assert (let ((w (+ y 1))) (< w 10)))\n(check-sat)\n";
        let s = parse(src).unwrap();
        let p = Prepared::new(&s);
        // Node of `y` in the first assertion may not receive `x` or `w` (unbound there).
        let y0 = (0..p.scope.nodes.len()).position(|i| p.scope.path(i).0 == vec![1, 0, 0]).unwrap();
        for (d, n) in p.scope.nodes.iter().enumerate() {
            let t = term_to_string(&s, n.term);
            if t.contains('x') || t.contains('w') {
                assert!(!usable(&p, d, y0), "{t} is not in scope at the first assertion");
            }
        }
        // Inside the quantifier, `x` and terms over it are usable.
        let inner = (0..p.scope.nodes.len()).position(|i| p.scope.path(i).0 == vec![2, 0, 0, 1]).unwrap();
        let xx = p.scope.nodes.iter().position(|n| term_to_string(&s, n.term) == "(* x x)").unwrap();
        assert!(usable(&p, xx, inner));
        for (_, text) in mutants(src, 300) {
            assert!(check::check(&parse(&text).unwrap()).is_clean(), "{text}");
        }
    }

    #[test]
    fn fresh_applications_use_the_signature_table() {
        let src = "(set-logic QF_BV)\n(declare-const a (_ BitVec 8))\n(declare-const b (_ BitVec 8))\n\
                   (assert (bvult a b))\n(check-sat)\n";
        let all: Vec<String> = mutants(src, 300).into_iter().map(|(_, t)| t).collect();
        assert!(all.iter().any(|t| t.contains("(bvult (bv")), "a fresh BV application replaced an argument");
        assert!(all.iter().all(|t| !t.contains("(bvult (bvult")));
        let again: Vec<String> = mutants(src, 300).into_iter().map(|(_, t)| t).collect();
        assert_eq!(all, again, "deterministic");
    }
}
