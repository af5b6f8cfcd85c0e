//! The metamorphic engine and oracle (issue 40, item 4) with real solvers: variants get
//! their seed's answer from a real z3; a solver whose answer depends on a renamed name
//! (the fault proxy's `flip-if`, around a real z3) is found with no second solver,
//! confirmed and reduced; 200 variants of the shared seeds on correct releases are
//! judged without a single metamorphic finding.

mod common;

use common::{proxy, shared_seed_files, smtstorm, solver_bin, tempdir};
use smtstorm::mutate::choice::Rng;
use smtstorm::mutate::equisat::{self, Prepared};
use smtstorm::oracle::BlameBy;
use smtstorm::smtlib;
use smtstorm::solver::{run_file, Family, Limits, Outcome, SolverSpec};
use smtstorm::store::{Meta, Store};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn z3() -> SolverSpec {
    let bin = solver_bin("z3-5.4.0/bin/z3");
    SolverSpec::new("z3-5.4.0", Family::Z3, vec![bin.display().to_string(), "-smt2".into()])
}

/// Seeds spread over the whole shared suite (every `stride`-th file).
fn spread(n: usize, stride: usize) -> Vec<PathBuf> {
    shared_seed_files().into_iter().step_by(stride).take(n).collect()
}

fn answers(spec: &SolverSpec, s: &smtlib::Script, file: &Path) -> Vec<Outcome> {
    std::fs::write(file, smtlib::print(s)).unwrap();
    let limits = Limits { time: Duration::from_secs(10), ..Limits::default() };
    run_file(spec, file, smtlib::checks(s), &limits).outcomes
}

/// Every variant parses and keeps its check-sats; on at least 20 of 80 seeds z3 5.4.0
/// answers seed and variant definitely, and never differently.
#[test]
fn a_real_solver_gives_variants_their_seeds_answer() {
    let dir = tempdir("meta-agree");
    let z3 = z3();
    let (mut agreed, mut flips) = (0, vec![]);
    for f in spread(80, 45) {
        let Ok(mut seed) = smtlib::parse(&std::fs::read_to_string(&f).unwrap()) else { continue };
        smtstorm::mutate::edit::strip_status(&mut seed);
        let Some((edits, variant)) = Prepared::new(&seed).mutate(&mut Rng::new(1)) else { continue };
        assert!(equisat::checks_kept(&seed, &variant), "{}", f.display());
        let a = answers(&z3, &seed, &dir.join("seed.smt2"));
        let b = answers(&z3, &variant, &dir.join("variant.smt2"));
        for (x, y) in a.iter().zip(&b) {
            if x.is_definite() && y.is_definite() {
                if x == y {
                    agreed += 1;
                } else {
                    flips.push(format!("{}: {x} then {y} under {edits:?}", f.display()));
                }
                break;
            }
        }
    }
    assert!(flips.is_empty(), "{flips:#?}");
    assert!(agreed >= 20, "{agreed}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A solver that answers wrongly whenever a renamed name (`mr_...`) appears contradicts
/// its own answer to the seed: the campaign finds it with that solver alone, confirms it
/// in fresh processes (seed and variant both asked again), stores the seed side with
/// the relations as its edits, and the reduction still flips.
#[test]
fn a_flip_by_one_solver_is_found_confirmed_and_reduced() {
    let dir = tempdir("meta-flip");
    let s = dir.join("seeds");
    std::fs::create_dir_all(&s).unwrap();
    std::fs::write(
        s.join("sat.smt2"),
        "(set-logic QF_LIA)\n(declare-const a Int)\n(declare-const b Int)\n(assert (and (> a 2) (< b a)))\n(assert (> b 0))\n(check-sat)\n",
    )
    .unwrap();
    std::fs::write(
        s.join("unsat.smt2"),
        "(set-logic QF_LIA)\n(declare-const p Int)\n(declare-const q Int)\n(assert (> p q))\n(assert (> q p))\n(check-sat)\n",
    )
    .unwrap();
    let out = dir.join("out");
    let faulty = proxy(&dir, "flip-if:mr_");
    let (code, _, err) = smtstorm(&[
        "fuzz",
        s.to_str().unwrap(),
        "--solver",
        &faulty,
        "--engine",
        "equisat",
        "--mutants",
        "24",
        "--workers",
        "1",
        "--reduce",
        "60",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 10, "{err}");
    let found: Vec<(PathBuf, Meta)> = Store::list_in(&out);
    let mine: Vec<&(PathBuf, Meta)> = found.iter().filter(|(_, m)| m.blame_by == BlameBy::Metamorphic).collect();
    assert!(!mine.is_empty(), "{found:?}");
    let spec = SolverSpec::from_command_line("faulty", faulty.split_once('=').unwrap().1).unwrap();
    for (meta, m) in &mine {
        let d = meta.parent().unwrap();
        assert_eq!(m.blamed, "faulty");
        let relations = equisat::relation_names(&m.edits);
        assert!(relations.iter().any(|r| *r == "rename" || *r == "redundant-definition"), "{relations:?}");
        // The trigger is the seed side: no renamed name in it.
        let trigger = std::fs::read_to_string(d.join("trigger.smt2")).unwrap();
        assert!(!trigger.contains("mr_"), "{trigger}");
        // The reduction keeps the flip: the reduced seed side and its variant.
        assert!(m.reduction.is_some(), "{m:?}");
        let reduced = smtlib::parse(&std::fs::read_to_string(d.join("reduced.smt2")).unwrap()).unwrap();
        let variant = equisat::apply(&reduced, &equisat::relations(&m.edits)).unwrap();
        let (a, b) = (answers(&spec, &reduced, &dir.join("r.smt2")), answers(&spec, &variant, &dir.join("v.smt2")));
        let (x, y) = smtstorm::oracle::metamorphic::parse_signature(&m.signature).unwrap();
        assert_eq!((a.first(), b.first()), (Some(&x), Some(&y)), "{}", m.signature);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// 200 variants of 40 shared seeds, asked of z3 5.4.0 and yices: no metamorphic
/// finding. What was exercised is counted (mutants, seeds whose instability was
/// measured); other oracles' findings are not this test's business.
#[test]
fn silent_on_200_variants_of_correct_releases() {
    let dir = tempdir("meta-silent");
    let s = dir.join("seeds");
    std::fs::create_dir_all(&s).unwrap();
    for (k, f) in spread(40, 97).iter().enumerate() {
        std::fs::copy(f, s.join(format!("{k:02}-{}", f.file_name().unwrap().to_string_lossy()))).unwrap();
    }
    let out = dir.join("out");
    let (code, _, err) = smtstorm(&[
        "fuzz",
        s.to_str().unwrap(),
        "--solver",
        "z3-5.4.0",
        "--solver",
        "yices",
        "--engine",
        "equisat",
        "--mutants",
        "200",
        "--timeout",
        "10",
        "--reduce",
        "0",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(code == 0 || code == 10, "{code}: {err}");
    let found: Vec<(PathBuf, Meta)> = Store::list_in(&out);
    let mine: Vec<&Meta> = found.iter().map(|(_, m)| m).filter(|m| m.blame_by == BlameBy::Metamorphic).collect();
    assert!(mine.is_empty(), "{mine:#?}");
    let text = std::fs::read_to_string(out.join("stats.jsonl")).unwrap();
    let st: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert!(st["mutants"].as_u64().unwrap() >= 200, "{st}");
    assert!(st["instability"]["measured"].as_u64().unwrap() > 0, "{st}");
    let _ = std::fs::remove_dir_all(&dir);
}
