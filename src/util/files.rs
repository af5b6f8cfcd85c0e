//! Collecting `.smt2` files from command-line paths, and reading one input safely.

use crate::util::error::{Error, Result};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Every `.smt2` file under `paths` (files are taken as given), sorted, without duplicates.
pub fn collect_smt2(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = vec![];
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
        if meta.is_dir() {
            walk(p, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The largest input read: the front end addresses text with 32-bit offsets.
pub const MAX_INPUT_BYTES: u64 = u32::MAX as u64;

/// Reads an input file (a seed, a trigger, a script to check), refusing what is not a
/// regular file — a FIFO named `x.smt2` would block the reader forever, a device would
/// never end — and files over [`MAX_INPUT_BYTES`]. The error names the file and why.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let refuse = |why: String| Error::Input { path: path.to_path_buf(), why };
    // Opened without blocking, so that opening a FIFO with no writer cannot hang; only a
    // regular file is then read.
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let meta = f.metadata().map_err(|e| Error::io(path, e))?;
    let ft = meta.file_type();
    if !ft.is_file() {
        let what = if ft.is_dir() {
            "a directory"
        } else if ft.is_fifo() {
            "a FIFO"
        } else if ft.is_char_device() || ft.is_block_device() {
            "a device"
        } else if ft.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        return Err(refuse(format!("{what}, not a regular file: refused")));
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(refuse(format!("{} bytes: inputs over {MAX_INPUT_BYTES} bytes (4 GiB) are refused", meta.len())));
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    // Bounded even if the file grows while it is read.
    f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut data).map_err(|e| Error::io(path, e))?;
    if data.len() as u64 > MAX_INPUT_BYTES {
        return Err(refuse("grew past 4 GiB while read: refused".into()));
    }
    Ok(data)
}

/// [`read_input`] as UTF-8 text.
pub fn read_input_text(path: &Path) -> Result<String> {
    String::from_utf8(read_input(path)?)
        .map_err(|e| Error::Input { path: path.to_path_buf(), why: format!("not UTF-8 text: {e}") })
}

/// Every `.smt2` file beneath `dir`, following symbolic links to directories as `find -L`
/// and ripgrep's `--follow` do (a suite whose subdirectories are links to where they are
/// kept is a suite), each directory once: a link back up (a cycle) is read no second time.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let m = std::fs::metadata(&d).map_err(|e| Error::io(&d, e))?;
        if !seen.insert((m.dev(), m.ino())) {
            continue;
        }
        for e in std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))? {
            let e = e.map_err(|e| Error::io(&d, e))?;
            let p = e.path();
            let ft = e.file_type().map_err(|err| Error::io(&p, err))?;
            // A link is what it points to; a dangling one is passed over.
            let is_dir = ft.is_dir() || (ft.is_symlink() && std::fs::metadata(&p).is_ok_and(|m| m.is_dir()));
            if is_dir {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "smt2") {
                out.push(p);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 21, item 13: a FIFO or a device named `.smt2` is refused with a message (a
    /// FIFO without a writer used to block the read forever); a sparse file over 4 GiB is
    /// refused without being read.
    #[test]
    fn fifos_devices_and_inputs_over_4_gib_are_refused_by_name() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("seed.smt2");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_input(&fifo).unwrap_err().to_string();
        assert!(e.contains("seed.smt2") && e.contains("a FIFO"), "{e}");
        let e = read_input(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("/dev/zero") && e.contains("a device"), "{e}");
        let big = d.path().join("big.smt2");
        std::fs::File::create(&big).unwrap().set_len(MAX_INPUT_BYTES + 1).unwrap();
        let e = read_input(&big).unwrap_err().to_string();
        assert!(e.contains("big.smt2") && e.contains("4 GiB"), "{e}");
        let ok = d.path().join("ok.smt2");
        std::fs::write(&ok, "(check-sat)\n").unwrap();
        assert_eq!(read_input_text(&ok).unwrap(), "(check-sat)\n");
        // A walk over the directory lists them, and each read refuses them on its own.
        assert_eq!(collect_smt2(&[d.path().to_path_buf()]).unwrap().len(), 3);
    }
}
