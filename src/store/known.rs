//! Known causes (`--known FILE`, issue 39): what a team has already filed is not
//! reported again. A finding is still stored (nothing is ever lost); it is marked known,
//! listed apart in the report, and does not make a run exit 10.
//!
//! The file lists one entry a line (`#` starts a comment):
//! * a cause key as `meta.json` holds it (`fuzz|soundness|differential|z3|shape|…`), or
//!   a dedup key;
//! * a store directory (an earlier campaign's output): every cause and dedup key of its
//!   findings and of their instances;
//! * an `.smt2` file (a reduced trigger a team filed): every finding whose reduction has
//!   its normalised shape ([`super::shape::shape`]).
//!
//! Paths are relative to the file's directory. `FILE` may itself be a store directory.

use super::identity::{key as cause_key, without_origin};
use super::{dedup_key, FindingDir, Meta, Store};
use crate::util::error::Error;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How a finding that is not a build's regression under `--baseline` is marked (the
/// campaign decides it in regression mode): its `known` holds this
/// prefix and why. Such a mark is the run's own judgement, never a `--known` listing, so
/// [`Store::mark_known`] keeps it where the list names nothing.
pub const BASELINE_MARK: &str = "not a regression of the build: ";

/// The `known` mark of a finding regression mode keeps out of the headline.
pub fn baseline_mark(why: &str) -> String {
    format!("{BASELINE_MARK}{why}")
}

/// Whether a `known` mark is regression mode's ([`baseline_mark`]).
pub fn is_baseline_mark(mark: &str) -> bool {
    mark.starts_with(BASELINE_MARK)
}

/// The known causes, each with where it was listed (`FILE:LINE`, or a store's finding).
#[derive(Clone, Debug, Default)]
pub struct Known {
    keys: BTreeMap<String, String>,
    shapes: BTreeMap<String, String>,
    /// The findings of stores given, with their best input (the reduction, else the
    /// trigger): their cause keys are computed again when compared, so a store keyed
    /// by an older identity (`store::shape` changes) still names its causes.
    stored: Vec<(Meta, String, String)>,
    /// Their keys of today, computed on the first comparison (with that call's solvers,
    /// which name the families: one list per run) rather than once per finding compared.
    stored_keys: std::sync::OnceLock<Vec<Option<String>>>,
}

impl Known {
    /// Reads `path`: a list file, or a store directory. An entry that names nothing
    /// readable is an error naming the file and line, not an entry silently skipped.
    pub fn load(path: &Path) -> Result<Known, Error> {
        let mut k = Known::default();
        if path.is_dir() {
            k.add_store(path)?;
            return Ok(k);
        }
        let text = std::fs::read_to_string(path).map_err(|error| Error::Io { path: path.to_path_buf(), error })?;
        let base = path.parent().unwrap_or(Path::new("."));
        for (n, line) in text.lines().enumerate() {
            let entry = line.split('#').next().unwrap_or("").trim();
            if entry.is_empty() {
                continue;
            }
            let at = format!("{}:{}", path.display(), n + 1);
            let bad = |message: String| Error::Syntax {
                path: path.to_path_buf(),
                line: n as u32 + 1,
                column: (line.len() - line.trim_start().len()) as u32 + 1,
                message,
            };
            if entry.contains('|') {
                k.keys.insert(without_origin(entry).to_string(), at);
                continue;
            }
            let p: PathBuf = base.join(entry);
            if p.is_dir() {
                if !super::layout::TOPS.iter().any(|t| p.join(t).is_dir()) {
                    return Err(bad(format!("{entry}: a directory that is not a campaign's store")));
                }
                k.add_store(&p)?;
            } else if p.is_file() {
                let text = std::fs::read_to_string(&p).map_err(|e| bad(format!("{entry}: {e}")))?;
                let shape = super::shape::shape(&text).ok_or_else(|| bad(format!("{entry}: does not tokenise")))?;
                k.shapes.insert(crate::util::hash::short_hash(&shape), at);
            } else {
                return Err(bad(format!(
                    "{entry}: neither a key (with `|`), nor a store directory, nor an .smt2 file"
                )));
            }
        }
        Ok(k)
    }

