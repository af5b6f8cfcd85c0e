//! `storm_target`'s mutator: every engine of the campaign, with STORM at the centre.
//!
//! The campaign's engines found what the targets did not (issue 41: on z3 regression
//! seeds every finding of 30 minutes came from the configuration engine, which no target
//! had). So from libFuzzer's seed the mutator picks, in sixteenths ([`MIX`]): a STORM
//! instance half the time (the user names it), a configuration edit a quarter (tactic
//! pipelines, parameters, cvc5/bitwuzla options, incremental framing), and OpFuzz,
//! TypeFuzz, ValFuzz and BEC one each — applied, half the time each, to the input or to a
//! STORM instance of it. Semantic Fusion needs a second input: it is half of the crossover
//! hook ([`crossover`]), with a partner of the same satisfiability.
//!
//! Oracles compose with the edits: a configuration edit changes how an instance is
//! asked, not what, so an instance asked again through a tactic pipeline (or inside a
//! scope, or under options) keeps its witness line and its sat-by-construction oracle —
//! any `unsat` is a bug with no second solver. A formula edit on an instance drops the
//! witness (the differential oracle judges the mutant). A fusion child carries a first
//! line [`FUSED`] with its status by construction.
//!
//! Deterministic: the same input and seed give the same output (STORM's pools and BEC's
//! answers are the reference's, cached per seed and query).

use super::engines::{self, NO_MODEL};
use super::runner::{Harness, IN_PROCESS_Z3};
use crate::mutate::edit::Edit;
use crate::mutate::{storm, Engine};
use crate::smtlib;
use crate::solver::options::{self, Options};
use crate::solver::{Family, OptionOwners, SolverSpec};

/// The engines of `storm_target`'s mutator, each with its share in sixteenths of the
/// structured mutants.
pub const MIX: [(Engine, u64); 6] = [
    (Engine::Storm, 8),
    (Engine::Config, 4),
    (Engine::OpFuzz, 1),
    (Engine::TypeFuzz, 1),
    (Engine::ValFuzz, 1),
    (Engine::Bec, 1),
];

/// The first line of a fusion child, followed by `sat` or `unsat` and the hash of the
/// rest of the text: its status by construction ([`crate::mutate::fusion`]).
pub const FUSED: &str = "; smtstorm-fused ";

/// `script` (printed) under its fused line.
fn fused_text(sat: bool, script: &str) -> String {
    let h = crate::util::hash::fnv1a(script.as_bytes());
    format!("{FUSED}{} {h:016x}\n{script}", if sat { "sat" } else { "unsat" })
}

/// The status a fusion child's first line gives (`true`: sat) — only while the rest is
/// the text it was made for: libFuzzer's byte mutation keeps a first line and changes
/// what follows (measured: a fusion child whose digit constraint a byte edit made
/// unsatisfiable was judged against `sat`).
pub fn read_fused(text: &str) -> Option<bool> {
    let (first, rest) = text.split_once('\n')?;
    let (status, hash) = first.strip_prefix(FUSED)?.split_once(' ')?;
    if hash.trim() != format!("{:016x}", crate::util::hash::fnv1a(rest.as_bytes())) {
        return None;
    }
    match status {
        "sat" => Some(true),
        "unsat" => Some(false),
        _ => None,
    }
}

/// The engine `seed` picks from [`MIX`].
fn pick(seed: u32) -> (Engine, bool) {
    let r = crate::util::hash::mix(&[seed as u64, 0x006d_6978]);
    let mut x = r % 16;
    let on_instance = (r >> 32) & 1 == 0;
    for (e, share) in MIX {
        if x < share {
            return (e, on_instance);
        }
        x -= share;
    }
    (Engine::Storm, on_instance)
}

