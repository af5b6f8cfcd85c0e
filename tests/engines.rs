//! The mutation engines on the edit model: (seed, edit, expected text) triples per engine
//! and theory, and properties over every corpus seed: mutants sort-check, print and parse
//! back identically, replay from their serialised edits, and are deterministic.

mod common;

use smtstorm::mutate::choice::Rng;
use smtstorm::mutate::edit::{apply, Edit, Path};
use smtstorm::mutate::{Engine, Prepared};
use smtstorm::smtlib::{check::check, parse, print};

fn triple(seed: &str, edit: Edit, expected_assert: &str) {
    let s = parse(seed).unwrap();
    let m = apply(&s, std::slice::from_ref(&edit)).unwrap_or_else(|e| panic!("{edit:?}: {e}"));
    let text = print(&m);
    assert!(text.lines().any(|l| l == expected_assert), "{edit:?} gave\n{text}");
}

fn swap(at: &[u32], to: &str) -> Edit {
    Edit::SwapOperator { at: Path(at.to_vec()), to: to.into() }
}
fn subterm(at: &[u32], with: &str) -> Edit {
    Edit::ReplaceSubterm { at: Path(at.to_vec()), with: with.into() }
}
fn constant(at: &[u32], value: &str) -> Edit {
    Edit::ReplaceConstant { at: Path(at.to_vec()), value: value.into() }
}

#[test]
fn triples_per_engine_and_theory() {
    let ints = "(set-logic QF_LIA)(declare-const x Int)(declare-const y Int)\n(assert (< (+ x 5) y))";
    let bv =
        "(set-logic QF_BV)(declare-const a (_ BitVec 8))(declare-const b (_ BitVec 8))\n(assert (= (bvadd a #x0f) b))";
    let fp = "(set-logic QF_FP)(declare-const f Float32)\n(assert (fp.lt (fp.add RNE f f) (_ +zero 8 24)))";
    let st = "(set-logic QF_S)(declare-const s String)\n(assert (str.prefixof \"ab\" s))";
    let arr = "(set-logic QF_ALIA)(declare-const m (Array Int Int))(declare-const i Int)\n(assert (= (select m i) (select m (+ i 1))))";
    let uf = "(declare-sort U 0)(declare-const u U)(declare-const v U)(declare-fun f (U) U)\n(assert (forall ((z U)) (= (f z) u)))";
    // OpFuzz
    triple(ints, swap(&[3, 0], ">="), "(assert (>= (+ x 5) y))");
    triple(bv, swap(&[3, 0, 0], "bvxor"), "(assert (= (bvxor a #x0f) b))");
    triple(fp, swap(&[2, 0, 0], "fp.sub"), "(assert (fp.lt (fp.sub RNE f f) (_ +zero 8 24)))");
    triple(st, swap(&[2, 0], "str.suffixof"), "(assert (str.suffixof \"ab\" s))");
    triple(uf, swap(&[4, 0], "exists"), "(assert (exists ((z U)) (= (f z) u)))");
    // TypeFuzz
    triple(bv, subterm(&[3, 0, 0], "(bvmul b a)"), "(assert (= (bvmul b a) b))");
    triple(arr, subterm(&[3, 0, 1, 1], "(select m i)"), "(assert (= (select m i) (select m (select m i))))");
    triple(uf, subterm(&[4, 0, 0, 0], "z"), "(assert (forall ((z U)) (= z u)))");
    // ValFuzz
    triple(ints, constant(&[3, 0, 0, 1], "(- 3)"), "(assert (< (+ x (- 3)) y))");
    triple(bv, constant(&[3, 0, 0, 1], "#xff"), "(assert (= (bvadd a #xff) b))");
    triple(fp, constant(&[2, 0, 1], "(_ NaN 8 24)"), "(assert (fp.lt (fp.add RNE f f) (_ NaN 8 24)))");
    triple(st, constant(&[2, 0, 0], "\"\\u{0}\"\"\""), "(assert (str.prefixof \"\\u{0}\"\"\" s))");
    // Refused: out of scope, wrong sort, or not one term.
    let s = parse(uf).unwrap();
    assert!(apply(
        &parse("(declare-const x Int)(assert (> x 0))(assert (forall ((q Int)) (> q 0)))").unwrap(),
        &[subterm(&[1, 0, 0], "q")]
    )
    .is_err());
    assert!(apply(&s, &[subterm(&[4, 0, 0, 0], "1")]).is_err());
    assert!(apply(&s, &[subterm(&[4, 0, 0, 0], "u)) (assert false")]).is_err());
}

