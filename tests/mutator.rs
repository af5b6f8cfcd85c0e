//! The mutants a campaign turn makes, pinned: per engine, a hash of one batch (each
//! mutant's rng seed, edits and per-solver session texts) on three cvc5 regression seeds,
//! with z3 5.4 and cvc5 as the solvers and z3 as the reference (BEC's answers, STORM's
//! model). The constants were computed on main at c432512, before the engines moved
//! behind `mutate::Mutator`: the same seed and rng give the same mutants.

mod common;

use smtstorm::mutate::choice::Rng;
use smtstorm::mutate::{edit::strip_status, opfuzz, storm, valfuzz, Engine, Prepared};
use smtstorm::smtlib::{self, Script};
use smtstorm::solver::{session_text, Family, Limits, Session, SolverSpec};
use smtstorm::util::hash::{fnv1a, fnv1a_from, mix};

const SEEDS: [&str; 3] = ["regress0/bug383.smt2", "regress0/bug339.smt2", "regress0/bug187.smt2"];
const BATCH: u64 = 8;
const CAMPAIGN_SEED: u64 = 1;

fn solvers() -> Vec<SolverSpec> {
    let spec = |name: &str, family, command: Vec<String>| SolverSpec {
        name: name.into(),
        family,
        command,
        version: None,
        restart_every: None,
        option_owners: Default::default(),
    };
    vec![
        spec("z3-5.4.0", Family::Z3, vec![common::solver_bin("z3-5.4.0/bin/z3").display().to_string(), "-smt2".into()]),
        spec("cvc5", Family::Cvc5, vec![common::solver_bin("cvc5/cvc5-smt2").display().to_string()]),
    ]
}

fn texts(solvers: &[SolverSpec], s: &Script) -> Vec<String> {
    solvers.iter().map(|spec| session_text(&spec.own_script(s)).0).collect()
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

/// A batch as the worker made it on main (c432512, `campaign/worker.rs::fuzz_batch`):
/// the mutants' hash and how many there were.
fn batch_before(
    engine: Engine,
    seeds: &[Script],
    paths: &[String],
    i: usize,
    sess: &mut Session,
    solvers: &[SolverSpec],
) -> (u64, usize) {
    let seed = &seeds[i];
    let options = smtstorm::solver::options::Options::default();
    let turn = 0u64;
    let run = 0u64;
    let mut out: Vec<(u64, Vec<smtstorm::mutate::edit::Edit>, Vec<String>)> = vec![];
    let script_mutant = |m: &mut Script| {
        strip_status(m);
        texts(solvers, m)
    };
    let prep_engine = if engine == Engine::Bec { Engine::ValFuzz } else { engine };
    let prepared = Prepared::with_options(prep_engine, seed, &options);
    let seed_text = (engine == Engine::OpFuzz).then(|| {
        let mut plain = seed.clone();
        strip_status(&mut plain);
        opfuzz::SeedText::new(&plain)
    });
    let bec_made = match &prepared {
        Prepared::ValFuzz(vp) if engine == Engine::Bec => {
            match valfuzz::bec_plan(vp, 16, &mut Rng::new(mix(&[CAMPAIGN_SEED, i as u64, 0xbec]))) {
                Some(plan) => {
                    let mut rng = Rng::new(mix(&[CAMPAIGN_SEED, run, i as u64, Engine::Bec as u64, turn]));
                    valfuzz::bec(vp, &plan, BATCH as usize, &mut rng, &mut |q| {
                        smtstorm::mutate::file::bec_answer(sess, q)
                    })
                }
                None => vec![],
            }
        }
        _ => vec![],
    };
    let bounds = storm::Bounds::default();
    let pools = (engine == Engine::Storm)
        .then(|| {
            smtstorm::oracle::witness::pools_for(seed, sess, &bounds, mix(&[CAMPAIGN_SEED, i as u64, 0x5708]), &mut 0)
                .ok()
        })
        .flatten();
    let partner = (i + 1) % seeds.len();
    for b in 0..BATCH {
        let rng_seed = mix(&[CAMPAIGN_SEED, run, i as u64, engine as u64, turn, b]);
        let made = match engine {
            Engine::Storm => {
                let Some(p) = pools.as_ref() else { break };
                let mut rng = Rng::new(rng_seed);
                p.instance(&bounds, &mut rng).and_then(|a| storm::instance_edit(a, &bounds, &mut rng)).map(|e| {
                    let t = solvers
                        .iter()
                        .map(|spec| {
                            let prefix = smtstorm::mutate::edit::recombine_prefix(&spec.own_script(seed));
                            let body = storm::instance_body(&e, spec.family.reads_check_sat_using()).unwrap().0;
                            format!("{prefix}{body}")
                        })
                        .collect();
                    (vec![e], t)
                })
            }
            Engine::Fusion => {
                let a = smtstorm::mutate::fusion::Part::new(seed);
                let bp = smtstorm::mutate::fusion::Part::new(&seeds[partner]);
                let (Some(a), Some(bp)) = (a, bp) else { break };
                smtstorm::mutate::fusion::fuse(&a, &bp, true, &mut Rng::new(rng_seed)).map(|(recipe, mut m)| {
                    let e = smtstorm::mutate::edit::Edit::Fuse { other: paths[partner].clone(), recipe };
                    (vec![e], script_mutant(&mut m))
                })
            }
            Engine::Bec => bec_made.get(b as usize).map(|(e, m)| (e.clone(), script_mutant(&mut m.clone()))),
            _ => match (&prepared, &seed_text) {
                (Prepared::OpFuzz(op), Some(st)) => match opfuzz::choose(op, &mut Rng::new(rng_seed)) {
                    Some(opfuzz::Choice::Swap { edits, term, to }) => {
                        st.swapped(seed, term, to).map(|t| (edits, vec![t; solvers.len()]))
                    }
                    Some(opfuzz::Choice::Checked(edits, mut m)) => Some((edits, script_mutant(&mut m))),
                    None => None,
                },
                _ => prepared.mutate(&mut Rng::new(rng_seed)).map(|(e, mut m)| (e, script_mutant(&mut m))),
            },
        };
        if let Some((edits, t)) = made {
            if !out.iter().any(|x| x.2 == t) {
                out.push((rng_seed, edits, t));
            }
        }
    }
    let h = out.iter().fold(fnv1a(b"batch"), |h, (r, e, t)| digest(h, *r, e, t));
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
            let (h, n) = batch_before(engine, &seeds, &paths, i, &mut sess, &solvers);
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
";
