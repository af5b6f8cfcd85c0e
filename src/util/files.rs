//! Collecting `.smt2` files from command-line paths.

use crate::util::error::{Error, Result};
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

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))? {
            let e = e.map_err(|e| Error::io(&d, e))?;
            let p = e.path();
            let ft = e.file_type().map_err(|err| Error::io(&p, err))?;
            if ft.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "smt2") {
                out.push(p);
            }
        }
    }
    Ok(())
}
