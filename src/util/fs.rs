//! Writes that survive `kill -9` and power loss: a file is either its old or its new
//! version, and a failed write leaves no temporary file behind.
//!
//! Every file of a store is written here, so two more promises live here too. Files are
//! created 0644 and directories 0755, less the umask, as `cp` or an editor would make
//! them: a store on a shared disk or behind a web server is readable by others
//! (tempfile's own default, 0600, made `report.html` readable by its owner only). And a
//! store file is never reached through a symbolic link: a rename replaces a link rather
//! than writing where it points, and appends and the lock open with `O_NOFOLLOW`, so a
//! link planted as `OUT/events.jsonl` or `OUT/lock` is an error naming it, not a write
//! to whatever file it names.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Mode of the files written here, before the umask.
pub const FILE_MODE: u32 = 0o644;
/// Mode of the directories created here, before the umask.
pub const DIR_MODE: u32 = 0o755;

/// `std::fs::create_dir_all` with [`DIR_MODE`].
pub fn create_dirs(dir: &Path) -> std::io::Result<()> {
    std::fs::DirBuilder::new().recursive(true).mode(DIR_MODE).create(dir)
}

/// Why a store file that is a symbolic link is refused.
pub const SYMLINK_REFUSED: &str = "is a symbolic link; a store file is never written through one";

/// Opens a store file for writing without following a symbolic link (`O_NOFOLLOW`,
/// created with [`FILE_MODE`] if missing); a link is refused with an error saying so
/// ([`SYMLINK_REFUSED`]), which the caller names the path in. `append`: every write goes
/// to the end.
pub fn open_store_file(path: &Path, append: bool) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.create(true).custom_flags(libc::O_NOFOLLOW).mode(FILE_MODE);
    if append {
        o.append(true);
    } else {
        o.read(true).write(true).truncate(false);
    }
    o.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, SYMLINK_REFUSED)
        } else {
            e
        }
    })
}

/// Writes `data` to `path` atomically: a temporary file with an unpredictable name in the
/// same directory, written and fsynced, renamed into place, then the directory fsynced so
/// the rename itself is durable. On any error the temporary file is removed (it is a
/// `tempfile::NamedTempFile`, deleted when dropped) and `path` keeps its old content.
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    create_dirs(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(FILE_MODE))
        .tempfile_in(dir)?;
    tmp.write_all(data)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    std::fs::File::open(dir)?.sync_all()
}

/// `name` as one path component: only ASCII letters, digits, `.`, `-`, `_`, `+` are kept
/// (others become `_`) and a leading dot becomes `_`, so `..` or `a/../../b` cannot name
/// anything outside the directory it is joined to. Never empty.
pub fn safe_name(name: &str) -> String {
    let mut s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "._-+".contains(c) { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with('.') {
        s.insert(0, '_');
    }
    s
}

/// Appends one line to a log file (a torn last line after `kill -9` is skipped on read),
/// never through a symbolic link ([`open_store_file`]).
pub fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    open_store_file(path, true)?.write_all(format!("{line}\n").as_bytes())
}

/// A private scratch directory (`PARENT/PREFIXxxxxxx`, mode 0700), removed when dropped.
/// A run killed with `kill -9` or a second Ctrl-C cannot remove its own, so each one
/// holds a `flock(2)` on `.lock` inside it for as long as it lives, and creating one
/// first removes the stale ones beside it: those of this user whose lock is free (the
/// kernel released it when their process died, whatever the pid namespace). A directory
/// gets its name only once its lock is held (it is made and locked under another name,
/// then renamed), so no sweep can take a live one for stale.
pub struct ScratchDir {
    path: PathBuf,
    _lock: File,
}

impl ScratchDir {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Creates a [`ScratchDir`] under `parent`, after removing its stale siblings.
pub fn scratch_dir(parent: &Path, prefix: &str) -> std::io::Result<ScratchDir> {
    remove_stale_scratch(parent, prefix);
    let staging = tempfile::Builder::new().prefix(".staging-").tempdir_in(parent)?;
    let lock = OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(staging.path().join(".lock"))?;
    lock.lock()?;
    let tail = staging.path().file_name().and_then(|n| n.to_str()).unwrap_or("").trim_start_matches(".staging-");
    let path = parent.join(format!("{prefix}{tail}"));
    std::fs::rename(staging.path(), &path)?;
    let _ = staging.keep();
    Ok(ScratchDir { path, _lock: lock })
}

fn remove_stale_scratch(parent: &Path, prefix: &str) {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid(2) has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    let stale: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.starts_with(prefix)))
        .map(|e| e.path())
        .filter(|d| std::fs::symlink_metadata(d).is_ok_and(|m| m.is_dir() && m.uid() == me))
        .filter(|d| {
            OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW)
                .open(d.join(".lock"))
                .is_ok_and(|f| f.try_lock().is_ok())
        })
        .collect();
    for d in stale {
        // remove_dir_all does not follow symbolic links inside the directory.
        let _ = std::fs::remove_dir_all(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_one_harmless_path_component() {
        for (name, want) in [
            ("z3-4.8.7", "z3-4.8.7"),
            ("..", "_.."),
            ("a/../../b", "a_.._.._b"),
            ("", "_"),
            (".hidden", "_.hidden"),
            ("z3 -smt2", "z3_-smt2"),
        ] {
            assert_eq!(safe_name(name), want);
            let p = Path::new("/base").join(safe_name(name));
            assert_eq!(p.parent(), Some(Path::new("/base")), "{name}");
            assert!(!p.components().any(|c| c == std::path::Component::ParentDir), "{name}");
        }
    }

    /// Issue 21, item 6: a write that fails leaves the old file and no temporary file.
    #[test]
    fn a_failed_atomic_write_leaves_no_temporary_file() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("data.json");
        write_atomic(&f, b"old").unwrap();
        // Renaming onto a non-empty directory fails after the data was written.
        let blocked = d.path().join("blocked");
        std::fs::create_dir_all(blocked.join("x")).unwrap();
        assert!(write_atomic(&blocked, b"new").is_err());
        let names: Vec<String> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert_eq!(std::fs::read(&f).unwrap(), b"old");
        write_atomic(&f, b"new").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
    }
}
