//! `OUT/campaign.json`: the campaign definition a store was made with. It lives on the
//! store's floor because the reducer and triage read it as well as the campaign.

use crate::mutate::Engine;
use crate::solver::SolverSpec;
use crate::util::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Seconds of reduction per new finding when none is given (campaigns and triage).
pub const DEFAULT_REDUCE_S: f64 = 60.0;

/// A campaign definition: flags and the TOML campaign file fill the same struct.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Seed files or directories (searched for `.smt2`).
    pub seeds: Vec<PathBuf>,
    /// Solver names from the registry, or `NAME=command args`. Empty: every installed one.
    pub solvers: Vec<String>,
    pub engines: Vec<Engine>,
    /// Worker threads; 0: one per core.
    pub workers: usize,
    /// Stop after this many seconds (of this run).
    pub time: Option<f64>,
    /// Stop after this many mutants (of this run).
    pub mutants: Option<u64>,
    /// RNG seed: the campaign's mutants are a function of it, the run number and the seeds.
    pub seed: u64,
    /// Upper limit for one query, in seconds.
    pub timeout: f64,
    /// Mutants per (seed, engine) turn.
    pub batch: usize,
    /// Bisect confirmed bugs over installed releases of the blamed solver.
    pub bisect: bool,
    /// Memory limit per solver process, in MiB.
    pub memory_mb: u64,
    /// The solver whose models STORM builds on (default: the newest z3 among the
    /// campaign's solvers, else the first).
    pub reference: Option<String>,
    /// STORM's generator bounds.
    pub storm: crate::mutate::storm::Bounds,
    /// After fuzzing, reduce every stored finding not reduced yet, for at most this many
    /// seconds each (`reduced.smt2` beside `trigger.smt2`); 0 switches reduction off.
    pub reduce: f64,
    /// Triage (`smtstorm triage`): the seeds are fuzzer artifacts. Each is only
    /// pre-screened; what it shows is stored as a fuzzing finding (engine `triage`), and
    /// an artifact with a STORM witness line is judged against its witness.
    pub triage: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seeds: vec![PathBuf::from("corpus")],
            solvers: vec![],
            engines: Engine::ALL.to_vec(),
            workers: 0,
            time: None,
            mutants: None,
            seed: 0,
            timeout: crate::solver::DEFAULT_TIMEOUT_S,
            batch: 8,
            bisect: true,
            memory_mb: crate::solver::DEFAULT_MEMORY_MB,
            reference: None,
            storm: Default::default(),
            reduce: DEFAULT_REDUCE_S,
            triage: false,
        }
    }
}

impl Config {
    /// Reads a TOML campaign file.
    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        toml::from_str(&text).map_err(|e| Error::config(path, e))
    }
    pub fn workers(&self) -> usize {
        if self.workers > 0 {
            self.workers
        } else {
            std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
        }
    }
}

/// `OUT/campaign.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CampaignFile {
    pub config: Config,
    pub solvers: Vec<SolverSpec>,
    pub runs: u32,
    pub first_start_unix: u64,
    /// Seconds of campaign time before the current run.
    pub elapsed_before: f64,
}
