//! Seconds from people and files as durations that never panic.

use std::time::Duration;

/// The longest duration anything here waits for: about 31 years. Far beyond any run,
/// and small enough that `Instant::now() + d` cannot overflow.
pub const MAX_SECONDS: f64 = 1e9;

/// `x` seconds, saturating: NaN and negatives are zero, and anything above
/// [`MAX_SECONDS`] (`--time 1e20`, `time = 1e308` in a campaign file, a corrupt stored
/// timing) is that. `Duration::from_secs_f64` panics on all of these.
pub fn seconds(x: f64) -> Duration {
    if x.is_nan() || x <= 0.0 {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(x.min(MAX_SECONDS))
}

/// Whether something that may take `d` from now would end after `until` (`None`: no bound):
/// a bounded run starts nothing it cannot finish in time.
pub fn would_overrun(until: Option<std::time::Instant>, d: Duration) -> bool {
    until.is_some_and(|u| std::time::Instant::now() + d > u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_float_is_a_duration() {
        for x in [f64::NAN, f64::NEG_INFINITY, -1.0, 0.0, 1e-12, 0.5, 1e20, 1e308, f64::INFINITY] {
            let d = seconds(x);
            assert!(d <= Duration::from_secs_f64(MAX_SECONDS), "{x}");
            let _ = std::time::Instant::now() + d;
        }
        assert_eq!(seconds(0.5), Duration::from_millis(500));
        assert_eq!(seconds(1e308), Duration::from_secs_f64(MAX_SECONDS));
    }
}
