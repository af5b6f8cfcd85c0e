//! The process-wide stop flag: SIGINT and SIGTERM ask every long run (campaign,
//! reduction, bandit, triage) to finish its current step and write what it has.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

static STOP: AtomicBool = AtomicBool::new(false);

/// The flag SIGINT/SIGTERM set once [`install_signal_handlers`] ran.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Relaxed);
}

/// Makes SIGINT and SIGTERM end the run cleanly (workers finish their batch, stats are
/// written, solver processes are stopped).
pub fn install_signal_handlers() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe, and the
    // function pointer stays valid for the life of the process.
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
}
