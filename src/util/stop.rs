//! The process-wide stop flag: SIGINT, SIGTERM and SIGHUP ask every long run (campaign,
//! reduction, bandit, triage) to finish its current step and write what it has. A second
//! signal stops at once: every solver process group still running is killed and the
//! process exits with status 130, without waiting for anything.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};

static STOP: AtomicBool = AtomicBool::new(false);

/// Process groups of running solvers, for the second signal to kill. A fixed array of
/// atomics, because a signal handler may neither lock nor allocate; 0 is a free slot.
static GROUPS: [AtomicI32; 1024] = [const { AtomicI32::new(0) }; 1024];

/// The flag SIGINT/SIGTERM/SIGHUP set once [`install_signal_handlers`] ran.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// Records a running solver's process group (its leader's pid). Beyond 1,024 at once the
/// rest are not recorded: they still die with their own limits and with smtstorm
/// (`solver::os`'s parent-death signal).
pub fn register_group(pgid: u32) {
    for slot in &GROUPS {
        if slot.compare_exchange(0, pgid as i32, Relaxed, Relaxed).is_ok() {
            return;
        }
    }
}

/// Forgets a process group once it has been killed and reaped.
pub fn forget_group(pgid: u32) {
    for slot in &GROUPS {
        if slot.compare_exchange(pgid as i32, 0, Relaxed, Relaxed).is_ok() {
            return;
        }
    }
}

extern "C" fn on_signal(_: libc::c_int) {
    if STOP.swap(true, Relaxed) {
        // The second signal: nothing is waited for. Only async-signal-safe calls here
        // (atomic loads, kill(2), _exit(2)).
        for slot in &GROUPS {
            let g = slot.load(Relaxed);
            if g > 0 {
                // SAFETY: kill(2) is async-signal-safe; a negative pid addresses the group.
                unsafe { libc::kill(-g, libc::SIGKILL) };
            }
        }
        // SAFETY: _exit(2) is async-signal-safe and ends the process without unwinding.
        unsafe { libc::_exit(130) };
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP (a closed terminal or SSH session) end the run
/// cleanly (workers finish their batch, stats are written, solver processes are stopped),
/// and a second one end it at once.
pub fn install_signal_handlers() {
    // SAFETY: the handler only uses atomics, kill(2) and _exit(2), all async-signal-safe,
    // and the function pointer stays valid for the life of the process.
    unsafe {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::signal(sig, on_signal as *const () as libc::sighandler_t);
        }
    }
}
