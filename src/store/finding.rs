//! One finding's directory and its files: the only code that knows their names. Writes
//! go through [`crate::util::fs::write_atomic`] (a temporary file renamed into place,
//! mode 0644, never through a symbolic link), so a `kill -9` at any moment leaves the old
//! or the new version of each file.

use super::layout::{self, read_json, StoreFileError};
use super::meta::Meta;
use std::path::{Path, PathBuf};

/// A finding's directory: `OUT/bugs/<kind>/<id>`, `OUT/seed-findings/<kind>/<id>`, or
/// one given by hand to `smtstorm reduce`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FindingDir {
    dir: PathBuf,
}

impl FindingDir {
    pub fn new(dir: impl Into<PathBuf>) -> FindingDir {
        FindingDir { dir: dir.into() }
    }
    /// The finding of the `meta.json` at `meta` (as [`super::Store::list_in`] lists them).
    pub fn of_meta(meta: &Path) -> Option<FindingDir> {
        meta.parent().map(FindingDir::new)
    }
    pub fn path(&self) -> &Path {
        &self.dir
    }
    /// The store this finding belongs to ([`layout::store_root_of`]).
    pub fn store_root(&self) -> Option<&Path> {
        layout::store_root_of(&self.dir)
    }

    pub fn meta_path(&self) -> PathBuf {
        self.dir.join(layout::META)
    }
    pub fn trigger_path(&self) -> PathBuf {
        self.dir.join(layout::TRIGGER)
    }
    pub fn reduced_path(&self) -> PathBuf {
        self.dir.join(layout::REDUCED)
    }
    pub fn minimized_path(&self) -> PathBuf {
        self.dir.join(layout::MINIMIZED)
    }
    pub fn report_md_path(&self) -> PathBuf {
        self.dir.join(layout::REPORT_MD)
    }
    pub fn report_html_path(&self) -> PathBuf {
        self.dir.join(layout::REPORT_HTML)
    }
    /// `repro/<solver>.smt2`, relative to the finding (as its page links it), and the
    /// path of that file.
    pub fn repro(&self, solver: &str) -> (String, PathBuf) {
        let name = format!("{}/{}.smt2", layout::REPRO, crate::util::fs::safe_name(solver));
        let path = self.dir.join(&name);
        (name, path)
    }

    /// Whether the directory holds a `meta.json` (read or not): a directory without one
    /// is not a finding yet.
    pub fn has_meta(&self) -> bool {
        self.meta_path().is_file()
    }
    pub fn read_meta(&self) -> Result<Meta, StoreFileError> {
        read_json(&self.meta_path())
    }
    /// Whether `meta.json` is there but does not read as a [`Meta`].
    pub fn meta_unreadable(&self) -> bool {
        std::fs::read(self.meta_path()).is_ok_and(|b| serde_json::from_slice::<Meta>(&b).is_err())
    }
    pub fn write_meta(&self, meta: &Meta) -> std::io::Result<()> {
        crate::util::fs::write_atomic(&self.meta_path(), &serde_json::to_vec_pretty(meta).unwrap_or_default())
    }
    pub fn remove_meta(&self) -> std::io::Result<()> {
        remove_if_there(&self.meta_path())
    }

    pub fn read_trigger(&self) -> std::io::Result<String> {
        std::fs::read_to_string(self.trigger_path())
    }
    pub fn write_trigger(&self, text: &str) -> std::io::Result<()> {
        crate::util::fs::write_atomic(&self.trigger_path(), text.as_bytes())
    }

    pub fn read_reduced(&self) -> std::io::Result<String> {
        std::fs::read_to_string(self.reduced_path())
    }
    pub fn has_reduced(&self) -> bool {
        self.reduced_path().exists()
    }
    pub fn write_reduced(&self, bytes: &[u8]) -> std::io::Result<()> {
        crate::util::fs::write_atomic(&self.reduced_path(), bytes)
    }
    /// Removes `reduced.smt2`; a missing one is no error.
    pub fn remove_reduced(&self) -> std::io::Result<()> {
        remove_if_there(&self.reduced_path())
    }

    /// The input a finding is best shown by: its reduction, else its trigger (empty if
    /// neither reads), with that file's name.
    pub fn best_input(&self) -> (&'static str, String) {
        match self.read_reduced() {
            Ok(t) => (layout::REDUCED, t),
            Err(_) => (layout::TRIGGER, self.read_trigger().unwrap_or_default()),
        }
    }

    /// Writes `repro/<solver>.smt2` and returns its name relative to the finding.
    pub fn write_repro(&self, solver: &str, text: &str) -> std::io::Result<String> {
        crate::util::fs::create_dirs(&self.dir.join(layout::REPRO))?;
        let (name, path) = self.repro(solver);
        crate::util::fs::write_atomic(&path, text.as_bytes())?;
        Ok(name)
    }
    pub fn write_report_md(&self, text: &str) -> std::io::Result<()> {
        crate::util::fs::write_atomic(&self.report_md_path(), text.as_bytes())
    }
    pub fn write_report_html(&self, text: &str) -> std::io::Result<()> {
        crate::util::fs::write_atomic(&self.report_html_path(), text.as_bytes())
    }

    /// Copies what a finding holds besides its `meta.json` (trigger, reduction, report)
    /// from `from`, each file that is there; `meta.json` is the caller's, written last.
    pub fn copy_files_from(&self, from: &FindingDir) -> std::io::Result<()> {
        for f in [layout::TRIGGER, layout::REDUCED, layout::REPORT_MD] {
            if let Ok(b) = std::fs::read(from.dir.join(f)) {
                crate::util::fs::write_atomic(&self.dir.join(f), &b)?;
            }
        }
        Ok(())
    }
}

fn remove_if_there(p: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(p) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}
