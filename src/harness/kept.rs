//! What a confirmed finding of a fuzz target becomes: stored in the harness's bug store
//! (`SMTSTORM_STORE`, default `fuzz/store/<target>`), in the campaign's format
//! ([`crate::store`]), and aborted on only when that is news.
//!
//! libFuzzer stops at the first crash of a target, and with `-fork` the whole run stops at
//! the first crash of a job: one seed that already made a solver fail stopped every job
//! that drew it (57 and 61 crash exits in 30 minutes, issue 41). So, as a campaign does
//! with a seed that fails before any mutation:
//!
//! * an **unmutated input** (one the mutator did not just make: the corpus libFuzzer
//!   starts from, a `-fork` job's seed inputs) that fails is stored once as a *seed
//!   finding* (`seed-findings/`) and fuzzed on — never aborted on;
//! * a **mutant** whose bug the store already holds — under its own dedup key, or under
//!   the seed finding's (the mutant inherited its seed's bug, as a campaign calls it) —
//!   is counted and fuzzed on;
//! * a **new mutant finding** is stored, then aborted on: libFuzzer writes the artifact
//!   for `smtstorm triage`, and every other process sharing the store (`-fork` jobs, a
//!   rerun) counts it as known from then on. The store on disk is the memory across
//!   processes; each finding takes the store's lock only while it is recorded.
//!
//! Inputs named as files on libFuzzer's command line (a reproduction) abort as before.

use super::runner::Harness;
use crate::oracle::confirm::{Confirmed, Known};
use crate::oracle::BugKind;
use crate::smtlib::{self, Script};
use crate::store::{dedup_key, Meta, Origin, Recorded, SolverAnswer, Store};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What one execution found (the targets panic on `Finding`; tests look at it).
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    Nothing,
    /// The input never reached a solver: it does not parse, has no `check-sat`, or (STORM
    /// seeds) is ill-sorted. libFuzzer is told not to keep it ([`Found::abort_or_keep`]):
    /// otherwise byte-mutated garbage enters the corpus for the coverage it gives
    /// smtstorm's own parser, and the mutators, which need well-formed input, waste their
    /// time on it.
    Rejected,
    /// A confirmed bug: kind, blamed solver, signature.
    Finding {
        kind: BugKind,
        solver: String,
        signature: String,
    },
    /// A confirmed bug that does not abort: the unmutated input's own (stored as a seed
    /// finding), or one the store already holds. `new`: stored by this execution.
    Kept {
        kind: BugKind,
        solver: String,
        dir: PathBuf,
        new: bool,
    },
}

impl Found {
    /// Aborts with the finding (the libFuzzer artifact is the input).
    pub fn abort_on_finding(self) {
        if let Found::Finding { kind, solver, signature } = self {
            panic!("smtstorm: confirmed {kind} bug in {solver}: {signature}");
        }
    }

    /// [`Found::abort_on_finding`], then whether the input may enter the corpus (a
    /// libFuzzer target returns `Corpus::Reject` for `false`).
    pub fn abort_or_keep(self) -> bool {
        let keep = self != Found::Rejected;
        self.abort_on_finding();
        keep
    }
}

/// The harness's store: `SMTSTORM_STORE`, else `fuzz/store/<target>` of the checkout the
/// library was built from, else `smtstorm-store/<target>` in the current directory (a
/// binary that moved, as under OSS-Fuzz).
pub fn store_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("SMTSTORM_STORE") {
        return d.into();
    }
    let target = super::start::target_name();
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    if fuzz.is_dir() {
        fuzz.join("store").join(target)
    } else {
        PathBuf::from("smtstorm-store").join(target)
    }
}

/// How long a finding waits for another process sharing the store (a `-fork` sibling
/// recording its own) before it aborts unstored.
const LOCK_WAIT: Duration = Duration::from_secs(20);

impl Harness {
    /// What made `data`: the last mutant's engine when it is that mutant, else a seed.
    pub(super) fn origin_of(&self, data: &[u8]) -> Origin {
        match self.last_mutant {
            Some((h, e)) if h == crate::util::hash::fnv1a(data) => {
                e.map_or_else(|| Origin::Other("libfuzzer-bytes".into()), Origin::Engine)
            }
            _ => Origin::Seed,
        }
    }