/// One structured mutant of `data` (at most `max_size` bytes) and the engine that made
/// it; `None` when no engine could (libFuzzer's byte mutation then runs).
pub fn mutate(h: &mut Harness, data: &[u8], seed: u32, max_size: usize) -> Option<(Engine, Vec<u8>)> {
    let storm =
        |h: &mut Harness| engines::mutate_in(h, Engine::Storm, data, seed, max_size).map(|m| (Engine::Storm, m));
    let (engine, on_instance) = pick(seed);
    if engine == Engine::Storm {
        return storm(h);
    }
    // The base: the input itself, or one of its STORM instances (a seed without a model
    // has none: its STORM mutants are operator mutants, marked).
    let instance = (on_instance && !data.starts_with(NO_MODEL.as_bytes()))
        .then(|| engines::mutate_in(h, Engine::Storm, data, seed.rotate_left(16), max_size))
        .flatten()
        .filter(|m| witness_of(m).is_some());
    let base = instance.as_deref().unwrap_or(data);
    let made = match engine {
        Engine::Config => configured(h, base, seed, max_size),
        // An ill-sorted input gives STORM nothing, and nothing here either.
        Engine::Bec => engines::mutate_in(h, Engine::Bec, base, seed, max_size),
        e => engines::mutate_in(h, e, base, seed, max_size),
    };
    match made {
        Some(m) => Some((engine, m)),
        None => storm(h),
    }
}

fn witness_of(data: &[u8]) -> Option<Vec<(String, String)>> {
    std::str::from_utf8(data).ok().and_then(storm::read_witness)
}

/// A configuration mutant of `data` from the harness's tables. An instance keeps its
/// witness line when every edit is a configuration edit (it asks the same assertions).
fn configured(h: &Harness, data: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    let s = smtlib::parse_bytes(data).ok()?;
    let (edits, m) = engines::edited(Engine::Config, &s, &h.options, seed)?;
    let config_only =
        edits.iter().all(|e| matches!(e, Edit::AskAgain { .. } | Edit::SetOptions { .. } | Edit::PushSplit { .. }));
    let text = smtlib::print(&m);
    let text = match witness_of(data).filter(|_| config_only) {
        Some(w) => format!("{}\n{text}", storm::witness_line(&w)),
        None => text,
    };
    (text.len() <= max_size).then(|| text.into_bytes())
}

/// `x` as a part known to be satisfiable: an intact sat fusion child, else a fresh STORM
/// instance of it (sat under its witness by construction). Neither a `:status` line, a
/// witness line nor the reference's pools are taken on trust: libFuzzer's byte mutation
/// keeps first lines while it edits the assertions, and STORM's pools exist for unsat
/// seeds too (built from a model of their negation) — both gave false fusion reports in
/// the first end-to-end runs.
fn sat_part(h: &mut Harness, x: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    if read_fused(std::str::from_utf8(x).ok()?) == Some(true) {
        return Some(x.to_vec());
    }
    engines::mutate_in(h, Engine::Storm, x, seed, max_size).filter(|m| witness_of(m).is_some())
}

/// `storm_target`'s crossover: with [`Harness::fusion`] on, half the time a Semantic Fusion of two satisfiable parts
/// of the inputs ([`sat_part`]; its status on the first line), else (and
/// when they do not fuse) [`engines::crossover`]. The engine is `None` for the latter.
pub fn crossover(h: &mut Harness, a: &[u8], b: &[u8], seed: u32, max_size: usize) -> Option<(Option<Engine>, Vec<u8>)> {
    if h.fusion && crate::util::hash::mix(&[seed as u64, 0x6675_7365]) & 1 == 0 {
        if let Some(m) = fused(h, a, b, seed, max_size) {
            return Some((Some(Engine::Fusion), m));
        }
    }
    engines::crossover(a, b, seed, max_size).map(|m| (None, m))
}

