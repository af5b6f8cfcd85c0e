//! Issue 37 ("a seed is untrusted input"): Semantic Fusion never captures a name. A symbol
//! one seed declares and the other uses as a theory symbol (or declares differently) is
//! renamed apart before fusing, so the fused script's satisfiability is the one it is
//! built to have, and a solver's answer against it is a finding only when it is one.

mod common;

use common::*;
use smtstorm::mutate::choice::Rng;
use smtstorm::mutate::fusion::{fuse, Part};
use smtstorm::smtlib::{self, Script};
use smtstorm::solver::{Family, Limits, Outcome};
use std::path::PathBuf;
use std::time::Duration;

/// The shared cvc5 regression seeds, read in place (never copied into the repository).
fn shared(rel: &str) -> PathBuf {
    let p = repo().join("../shared/seeds/cvc5-regress").join(rel);
    assert!(p.is_file(), "{} is missing: the shared seeds belong beside the checkout", p.display());
    p
}

fn seed(rel: &str) -> Script {
    let mut s = smtlib::parse(&std::fs::read_to_string(shared(rel)).unwrap()).unwrap();
    smtstorm::mutate::edit::strip_status(&mut s);
    s
}

/// The pair of issue 37: `gauss_init_0030` declares `(declare-fun exp (Real) Real)`;
/// `issue8415-embed-arg` is unsatisfiable only because its `exp` is cvc5's built-in
/// exponential (`(= 0.0 (exp (exp 2.0)))`). Both are `unsat`, so their fusion is built to
/// be `unsat`; at 41afc40 the built-in was captured by the other seed's declaration and
/// cvc5 rightly answered `sat`. Every fusion of the pair, in both orders, over a range of
/// choice seeds, must be answered `unsat` or not at all by cvc5 and z3.
#[test]
fn the_exponential_of_one_seed_is_not_captured_by_the_others_declaration() {
    let gauss = seed("regress1/quantifiers/gauss_init_0030.fof.smt2");
    let embed = seed("regress0/nl/nta/issue8415-embed-arg.smt2");
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    let limits = Limits { time: Duration::from_secs(3), grace: Duration::from_millis(500), ..Limits::default() };
    let work = tempdir("hostile-fusion-pair");
    let (mut fused, mut answered, mut wrong) = (0, 0, vec![]);
    for (a, b) in [(&gauss, &embed), (&embed, &gauss)] {
        let (pa, pb) = (Part::new(a).expect("fusable"), Part::new(b).expect("fusable"));
        for i in 0..6u64 {
            let Some((_, m)) = fuse(&pa, &pb, false, &mut Rng::new(i)) else { continue };
            fused += 1;
            for (spec, answer) in [&z3, &cvc5].iter().zip(ask_all(&[&z3, &cvc5], &m, &work, &limits)) {
                match answer {
                    Some(Outcome::Unsat) => answered += 1,
                    Some(Outcome::Sat) => {
                        wrong.push(format!("{}: sat where unsat is built:\n{}", spec.name, smtlib::print(&m)))
                    }
                    _ => {}
                }
            }
        }
    }
    eprintln!("{fused} fusions of the pair: {answered} unsat answers, {} sat", wrong.len());
    assert!(fused >= 6, "{fused} fusions");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let _ = std::fs::remove_dir_all(&work);
}
