//! The campaign learns from its mutants: a mutant on which a solver shows behaviour never
//! seen in the campaign is kept as a seed of its own, so that it is mutated again (AFL's
//! queue, libFuzzer's corpus: Zalewski, AFL "technical details"; Serebryany, libFuzzer,
//! "corpus"). Its mutants compose their edits with the ones that made it: a tactic
//! pipeline that took z3 down a new path is fuzzed on with operator swaps.
//!
//! **Behaviour.** A mutant's signature is, per solver that got it, the features of its
//! result ([`crate::solver::behaviour::of_result`]: the answer pattern with the logic,
//! that pattern with the decade of time taken, and statistics bucketed by magnitude when
//! a statistics reply is among the responses; the campaign does not ask for statistics
//! today, so it is answers and time) and, for a configuration mutant, each tactic
//! or option it chose with the first answer of each solver it addresses (which
//! tactic or option path ran, and to what). The pre-screen's answers to every seed are
//! seen before any mutant is, so a mutant is new only against the whole suite.
//!
//! **Kept.** Only a mutant every solver of its turn answered (no error, timeout or
//! resource out) and that raised no candidate: a seed that fails already would repeat its
//! finding in every mutant. At most `--grow N` seeds are kept; a kept seed that a newer,
//! no larger one covers (every feature) is retired, as libFuzzer's `-reduce_inputs`
//! replaces an input; a resumed run re-minimises the stored corpus greedily by features
//! per byte, as `-merge=1` does ([`crate::store::corpus::minimise`]).
//!
//! **Provenance.** A grown seed records its parent's hash, the engine and the original
//! seed ([`crate::store::corpus::Lineage`]); a finding on it names both in its
//! `meta.json`, and its mutants inherit the blames of every seed above it, so that a
//! parent's own finding is never news again ([`Scheduler::blames`]).
//!
//! **Determinism.** A grown seed's draws are keyed by its content hash, not by when it
//! was grown ([`Seed::draw`]): the same grown seed makes the same mutants in any run of
//! the same `--seed`. Which mutants are new is a function of the answers (time only by
//! its decade, [`crate::solver::behaviour::time_bucket`]), and grown seeds get their
//! turns in a fixed rotation ([`super::schedule::GROWN_EVERY`]), so a run with a fixed
//! `--seed` and `--mutants` and one worker grows the same corpus each time, as far as
//! the solvers answer alike.

use super::*;
use crate::mutate::{Mutant, Mutator};
use crate::store::corpus::{self, GrownSeed, Lineage};
use std::collections::HashSet;
use std::sync::atomic::AtomicUsize;
use std::sync::OnceLock;

/// What a grown seed adds to a [`Seed`].
#[derive(Clone, Debug)]
pub(super) struct Grown {
    pub(super) lineage: Lineage,
    /// The seed it was grown from, when that seed is among this run's.
    pub(super) parent: Option<usize>,
}

/// The campaign's seeds: the suite's, then the grown ones, appended while workers read
/// the others. Room for every seed `--grow` admits is made at the start, so a slot never
/// moves and a seed is read without a lock.
pub(super) struct Seeds {
    slots: Vec<OnceLock<Seed>>,
    len: AtomicUsize,
}

impl Seeds {
    pub(super) fn new(seeds: Vec<Seed>, room: usize) -> Seeds {
        let len = seeds.len();
        let mut slots: Vec<OnceLock<Seed>> = seeds.into_iter().map(OnceLock::from).collect();
        slots.resize_with(len + room, OnceLock::new);
        Seeds { slots, len: AtomicUsize::new(len) }
    }

    /// Seeds set so far.
    pub(super) fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    /// Appends a seed; `None` when there is no room left. Callers hold [`Growth`]'s lock,
    /// so two never claim one slot.
    fn push(&self, seed: Seed) -> Option<usize> {
        let i = self.len();
        self.slots.get(i)?.set(seed).ok()?;
        self.len.store(i + 1, Relaxed);
        Some(i)
    }
}

impl std::ops::Index<usize> for Seeds {
    type Output = Seed;
    fn index(&self, i: usize) -> &Seed {
        // The scheduler hands out only indices of seeds already set.
        self.slots[i].get().expect("a seed index is handed out only once its seed is set")
    }
}

/// What the campaign has seen and grown.
#[derive(Default)]
pub(super) struct Growth {
    seen: HashSet<u64>,
    /// Live grown seeds: index, features, bytes, hash.
    kept: Vec<(usize, Vec<u64>, usize, String)>,
    /// Every seed's hash (a mutant equal to a seed is not grown again).
    hashes: HashSet<String>,
}

impl Growth {
    pub(super) fn new<'a>(hashes: impl IntoIterator<Item = &'a str>) -> Growth {
        Growth { hashes: hashes.into_iter().map(str::to_string).collect(), ..Default::default() }
    }
}

