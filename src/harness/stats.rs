//! Where a fuzz target's time goes (`SMTSTORM_STATS=N`, and the `#smtstorm` line at exit):
//! the figures behind its executions per second.

use crate::mutate::Engine;
use std::time::Duration;

/// Where a fuzz target's time goes: the figures behind its executions per second.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Solver queries of executions (all solvers of one execution run in parallel: the
    /// wall time counted is the execution's).
    pub query_wall: Duration,
    /// Executions by their query wall time: < 5 ms, < 20 ms, < 100 ms, longer.
    pub by_time: [u64; 4],
    /// Executions in which some solver hit the time limit.
    pub timeouts: u64,
    /// STORM pools built (one reference model query each) and the time it took.
    pub pools_built: u64,
    pub pools_failed: u64,
    pub pools_wall: Duration,
    /// Pools found in the cache.
    pub pools_cached: u64,
    /// Pools of instances, valued by their witness ([`Pools::from_instance`]).
    pub pools_from_witness: u64,
    /// STORM mutations that fell back to an operator mutant (no model, or no instance).
    pub storm_fallbacks: u64,
    /// Mutants by Boolean Expression Coercion (the rest of `valfuzz_target`'s are plain
    /// value mutants).
    pub bec_mutants: u64,
    /// Time in the target bodies (everything of an execution) and in STORM's mutator
    /// (pools included).
    pub target_wall: Duration,
    pub mutate_wall: Duration,
    /// Fresh-process confirmations and their time.
    pub confirmations: u64,
    pub confirm_wall: Duration,
    /// Mutants (and crossover children) per engine, in [`Engine::ALL`]'s order: which
    /// engine the mutator used ([`Stats::count_engine`]).
    pub engines: [u64; Engine::ALL.len()],
    /// Confirmed findings stored as seed findings, those the store already held (neither
    /// aborts, [`super::kept`]), and new mutant findings stored without aborting
    /// ([`super::kept::OnFinding::GoOn`]).
    pub seed_findings: u64,
    pub known_findings: u64,
    pub new_findings: u64,
}

impl Stats {
    /// Counts one mutant by `e`.
    pub fn count_engine(&mut self, e: Engine) {
        if let Some(k) = Engine::ALL.iter().position(|&x| x == e) {
            self.engines[k] += 1;
        }
    }

    /// Mutants made by `e`.
    pub fn by_engine(&self, e: Engine) -> u64 {
        Engine::ALL.iter().position(|&x| x == e).map_or(0, |k| self.engines[k])
    }

    /// One line for stderr.
    pub fn line(&self, execs: u64) -> String {
        format!(
            "#smtstorm execs {execs} queried {} query {:.1}s (<5ms {} <20ms {} <100ms {} longer {}) timeouts {} pools {} (+{} cached, {} failed) {:.1}s, from witnesses {}, opfuzz fallbacks {}, coercion mutants {}, confirmations {} {:.1}s; in targets {:.1}s, in the mutator {:.1}s; mutants{}; new findings {}, seed findings {}, known findings {}",
            self.by_time.iter().sum::<u64>(),
            self.query_wall.as_secs_f64(),
            self.by_time[0],
            self.by_time[1],
            self.by_time[2],
            self.by_time[3],
            self.timeouts,
            self.pools_built,
            self.pools_cached,
            self.pools_failed,
            self.pools_wall.as_secs_f64(),
            self.pools_from_witness,
            self.storm_fallbacks,
            self.bec_mutants,
            self.confirmations,
            self.confirm_wall.as_secs_f64(),
            self.target_wall.as_secs_f64(),
            self.mutate_wall.as_secs_f64(),
            Engine::ALL.iter().zip(&self.engines).map(|(e, n)| format!(" {e} {n}")).collect::<String>(),
            self.new_findings,
            self.seed_findings,
            self.known_findings
        )
    }
}
