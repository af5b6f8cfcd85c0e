//! BanditFuzz's benchmarks as stored: `OUT/perf/<id>/meta.json`. Here, below both the
//! bandit runner that writes them and the campaign report that shows them.

use crate::solver::Outcome;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How the next input is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Both agents (BanditFuzz).
    #[value(alias = "banditfuzz")]
    Bandit,
    /// The construct agent only; mutate or sample with equal probability.
    #[value(alias = "single-agent")]
    Single,
    /// The generator in a loop.
    Random,
}

impl Strategy {
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Bandit => "bandit",
            Strategy::Single => "single",
            Strategy::Random => "random",
        }
    }
}

/// One solver run as BanditFuzz sees it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Timing {
    pub sha: String,
    pub solver: String,
    /// The limit it ran under (seconds).
    pub limit: f64,
    /// CPU seconds of the process.
    pub cpu: f64,
    pub outcome: Outcome,
}

impl Timing {
    /// PAR-2: the CPU time of a definite answer within `timeout`, else twice the timeout.
    pub fn par2(&self, timeout: f64) -> f64 {
        if self.outcome.is_definite() && self.cpu <= timeout {
            self.cpu
        } else {
            2.0 * timeout
        }
    }
}

/// A benchmark kept in `perf/<id>/`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PerfMeta {
    pub id: String,
    pub iteration: u64,
    pub found_at: f64,
    pub strategy: Strategy,
    pub logic: String,
    pub bytes: usize,
    /// The margin when found (one run per solver).
    pub margin: f64,
    pub timings: Vec<Timing>,
    /// Median CPU seconds per solver over the final repetitions, and the margin from them.
    #[serde(default)]
    pub final_cpu: Vec<(String, f64)>,
    #[serde(default)]
    pub final_par2: Vec<(String, f64)>,
    #[serde(default)]
    pub final_margin: Option<f64>,
    pub timeout: f64,
    /// How it was made: `sample`, or the construct inserted into the previous best.
    pub made_by: String,
}

/// Every `perf/<id>/meta.json` under `out`.
pub fn perf_in(out: &Path) -> Vec<PerfMeta> {
    let Ok(rd) = std::fs::read_dir(out.join(super::layout::PERF)) else { return vec![] };
    let mut v: Vec<PerfMeta> = rd
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join(super::layout::META)).ok())
        .filter_map(|b| serde_json::from_slice(&b).ok())
        .collect();
    v.sort_by_key(|m| m.iteration);
    v
}
