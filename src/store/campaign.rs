//! `OUT/campaign.json`: the campaign definition a store was made with. It lives on the
//! store's floor because the reducer and triage read it as well as the campaign.

use crate::mutate::Engine;
use crate::solver::SolverSpec;
use crate::util::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Seconds of reduction per new finding when none is given (campaigns and triage).
pub const DEFAULT_REDUCE_S: f64 = 60.0;
/// The smallest per-query limit: a confirmation in a fresh process gets at least 500 ms
/// (process start-up must not turn a finding into a timeout), and cannot get more than
/// the campaign's own limit.
pub const MIN_TIMEOUT_S: f64 = 0.5;
/// The share of `unsat` mutants whose core is re-checked by default. On 40 seeds of
/// cvc5-regress (60 s, today's releases, three campaigns side by side) rates 0, 0.1 and 1
/// made 4.3, 4.2 and 4.1 mutants/s: each checked mutant costs three fresh processes
/// (named script, core alone on its solver and on another family), so a quarter keeps
/// the cost small where most mutants are `unsat`.
pub const DEFAULT_CORE_RATE: f64 = 0.25;
/// One mutant in this many is re-checked by the solvers' self-checks when none is given.
/// A re-check is a fresh process (0.6-0.9 s on a loaded machine, mostly cvc5's Python
/// start and its proof) against ~0.3 s of a mutant's session time: one in 8 cost a third
/// of the mutants per second, one in 32 costs about 6 % (issue 40, measured 2026-11-26).
pub const DEFAULT_SELF_CHECKS: u32 = 32;
/// Seeds a campaign grows from its mutants when `--grow` is not given
/// ([`super::corpus`]): none. Growth hands a quarter of the turns to grown seeds; until a
/// campaign of the suite's length shows that this finds more causes than the seeds' own
/// turns (issue 41's benchmark), it is asked for, not assumed. A bound such as 256 keeps
/// a long campaign's corpus workable, as libFuzzer's `-max_len` and AFL++'s queue
/// cycling do: on 100 cvc5-regress seeds 90 seconds grew 56 to 74 seeds.
pub const DEFAULT_GROW: u32 = 0;
/// A day: the longest limit any setting in seconds may have.
pub const MAX_SECONDS: f64 = 86_400.0;
/// Memory limits in MiB: below 16 no solver starts; above 2^24 MiB (16 TiB) the limit in
/// bytes would not fit the 64-bit value it is shifted into with room to spare.
pub const MIN_MEMORY_MB: u64 = 16;
pub const MAX_MEMORY_MB: u64 = 1 << 24;

/// A campaign definition: flags and the TOML campaign file fill the same struct.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Seed files or directories (searched for `.smt2`).
    #[serde(with = "crate::util::path::lossless_vec")]
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
    /// `K/N` (`--shard`): this job takes the seeds whose content hashes to `K` modulo
    /// `N`, with an RNG stream of its own, so that N independent jobs on any batch
    /// scheduler cover what one campaign would (issue 24); `smtstorm merge` joins their
    /// stores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Triage (`smtstorm triage`): the seeds are fuzzer artifacts. Each is only
    /// pre-screened; what it shows is stored as a fuzzing finding (engine `triage`), and
    /// an artifact with a STORM witness line is judged against its witness.
    pub triage: bool,
    /// The configuration engine draws tactics, parameters and options by what they did
    /// on earlier mutants of the same logic (Falcon's learning, `--config-learn`). Off by
    /// default: in the one comparison so far (BENCHMARKS.md, session 16) it tripled the
    /// mutants per second but lowered the share of mutants that changed a solver's
    /// behaviour and found no more bugs than uniform choice.
    pub config_learning: bool,
    /// The share (0 to 1) of `unsat` mutants whose unsat core or unsat assumptions are
    /// re-checked ([`crate::oracle::cores`]), drawn from each mutant's RNG seed.
    pub core_rate: f64,
    /// The self-check oracle ([`crate::oracle::checks`]): one mutant in this many has
    /// its definite answers re-checked by each solver's own self-checks in a fresh
    /// process (`--self-checks N`; 0: off).
    pub self_checks: u32,
    /// The ladder-regression oracle ([`crate::oracle::regress`]): with two releases of a
    /// family or more in the run, a query an older one decides and the newest does not
    /// (or 10× slower) is a regression finding. On by default (it costs nothing without
    /// a second release; `--no-regressions` switches it off).
    pub regressions: bool,
    /// `--baseline NAME`: a solver of the run (yesterday's build, the last release) that
    /// every other release of its family is compared against by the regression oracle,
    /// instead of the newest against the older ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// At most this many mutants that showed behaviour never seen in the campaign are
    /// kept as seeds of their own in `OUT/corpus/` and fuzzed in turn (`--grow N`; 0:
    /// off). A bound on the corpus, not a setting of what a finding means: a run may
    /// change it.
    pub grow: u32,
}