/// The stored corpus read back for a resumed run: minimised greedily by features per
/// byte within `bound` (the seeds left out are removed from the store, but for those a
/// stored finding names), each kept one
/// loaded as a seed after `seeds` (the suite's), with its parent looked up by hash.
/// Returns the loaded seeds and the features they cover.
pub(super) fn resume(out: &Path, bound: usize, seeds: &[Seed], events: &Events) -> (Vec<Seed>, Vec<(Vec<u64>, usize)>) {
    let stored = corpus::read(out);
    if stored.is_empty() {
        return (vec![], vec![]);
    }
    let sets: Vec<(&[u64], usize)> = stored.iter().map(|(r, _)| (&r.features[..], r.bytes)).collect();
    let keep = corpus::minimise(&sets, bound);
    // A grown seed a stored finding came from stays on disk, in the corpus or not: its
    // page, its reduction's STORM bounds and a reader need the file the finding names.
    let named: HashSet<String> = crate::store::Store::list_in(out).into_iter().map(|(_, m)| m.seed_hash).collect();
    let mut loaded: Vec<Seed> = vec![];
    let mut features = vec![];
    for (k, (rec, path)) in stored.iter().enumerate() {
        if !keep.contains(&k) {
            if !named.contains(&rec.hash) {
                corpus::remove(out, &rec.hash);
            }
            continue;
        }
        let Ok(bytes) = crate::util::files::read_input(path) else { continue };
        let Ok(l) = crate::solver::seed::load(&bytes) else { continue };
        // Parents are the suite's seeds or grown ones loaded before (by hash order, a
        // parent may come later: then its lineage still names it).
        let parent = seeds.iter().chain(loaded.iter()).position(|s| s.hash == rec.lineage.parent_hash);
        loaded.push(Seed {
            path: path.clone(),
            loaded: l.script,
            hash: rec.hash.clone(),
            witness: None,
            slice: Default::default(),
            draw: draw_of(&rec.hash),
            grown: Some(Grown { lineage: rec.lineage.clone(), parent }),
        });
        features.push((rec.features.clone(), rec.bytes));
    }
    events.emit(Event::CorpusMinimised { kept: loaded.len(), dropped: stored.len() - loaded.len() });
    (loaded, features)
}

/// The draw key of a grown seed: its content hash, so that its mutants do not depend on
/// when it was grown or loaded.
fn draw_of(hash: &str) -> u64 {
    mix(&[u64::from_str_radix(hash.get(..16).unwrap_or(hash), 16).unwrap_or(0), 0x6772_6f77])
}

/// Marks the loaded grown seeds (indices from `first`) as kept, with their features.
pub(super) fn adopt(growth: &mut Growth, first: usize, features: Vec<(Vec<u64>, usize)>, seeds: &[Seed]) {
    for (k, (f, bytes)) in features.into_iter().enumerate() {
        growth.seen.extend(f.iter().copied());
        growth.kept.push((first + k, f, bytes, seeds[k].hash.clone()));
    }
}

/// The features of seed `i`'s pre-screen, seen before any of its mutants.
pub(super) fn screened(sh: &Shared, i: usize, results: &[Option<QueryResult>]) {
    if sh.cfg.grow == 0 {
        return;
    }
    let logic = sh.seeds[i].script().logic().unwrap_or("none");
    let mut g = sh.growth.lock().unwrap_or_else(|e| e.into_inner());
    for (k, r) in results.iter().enumerate() {
        if let Some(r) = r {
            g.seen.extend(crate::solver::behaviour::of_result(&sh.solvers[k].name, logic, r));
        }
    }
    sh.counters.features.store(g.seen.len() as u64, Relaxed);
}