/// A sat fusion of `a` with the partner `b` ([`sat_part`] of each), marked with [`FUSED`].
fn fused(h: &mut Harness, a: &[u8], b: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    let pa = sat_part(h, a, seed, max_size)?;
    let pb = sat_part(h, b, seed.rotate_left(8), max_size)?;
    let (sa, sb) = (smtlib::parse_bytes(&pa).ok()?, smtlib::parse_bytes(&pb).ok()?);
    let partner = crate::mutate::Partner { script: &sb, path: "libfuzzer-partner".into(), sat: true };
    let m = engines::fused(&sa, partner, seed)?;
    let text = fused_text(true, &smtlib::print(&m));
    (text.len() <= max_size).then(|| text.into_bytes())
}

/// The configuration engine's space for the harness's solvers, as a campaign builds it:
/// the tactics (with parameters) every z3 release lists, and the options of the cvc5 and
/// bitwuzla releases, each read by the one family whose table lists it. Tables come from
/// the cache beside each release ([`options::extract_cached`]); a release that cannot be
/// asked leaves its family's part empty (the engine then frames incrementally, which
/// every solver reads), and says so once.
pub fn configuration_space(specs: &[SolverSpec]) -> (Options, OptionOwners) {
    let mut owners = OptionOwners::default();
    let mut table_of = |family: Family| -> Options {
        let mut tables = vec![];
        for spec in specs.iter().filter(|s| s.family == family && s.name != IN_PROCESS_Z3) {
            match options::extract_cached(spec) {
                Ok((o, _)) => {
                    o.add_owners(family, &mut owners);
                    tables.push(o);
                }
                Err(e) => {
                    eprintln!("smtstorm: no option table of {} ({e}): its configuration edits are off", spec.name);
                    return Options::default();
                }
            }
        }
        options::intersect(&tables)
    };
    let z3 = table_of(Family::Z3);
    let (cvc5, bitwuzla) = (table_of(Family::Cvc5), table_of(Family::Bitwuzla));
    let set_options = [(Family::Cvc5, cvc5), (Family::Bitwuzla, bitwuzla)]
        .into_iter()
        .flat_map(|(f, o)| o.set_options.into_iter().map(move |p| (f, p)))
        .filter(|(f, p)| owners.owner(&format!(":{}", p.name)) == Some(*f))
        .map(|(_, p)| p)
        .collect();
    (Options { tactics: z3.tactics, set_options, ..Default::default() }, owners)
}

