//! The mutants a campaign turn makes, pinned: per engine, a hash of one batch (each
//! mutant's rng seed, edits and per-solver session texts) on three cvc5 regression seeds,
//! with z3 5.4 and cvc5 as the solvers and z3 as the reference (BEC's answers, STORM's
//! model). The constants were computed on main at c432512 (commit 76853e0 has the test as
//! it mirrored that worker's `fuzz_batch`), before the engines moved behind
//! `mutate::Mutator`: the same seed and rng give the same mutants. `equisat`'s lines (an
//! engine added later, session 23) were computed when it was added, so a change to its
//! relations shows here too.

mod common;

use smtstorm::mutate::{storm, Ctx, Engine, Mutant, Partner, Reference};
use smtstorm::smtlib::{self, Script};
use smtstorm::solver::{Family, Limits, Session, SolverSpec};
use smtstorm::util::hash::{fnv1a, fnv1a_from, mix};
use std::sync::Arc;

const SEEDS: [&str; 3] = ["regress0/bug383.smt2", "regress0/bug339.smt2", "regress0/bug187.smt2"];
const BATCH: u64 = 8;
const CAMPAIGN_SEED: u64 = 1;

fn solvers() -> Vec<SolverSpec> {
    let spec = SolverSpec::new;
    vec![
        spec("z3-5.4.0", Family::Z3, vec![common::solver_bin("z3-5.4.0/bin/z3").display().to_string(), "-smt2".into()]),
        spec("cvc5", Family::Cvc5, vec![common::solver_bin("cvc5/cvc5-smt2").display().to_string()]),
    ]
}

/// One mutant as hashed: rng seed, edits (JSON) and texts.
fn digest(h: u64, rng_seed: u64, edits: &[smtstorm::mutate::edit::Edit], texts: &[String]) -> u64 {
    let mut h = fnv1a_from(h, &rng_seed.to_le_bytes());
    h = fnv1a_from(h, serde_json::to_string(edits).unwrap().as_bytes());
    for t in texts {
        h = fnv1a_from(h, t.as_bytes());
    }
    h
}

/// The reference as the campaign has it: z3's session, asked directly.
struct Z3<'a>(&'a mut Session);

impl Reference for Z3<'_> {
    fn bec_answer(&mut self, query: &str) -> smtstorm::mutate::bec::BecAnswer {
        smtstorm::mutate::file::bec_answer(self.0, query)
    }
    fn pools(&mut self, seed: &Script, bounds: &storm::Bounds, rng_seed: u64) -> Option<Arc<storm::Pools>> {
        smtstorm::oracle::witness::pools_for(seed, self.0, bounds, rng_seed, &mut 0).ok().map(Arc::new)
    }
}

/// A batch as the campaign worker makes it (`campaign/worker.rs::make_batch`), through
/// [`smtstorm::mutate::Mutator`]: the mutants' hash and how many there were.
fn batch(
    engine: Engine,
    seeds: &[Script],
    paths: &[String],
    i: usize,
    sess: &mut Session,
    solvers: &[SolverSpec],
) -> (u64, usize) {
    let options = smtstorm::solver::options::Options::default();
    let bounds = storm::Bounds::default();
    let (turn, run) = (0u64, 0u64);
    let partner = (i + 1) % seeds.len();
    let seed_draw = |tag: u64| mix(&[CAMPAIGN_SEED, i as u64, tag]);
    let mut reference = Z3(sess);
    let mut ctx = Ctx {
        solvers,
        options: &options,
        storm: &bounds,
        batch: BATCH as usize,
        seed_draw: &seed_draw,
        turn_draw: mix(&[CAMPAIGN_SEED, run, i as u64, engine as u64, turn]),
        reference: Some(&mut reference),
        reference_reads: true,
        partner: Some(Partner { script: &seeds[partner], path: paths[partner].clone(), sat: true }),
        learning: None,
        baseline: vec![],
    };
    let mut m = smtstorm::mutate::mutator(engine);
    let mut out: Vec<Mutant> = vec![];
    if m.prepare(&seeds[i], &mut ctx).is_ok() {
        for b in 0..BATCH {
            let rng_seed = mix(&[CAMPAIGN_SEED, run, i as u64, engine as u64, turn, b]);
            if let Some(x) = m.mutate(rng_seed) {
                if !out.iter().any(|y| y.texts == x.texts) {
                    out.push(x);
                }
            }
        }
    }
    let h = out.iter().fold(fnv1a(b"batch"), |h, x| digest(h, x.rng_seed, &x.edits, &x.texts));
    (h, out.len())
}

#[test]
fn engines_make_the_same_mutants_as_before() {
    let root = std::path::Path::new("/work/shared/seeds/cvc5-regress");
    let root = if root.is_dir() { root.to_path_buf() } else { common::repo().join("../shared/seeds/cvc5-regress") };
    let paths: Vec<String> = SEEDS.iter().map(|p| root.join(p).display().to_string()).collect();
    let seeds: Vec<Script> =
        paths.iter().map(|p| smtlib::parse(&std::fs::read_to_string(p).unwrap()).unwrap()).collect();
    let solvers = solvers();
    let limits = Limits { time: std::time::Duration::from_secs(20), ..Limits::default() };
    let mut sess = Session::validating(solvers[0].clone(), limits);
    let mut got = vec![];
    let mut made = 0;
    for engine in Engine::ALL {
        for i in 0..seeds.len() {
            let (h, n) = batch(engine, &seeds, &paths, i, &mut sess, &solvers);
            made += n;
            got.push(format!("{engine} {i} {n} {h:016x}"));
        }
    }
    let got = got.join("\n");
    println!("{got}");
    // Every engine made mutants on some seed (the pin exercises each of them).
    for engine in Engine::ALL {
        assert!(
            got.lines().any(|l| l.starts_with(&format!("{engine} ")) && !l.contains(" 0 99954e824b0d0e3b")),
            "{engine}"
        );
    }
    assert!(made > 0);
    assert_eq!(got, EXPECTED.trim());
}

const EXPECTED: &str = "
opfuzz 0 3 537b0ad798ef5ad0
opfuzz 1 5 d5228c4293a1b0ae
opfuzz 2 5 1df7579fbc732344
typefuzz 0 8 1e8cc02476980954
typefuzz 1 6 433abd0b26dc70a1
typefuzz 2 6 19acdf90cfea8f89
valfuzz 0 8 21fbd913bc2d0fc2
valfuzz 1 8 f77995d13bc3a622
valfuzz 2 7 b21ee1db3d994b1b
storm 0 8 a06ff614e810654b
storm 1 8 f73361381f52bebe
storm 2 8 6f6666b3d6b7248b
bec 0 8 c90afda6d6cb9d92
bec 1 8 c2cb760856cdeb8c
bec 2 6 186e0d3a8b9ba80c
config 0 3 dd7d943fafb397de
config 1 7 938b1a15e6ef2732
config 2 6 c7bd2b434ea63bbe
fusion 0 0 99954e824b0d0e3b
fusion 1 7 65cef6972ff3f520
fusion 2 0 99954e824b0d0e3b
equisat 0 8 63ac84b35b43ecd0
equisat 1 8 61805cead79ecf2c
equisat 2 7 0e766d39231344b6
";