#[test]
fn every_engine_on_every_corpus_seed_is_well_sorted_lossless_replayable_and_deterministic() {
    let mut made = [0usize; 3];
    for f in common::corpus_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let seed = parse(&text).unwrap();
        let before = check(&seed).diagnostics.len();
        for (e, engine) in Engine::SEED_ONLY.into_iter().enumerate() {
            let p = Prepared::new(engine, &seed);
            for r in 0..25u64 {
                let Some((edits, m)) = p.mutate(&mut Rng::new(r)) else { continue };
                made[e] += 1;
                let out = print(&m);
                let back = parse(&out)
                    .unwrap_or_else(|e| panic!("{}: {engine} mutant does not parse: {e}\n{out}", f.display()));
                assert_eq!(print(&back), out, "{}: print/parse round trip", f.display());
                assert!(
                    check(&back).diagnostics.len() <= before,
                    "{}: {engine} {edits:?} is ill-sorted:\n{out}",
                    f.display()
                );
                let json = serde_json::to_string(&edits).unwrap();
                let replay: Vec<Edit> = serde_json::from_str(&json).unwrap();
                assert_eq!(print(&apply(&seed, &replay).unwrap()), out, "{}: replay of {json}", f.display());
                let (e2, m2) = p.mutate(&mut Rng::new(r)).unwrap();
                assert_eq!((e2, print(&m2)), (edits, out), "{}: {engine} is not deterministic", f.display());
            }
        }
    }
    let n = common::corpus_files().len() * 25;
    // Every engine finds something to do on most seeds.
    assert!(made[0] > n * 9 / 10, "opfuzz {made:?} of {n}");
    assert!(made[1] > n * 9 / 10, "typefuzz {made:?} of {n}");
    assert!(made[2] > n * 6 / 10, "valfuzz {made:?} of {n}");
}

#[test]
fn bec_values_come_from_z3_and_force_the_monitors() {
    use smtstorm::mutate::bec::{bec, bec_plan, BecAnswer};
    use smtstorm::mutate::valfuzz::Prepared as VP;
    use smtstorm::solver::{Family, Limits, Session, SolverSpec};
    let z3 = common::solver_bin("z3-5.4.0/bin/z3");
    let spec = SolverSpec {
        name: "z3".into(),
        family: Family::Z3,
        command: vec![z3.display().to_string(), "-smt2".into()],
        version: None,
        restart_every: None,
        option_owners: Default::default(),
        allowed: Default::default(),
    };
    let mut sess = Session::new(spec, Limits::default());
    let src = "(set-logic QF_LIA)(declare-const x Int)(declare-const y Int)\n\
               (assert (and (< (* 3 x) 10) (or (= y 4) (> (+ x y) 20))))\n(check-sat)\n";
    let s = parse(src).unwrap();
    let p = VP::new(&s);
    let plan = bec_plan(&p, 8, &mut Rng::new(3)).unwrap();
    assert_eq!(plan.holes.len(), 4);
    let mut asked = 0;
    let out = bec(&p, &plan, 12, &mut Rng::new(3), &mut |q| {
        asked += 1;
        smtstorm::mutate::file::bec_answer(&mut sess, q)
    });
    assert_eq!(asked, 12);
    assert!(out.len() >= 6, "most coercions are satisfiable: {}", out.len());
    let texts: std::collections::BTreeSet<String> = out.iter().map(|(_, m)| print(m)).collect();
    assert_eq!(texts.len(), out.len(), "blocking clauses: no constant vector twice");
    for (edits, m) in &out {
        assert!(edits.iter().all(|e| matches!(e, Edit::ReplaceConstant { .. })));
        assert!(check(m).is_clean(), "{}", print(m));
    }
    // A forced polarity really holds in the solver's values: force the first monitor false.
    let q = plan.query(&p, &[(0, false)]);
    match smtstorm::mutate::file::bec_answer(&mut sess, &q) {
        BecAnswer::Values(v) => assert_eq!(v[plan.holes.len()].1, "false", "{q}"),
        _ => panic!("coercion should be satisfiable: {q}"),
    }
}
