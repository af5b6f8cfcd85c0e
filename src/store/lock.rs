//! One process per store. Two campaigns on one `--out` would share run numbers, the
//! `tmp/` directory they each delete at the end, and the dedup index each holds in
//! memory (both would store the same bug). An advisory `flock(2)` on `OUT/lock` makes the
//! second one fail at once, naming the holder; the kernel releases it when the holder
//! exits, `kill -9` included, so there is never a stale lock to clean up.

use crate::util::error::{Error, Result};
use std::fs::{File, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;

/// The append-only files of a store (`OUT/events.jsonl`, `OUT/stats.jsonl`).
const LOGS: [&str; 2] = ["events.jsonl", "stats.jsonl"];

/// The lock of a store, held until dropped.
#[derive(Debug)]
pub struct StoreLock {
    _file: File,
}

/// Takes the lock of the store at `out` (created if missing), or fails with
/// [`Error::Locked`] naming the process that holds it.
pub fn lock(out: &Path) -> Result<StoreLock> {
    let path = out.join("lock");
    let io = |e| Error::io(&path, e);
    crate::util::fs::create_dirs(out).map_err(|e| Error::io(out, e))?;
    // Never through a symbolic link: the pid below would overwrite what it points to.
    let mut file = crate::util::fs::open_store_file(&path, false).map_err(io)?;
    let mut waited = std::time::Duration::ZERO;
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.rewind();
                let _ = file.read_to_string(&mut text);
                let pid: Option<u32> = text.trim().parse().ok();
                // A holder killed with `kill -9` can leave its lock for a moment to a
                // solver child it was starting: between fork and exec the child holds
                // every descriptor (close-on-exec closes it at exec, or the child dies
                // with its parent). Such a lock is waited for, briefly; a live holder's
                // is refused at once.
                if pid.is_some_and(|p| !alive(p)) && waited < RELEASE_WAIT {
                    std::thread::sleep(RELEASE_STEP);
                    waited += RELEASE_STEP;
                    continue;
                }
                return Err(Error::Locked { path: out.to_path_buf(), pid });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
    }
    // The logs are appended to by whoever holds the lock, errors ignored (a full disk
    // must not stop a campaign): a symbolic link planted there is refused here, by name,
    // rather than silently not followed at every append.
    for log in LOGS {
        let p = out.join(log);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
            let why = crate::util::fs::SYMLINK_REFUSED;
            return Err(Error::io(&p, std::io::Error::new(std::io::ErrorKind::InvalidInput, why)));
        }
    }
    // The holder's pid, for the message the next one gets.
    file.set_len(0).map_err(io)?;
    file.rewind().map_err(io)?;
    writeln!(file, "{}", std::process::id()).map_err(io)?;
    Ok(StoreLock { _file: file })
}

/// How long a lock whose recorded holder is gone is waited for ([`lock`]).
const RELEASE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);
const RELEASE_STEP: std::time::Duration = std::time::Duration::from_millis(50);

/// Whether a process with this pid exists (`kill(pid, 0)`: `ESRCH` when none does).
fn alive(pid: u32) -> bool {
    let Ok(p) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 sends nothing; it only checks that the process exists.
    let r = unsafe { libc::kill(p, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_with_the_first_ones_pid_until_it_lets_go() {
        let out = tempfile::tempdir().unwrap();
        let first = lock(out.path()).unwrap();
        let err = lock(out.path()).unwrap_err();
        assert!(matches!(err, Error::Locked { pid: Some(p), .. } if p == std::process::id()), "{err}");
        assert!(err.to_string().contains(&format!("pid {}", std::process::id())), "{err}");
        drop(first);
        lock(out.path()).unwrap();
    }

    /// A lock still held though its recorded holder is gone (a child between fork and
    /// exec) is waited for while it is released; one held past the wait is refused.
    #[test]
    fn a_lock_whose_holder_is_gone_is_waited_for_briefly() {
        let out = tempfile::tempdir().unwrap();
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        let dead = gone.id();
        gone.wait().unwrap();
        assert!(!alive(dead) && alive(std::process::id()));
        let hold = || {
            let f = crate::util::fs::open_store_file(&out.path().join("lock"), false).unwrap();
            f.try_lock().unwrap();
            std::fs::write(out.path().join("lock"), format!("{dead}\n")).unwrap();
            f
        };
        let held = hold();
        let t = std::time::Instant::now();
        let release = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            drop(held);
        });
        lock(out.path()).unwrap();
        release.join().unwrap();
        assert!(t.elapsed() >= std::time::Duration::from_millis(250), "{:?}", t.elapsed());
        // Held for longer than the wait: refused, naming the recorded pid.
        let _held = hold();
        let err = lock(out.path()).unwrap_err();
        assert!(matches!(err, Error::Locked { pid: Some(p), .. } if p == dead), "{err}");
    }
}
