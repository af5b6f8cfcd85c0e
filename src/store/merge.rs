//! `smtstorm merge`: the findings of other stores counted into this one.

use super::{
    copy_tree, dedup_key, layout, quarantine_name, quarantine_slot, top_of, CampaignFile, FindingDir, Meta, Store,
    StoreFileError,
};
use crate::oracle::BugKind;
use std::path::{Path, PathBuf};

/// What [`Store::merge_from`] did with one source store.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Findings the target did not have, copied.
    pub new: usize,
    /// Findings of bugs the target had: counted as duplicates (the earliest kept).
    pub duplicates: usize,
    /// Findings merged before (a second run of the same merge): nothing done.
    pub already: usize,
    /// Source findings that do not read (`meta.json` or `trigger.smt2`), copied whole to
    /// this store's `quarantine/` instead of being left out: (source directory, copy, why).
    pub quarantined: Vec<(PathBuf, PathBuf, &'static str)>,
}

impl Store {
    /// Merges the findings of the store at `src` into this one (`smtstorm merge`): a bug
    /// this store lacks is copied whole (trigger, reduction, report, `meta.json` last);
    /// one it has raises the duplicate count, and the earlier finding of the two is kept
    /// (its trigger and description), as is a reduction where the kept one has none.
    /// Each source finding is remembered by its campaign's identity (first start, RNG
    /// seed, shard), so a merge run twice, or run again after a `kill -9`, counts
    /// nothing twice.
    pub fn merge_from(&mut self, src: &Path) -> std::io::Result<MergeReport> {
        let campaign = match CampaignFile::read(src).ok().flatten() {
            Some(c) => format!(
                "{}-{}-{}",
                c.first_start_unix,
                c.config.seed,
                c.config.shard.map_or("all".to_string(), |s| s.to_string().replace('/', "of"))
            ),
            None => std::fs::canonicalize(src).unwrap_or_else(|_| src.to_path_buf()).display().to_string(),
        };
        let mut report = MergeReport::default();
        let from = crate::util::fs::safe_name(&format!("from-{campaign}"));
        let mut quarantine = |top: &'static str, dir: &Path, why: &'static str| -> std::io::Result<()> {
            let name = quarantine_name(&from, top, dir);
            // Merged before: the copy is there already (same meta.json bytes).
            let there = layout::quarantine(&self.out).join(&name);
            let copied = std::fs::read(FindingDir::new(&there).meta_path()).ok();
            let to = if copied.is_some() && copied == std::fs::read(FindingDir::new(dir).meta_path()).ok() {
                there
            } else {
                let to = quarantine_slot(&self.out, &name)?;
                copy_tree(dir, &to)?;
                to
            };
            report.quarantined.push((dir.to_path_buf(), to, why));
            Ok(())
        };
        for (top, dir) in Store::unreadable_in(src) {
            quarantine(top, &dir, layout::META_UNREADABLE)?;
        }
        let mut readable = vec![];
        for (path, meta) in Store::list_in(src) {
            let Some(f) = FindingDir::of_meta(&path) else { continue };
            match f.read_trigger() {
                Ok(t) => readable.push((f, meta, t)),
                Err(_) => quarantine(top_of(&meta), f.path(), layout::TRIGGER_UNREADABLE)?,
            }
        }
        for (src_f, meta, trigger) in readable {
            let me = format!("{campaign}/{}", meta.id);
            let key = dedup_key(&meta);
            let Some(kdir) = self.index.get(&key).cloned() else {
                let to = self.slot(&meta);
                to.copy_files_from(&src_f)?;
                let mut m = meta;
                m.merged_from = vec![me];
                to.write_meta(&m)?;
                self.index.insert(key, to.path().to_path_buf());
                report.new += 1;
                continue;
            };
            let kept = FindingDir::new(&kdir);
            let Ok(mut old) = kept.read_meta() else {
                continue;
            };
            if old.merged_from.contains(&me) {
                report.already += 1;
                continue;
            }
            let (dups, mut from, keys) =
                (old.duplicates + 1 + meta.duplicates, std::mem::take(&mut old.merged_from), old.merged_keys.clone());
            from.push(me);
            from.extend(meta.merged_from.iter().cloned());
            let reduced = std::fs::read(src_f.reduced_path());
            if meta.found_unix < old.found_unix {
                // The source's finding is earlier: its trigger and description are kept
                // (the old reduction goes first, so no moment pairs it with the new
                // trigger), and its reduction if it has one.
                kept.write_meta(&Meta { reduction: None, ..old.clone() })?;
                if let Ok(r) = &reduced {
                    kept.write_reduced(r)?;
                } else if old.reduction.is_some() {
                    let _ = kept.remove_reduced();
                }
                kept.write_trigger(&trigger)?;
                let keep_reduction = old.reduction.clone().filter(|_| !src_f.has_reduced());
                old = Meta { id: old.id.clone(), reduction: meta.reduction.clone().or(keep_reduction), ..meta.clone() };
            } else if old.reduction.is_none() && meta.reduction.is_some() {
                if let Ok(r) = &reduced {
                    kept.write_reduced(r)?;
                    old.reduction = meta.reduction.clone();
                }
            }
            old.duplicates = dups;
            old.merged_from = from;
            old.merged_keys = keys;
            kept.write_meta(&old)?;
            report.duplicates += 1;
        }
        Ok(report)
    }
}

impl Store {
    /// Why `src` is not a store `merge` can read, if it is not: not a directory, neither
    /// `bugs/` nor `seed-findings/`, a `campaign.json` that does not read, or something
    /// other than a bug kind's directory under `bugs/` or `seed-findings/`.
    pub fn check_source(src: &Path) -> Result<(), String> {
        if !src.is_dir() {
            return Err("not a directory".into());
        }
        if !layout::TOPS.iter().any(|top| src.join(top).is_dir()) {
            return Err(format!("not a campaign output (no {}/ or {}/)", layout::BUGS, layout::SEED_FINDINGS));
        }
        // (Read errors other than the JSON's are left to the merge itself, as before.)
        if let Err(StoreFileError::Json { path, source }) = CampaignFile::read(src) {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            return Err(format!("{name} does not read: {source}"));
        }
        for top in layout::TOPS {
            let Ok(entries) = std::fs::read_dir(src.join(top)) else { continue };
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let kind = BugKind::ALL.iter().any(|k| k.as_str() == name);
                if !kind || !e.file_type().is_ok_and(|t| t.is_dir()) {
                    let kinds: Vec<&str> = BugKind::ALL.iter().map(|k| k.as_str()).collect();
                    return Err(format!("{top}/{name}: not a bug kind's directory (expected {})", kinds.join(", ")));
                }
            }
        }
        Ok(())
    }
}
