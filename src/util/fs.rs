//! Writes that survive `kill -9` and power loss: a file is either its old or its new
//! version, and a failed write leaves no temporary file behind.

use std::io::Write;
use std::path::Path;

/// Writes `data` to `path` atomically: a temporary file with an unpredictable name in the
/// same directory, written and fsynced, renamed into place, then the directory fsynced so
/// the rename itself is durable. On any error the temporary file is removed (it is a
/// `tempfile::NamedTempFile`, deleted when dropped) and `path` keeps its old content.
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let mut tmp = tempfile::Builder::new().prefix(&format!(".{name}.")).suffix(".tmp").tempfile_in(dir)?;
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

/// Appends one line to a log file (a torn last line after `kill -9` is skipped on read).
pub fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    f.write_all(format!("{line}\n").as_bytes())
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
        let f = d.path().join("meta.json");
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