    /// Notes `m` as the mutator's output by `engine` (`None`: libFuzzer's bytes).
    pub fn note_mutant(&mut self, m: &[u8], engine: Option<crate::mutate::Engine>) {
        self.last_mutant = Some((crate::util::hash::fnv1a(m), engine));
        if let Some(e) = engine {
            self.stats.count_engine(e);
        }
    }

    /// A confirmed finding on `s` ([`Found`], the module docs): stored, and aborted on
    /// only when new and made by a mutator. Without a store, or replaying files, it aborts.
    pub(super) fn keep(&mut self, s: &Script, known: &Known, c: &Confirmed) -> Found {
        let found = self.named(&c.verdict);
        let Some(out) = self.store.clone().filter(|_| !self.replay) else { return found };
        let seed_finding = self.origin == Origin::Seed;
        let text = smtlib::print(s);
        let trigger = match known.witness {
            Some(w) => format!("{}\n{text}", crate::mutate::storm::witness_line(w)),
            None => text,
        };
        let meta = self.meta(s, c, seed_finding, &trigger);
        let (kind, solver) = (meta.kind, meta.blamed.clone());
        match record(&out, meta, &trigger) {
            Ok(Recorded::New(dir)) if seed_finding => {
                self.stats.seed_findings += 1;
                eprintln!("smtstorm: seed finding stored in {} (fuzzing on)", dir.display());
                Found::Kept { kind, solver, dir, new: true }
            }
            Ok(Recorded::New(dir)) => {
                eprintln!("smtstorm: finding stored in {}", dir.display());
                found
            }
            Ok(Recorded::Duplicate(dir)) => {
                self.stats.known_findings += 1;
                Found::Kept { kind, solver, dir, new: false }
            }
            Err(e) => {
                // Never lost: libFuzzer's artifact keeps it.
                eprintln!("smtstorm: could not store the finding in {}: {e}", out.display());
                found
            }
        }
    }

    /// The finding's `meta.json`, as a campaign writes it (no bisection, no gdb frames:
    /// `smtstorm triage` adds both to the artifacts).
    fn meta(&self, s: &Script, c: &Confirmed, seed_finding: bool, trigger: &str) -> Meta {
        let v = &c.verdict;
        let answers = (0..self.specs.len())
            .filter_map(|k| c.fresh.results.get(k).and_then(Option::as_ref).map(|r| (k, r)))
            .map(|(k, r)| SolverAnswer::of(&self.specs[k], r))
            .collect();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Meta {
            id: String::new(),
            kind: v.kind,
            blamed: v.blamed.map_or("undecided".into(), |b| self.specs[b].name.clone()),
            blamed_version: v.blamed.and_then(|b| self.specs[b].version.clone()),
            blame_by: v.blame_by,
            logic: s.logic().unwrap_or("none").to_string(),
            signature: v.signature.clone(),
            fixed_in: None,
            bisection: vec![],
            answers,
            seed: format!("libfuzzer input {}", crate::store::seed_hash(trigger)),
            seed_hash: crate::store::seed_hash(trigger),
            origin: self.origin.clone(),
            edits: vec![],
            seed_slice: None,
            rng_seed: 0,
            found_at: 0.0,
            found_unix: now,
            run: 1,
            trigger_bytes: trigger.len(),
            duplicates: 0,
            seed_finding,
            reduction: None,
            merged_keys: vec![],
            merged_from: vec![],
            cause: Default::default(),
            known: None,
            lineage: None,
            frames: vec![],
        }
    }
}