impl Harness {
    /// Reads the configuration space of its solvers once ([`configuration_space`]); every
    /// solver then knows which options are whose (what it is sent leaves out the others').
    pub fn load_options(&mut self) {
        let (o, owners) = configuration_space(&self.specs);
        self.options = o;
        for s in &mut self.specs {
            s.option_owners.merge(&owners);
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::tests::{corpus, harness_of};
    use super::super::{kept::Found, mutate_with, runner};
    use super::*;

    /// `NAME=command` for z3 5.4.0 behind `tests/fixtures/fault_proxy.py` with `faults`
    /// (the answers are the real z3's but for the planted fault).
    pub(in crate::harness) fn faulty(faults: &str) -> String {
        let reg = crate::solver::Registry::load(&crate::solver::registry::default_toml()).unwrap();
        let z3 = crate::solver::resolve::resolve(&reg, &["z3-5.4.0".to_string()]).expect("z3-5.4.0 installed");
        let proxy = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fault_proxy.py");
        format!("faulty=python3 {} {faults} {} -smt2", proxy.display(), z3[0].command[0])
    }

    /// Issue 41: every engine is reachable from `storm_target`'s mutator and crossover on
    /// the corpus — 1,000 mutations and 250 crossovers of `corpus/` inputs (with another
    /// seed, or with a mutant of the same seed, as libFuzzer's corpus holds), counted per
    /// engine by the harness's statistics, none zero, STORM the most. Deterministic (same
    /// input and seed, same mutant); every structured mutant parses; configuration edits of
    /// instances keep their witness line; a sample goes through the target body.
    #[test]
    fn every_engine_is_reachable_from_the_storm_mutator() {
        let mut h = harness_of(&["yices", "z3-5.4.0"]);
        h.load_options();
        assert!(!h.options.tactics.is_empty(), "z3 5.4.0's tactic table");
        let inputs = corpus();
        let (mut with_witness_asked_again, mut bytes, mut ran) = (0, 0, 0);
        for i in 0..1000u32 {
            let base = &inputs[(i as usize * 7) % inputs.len()];
            let mut buf = vec![0u8; 1 << 16];
            buf[..base.len()].copy_from_slice(base);
            let before = h.stats.engines;
            let n = mutate_with(&mut h, Engine::Storm, &mut buf, base.len(), 1 << 16, i, |_, s, _| s);
            let m = buf[..n].to_vec();
            if h.stats.engines == before {
                bytes += 1;
                continue;
            }
            if i % 10 == 0 {
                assert_eq!(Some((crate::util::hash::fnv1a(&m), h.last_mutant.and_then(|x| x.1))), h.last_mutant);
                assert_eq!(
                    mutate(&mut h, base, i, 1 << 16).map(|x| x.1),
                    Some(m.clone()),
                    "seed {i}: not deterministic"
                );
            }
            let text = String::from_utf8(m.clone()).unwrap();
            assert!(smtlib::parse(&text).is_ok(), "seed {i}: {text}");
            if storm::read_witness(&text).is_some() && text.contains("(check-sat-using ") {
                with_witness_asked_again += 1;
            }
            if i % 25 == 0 {
                ran += 1;
                let r = runner::storm_input(&mut h, &m);
                assert_ne!(r, Found::Rejected, "seed {i}: a structured mutant was rejected:\n{text}");
                assert!(!matches!(r, Found::Finding { .. }), "seed {i}: {r:?} on today's z3 and yices:\n{text}");
            }
        }
        // Partners as libFuzzer's corpus holds them: another seed, or a mutant of this one.
        h.fusion = true;
        for i in 0..250u32 {
            let a = &inputs[i as usize % inputs.len()];
            let b = match i % 2 {
                0 => inputs[crate::util::hash::mix(&[i as u64]) as usize % inputs.len()].clone(),
                _ => mutate(&mut h, a, i, 1 << 16).map_or_else(|| a.clone(), |x| x.1),
            };
            let mut out = vec![0u8; 1 << 16];
            let c = crossover(&mut h, a, &b, i, out.len());
            if let Some((e, c)) = c {
                let text = String::from_utf8(c.clone()).unwrap();
                assert!(smtlib::parse(&text).is_ok(), "{text}");
                if e == Some(Engine::Fusion) {
                    assert!(read_fused(&text).is_some(), "{text}");
                    // A byte edit of the formula voids the construction.
                    let edited =
                        text.replacen("(assert ", "(assert (not ", 1).replacen("\n(check-sat)", ")\n(check-sat)", 1);
                    assert_eq!(read_fused(&edited), None, "{edited}");
                }
                let _ = super::super::write_child(&mut h, Some((e, c)), &mut out);
            }
        }
        // Every engine a campaign runs by default; equisat's oracle compares each solver
        // with its own answer to the seed, which the harness does not keep (not yet here).
        let counts: Vec<(Engine, u64)> = Engine::DEFAULT.iter().map(|&e| (e, h.stats.by_engine(e))).collect();
        eprintln!("{counts:?}; libFuzzer's bytes {bytes}, instances asked through a tactic {with_witness_asked_again}, target runs {ran}");
        for (e, n) in &counts {
            assert!(*n > 0, "{e} never used: {counts:?}");
        }
        let storm = h.stats.by_engine(Engine::Storm);
        assert!(counts.iter().all(|(e, n)| *e == Engine::Storm || *n < storm), "{counts:?}");
        assert!(with_witness_asked_again >= 10, "{with_witness_asked_again} instances asked through a tactic");
        assert!(ran >= 30, "{ran}");
    }

    /// Issue 41: a STORM instance asked again through a tactic pipeline keeps its
    /// sat-by-construction oracle. A solver that answers it `sat` and then `unsat` (the
    /// fault proxy's `contradict-if` around a real z3 5.4.0) is reported, confirmed in
    /// fresh processes, with no second solver's vote; the same instance on real z3 5.4.0
    /// and yices is not.
    #[test]
    fn an_instance_under_a_tactic_pipeline_keeps_its_oracle() {
        let seed = b"(set-logic QF_LIA)\n(declare-const contradict_me Int)\n(declare-const y Int)\n(assert (> contradict_me 2))\n(assert (< y (+ contradict_me 5)))\n(assert (> (+ y contradict_me) 1))\n(check-sat)\n";
        let mut good = harness_of(&["yices", "z3-5.4.0"]);
        good.load_options();
        let inst = (0..400u32)
            .filter(|&i| pick(i).0 == Engine::Config)
            .filter_map(|i| mutate(&mut good, seed, i, 1 << 16))
            .map(|(_, m)| String::from_utf8(m).unwrap())
            .find(|t| storm::read_witness(t).is_some() && t.contains("(check-sat-using "))
            .expect("a configuration edit of a STORM instance");
        assert_eq!(runner::storm_input(&mut good, inst.as_bytes()), Found::Nothing, "{inst}");
        // The proxy is a Python process: 5 s per query, as the other proxy tests have, so
        // a loaded machine cannot turn its answer into a timeout.
        let mut bad = super::super::tests::harness_with_limit(
            &[&faulty("contradict-if:contradict_me"), "z3-5.4.0"],
            std::time::Duration::from_secs(5),
        );
        match runner::storm_input(&mut bad, inst.as_bytes()) {
            Found::Finding { kind, solver, .. } => {
                assert_eq!((kind, solver.as_str()), (crate::oracle::BugKind::Soundness, "faulty"), "{inst}")
            }
            r => panic!("{r:?} on\n{inst}"),
        }
    }

    /// How long z3 5.4.0 takes on configuration mutants of `corpus/` seeds (issue 41: the
    /// per-query limit). Run by hand: `cargo test --release --lib harness::mix::tests::config_mutant_times -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn config_mutant_times() {
        let reg = crate::solver::Registry::load(&crate::solver::registry::default_toml()).unwrap();
        let specs = crate::solver::resolve::resolve(&reg, &["z3-5.4.0".to_string()]).unwrap();
        let mut h = runner::Harness::new(specs, 0, std::time::Duration::from_secs(10), false).unwrap();
        h.load_options();
        let (mut plain, mut tactic) = (vec![], vec![]);
        for (k, base) in corpus().iter().enumerate() {
            for i in 0..6u32 {
                let seed = (k as u32) * 100 + i;
                let input = if i % 2 == 0 {
                    engines::mutate_in(&mut h, Engine::Storm, base, seed, 1 << 16).unwrap_or(base.clone())
                } else {
                    base.clone()
                };
                let Some(m) = configured(&h, &input, seed, 1 << 16) else { continue };
                let before = h.stats.query_wall;
                let _ = runner::differential_input(&mut h, &m);
                let took = (h.stats.query_wall - before).as_secs_f64() * 1000.0;
                if String::from_utf8_lossy(&m).contains("(check-sat-using ") {
                    tactic.push(took)
                } else {
                    plain.push(took)
                }
            }
        }
        for (name, mut v) in [("tactic", tactic), ("framing/options", plain)] {
            v.sort_by(f64::total_cmp);
            let q = |p: f64| v[((v.len() as f64 - 1.0) * p) as usize];
            let over = |ms: f64| v.iter().filter(|&&x| x > ms).count();
            eprintln!(
                "{name}: n {} median {:.1} ms p90 {:.1} p95 {:.1} p99 {:.1} max {:.1}; over 100 ms {}, over 500 ms {}, over 1 s {}",
                v.len(), q(0.5), q(0.9), q(0.95), q(0.99), q(1.0), over(100.0), over(500.0), over(1000.0)
            );
        }
    }
}
