//! CPU time of this process: how much of a run smtstorm itself costs beside its solvers.

use std::time::Duration;

/// User + system CPU time of this process (children excluded).
pub fn own_cpu() -> Duration {
    // SAFETY: getrusage only writes the zeroed struct we own and pass by pointer.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_SELF is a valid `who`; `u` is a valid, exclusive pointer.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    rusage_cpu(&u)
}

/// [`own_cpu`] in seconds.
pub fn own_cpu_seconds() -> f64 {
    own_cpu().as_secs_f64()
}

/// User + system time of a `rusage` record (of this process or of a reaped child).
pub fn rusage_cpu(u: &libc::rusage) -> Duration {
    let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(us(u.ru_utime) + us(u.ru_stime))
}
