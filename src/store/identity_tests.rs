//! The identity's unit tests ([`super`]; a file of their own: the identity and its tests
//! together passed the 700 lines a file gets).

use super::*;

/// A bug that needs the solver's lenient typing is one cause per family, kind,
/// oracle and fix, whatever its shape; without that typing its shape decides; the
/// origin (a seed's finding or a mutant's) is not part of the cause.
#[test]
fn lenient_typing_is_one_cause_per_family_kind_oracle_and_fix() {
    use super::super::reduction::{Report, Typing};
    let meta = |typing: Option<Typing>, fixed_in: Option<&str>, seed: bool| -> Meta {
        let mut m: Meta = serde_json::from_value(serde_json::json!({
            "id": "x", "kind": "soundness", "blamed": "cvc5", "blamed_version": null,
            "blame_by": "unsat-core", "logic": "ALL", "signature": "unsat core is sat", "fixed_in": fixed_in,
            "bisection": [], "answers": [], "seed": "", "seed_hash": "", "engine": "opfuzz",
            "edits": [], "rng_seed": 0, "found_at": 0.0, "found_unix": 0, "run": 1,
            "trigger_bytes": 0, "duplicates": 0, "seed_finding": seed
        }))
        .unwrap();
        m.reduction = Some(Report { typing, ..Default::default() });
        m
    };
    let a = "(assert (! (< 0.0 0) :named a))\n(check-sat)\n";
    let b = "(assert (! (= 0.0 (+ 1 0.0)) :named a))\n(check-sat)\n";
    let k = |m: &Meta, t: &str| key(m, &[], t).unwrap();
    let lenient = meta(Some(Typing::Lenient), None, false);
    assert_eq!(k(&lenient, a), k(&lenient, b));
    assert!(k(&lenient, a).contains("typing|lenient"), "{}", k(&lenient, a));
    for other in [meta(None, None, false), meta(Some(Typing::Unrepaired), None, false)] {
        assert_ne!(k(&other, a), k(&other, b), "the shape decides");
    }
    assert_ne!(k(&lenient, a), k(&meta(Some(Typing::Lenient), Some("1.5.0"), false), a), "told apart by its fix");
    let seed = meta(Some(Typing::Lenient), None, true);
    assert_ne!(k(&seed, a), k(&lenient, a));
    assert_eq!(without_origin(&k(&seed, a)), without_origin(&k(&lenient, b)));
}

#[test]
fn shapes_rename_symbols_abstract_literals_and_drop_noise() {
    let a = "(set-info :status sat)\n(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x 3))\n(check-sat)\n(get-model)\n";
    let b = "(set-logic ALL)\n(set-option :produce-models true)\n(declare-const |y| Int)\n(assert (> y 17)) ; c\n(check-sat)\n(exit)\n";
    assert_eq!(shape(a), shape(b));
    assert_eq!(shape(a).unwrap(), "(declare-fun x0 () Int)\n(assert (< #Int x0))\n(check-sat)\n");
    // Literals keep their sort; operators and sorts stay.
    let c = "(declare-const v (_ BitVec 8))\n(assert (= v #x0f (_ bv3 8) #b1))\n(assert (= \"a\\u{41}\" \"\"))";
    assert_eq!(
        shape(c).unwrap(),
        "(declare-fun x0 () (_ BitVec 8))\n(assert (= x0 #BV8 #BV8 #BV1))\n(assert (= #String #String))\n"
    );
    // Bound variables and defined-function parameters are the script's own.
    let d = "(define-fun f ((p Int)) Int (let ((q p)) q))\n(assert (forall ((r Int)) (= (f r) r)))";
    assert_eq!(
        shape(d).unwrap(),
        "(define-fun x0 ((x1 Int)) Int (let ((x2 x1)) x2))\n(assert (forall ((x3 Int)) (= (x0 x3) x3)))\n"
    );
    // A pipeline as found and as reduced: one configuration.
    let p1 = "(declare-const a Int)\n(check-sat-using (then simplify (using-params smtfd :random-seed 3)))";
    let p2 = "(declare-const b Int)\n(check-sat-using smtfd)";
    assert_eq!(shape(p1), shape(p2));
    assert_ne!(shape(p2), shape("(declare-const b Int)\n(check-sat-using euf-completion)"));
    // A decisive option stays, with its value.
    assert_ne!(
        shape("(set-option :smt.arith.solver 2)\n(check-sat)"),
        shape("(set-option :smt.arith.solver 6)\n(check-sat)")
    );
    assert_eq!(shape("(assert |unterminated"), None);
}

