//! Limits of one query: the solver's own time limit, the watchdog's grace after it,
//! memory and output caps, and the defaults every command starts from.

use std::time::Duration;

/// Limits for one query.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The solver's own per-query limit; the watchdog fires `grace` later.
    pub time: Duration,
    pub grace: Duration,
    /// Address-space limit for the solver process, in bytes.
    pub memory: Option<u64>,
    /// Output beyond this many bytes makes the query an error (and restarts the process).
    pub max_output: usize,
}

/// The per-query time limit when none is given, in seconds: campaigns, `check`,
/// triage and reduction all start from it.
pub const DEFAULT_TIMEOUT_S: f64 = 10.0;
/// The memory limit per solver process when none is given, in MiB.
pub const DEFAULT_MEMORY_MB: u64 = 8192;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: crate::util::time::seconds(DEFAULT_TIMEOUT_S),
            grace: Duration::from_secs(2),
            memory: Some(mib_to_bytes(DEFAULT_MEMORY_MB)),
            max_output: 64 << 20,
        }
    }
}

/// `mb` MiB in bytes, saturating: `mb << 20` wraps to 0 (no limit at all) from 2^44 MiB.
pub fn mib_to_bytes(mb: u64) -> u64 {
    mb.saturating_mul(1 << 20)
}

pub(super) const EXCERPT: usize = 4096;

pub(super) fn excerpt(s: &str) -> String {
    if s.len() <= EXCERPT {
        return s.to_string();
    }
    let mut end = EXCERPT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}
