//! What a campaign counts: shared counters, the stats record of `stats.jsonl` and the
//! progress line (the event stream of `events.jsonl` is [`super::event`]).

use super::*;
use std::collections::BTreeMap;

/// Counters, shared by the workers and read by the progress line.
#[derive(Default, Debug)]
pub struct Counters {
    pub mutants: AtomicU64,
    pub solver_calls: AtomicU64,
    /// Mutants every solver that got them read without an error.
    pub valid: AtomicU64,
    /// Mutants at least one solver rejected with an error (dialect / invalid).
    pub invalid: AtomicU64,
    pub timeouts: AtomicU64,
    /// Mutants on which a solver ran out of memory or hit another resource limit.
    pub resources: AtomicU64,
    pub candidates: AtomicU64,
    /// Candidates that did not reproduce in fresh processes.
    pub unconfirmed: AtomicU64,
    pub new_bugs: AtomicU64,
    pub duplicates: AtomicU64,
    pub seed_findings: AtomicU64,
    pub seeds_ready: AtomicU64,
    pub seeds_demoted: AtomicU64,
    pub seeds_rejected: AtomicU64,
    /// Seeds every solver timed out on, fuzzed as a slice of their assertions.
    pub seeds_sliced: AtomicU64,
    /// Quick pre-screens that left their seed for a screen at the full limit.
    pub seeds_deferred: AtomicU64,
    /// Candidates on mutants that repeat their seed's own failure (same kind and blame,
    /// same crash message).
    pub inherited: AtomicU64,
    /// Seeds whose `:status` every solver contradicts (a note on the seed, no finding).
    pub status_mismatches: AtomicU64,
    /// Confirmed findings that could not be written to the store, even on a second try.
    pub store_errors: AtomicU64,
    /// Over all candidates: how many solver families answered `sat` or `unsat` (the
    /// voters; divided by `candidates` it is the average).
    pub definite_families: AtomicU64,
    /// Candidates confirmed in fresh processes whose blame neither the votes, the
    /// solver's own consistency nor a model settled.
    pub undecided: AtomicU64,
    /// Per solver, per engine and per logic: what the report plots and tabulates.
    pub tallies: Mutex<Tallies>,
    /// Configuration-only mutants the configuration engine learned from, and those among
    /// them that changed the addressed solver's outcome or time
    /// ([`crate::mutate::config::Learning`]).
    pub config_learned: AtomicU64,
    pub config_effects: AtomicU64,
    /// Workers' wall time (ms) in pre-screens and in fuzzing turns (mutants, their
    /// confirmation and storage): on a large suite the pre-screen can take half of it.
    pub prescreen_ms: AtomicU64,
    pub fuzz_ms: AtomicU64,
    /// The unsat-core oracle's sample and what it found ([`crate::oracle::cores`]).
    pub cores: crate::oracle::cores::Tally,
    /// Answers re-checked by the solvers' own self-checks in fresh processes, and the
    /// workers' wall time (ms) in the re-asking oracles, unsat cores included (one call
    /// asks both: [`crate::oracle::reask`]).
    pub self_checks: AtomicU64,
    pub self_check_ms: AtomicU64,
    /// The metamorphic engine's variants: answers and times per seed and solver
    /// (Mariposa's instability, never a bug).
    pub instability: Mutex<super::instability::Instability>,
    /// Corpus growth ([`super::grow`]): seeds grown from mutants, fuzzing turns they got,
    /// grown seeds retired for a smaller one with their features, mutants with a new
    /// feature not kept because `--grow`'s bound was reached, and distinct behaviour
    /// features seen.
    pub seeds_grown: AtomicU64,
    pub grown_turns: AtomicU64,
    pub grown_dropped: AtomicU64,
    pub grow_full: AtomicU64,
    pub features: AtomicU64,
}

/// What one engine or one seed logic yielded: mutants made, mutants every solver read,
/// candidates judged (distinct bugs come from the store).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Yield {
    pub mutants: u64,
    pub valid: u64,
    pub candidates: u64,
}

/// Counts keyed by name, taken together in each stats line so the report can plot them
/// over campaign time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tallies {
    /// Solver name → outcome name ([`Outcome::name`]) → check-sat answers of that kind.
    #[serde(default)]
    pub outcomes: BTreeMap<String, BTreeMap<String, u64>>,
    /// Engine name → what it yielded.
    #[serde(default)]
    pub engines: BTreeMap<String, Yield>,
    /// Seed logic (`none` without a `set-logic`) → what its seeds yielded.
    #[serde(default)]
    pub logics: BTreeMap<String, Yield>,
}

impl Tallies {
    /// Counts each check-sat answer of each solver in `results` (solver k is `solvers[k]`).
    pub fn count_outcomes<'a>(
        &mut self,
        solvers: &[SolverSpec],
        results: impl IntoIterator<Item = (usize, &'a QueryResult)>,
    ) {
        for (k, r) in results {
            let per = self.outcomes.entry(solvers[k].name.clone()).or_default();
            for o in &r.outcomes {
                *per.entry(o.name().to_string()).or_default() += 1;
            }
        }
    }