/// What one cause left as different shapes in session 29's run (judge29a): names given
/// with `:named`, mirrored comparisons, declarations nothing uses, finite-field
/// literals. Each is one shape now; a real difference still is not.
#[test]
fn names_mirrored_comparisons_and_unused_declarations_do_not_split_a_cause() {
    let named = |n: &str| format!("(assert (! (< 0.0 0) :named {n}))\n(check-sat)\n(get-unsat-core)\n");
    assert_eq!(shape(&named("smtstorm_a4")), shape(&named("smtstorm_a5")));
    assert_eq!(shape(&named("a")).unwrap(), "(assert (! (< #Real #Int) :named x0))\n(check-sat)\n");
    // `(> a b)` is `(< b a)`, numbered in the mirrored order; chained and nested too.
    assert_eq!(shape("(assert (> 0 0.0))"), shape("(assert (< 0.0 0))"));
    let xy = "(declare-fun x () Int)(declare-fun y () Int)";
    assert_eq!(shape(&format!("{xy}(assert (> x y))")), shape(&format!("{xy}(assert (< y x))")));
    assert_eq!(shape("(assert (not (bvuge #x1 #b0001 #x3)))"), shape("(assert (not (bvule #x3 #b0001 #x1)))"));
    assert_ne!(shape("(assert (> 0 0.0))"), shape("(assert (< 0 0.0))"));
    assert_ne!(shape("(assert (>= 0 1))"), shape("(assert (< 1 0))"));
    // Unused declarations (and a sort only they used) are not the cause.
    let csa = "(check-sat-assuming (false))\n(get-unsat-assumptions)";
    let base = shape(&format!("(set-logic QF_FF)\n{csa}")).unwrap();
    let with = |decl: &str| shape(&format!("(set-logic QF_FF)\n{decl}\n{csa}")).unwrap();
    let ff = "(check-sat-assuming (false))\n(unused FiniteField)\n";
    assert_eq!(with("(define-sort F () (_ FiniteField 7))"), ff);
    assert_eq!(with("(declare-fun x () (_ FiniteField 17))"), ff);
    assert_eq!(with("(declare-sort U 0)(declare-const u U)"), base);
    assert_eq!(base, "(check-sat-assuming (false))\n");
    // A declaration the script uses stays.
    assert_ne!(shape(&format!("(declare-const p Bool)\n(assert p)\n{csa}")).unwrap(), base);
    // What the dropped declarations named of the theories stays: an unused Real
    // constant is not an unused finite field.
    let real = shape(&format!("(declare-fun r () Real)\n{csa}")).unwrap();
    assert_eq!(real, "(check-sat-assuming (false))\n(unused Real)\n");
    assert_ne!(shape(&format!("(declare-fun r () (_ FiniteField 5))\n{csa}")).unwrap(), real);
    // A chain of definitions each used only by the next, the last unused: all go, in
    // linear time (a cubic first version took a minute on 800).
    let chain: String = (0..3000)
        .map(|k| format!("(define-fun f{} () Int {})\n", k + 1, if k == 0 { "0".to_string() } else { format!("f{k}") }))
        .collect();
    let t0 = std::time::Instant::now();
    assert_eq!(shape(&format!("{chain}(check-sat)")).unwrap(), "(check-sat)\n(unused Int)\n");
    assert!(t0.elapsed() < std::time::Duration::from_secs(5), "{:?}", t0.elapsed());
    // Nesting as deep as a seed likes: no recursion per level.
    let deep = format!("(assert {}true{})", "(not ".repeat(100_000), ")".repeat(100_000));
    assert!(shape(&deep).unwrap().starts_with("(assert (not (not"));
    let lets = format!("(assert {}true{})", "(let ((x true)) ".repeat(50_000), ")".repeat(50_000));
    assert!(shape(&lets).unwrap().starts_with("(assert (let ((x0 true))"));
    // Stray `)`s at the top level are no commands (each was one, repeating the
    // range since the last command: quadratic).
    let big = format!("(assert {}true{})", "(not ".repeat(20_000), ")".repeat(20_000));
    assert_eq!(shape(&format!("{big}{}(check-sat)", ")".repeat(20_000))), shape(&format!("{big}(check-sat)")));
    let mirrored = format!("(assert {}(> 1 2){})", "(> 0 ".repeat(50_000), ")".repeat(50_000));
    assert!(shape(&mirrored).unwrap().starts_with("(assert (< "));
    // A dropped definition's values and operators are not kept, only its sorts; a
    // name declared twice is never dropped.
    assert_eq!(
        shape(&format!("(define-fun c () (_ BitVec 4) (bvadd #x1 #x2))\n{csa}")),
        shape(&format!("(define-fun d () (_ BitVec 4) #x7)\n{csa}"))
    );
    assert!(shape(&format!("(declare-fun y () Int)\n(declare-fun y () Int)\n{csa}")).unwrap().contains("declare-fun"));
    // A finite-field literal keeps its field, not its value.
    assert_eq!(shape("(assert (= #f0m5 #f3m5))").unwrap(), "(assert (= #FF5 #FF5))\n");
    assert_ne!(shape("(assert (= #f0m5 #f0m5))"), shape("(assert (= #f0m7 #f0m7))"));
}