/// A mutant's behaviour signature: its results' features, and for a configuration
/// mutant each choice it made with the first answer of each solver it addresses. Sorted.
pub(super) fn features(sh: &Shared, logic: &str, mutant: &Mutant, rs: &[Option<&QueryResult>]) -> Vec<u64> {
    use crate::solver::behaviour::{key_hash, of_result};
    use crate::solver::Family;
    let keys = crate::mutate::config::Learning::keys(&mutant.edits);
    let mut out = vec![];
    for (k, r) in rs.iter().enumerate() {
        let Some(r) = r else { continue };
        let spec = &sh.solvers[k];
        out.extend(of_result(&spec.name, logic, r));
        let first = r.outcomes.first().map_or("none", Outcome::name);
        for key in &keys {
            // A tactic or parameter reaches z3 only; an option the family its table
            // names (the others' texts drop it).
            // A parameter of a pipeline is not a path of its own: with it, nearly every
            // configuration mutant was new.
            let addressed = match key.split_once(':') {
                Some(("tactic", _)) => spec.family == Family::Z3,
                Some(("option", name)) => spec.option_owners.owner(&format!(":{name}")) == Some(spec.family),
                _ => false,
            };
            if addressed {
                out.push(key_hash(spec.name.as_bytes(), &format!("path {key} {first}")));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A judged mutant of seed `i`: kept as a seed of its own when it shows a feature never
/// seen and `clean` (every solver answered, no candidate), within `--grow`'s bound.
/// Returns whether it was kept.
#[allow(clippy::too_many_arguments)]
pub(super) fn consider(
    sh: &Shared,
    m: &dyn Mutator<'_>,
    i: usize,
    engine: Engine,
    mutant: &Mutant,
    rs: &[Option<&QueryResult>],
    limit: Duration,
    clean: bool,
) -> bool {
    if sh.cfg.grow == 0 || sh.cfg.triage {
        return false;
    }
    let seed = &sh.seeds[i];
    let logic = seed.script().logic().unwrap_or("none");
    let features = features(sh, logic, mutant, rs);
    let mut g = sh.growth.lock().unwrap_or_else(|e| e.into_inner());
    let new = features.iter().filter(|f| !g.seen.contains(f)).count();
    if new == 0 {
        return false;
    }
    // Only a clean mutant's features count as seen: one that errs may be read cleanly
    // by its next mutant.
    if !clean {
        return false;
    }
    g.seen.extend(features.iter().copied());
    sh.counters.features.store(g.seen.len() as u64, Relaxed);
    if g.kept.len() >= sh.cfg.grow as usize {
        sh.counters.grow_full.fetch_add(1, Relaxed);
        return false;
    }
    let Ok(script) = m.rebuild(seed.script(), mutant) else { return false };
    let mut script = script.into_owned();
    strip_status(&mut script);
    let text = smtlib::print(&script);
    let hash = store::seed_hash(&text);
    if g.hashes.contains(&hash) {
        return false;
    }
    let origin = match &seed.grown {
        Some(p) => (p.lineage.origin_seed.clone(), p.lineage.origin_hash.clone()),
        None => (seed.path.display().to_string(), seed.hash.clone()),
    };
    let rec = GrownSeed {
        hash: hash.clone(),
        lineage: Lineage { parent_hash: seed.hash.clone(), engine, origin_seed: origin.0, origin_hash: origin.1 },
        edits: mutant.edits.clone(),
        features: features.clone(),
        bytes: text.len(),
        run: sh.run,
    };
    let Ok(path) = corpus::write(&sh.out, &rec, &text) else { return false };
    let grown = Seed {
        path,
        loaded: script,
        hash: hash.clone(),
        witness: None,
        slice: Default::default(),
        draw: draw_of(&hash),
        grown: Some(Grown { lineage: rec.lineage.clone(), parent: Some(i) }),
    };
    let Some(j) = sh.seeds.push(grown) else {
        corpus::remove(&sh.out, &hash);
        return false;
    };
    g.hashes.insert(hash.clone());
    // Kept seeds a smaller one now covers are retired (never the seed being fuzzed's
    // own parent line: a retired seed keeps its turns in flight).
    let gone: Vec<(usize, String)> = g
        .kept
        .iter()
        .filter(|(_, f, b, _)| corpus::redundant(f, *b, &features, text.len()))
        .map(|(k, _, _, h)| (*k, h.clone()))
        .collect();
    g.kept.retain(|(k, ..)| !gone.iter().any(|(x, _)| x == k));
    g.kept.push((j, features, text.len(), hash));
    let mut sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
    let parent = &sched.state[i];
    // The mutant's own answers are its pre-screen: read by the solvers that answered it.
    let st = SeedState {
        solvers: parent.solvers.iter().copied().filter(|&k| rs.get(k).is_some_and(|r| r.is_some())).collect(),
        limit,
        active: true,
        turn_cost: parent.turn_cost,
        baseline: rs.iter().map(|r| r.map(|r| (r.outcomes.iter().map(Outcome::name).collect(), r.wall))).collect(),
        grown: true,
        parent: Some(i),
        ..Default::default()
    };
    sched.state.resize_with(j, Default::default);
    sched.state.push(st);
    sched.ready.push(j);
    // The suite's counters (`seeds_ready`, `seeds_demoted`) leave grown seeds out.
    let retired = gone.iter().filter(|(k, _)| sched.retire(*k)).count();
    drop(sched);
    sh.counters.grown_dropped.fetch_add(retired as u64, Relaxed);
    drop(g);
    // A retired seed's files stay until the next resume re-minimises the corpus: a worker
    // may be fuzzing it now, and a finding of that turn names its file.
    sh.counters.seeds_grown.fetch_add(1, Relaxed);
    sh.events.emit(Event::SeedGrown {
        seed: crate::util::path::shown(&sh.seeds[j].path),
        parent: crate::util::path::shown(&seed.path),
        engine,
        new_features: new,
    });
    true
}
