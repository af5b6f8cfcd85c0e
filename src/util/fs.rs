//! Writes that survive `kill -9`: a file is either its old or its new version.

use std::io::Write;
use std::path::Path;

/// Writes `data` to `path` atomically (temporary file in the same directory + rename).
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
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
}