#[test]
fn ranges_settle_on_the_newest_failing_run() {
    use ProbeVerdict::*;
    let mk = |v: &[(&str, ProbeVerdict)]| {
        let mut r = Range {
            on: "reduced.smt2".into(),
            probes: v
                .iter()
                .map(|(rel, x)| Probe { release: rel.to_string(), verdict: *x, answers: String::new() })
                .collect(),
            ..Default::default()
        };
        r.settle();
        r
    };
    let r = mk(&[("4.8.5", Inconclusive), ("4.8.7", Fails), ("4.8.8", Fails), ("5.4.0", Fails)]);
    assert_eq!((r.introduced_in.as_deref(), r.fixed_in.as_deref(), r.newest_fails), (None, None, true));
    assert!(r.words().contains("still failing in the newest, 5.4.0"), "{}", r.words());
    let r = mk(&[
        ("4.8.5", Passes),
        ("4.8.7", Fails),
        ("4.8.8", Passes),
        ("4.8.9", Fails),
        ("4.12.6", Inconclusive),
        ("5.4.0", Passes),
    ]);
    // The newest failing run is the range; the older failure is said beside it.
    assert_eq!(
        (r.introduced_in.as_deref(), r.fixed_in.as_deref(), r.newest_fails),
        (Some("4.8.9"), Some("5.4.0"), false)
    );
    assert!(r.words().contains("older releases failed too: 4.8.7"), "{}", r.words());
    // An inconclusive release inside a failing run does not break it.
    let r = mk(&[("4.8.5", Passes), ("4.8.7", Fails), ("4.8.8", Inconclusive), ("4.8.9", Fails), ("5.4.0", Fails)]);
    assert_eq!((r.introduced_in.as_deref(), r.newest_fails), (Some("4.8.7"), true));
    assert!(!r.words().contains("older"), "{}", r.words());
    // A failure in the oldest release, passes, then failures again (session 25's judge:
    // "failing from 4.8.5" hid that 4.8.7–4.8.17 pass).
    let r = mk(&[("4.8.5", Fails), ("4.8.7", Passes), ("4.8.17", Passes), ("4.12.6", Fails), ("5.4.0", Fails)]);
    assert_eq!(r.introduced_in.as_deref(), Some("4.12.6"));
    assert_eq!(r.words(), "introduced in 4.12.6, still failing in the newest, 5.4.0 (older releases failed too: 4.8.5; a release between passed)");
    let r = mk(&[("4.8.5", Passes), ("4.8.7", Passes)]);
    assert!(r.failing().is_empty() && r.words().starts_with("no installed release"));
}