/// Records `meta` in the store at `out` under its lock (waited for while another process
/// holds it). A mutant whose bug is stored as a seed finding is that seed's: counted as a
/// duplicate of it, its trigger not stored.
fn record(out: &Path, meta: Meta, trigger: &str) -> std::io::Result<Recorded> {
    let t0 = std::time::Instant::now();
    let _lock = loop {
        match crate::store::lock::lock(out) {
            Ok(l) => break l,
            Err(crate::util::error::Error::Locked { .. }) if t0.elapsed() < LOCK_WAIT => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(e) => return Err(std::io::Error::other(e.to_string())),
        }
    };
    let mut store = Store::open(out)?;
    if !meta.seed_finding {
        let as_seed = dedup_key(&Meta { seed_finding: true, ..meta.clone() });
        if let Some((path, _)) = Store::list_in(out).into_iter().find(|(_, m)| dedup_key(m) == as_seed) {
            return Ok(Recorded::Duplicate(path.parent().unwrap_or(out).to_path_buf()));
        }
    }
    store.record(meta, trigger)
}

#[cfg(test)]
mod tests {
    use super::super::mix::tests::faulty;
    use super::super::tests::harness_of;
    use super::super::{mutate_with, runner};
    use super::*;

    /// Issue 41: a seed that already crashes a solver (the fault proxy's `crash-if` around
    /// a real z3 5.4.0) is stored once as a seed finding and the run goes on past it: the
    /// target body on it twice and on its mutants never aborts, another input runs, one
    /// finding is stored; a second harness on the same store (a `-fork` job, a rerun)
    /// does not abort on it either. A reproduction of given files still aborts.
    #[test]
    fn a_seed_that_already_fails_is_stored_once_and_the_run_goes_on() {
        let dir = tempfile::Builder::new().prefix("smtstorm-kept-").tempdir().unwrap();
        let out = dir.path().join("store");
        let seed = b"(set-logic QF_LIA)\n(declare-const crash_me Int)\n(declare-const y Int)\n(assert (> crash_me 2))\n(assert (< y crash_me))\n(check-sat)\n";
        let harness = || {
            let mut h = harness_of(&[&faulty("crash-if:crash_me"), "z3-5.4.0"]);
            h.store = Some(out.clone());
            h
        };
        let mut h = harness();
        let first = runner::storm_input(&mut h, seed);
        assert!(matches!(&first, Found::Kept { new: true, solver, .. } if solver == "faulty"), "{first:?}");
        assert!(first.abort_or_keep(), "fuzzed on");
        let again = runner::storm_input(&mut h, seed);
        assert!(matches!(again, Found::Kept { new: false, .. }), "{again:?}");
        assert!(again.abort_or_keep());
        // Its mutants crash the same way: the seed's bug, inherited, never aborted on.
        let mut inherited = 0;
        for i in 0..6u32 {
            let mut buf = vec![0u8; 1 << 16];
            buf[..seed.len()].copy_from_slice(seed);
            let n = mutate_with(&mut h, crate::mutate::Engine::Storm, &mut buf, seed.len(), 1 << 16, i, |_, s, _| s);
            let m = buf[..n].to_vec();
            assert_ne!(h.origin_of(&m), Origin::Seed);
            match runner::storm_input(&mut h, &m) {
                Found::Kept { new: false, .. } => inherited += 1,
                Found::Nothing | Found::Rejected => {}
                r => panic!("{r:?} on a mutant of the crashing seed:\n{}", String::from_utf8_lossy(&m)),
            }
        }
        assert!(inherited > 0, "no mutant kept the crash");
        let other = b"(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n";
        assert_eq!(runner::storm_input(&mut h, other), Found::Nothing);
        let stored = Store::list_in(&out);
        assert_eq!(stored.len(), 1, "{stored:?}");
        let m = &stored[0].1;
        assert!(
            m.seed_finding && m.kind == BugKind::Crash && m.blamed == "faulty" && m.origin == Origin::Seed,
            "{m:?}"
        );
        assert_eq!(m.duplicates, 1, "the seed again is a duplicate; inherited mutants are not stored");
        assert_eq!((h.stats.seed_findings, h.stats.known_findings), (1, 1 + inherited as u64));
        // Another process on the same store knows it.
        let mut h2 = harness();
        assert!(matches!(runner::storm_input(&mut h2, seed), Found::Kept { new: false, .. }));
        // Reproducing a given file aborts, as asked.
        h2.replay = true;
        assert!(matches!(runner::storm_input(&mut h2, seed), Found::Finding { .. }));
        assert_eq!(Store::list_in(&out).len(), 1);
    }
}
