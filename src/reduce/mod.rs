//! `smtstorm reduce`: typed, bug-preserving, parallel test-case reduction.
//!
//! The driver runs the [`passes`] to a fixpoint. Each pass lists candidates for the
//! current best script; candidates are printed, parsed and sort-checked here (invalid
//! ones never reach a solver), must be strictly smaller ([`passes::measure`]), and are
//! looked up in a cache keyed by the SHA-256 of their text. The rest are checked `jobs`
//! at a time, one per worker, each worker with its own persistent solver sessions or
//! scratch files ([`Judge::worker`]). Of a wave, the first interesting candidate in list
//! order wins, so the result depends only on the input and the judge, not on timing. A
//! winner is confirmed ([`Judge::confirm`], fresh processes for bug findings) before it
//! becomes the new best, and the best-so-far file is rewritten atomically after every
//! success: an interrupted reduction keeps its progress.
//!
//! One idea per file: the driver (`driver.rs`), a stored finding with its built-in judge
//! ([`finding`]), STORM's bound minimisation ([`bounds`]), the user's command as the
//! judge ([`external`]) and the untyped line fallback it uses on input that does not
//! parse (`lines.rs`).

pub mod bounds;
mod driver;
pub mod external;
pub mod finding;
pub mod judge;
mod lines;
pub mod passes;
pub mod range;

pub use crate::store::reduction::{BoundsReport, Report};
pub use bounds::storm_minimize_finding;
pub use driver::reduce;
pub use external::{reduce_external, ExternalCheck, ADAPTIVE_FLOOR};
pub use finding::{finding_solvers, reduce_finding, tempdir_in};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Decides whether a candidate still shows the behaviour being reduced.
pub trait Judge: Sync {
    /// A checker for one worker thread (owning its sessions or scratch files).
    fn worker(&self, id: usize) -> Box<dyn Check + Send + '_>;
    /// Re-checks a candidate a worker found interesting, the way the result will be used
    /// (a bug finding: every solver in a fresh process). Defaults to accepting.
    fn confirm(&self, _text: &str) -> bool {
        true
    }
    /// Called when a worker rejects the original that [`Judge::confirm`] accepts: workers
    /// made afterwards must check the way `confirm` does. Returns whether it can.
    fn check_like_confirm(&self) -> bool {
        false
    }
    /// How long a check that found a candidate interesting took (a judge may derive its
    /// limit per check from it).
    fn observe(&self, _interesting: Duration) {}
}

/// One worker's interestingness test.
pub trait Check {
    fn interesting(&mut self, text: &str) -> bool;
    /// [`Check::interesting`] that may give up (answering `false`) once `cancel` is set:
    /// the driver sets it when an earlier candidate of the wave has won, so a later one
    /// that would run to the time limit does not hold the wave up.
    fn interesting_until(&mut self, text: &str, _cancel: &AtomicBool) -> bool {
        self.interesting(text)
    }
    /// Whether the last check was cut off by the per-check limit (statistics only).
    fn timed_out(&self) -> bool {
        false
    }
}

/// Reduction settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Candidates checked in parallel.
    pub jobs: usize,
    /// Stop after this long, keeping the best so far.
    pub time: Option<Duration>,
    /// Print progress to stderr.
    pub verbose: bool,
    /// Run only the passes with these names (all when empty).
    pub passes: Vec<String>,
    /// Stop (keeping the best so far) when this flag is set, e.g. by a signal handler.
    pub stop: Option<&'static std::sync::atomic::AtomicBool>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            time: None,
            verbose: false,
            passes: vec![],
            stop: None,
        }
    }
}

/// Why a reduction could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    #[error("the input is not interesting: the judge rejects it before any reduction")]
    NotInteresting,
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
    #[error(transparent)]
    Input(#[from] crate::Error),
    #[error(transparent)]
    Finding(#[from] judge::FindingError),
    /// The external checker on the input itself: cannot start, times out, is interrupted
    /// or rejects it (each said apart).
    #[error(transparent)]
    Checker(#[from] external::InputCheck),
}

#[cfg(test)]
mod tests;