#[test]
fn families_not_releases_or_variants() {
    assert_eq!(family_of("z3-4.8.12", &[]), "z3");
    assert_eq!(family_of("yices+mcsat+mcsat-nra-nlsat", &[]), "yices");
    assert_eq!(family_of("mysolver+x", &[]), "mysolver");
    // A configured variant of a named solver is of that solver's family, as severity
    // reads it (one function serves both).
    let mine = [crate::solver::SolverSpec::new("mine", Family::Z3, vec!["/opt/z3".into()])];
    assert_eq!(family_of("mine", &mine), "z3");
    assert_eq!(family_of("mine+smt.arith.solver=2", &mine), "z3");
    assert_eq!(blamed_family("mine+smt.arith.solver=2", &mine), (Family::Z3, true));
    assert_eq!(blamed_family("mine", &mine), (Family::Z3, false));
}

/// A finding's meta for the tests below: `kind`, blamed on z3 5.4.0 by `blame_by`.
fn z3_meta(kind: &str, blame_by: &str, signature: &str) -> Meta {
    serde_json::from_value(serde_json::json!({
        "id": "x", "kind": kind, "blamed": "z3-5.4.0", "blamed_version": "5.4.0",
        "blame_by": blame_by, "logic": "ALL", "signature": signature, "fixed_in": null,
        "bisection": [], "answers": [], "seed": "", "seed_hash": "", "engine": "opfuzz",
        "edits": [], "rng_seed": 0, "found_at": 0.0, "found_unix": 0, "run": 1,
        "trigger_bytes": 0, "duplicates": 0, "seed_finding": false
    }))
    .unwrap()
}

/// Two reductions of one bug that keep different commands only so that older releases
/// keep refusing them (z3 5.4.0's `QF_FF` unsat assumptions: an unused `define-sort` in
/// one, a finite-field `assert` in the other) have one shape once those are left out; a
/// command that is not a gate still tells them apart.
#[test]
fn commands_kept_only_for_older_releases_are_not_the_shape() {
    use super::super::reduction::Report;
    let head = "(set-option :produce-unsat-assumptions true)\n(set-logic QF_FF)\n";
    let tail = "(check-sat-assuming (false))\n(get-unsat-assumptions)\n";
    let sort = "(define-sort F () (_ FiniteField 7))";
    let lit = "(assert (= #f0m5 #f0m5))";
    let a = format!("{head}{sort}\n{tail}");
    let b = format!("{head}{lit}\n{tail}");
    let with_gates = |gates: &[usize]| {
        let mut m = z3_meta("soundness", "unsat-core", "unsat assumptions are sat");
        m.reduction = Some(Report { gates: gates.to_vec(), ..Default::default() });
        m
    };
    let k = |m: &Meta, t: &str| key(m, &[], t).unwrap();
    assert_eq!(k(&with_gates(&[2]), &a), k(&with_gates(&[2]), &b));
    assert_ne!(k(&with_gates(&[]), &a), k(&with_gates(&[]), &b), "without gates the shapes differ");
    assert_ne!(k(&with_gates(&[2]), &a), k(&with_gates(&[1]), &b), "another command is not the gate");
    // Only the gate's own index goes: a repeated command elsewhere stays.
    let twice = format!("{head}{lit}\n{lit}\n{tail}");
    assert_eq!(k(&with_gates(&[2]), &twice), k(&with_gates(&[]), &b));
}

