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
//! * a **new mutant finding** is stored, and then, as [`OnFinding`] says, fuzzed on (a
//!   `cargo fuzz run` from the checkout) or aborted on (a build for OSS-Fuzz or
//!   ClusterFuzzLite, which count crashes: libFuzzer writes the artifact for
//!   `smtstorm triage`). Either way every other process sharing the store (`-fork` jobs,
//!   a rerun) counts it as known from then on. The store on disk is the memory across
//!   processes; each finding takes the store's lock only while it is recorded.
//!
//! Inputs named as files on libFuzzer's command line (a reproduction) abort as before.

use super::runner::Harness;
use crate::oracle::confirm::{Confirmed, Expected};
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
    /// A confirmed bug: kind, blamed solver and its family, signature, and the identity
    /// that picks its crash state ([`super::crash_state::identity`]).
    Finding {
        kind: BugKind,
        solver: String,
        family: crate::solver::Family,
        signature: String,
        identity: String,
    },
    /// A confirmed bug that does not abort: the unmutated input's own (stored as a seed
    /// finding), one the store already holds, or (under [`OnFinding::GoOn`]) a new one.
    /// `new`: stored by this execution.
    Kept {
        kind: BugKind,
        solver: String,
        dir: PathBuf,
        new: bool,
    },
}

