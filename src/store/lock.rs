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
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            return Err(Error::Locked { path: out.to_path_buf(), pid: text.trim().parse().ok() });
        }
        Err(TryLockError::Error(e)) => return Err(io(e)),
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
}