/// A bug that needs the solver to go on after its own error is one cause per family,
/// refused command and fix, whatever its kind or shape: z3's half-declared datatype
/// crashes in one input and gets an invalid model in another.
#[test]
fn a_bug_after_the_solvers_own_error_is_one_cause_per_refused_command() {
    use super::super::reduction::OwnError;
    use super::super::reduction::Report;
    let refused = |kind: &str, blame_by: &str, command: Option<&str>| {
        let mut m = z3_meta(kind, blame_by, "x");
        let own = command.map_or(OwnError::Absent, |c| OwnError::Refused { command: 0, keyword: c.to_string() });
        m.reduction = Some(Report { own_error: Some(own), ..Default::default() });
        m
    };
    let crash = "(declare-datatypes ((d 1) (t 2)) ((par (p) ((c))) (par (p p) ((a (s (d p)))))))\n(check-sat)\n";
    let model = "(declare-datatypes ((T 0)) (((f (m (Array T T))) (g))))\n(assert (not (= g g)))\n(check-sat)\n";
    let k = |m: &Meta, t: &str| key(m, &[], t).unwrap();
    let a = k(&refused("crash", "majority", Some("declare-datatypes")), crash);
    let b = k(&refused("invalid-model", "validation", Some("declare-datatypes")), model);
    assert_eq!(a, b);
    assert!(a.contains("after-own-error|z3|declare-datatypes|open"), "{a}");
    assert_ne!(a, k(&refused("crash", "majority", Some("define-fun")), crash), "another refused command");
    assert_ne!(
        k(&refused("crash", "majority", None), crash),
        k(&refused("invalid-model", "validation", None), model),
        "no error: kind and shape decide"
    );
    // Under a disowned tactic the tactic is the cause, error or not: a refused
    // declaration the rest uses is needed by any bug of that input.
    let sls = format!("{}(check-sat-using sls-smt)\n", crash.replace("(check-sat)\n", ""));
    let tactic = k(&refused("crash", "majority", Some("declare-datatypes")), &sls);
    assert!(tactic.contains("caveat|sls"), "{tactic}");
    // A wrong answer after the error keeps its kind: under a crash it would hide.
    let wrong = k(&refused("soundness", "majority", Some("declare-datatypes")), model);
    assert!(!wrong.contains("after-own-error"), "{wrong}");
}

/// A wrong answer that needs `let` is one cause per family, kind and fix,
/// whatever the formula around the `let`: yices' leaking shadowing binding reduced to two
/// shapes in one run (under push/pop, and asked twice). Without the notation the shape
/// decides; a crash keeps its crash state.
#[test]
fn a_wrong_answer_that_needs_let_is_one_cause_per_notation() {
    use super::super::reduction::{Notation, Report};
    let meta = |kind: &str, notation: Option<Notation>| {
        let mut m: Meta = serde_json::from_value(serde_json::json!({
            "id": "x", "kind": kind, "blamed": "yices", "blamed_version": null,
            "blame_by": "self-contradiction", "logic": "QF_UF", "signature": "unsat to check-sat, sat to check-sat",
            "fixed_in": null, "bisection": [], "answers": [], "seed": "", "seed_hash": "", "engine": "opfuzz",
            "edits": [], "rng_seed": 0, "found_at": 0.0, "found_unix": 0, "run": 1,
            "trigger_bytes": 0, "duplicates": 0, "seed_finding": false
        }))
        .unwrap();
        m.reduction = Some(Report { notation, ..Default::default() });
        m
    };
    let pushed = "(declare-fun x () Bool)\n(assert x)\n(push 1)\n(assert (let ((x false) (y x)) (= x y)))\n\
                  (check-sat)\n(pop 1)\n(assert (let ((x false) (y x)) (= x y)))\n(check-sat)\n";
    let twice = "(declare-fun x () Bool)\n(assert (let ((x false) (y x)) (distinct x y)))\n(check-sat)\n\
                 (assert (let ((x false) (y x)) (distinct x y)))\n(check-sat)\n";
    let k = |m: &Meta, t: &str| key(m, &[], t).unwrap();
    let let_bug = meta("soundness", Some(Notation::Let));
    assert_eq!(k(&let_bug, pushed), k(&let_bug, twice));
    assert!(k(&let_bug, pushed).contains("|notation|let|open"), "{}", k(&let_bug, pushed));
    let plain = meta("soundness", None);
    assert_ne!(k(&plain, pushed), k(&plain, twice), "without the notation the shape decides");
    let mut witness = meta("soundness", Some(Notation::Let));
    witness.blame_by = crate::oracle::BlameBy::Witness;
    assert_eq!(k(&witness, pushed), k(&let_bug, twice), "whichever oracle caught it");
    let crash = meta("crash", Some(Notation::Let));
    assert!(!k(&crash, pushed).contains("notation"), "a crash keeps its own identity");
}

/// A tally reads as a person would say it, one or many.
#[test]
fn a_tally_says_one_cause_and_many_causes() {
    let one = Tally { causes: 1, dialect: 0, keys: 1, instances: 1 };
    assert_eq!(one.words(), "1 cause (1 key, 1 instance)");
    let many = Tally { causes: 3, dialect: 1, keys: 5, instances: 9 };
    assert_eq!(many.words(), "3 causes (5 keys, 9 instances; 1 dialect difference, not a bug)");
}