/// [`Config::differences`]: every key but `workers`, `time`, `mutants`, `reduce`, the
/// oracles' sampling rates (`core_rate`, `self_checks`: how often an oracle runs, not what
/// a finding means) and the corpus bound (`grow`).
pub const IDENTITY_KEYS: &[&str] = &[
    "seeds",
    "solvers",
    "engines",
    "seed",
    "timeout",
    "batch",
    "bisect",
    "memory_mb",
    "reference",
    "storm",
    "shard",
    "triage",
    "config_learning",
    "regressions",
    "baseline",
];

impl Default for Config {
    fn default() -> Self {
        Config {
            seeds: vec![PathBuf::from("corpus")],
            solvers: vec![],
            engines: Engine::DEFAULT.to_vec(),
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
            shard: None,
            triage: false,
            config_learning: false,
            core_rate: DEFAULT_CORE_RATE,
            self_checks: DEFAULT_SELF_CHECKS,
            regressions: true,
            baseline: None,
            grow: DEFAULT_GROW,
        }
    }
}

/// One of `count` shares of a campaign's seeds (0-based `index`), written `K/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Whether a seed with these bytes belongs to this shard: by content, so that every
    /// job agrees whatever the order or the paths of the seed files on its machine.
    pub fn takes(&self, seed: &[u8]) -> bool {
        crate::util::hash::fnv1a(seed) % u64::from(self.count) == u64::from(self.index)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(v: &str) -> std::result::Result<Shard, String> {
        let (k, n) = v.split_once('/').ok_or_else(|| format!("{v:?}: expected K/N, e.g. 0/4"))?;
        let index: u32 = k.trim().parse().map_err(|_| format!("{v:?}: K is not a number"))?;
        let count: u32 = n.trim().parse().map_err(|_| format!("{v:?}: N is not a number"))?;
        if count == 0 || index >= count {
            return Err(format!("{v:?}: needs 0 <= K < N (shards are numbered from 0)"));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Shard, D::Error> {
        let v = String::deserialize(d)?;
        v.parse().map_err(serde::de::Error::custom)
    }
}

impl Config {
    /// Reads a TOML campaign file.
    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        toml::from_str(&text).map_err(|e| Error::config(path, e))
    }
    /// Checks every setting against the range the campaign can run with, whether it
    /// came from a flag or the campaign file: a timeout below the confirmation floor made
    /// a worker panic, and `memory_mb` of 2^44 or more wrapped to 0 when shifted to bytes.
    pub fn validate(&self) -> Result<()> {
        let bad = |key, flag, value: String, expected| Err(Error::Invalid { key, flag, value, expected });
        let t = self.timeout;
        if !(MIN_TIMEOUT_S..=MAX_SECONDS).contains(&t) {
            return bad("timeout", Some("--timeout"), t.to_string(), "must be between 0.5 and 86400 seconds");
        }
        if let Some(t) = self.time.filter(|t| !(t.is_finite() && *t > 0.0)) {
            return bad("time", Some("--time"), t.to_string(), "must be a positive, finite number of seconds");
        }
        if !(self.reduce.is_finite() && (0.0..=MAX_SECONDS).contains(&self.reduce)) {
            return bad(
                "reduce",
                Some("--reduce"),
                self.reduce.to_string(),
                "must be between 0 (off) and 86400 seconds",
            );
        }
        if !(0.0..=1.0).contains(&self.core_rate) {
            return bad("core_rate", Some("--core-rate"), self.core_rate.to_string(), "must be between 0 (off) and 1");
        }
        if self.batch == 0 || self.batch > 1 << 16 {
            return bad("batch", None, self.batch.to_string(), "must be between 1 and 65536 mutants per turn");
        }
        if self.workers > 4096 {
            return bad(
                "workers",
                Some("--workers"),
                self.workers.to_string(),
                "must be at most 4096 (0: one per core)",
            );
        }
        if !(MIN_MEMORY_MB..=MAX_MEMORY_MB).contains(&self.memory_mb) {
            return bad("memory_mb", None, self.memory_mb.to_string(), "must be between 16 MiB and 16 TiB (in MiB)");
        }
        Ok(())
    }

    /// The settings that make a campaign what it is, by their campaign-file keys, where
    /// `self` (a stored campaign) and `given` differ, with both values as JSON. What a run
    /// is given that is not here (`workers`, `time`, `mutants`, `reduce`) may change from
    /// run to run; a resumed campaign that silently swapped these would mix two
    /// campaigns' findings and rewrite the stored findings' reports for other solvers.
    pub fn differences(&self, given: &Config) -> Vec<(&'static str, String, String)> {
        let (a, b) = (serde_json::to_value(self), serde_json::to_value(given));
        let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) = (a, b) else { return vec![] };
        let show = |v: Option<&serde_json::Value>| v.map_or("(none)".to_string(), |v| v.to_string());
        IDENTITY_KEYS
            .iter()
            .filter(|k| a.get(**k) != b.get(**k))
            .map(|k| (*k, show(a.get(*k)), show(b.get(*k))))
            .collect()
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

impl CampaignFile {
    /// The store's `campaign.json`: `None` when there is none, an error naming the file
    /// when it is there but does not read (never taken for a missing one: a campaign that
    /// did would start over at run 1 on stored findings).
    pub fn read(out: &Path) -> std::result::Result<Option<CampaignFile>, super::StoreFileError> {
        match super::layout::read_json(&super::layout::campaign(out)) {
            Ok(c) => Ok(Some(c)),
            Err(e) if e.is_missing() => Ok(None),
            Err(e) => Err(e),
        }
    }
    /// [`CampaignFile::read`] for a run about to resume the store: a file that exists but
    /// does not read is an error saying so, never taken for a missing one (a campaign that
    /// did would start over at run 1 on stored findings).
    pub fn read_to_resume(out: &Path) -> Result<Option<CampaignFile>> {
        CampaignFile::read(out).map_err(|e| match e {
            super::StoreFileError::Json { path, source } => {
                Error::config(&path, format!("unreadable ({source}); fix or remove it to start the campaign anew"))
            }
            super::StoreFileError::Io { path, source } => Error::io(&path, source),
        })
    }
    /// Writes the store's `campaign.json` (atomically).
    pub fn write(&self, out: &Path) -> std::io::Result<()> {
        let data = serde_json::to_vec_pretty(self).unwrap_or_default();
        crate::util::fs::write_atomic(&super::layout::campaign(out), &data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key of a campaign is either one that defines it or one a run may change: a
    /// key added later must be put on one side, or a resumed store could swap it silently.
    #[test]
    fn every_key_is_identity_or_per_run() {
        let per_run = ["workers", "time", "mutants", "reduce", "core_rate", "self_checks", "grow"];
        let c = Config {
            time: Some(1.0),
            mutants: Some(1),
            shard: Some(Shard { index: 0, count: 2 }),
            baseline: Some("z3-4.15.4".into()),
            ..Default::default()
        };
        let serde_json::Value::Object(keys) = serde_json::to_value(&c).unwrap() else { panic!() };
        let mut n = 0;
        for k in keys.keys() {
            assert!(IDENTITY_KEYS.contains(&k.as_str()) != per_run.contains(&k.as_str()), "{k}");
            n += 1;
        }
        assert_eq!(n, IDENTITY_KEYS.len() + per_run.len());
        let other = Config { seed: 7, time: Some(9.0), solvers: vec!["z3".into()], ..c.clone() };
        let d = c.differences(&other);
        assert_eq!(d.iter().map(|x| x.0).collect::<Vec<_>>(), ["solvers", "seed"]);
        assert_eq!((d[1].1.as_str(), d[1].2.as_str()), ("0", "7"));
    }
}