    /// Adds `y` to an engine's and a logic's yield.
    pub fn add(&mut self, engine: &str, logic: &str, y: Yield) {
        for e in
            [self.engines.entry(engine.to_string()).or_default(), self.logics.entry(logic.to_string()).or_default()]
        {
            e.mutants += y.mutants;
            e.valid += y.valid;
            e.candidates += y.candidates;
        }
    }
}

impl Counters {
    pub(super) fn snapshot(&self, run: u32, elapsed: f64, before: f64) -> Stats {
        Stats {
            run,
            elapsed,
            campaign_elapsed: before + elapsed,
            mutants: self.mutants.load(Relaxed),
            solver_calls: self.solver_calls.load(Relaxed),
            valid: self.valid.load(Relaxed),
            invalid: self.invalid.load(Relaxed),
            timeouts: self.timeouts.load(Relaxed),
            resources: self.resources.load(Relaxed),
            candidates: self.candidates.load(Relaxed),
            unconfirmed: self.unconfirmed.load(Relaxed),
            new_bugs: self.new_bugs.load(Relaxed),
            duplicates: self.duplicates.load(Relaxed),
            seed_findings: self.seed_findings.load(Relaxed),
            seeds_ready: self.seeds_ready.load(Relaxed),
            seeds_demoted: self.seeds_demoted.load(Relaxed),
            seeds_rejected: self.seeds_rejected.load(Relaxed),
            seeds_sliced: self.seeds_sliced.load(Relaxed),
            seeds_deferred: self.seeds_deferred.load(Relaxed),
            inherited: self.inherited.load(Relaxed),
            status_mismatches: self.status_mismatches.load(Relaxed),
            store_errors: self.store_errors.load(Relaxed),
            definite_families: self.definite_families.load(Relaxed),
            undecided: self.undecided.load(Relaxed),
            tallies: self.tallies.lock().unwrap_or_else(|e| e.into_inner()).clone(),
            config_learned: self.config_learned.load(Relaxed),
            config_effects: self.config_effects.load(Relaxed),
            prescreen_seconds: self.prescreen_ms.load(Relaxed) as f64 / 1e3,
            fuzz_seconds: self.fuzz_ms.load(Relaxed) as f64 / 1e3,
            self_checks: self.self_checks.load(Relaxed),
            self_check_seconds: self.self_check_ms.load(Relaxed) as f64 / 1e3,
            own_cpu: crate::util::cpu::own_cpu_seconds(),
            cores: self.cores.snapshot(),
            instability: self.instability.lock().unwrap_or_else(|e| e.into_inner()).summary(),
            seeds_grown: self.seeds_grown.load(Relaxed),
            grown_turns: self.grown_turns.load(Relaxed),
            grown_dropped: self.grown_dropped.load(Relaxed),
            grow_full: self.grow_full.load(Relaxed),
            features: self.features.load(Relaxed),
        }
    }
}

/// A serialisable snapshot of [`Counters`] (one line of `stats.jsonl`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    pub run: u32,
    pub elapsed: f64,
    pub campaign_elapsed: f64,
    pub mutants: u64,
    pub solver_calls: u64,
    pub valid: u64,
    pub invalid: u64,
    pub timeouts: u64,
    #[serde(default)]
    pub resources: u64,
    pub candidates: u64,
    pub unconfirmed: u64,
    pub new_bugs: u64,
    pub duplicates: u64,
    pub seed_findings: u64,
    pub seeds_ready: u64,
    pub seeds_demoted: u64,
    pub seeds_rejected: u64,
    #[serde(default)]
    pub seeds_sliced: u64,
    /// Quick pre-screens that left their seed for a screen at the full limit.
    #[serde(default)]
    pub seeds_deferred: u64,
    #[serde(default)]
    pub inherited: u64,
    #[serde(default)]
    pub status_mismatches: u64,
    #[serde(default)]
    pub store_errors: u64,
    #[serde(default)]
    pub definite_families: u64,
    #[serde(default)]
    pub undecided: u64,
    /// CPU seconds of smtstorm itself (not the solvers).
    pub own_cpu: f64,
    #[serde(default)]
    pub config_learned: u64,
    #[serde(default)]
    pub config_effects: u64,
    /// Workers' seconds in pre-screens and in fuzzing turns (summed over workers).
    #[serde(default)]
    pub prescreen_seconds: f64,
    #[serde(default)]
    pub fuzz_seconds: f64,
    /// The unsat-core oracle's counts (absent before issue 40).
    #[serde(default)]
    pub cores: crate::oracle::cores::Counts,
    /// Answers re-checked by self-checks, and the seconds the re-asking oracles took
    /// (self-checks and unsat cores together: one call asks both, issue 40).
    #[serde(default)]
    pub self_checks: u64,
    #[serde(default)]
    pub self_check_seconds: f64,
    /// Per solver, engine and logic (absent from stats lines written before issue 24).
    #[serde(default, flatten)]
    pub tallies: Tallies,
    /// The metamorphic engine's instability per seed and solver (absent before issue 40).
    #[serde(default)]
    pub instability: super::instability::InstabilitySummary,
    /// Corpus growth ([`Counters::seeds_grown`] and the rest; absent before issue 41).
    #[serde(default)]
    pub seeds_grown: u64,
    #[serde(default)]
    pub grown_turns: u64,
    #[serde(default)]
    pub grown_dropped: u64,
    #[serde(default)]
    pub grow_full: u64,
    #[serde(default)]
    pub features: u64,
}
