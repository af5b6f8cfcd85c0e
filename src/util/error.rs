//! Typed errors of the library. The binary wraps them in `anyhow` at its edge.

use std::path::{Path, PathBuf};

/// Errors the library reports. Every error about a file names the file, and syntax
/// errors also the line and column and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax { path: PathBuf, line: u32, column: u32, message: String },
    /// The OS error is part of the message and not a `source`: a chain printed whole
    /// (`{:#}`) would say it twice.
    #[error("{}: {error}", path.display())]
    Io { path: PathBuf, error: std::io::Error },
    /// A configuration file (a campaign's TOML, `solvers.toml`) that does not read; the
    /// message names the key (the `toml` crate's errors carry line, column and key).
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    /// A `--solver NAME` that is neither installed nor `NAME=command`.
    #[error("unknown solver {name:?}; known: {} (or pass NAME='command args'; scripts/setup-solvers.sh installs solvers)", if known.is_empty() { "none".to_string() } else { known.join(", ") })]
    UnknownSolver { name: String, known: Vec<String> },
    /// No solver given and none installed.
    #[error("no solvers: {} is missing or empty; run scripts/setup-solvers.sh or pass --solver NAME='command args'", registry.display())]
    NoSolvers { registry: PathBuf },
    /// A solver defined with an empty command line.
    #[error("solver {solver}: empty command")]
    EmptyCommand { solver: String },
    /// A setting out of its range; `key` is its campaign-file key, `flag` its command-line
    /// flag where it has one.
    #[error("{key} = {value}: {expected} ({})", match flag { Some(f) => format!("the {f} flag, or `{key}` in the campaign file"), None => format!("`{key}` in the campaign file") })]
    Invalid { key: &'static str, flag: Option<&'static str>, value: String, expected: &'static str },
    /// An input that is not read: not a regular file, too large, not text.
    #[error("{}: {why}", path.display())]
    Input { path: PathBuf, why: String },
    /// Our own code panicked (a bug of smtstorm, not of a solver); what was stored stays.
    #[error("{what} panicked: {message}; the run was stopped (stored findings are kept; please report this)")]
    Panicked { what: String, message: String },
    /// Another process holds the store's lock file (`OUT/lock`).
    #[error("{} is in use by another smtstorm ({}): wait for it to end, or give another --out", path.display(), match pid { Some(p) => format!("pid {p}"), None => "pid unknown".to_string() })]
    Locked { path: PathBuf, pid: Option<u32> },
    /// No seed to fuzz: none found under the paths given, or none of those found read.
    #[error("no seed to fuzz: {why}")]
    NoSeeds { why: String },
    /// Every seed was skipped at its pre-screen (no solver reads it, no check-sat, ...).
    #[error(
        "all {seeds} seeds were skipped, nothing was fuzzed (seeds by reason: {why}; each seed's in events.jsonl)"
    )]
    NothingToFuzz { seeds: usize, why: String },
    /// A solver that does not answer `sat` to `(check-sat)` on an empty script is not an
    /// SMT solver (or does not start): refused before a campaign counts its silence.
    #[error("solver {solver} ({command}) is not a working SMT solver: to `(set-logic QF_UF) (check-sat)` it answered {answer}")]
    NotASolver { solver: String, command: String, answer: String },
    /// A resumed store given settings other than those it was made with, each `key:
    /// stored X, given Y`, without `--reconfigure`.
    #[error("{} is a campaign made with other settings ({}); resume it without them, pass --reconfigure to change them, or use another --out", out.display(), changes.join("; "))]
    SettingsDiffer { out: PathBuf, changes: Vec<String> },
    /// A campaign's `reference` that is not one of its solvers.
    #[error("reference {name:?} is not one of the campaign's solvers")]
    UnknownReference { name: String },
    /// A campaign's `--baseline` that is not one of its solvers.
    #[error("baseline {name:?} is not one of the campaign's solvers (give it with --solver too)")]
    UnknownBaseline { name: String },
}

impl Error {
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io { path: path.to_owned(), error: source }
    }
    pub fn config(path: &Path, message: impl std::fmt::Display) -> Self {
        Error::Config { path: path.to_owned(), message: message.to_string() }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// The text of a caught panic's payload (`panic!` with a message carries a `String` or a
/// `&str`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic".into())
}