    /// Every key of the findings (and instances) of the store at `dir`.
    fn add_store(&mut self, dir: &Path) -> Result<(), Error> {
        let found = Store::list_in(dir);
        for (path, m) in &found {
            let at = format!("{}", path.parent().unwrap_or(dir).display());
            for key in
                m.cause.key.iter().cloned().chain(std::iter::once(dedup_key(m))).chain(m.merged_keys.iter().cloned())
            {
                self.keys.insert(without_origin(&key).to_string(), at.clone());
            }
            let dir = path.parent().unwrap_or(dir);
            let best = [super::layout::REDUCED, super::layout::TRIGGER]
                .iter()
                .find_map(|f| crate::util::files::read_input_text(&dir.join(f)).ok());
            if let Some(text) = best {
                self.stored.push((m.clone(), text, at.clone()));
            }
        }
        if found.is_empty() && !super::layout::TOPS.iter().any(|t| dir.join(t).is_dir()) {
            return Err(Error::Input { path: dir.to_path_buf(), why: "not a campaign's store".into() });
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty() && self.shapes.is_empty() && self.stored.is_empty()
    }

    /// Where the finding `m` (its best input `text`; `solvers` name its family) is listed
    /// as known, if it is.
    pub fn of(&self, m: &Meta, solvers: &[crate::solver::SolverSpec], text: &str) -> Option<String> {
        let now = cause_key(m, solvers, text);
        let keys = m
            .cause
            .key
            .iter()
            .cloned()
            .chain(now.clone())
            .chain(std::iter::once(dedup_key(m)))
            .chain(m.merged_keys.iter().cloned());
        for k in keys {
            if let Some(at) = self.keys.get(without_origin(&k)) {
                return Some(at.clone());
            }
        }
        if let Some(now) = now {
            let stored = self
                .stored_keys
                .get_or_init(|| self.stored.iter().map(|(sm, st, _)| cause_key(sm, solvers, st)).collect());
            let same = |k: &Option<String>| k.as_deref().is_some_and(|k| without_origin(k) == without_origin(&now));
            if let Some(k) = stored.iter().position(same) {
                return Some(self.stored[k].2.clone());
            }
        }
        let shape = super::shape::shape(text)?;
        self.shapes.get(&crate::util::hash::short_hash(&shape)).cloned()
    }
}

impl Store {
    /// Marks every finding `known` lists (its `meta.json` says where); clears the mark of
    /// one it no longer lists. Returns how many are marked. `solvers` name the families.
    pub fn mark_known(&mut self, known: &Known, solvers: &[crate::solver::SolverSpec]) -> usize {
        let mut marked = 0;
        for (path, mut m) in Store::list_in(&self.out) {
            let Some(f) = FindingDir::of_meta(&path) else { continue };
            let (_, text) = f.best_input();
            let listed = known.of(&m, solvers, &text);
            marked += listed.is_some() as usize;
            let at = listed.or_else(|| m.known.clone().filter(|k| is_baseline_mark(k)));
            if m.known != at {
                m.known = at;
                let _ = f.write_meta(&m);
            }
        }
        marked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of entry is read; a line that names nothing is an error with its line
    /// and column.
    #[test]
    fn entries_are_keys_stores_or_triggers_and_a_bad_line_is_named() {
        let dir = std::env::temp_dir().join(format!("smtstorm-known-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("old/bugs")).unwrap();
        std::fs::write(dir.join("t.smt2"), "(declare-const a Int)\n(assert (> a 7))\n(check-sat)\n").unwrap();
        let list = dir.join("known.txt");
        std::fs::write(&list, "# filed\nfuzz|soundness|differential|z3|shape|00ff  # z3 issue\nold\nt.smt2\n").unwrap();
        let k = Known::load(&list).unwrap();
        assert_eq!((k.keys.len(), k.shapes.len()), (1, 1));
        // The same shape under other names and constants is the same cause.
        let m: Meta = serde_json::from_value(serde_json::json!({
            "id": "x", "kind": "soundness", "blamed": "cvc5", "blamed_version": null,
            "blame_by": "majority", "logic": "QF_LIA", "signature": "unsat", "fixed_in": null, "bisection": [],
            "answers": [], "seed": "s", "seed_hash": "", "engine": "opfuzz", "edits": null,
            "rng_seed": 0, "found_at": 0.0, "found_unix": 0, "run": 1, "trigger_bytes": 1,
            "duplicates": 0, "seed_finding": false
        }))
        .unwrap();
        let other = "(declare-const b Int)\n(assert (> b 3))\n(check-sat)\n";
        assert_eq!(k.of(&m, &[], other).as_deref(), Some(format!("{}:4", list.display()).as_str()));
        assert_eq!(k.of(&m, &[], "(declare-const b Int)\n(assert (< b 3))\n(check-sat)\n"), None);
        std::fs::write(&list, "fuzz|a\n  missing.smt2\n").unwrap();
        let e = Known::load(&list).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{}:2:3: missing.smt2", list.display())), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A store given as known names its causes by the identity of today, not only by the
    /// keys it was stored under: a finding whose stored key an older `store::shape` made
    /// is still recognised in a new trigger of the same shape (and a different shape is
    /// not).
    #[test]
    fn a_stores_causes_are_compared_by_todays_identity() {
        let dir = std::env::temp_dir().join(format!("smtstorm-known-now-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let meta = |signature: &str| -> Meta {
            serde_json::from_value(serde_json::json!({
                "id": "", "kind": "soundness", "blamed": "cvc5", "blamed_version": null,
                "blame_by": "unsat-core", "logic": "ALL", "signature": signature, "fixed_in": null, "bisection": [],
                "answers": [], "seed": "s", "seed_hash": "", "engine": "opfuzz", "edits": null,
                "rng_seed": 0, "found_at": 0.0, "found_unix": 0, "run": 1, "trigger_bytes": 1,
                "duplicates": 0, "seed_finding": false,
                "cause": {"key": "fuzz|soundness|unsat-core|cvc5|shape|0123456789abcdef"}
            }))
            .unwrap()
        };
        let mut store = Store::open(&dir).unwrap();
        store.record(meta("unsat core is sat"), "(assert (! (> 0.0 0) :named a1))\n(check-sat)\n").unwrap();
        let k = Known::load(&dir).unwrap();
        let mut new = meta("another signature");
        new.cause.key = None;
        let same = "(assert (! (< 0 0.0) :named smtstorm_a7))\n(check-sat)\n(get-unsat-core)\n";
        assert!(k.of(&new, &[], same).is_some(), "the same shape today");
        assert_eq!(k.of(&new, &[], "(assert (! (< 0.0 0) :named b))\n(check-sat)\n"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A `--known` list never erases regression mode's mark (the run's own judgement that
    /// a finding is not the build's), and a listed finding takes the list's words.
    #[test]
    fn a_baseline_mark_survives_a_known_list_that_does_not_name_it() {
        let dir = std::env::temp_dir().join(format!("smtstorm-known-mark-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = Store::open(&dir).unwrap();
        let meta = |signature: &str, known: Option<String>| -> Meta {
            let mut m: Meta = serde_json::from_value(serde_json::json!({
                "id": "", "kind": "crash", "blamed": "dev", "blamed_version": null,
                "blame_by": "crash", "logic": "QF_LIA", "signature": signature, "fixed_in": null, "bisection": [],
                "answers": [], "seed": "s", "seed_hash": "", "engine": "opfuzz", "edits": null,
                "rng_seed": 0, "found_at": 0.0, "found_unix": 0, "run": 1, "trigger_bytes": 1,
                "duplicates": 0, "seed_finding": false
            }))
            .unwrap();
            m.known = known;
            m
        };
        let mark = baseline_mark("the baseline crashes too (z3-5.4.0)");
        store.record(meta("ASSERTION VIOLATION a.cpp:1", Some(mark.clone())), "(check-sat)\n").unwrap();
        store.record(meta("ASSERTION VIOLATION b.cpp:2", None), "(check-sat)\n(check-sat)\n").unwrap();
        let listed = dir.join("known.txt");
        std::fs::write(&listed, "fuzz|crash|dev|ASSERTION VIOLATION b.cpp:2\n").unwrap();
        assert_eq!(store.mark_known(&Known::load(&listed).unwrap(), &[]), 1, "only the listed one counts as listed");
        let marks: std::collections::BTreeMap<String, Option<String>> =
            Store::list_in(&dir).into_iter().map(|(_, m)| (m.signature, m.known)).collect();
        assert_eq!(marks["ASSERTION VIOLATION a.cpp:1"].as_deref(), Some(mark.as_str()));
        assert!(
            marks["ASSERTION VIOLATION b.cpp:2"].as_deref().is_some_and(|k| k.ends_with("known.txt:1")),
            "{marks:?}"
        );
        assert!(is_baseline_mark(&mark) && !is_baseline_mark("known.txt:1"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