impl Found {
    /// Aborts with the finding (the libFuzzer artifact is the input), through frames
    /// that name its kind, family and identity ([`super::crash_state`]): distinct solver
    /// bugs are distinct crashes for ClusterFuzz.
    pub fn abort_on_finding(self) {
        if let Found::Finding { kind, solver, family, signature, identity } = self {
            let message = super::crash_state::message(kind, &solver, family, &signature);
            super::crash_state::abort(kind, family, &identity, message);
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

/// What a new finding of a mutant does to the run (`SMTSTORM_ON_FINDING`).
///
/// libFuzzer stops at a crash, and a restart re-reads the whole corpus: in issue 41's
/// side-by-side runs `cargo fuzz run storm_target` stopped four times in 30 minutes, and
/// on the 4,070-seed suite one restart spent its remaining 267 s re-running the corpus.
/// The harness stores and confirms every finding itself (the campaign's format), so a
/// user's run need not stop for one. Crash-counting infrastructure needs the abort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFinding {
    /// Stored, counted and fuzzed on (`go-on`).
    GoOn,
    /// Stored, then the target panics with the finding's crash state (`abort`).
    Abort,
}

impl OnFinding {
    /// The words `SMTSTORM_ON_FINDING` takes.
    pub const WORDS: &'static str = "go-on or abort";

    pub fn parse(v: &str) -> Option<OnFinding> {
        match v.trim() {
            "go-on" => Some(OnFinding::GoOn),
            "abort" => Some(OnFinding::Abort),
            _ => None,
        }
    }

    /// Without `SMTSTORM_ON_FINDING` at run time: the value it had when the target was
    /// built (`.clusterfuzzlite/build.sh` builds with `abort`: ClusterFuzz reports what
    /// crashes; a value that does not read is taken as `abort`, so that a typo there never
    /// hides every finding from ClusterFuzz), else `go-on` where the store is one a user
    /// reads (`SMTSTORM_STORE`, or the checkout's `fuzz/store/`), else `abort` (a binary
    /// that moved, as under OSS-Fuzz, whose store nobody reads).
    pub fn default_for(built: Option<&str>, store_is_read: bool) -> OnFinding {
        match built {
            Some(b) => OnFinding::parse(b).unwrap_or(OnFinding::Abort),
            None if store_is_read => OnFinding::GoOn,
            None => OnFinding::Abort,
        }
    }
}

/// Whether [`store_dir`] is a store a user reads: named by `SMTSTORM_STORE`, or the
/// checkout's `fuzz/store/`.
pub fn store_is_read() -> bool {
    std::env::var_os("SMTSTORM_STORE").is_some() || checkout_fuzz().is_some()
}

/// The `fuzz/` directory of the checkout the library was built from, while it is there.
fn checkout_fuzz() -> Option<PathBuf> {
    Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")).filter(|d| d.is_dir())
}

/// The harness's store: `SMTSTORM_STORE`, else `fuzz/store/<target>` of the checkout the
/// library was built from, else `smtstorm-store/<target>` in the current directory (a
/// binary that moved, as under OSS-Fuzz).
pub fn store_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("SMTSTORM_STORE") {
        return d.into();
    }
    let target = super::start::target_name();
    match checkout_fuzz() {
        Some(fuzz) => fuzz.join("store").join(target),
        None => PathBuf::from("smtstorm-store").join(target),
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
    /// only when new, made by a mutator, and [`OnFinding::Abort`]. Without a store, or
    /// replaying files, it aborts.
    pub(super) fn keep(&mut self, s: &Script, known: &Expected, c: &Confirmed) -> Found {
        let found = self.named(s, &c.verdict);
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
            Ok(Recorded::New(dir)) if self.on_finding == OnFinding::GoOn => {
                self.stats.new_findings += 1;
                eprintln!(
                    "smtstorm: confirmed {kind} of {solver}: finding stored in {} (fuzzing on; SMTSTORM_ON_FINDING=abort stops here)",
                    dir.display()
                );
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

    /// The finding's `meta.json`, as a campaign writes it (gdb's crash state for a crash
    /// on a signal; no bisection: `smtstorm report --regroup` ranges reduced findings).
    fn meta(&self, s: &Script, c: &Confirmed, seed_finding: bool, trigger: &str) -> Meta {
        let answers = (0..self.specs.len())
            .filter_map(|k| c.fresh.results.get(k).and_then(Option::as_ref).map(|r| (k, r)))
            .map(|(k, r)| SolverAnswer::of(&self.specs[k], r))
            .collect();
        Meta {
            seed: format!("libfuzzer input {}", crate::store::seed_hash(trigger)),
            // Every libFuzzer input is its own seed: no seed hash, so that findings are
            // keyed by their symptom ([`crate::store::dedup_key`]).
            seed_hash: String::new(),
            origin: self.origin.clone(),
            seed_finding,
            // A crash on a bare signal is told apart by its crash state, as a campaign
            // tells it: keyed by the signal alone, every z3 segfault under one logic was
            // one finding of the target's store and the others were counted as known
            // (issue 41's judged runs).
            frames: c.fresh.crash_frames(&c.verdict, &self.specs, &self.confirm_limits()),
            ..Meta::found(&c.verdict, &self.specs, answers, s.logic(), trigger.len())
        }
    }
}

/// Records `meta` in the store at `out` under its lock (waited for while another process
/// holds it). A bug the store holds under the other top (a mutant's as a seed finding, a
/// seed's as a mutant finding) is counted as a duplicate of it, its trigger not stored.
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
    // The other top's twin: a mutant's bug stored as a seed finding is that seed's; and
    // a new mutant finding enters libFuzzer's corpus (under `go-on` it is kept), so after
    // a restart or a `-fork` merge it comes back as an unmutated input — the same bug,
    // not a seed finding of its own.
    let twin = dedup_key(&Meta { seed_finding: !meta.seed_finding, ..meta.clone() });
    if let Some((path, _)) = Store::list_in(out).into_iter().find(|(_, m)| dedup_key(m) == twin) {
        return Ok(Recorded::Duplicate(path.parent().unwrap_or(out).to_path_buf()));
    }
    store.record(meta, trigger)
}

#[cfg(test)]
mod tests {
    use super::super::mix::tests::faulty;
    use super::super::tests::{harness_of, harness_with_limit};
    use super::super::{mutate_with, runner};
    use super::*;

    /// Issue 41: a new finding of a mutant, under `go-on` (a `cargo fuzz run` from the
    /// checkout), is stored and fuzzed on; met again it is known; under `abort` (the
    /// ClusterFuzzLite build) a new one aborts after it is stored.
    #[test]
    fn a_new_mutant_finding_is_stored_and_the_run_goes_on_unless_told_to_abort() {
        let dir = tempfile::Builder::new().prefix("smtstorm-goon-").tempdir().unwrap();
        let out = dir.path().join("store");
        let harness = |on| {
            let mut h = harness_with_limit(&[&faulty("crash-if:crash_me"), "z3-5.4.0"], Duration::from_secs(5));
            h.store = Some(out.clone());
            h.on_finding = on;
            h
        };
        let mutant = |n: u32| {
            format!("(set-logic QF_LIA)\n(declare-const crash_me Int)\n(assert (> crash_me {n}))\n(check-sat)\n")
                .into_bytes()
        };
        let mut h = harness(OnFinding::GoOn);
        let m = mutant(1);
        h.note_mutant(&m, Some(crate::mutate::Engine::OpFuzz));
        let first = runner::storm_input(&mut h, &m);
        assert!(matches!(&first, Found::Kept { new: true, solver, .. } if solver == "faulty"), "{first:?}");
        assert!(first.abort_or_keep(), "fuzzed on, kept in the corpus");
        assert_eq!(h.stats.new_findings, 1);
        let m2 = mutant(2);
        h.note_mutant(&m2, Some(crate::mutate::Engine::OpFuzz));
        let again = runner::storm_input(&mut h, &m2);
        assert!(matches!(again, Found::Kept { new: false, .. }), "one cause, known: {again:?}");
        let stored = Store::list_in(&out);
        assert_eq!(stored.len(), 1, "{stored:?}");
        assert!(!stored[0].1.seed_finding && stored[0].1.origin == Origin::Engine(crate::mutate::Engine::OpFuzz));
        // The kept mutant comes back unmutated (libFuzzer's corpus after a restart): the
        // same bug, not a seed finding of its own.
        h.last_mutant = None;
        let back = runner::storm_input(&mut h, &m);
        assert!(matches!(back, Found::Kept { new: false, .. }), "{back:?}");
        assert_eq!(Store::list_in(&out).len(), 1);
        // `smtstorm report` reads a target's store as it reads a campaign's.
        let report = crate::campaign::report::load(&out).expect("a target's store is a store");
        assert_eq!(report.findings.len(), 1);
        // Under `abort`, a finding the store holds does not abort; a new one aborts once
        // stored. A right answer is no finding.
        let mut h = harness(OnFinding::Abort);
        let right = b"(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n".to_vec();
        assert_eq!(runner::storm_input(&mut h, &right), Found::Nothing, "a right answer is not a finding");
        let m3 = mutant(3);
        h.note_mutant(&m3, Some(crate::mutate::Engine::OpFuzz));
        assert!(matches!(runner::storm_input(&mut h, &m3), Found::Kept { new: false, .. }), "known to the store");
        let _ = std::fs::remove_dir_all(&out);
        let mut h = harness(OnFinding::Abort);
        h.note_mutant(&m3, Some(crate::mutate::Engine::OpFuzz));
        let f = runner::storm_input(&mut h, &m3);
        assert!(matches!(f, Found::Finding { .. }), "{f:?}");
        assert_eq!(Store::list_in(&out).len(), 1, "stored before it aborts");
    }

    /// Two real z3 4.8.7 segfaults under `bvarray2uf` with one message (`SIGSEGV: NOT
    /// IMPLEMENTED YET!`) and one logic but two crash states (`process_var`;
    /// `ast_table::push_erase`) are two findings of the target's store, as of a
    /// campaign's; the first found again is known. Keyed by the message they were one.
    #[test]
    fn two_segfaults_of_one_solver_are_two_findings_by_their_crash_state() {
        if crate::solver::backtrace::gdb().is_none() {
            eprintln!("SKIPPED: no gdb (scripts/setup-solvers.sh installs it)");
            return;
        }
        let dir = tempfile::Builder::new().prefix("smtstorm-frames-").tempdir().unwrap();
        let out = dir.path().join("store");
        let mut h = harness_with_limit(&["z3-4.8.7", "z3-5.4.0"], Duration::from_secs(5));
        h.store = Some(out.clone());
        h.on_finding = OnFinding::GoOn;
        let mut run = |text: &str| {
            let m = text.as_bytes().to_vec();
            h.note_mutant(&m, Some(crate::mutate::Engine::Config));
            runner::storm_input(&mut h, &m)
        };
        let first =
            "(declare-fun e (Int Int) Bool)\n(assert (forall ((g Int)) (e 0 g)))\n(check-sat-using bvarray2uf)\n";
        let second = "(declare-const x Int)\n(assert (forall ((i Int)) true))\n(check-sat-using bvarray2uf)\n";
        for t in [first, second] {
            let r = run(t);
            let stored = Store::list_in(&out);
            assert!(matches!(r, Found::Kept { new: true, .. }), "{t}: {r:?}; stored: {stored:?}");
        }
        assert!(matches!(run(first), Found::Kept { new: false, .. }));
        let stored = Store::list_in(&out);
        assert_eq!(stored.len(), 2, "{stored:?}");
        assert!(stored.iter().all(|(_, m)| m.signature.starts_with("SIGSEGV") && !m.frames.is_empty()), "{stored:?}");
        assert_eq!(stored[0].1.signature, stored[1].1.signature);
        assert_ne!(stored[0].1.frames, stored[1].1.frames);
    }

    /// `SMTSTORM_ON_FINDING`'s words, and its default: the build's value (`abort` if it
    /// does not read), else `go-on` where a user reads the store, else `abort`.
    #[test]
    fn what_a_new_finding_does_by_default() {
        assert_eq!(OnFinding::parse("go-on"), Some(OnFinding::GoOn));
        assert_eq!(OnFinding::parse(" abort "), Some(OnFinding::Abort));
        assert_eq!(OnFinding::parse("stop"), None);
        assert_eq!(OnFinding::default_for(None, true), OnFinding::GoOn);
        assert_eq!(OnFinding::default_for(None, false), OnFinding::Abort);
        assert_eq!(OnFinding::default_for(Some("abort"), true), OnFinding::Abort);
        assert_eq!(OnFinding::default_for(Some("go-on"), false), OnFinding::GoOn);
        assert_eq!(OnFinding::default_for(Some("typo"), true), OnFinding::Abort, "a build's typo aborts");
    }

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
