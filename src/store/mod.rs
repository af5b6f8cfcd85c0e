//! The bug store under a campaign's `--out` directory: its on-disk format and the code
//! that reads and writes its files. Campaigns, triage, the reducer, the report and
//! BanditFuzz all store here, and ask here for every path: the names below are spelled
//! in [`layout`] only, a finding's files are read and written through [`FindingDir`],
//! `campaign.json` through [`CampaignFile::read`], and a finding finds its store with
//! [`store_root_of`].
//!
//! ```text
//! OUT/lock                              held by the one process using the store
//! OUT/scratch/                          the solvers' working directory
//! OUT/campaign.json                     the campaign definition and run count
//! OUT/bugs/<kind>/<id>/trigger.smt2     one directory per distinct fuzzing finding
//! OUT/bugs/<kind>/<id>/meta.json        its description ([`Meta`])
//! OUT/bugs/<kind>/<id>/reduced.smt2     its reduction, report.md/.html, repro/<solver>.smt2
//! OUT/seed-findings/<kind>/<id>/...     seeds that already fail, kept apart
//! OUT/quarantine/                       findings whose meta.json did not read on open
//! OUT/stats.jsonl                       append-only progress log
//! OUT/events.jsonl                      append-only event stream (JSON lines)
//! OUT/perf/<id>/                        BanditFuzz's benchmarks ([`perf`])
//! ```
//!
//! Every file is written to a temporary name and renamed into place, so a `kill -9` at
//! any moment leaves either the old or the new version. The dedup index is rebuilt from
//! the `meta.json` files at start-up: a rerun with the same `--out` never stores a bug
//! twice and never loses one.

pub mod campaign;
pub mod corpus;
pub mod finding;
pub mod identity;
pub mod known;
pub mod layout;
pub mod lock;
mod merge;
pub mod meta;
pub mod perf;
pub mod reduction;
pub mod severity;
pub mod shape;

pub use campaign::CampaignFile;
pub use finding::FindingDir;
pub use identity::{Cause, Range};
pub use layout::{store_root_of, StoreFileError};
pub use merge::MergeReport;
pub use meta::{seed_hash, Meta, NotBisected, Origin, SolverAnswer};

use crate::oracle::BugKind;
use crate::util::hash::short_hash;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What [`Store::record`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    New(PathBuf),
    /// A duplicate of the bug at this path (its counter went up; a smaller trigger
    /// replaced the stored one).
    Duplicate(PathBuf),
}

/// The bug store of one output directory.
pub struct Store {
    pub out: PathBuf,
    /// Dedup key → bug directory.
    index: BTreeMap<String, PathBuf>,
    quarantined: Vec<(PathBuf, PathBuf)>,
}

impl Store {
    /// Opens (or creates) the store, rebuilding the index from the stored `meta.json`s.
    /// A finding whose `meta.json` exists but does not read (a disk error, a hand edit) is
    /// moved whole to `OUT/quarantine/` rather than skipped, where its directory would be
    /// overwritten when the bug is found again; [`Store::quarantined`] lists the moves.
    pub fn open(out: &Path) -> std::io::Result<Store> {
        for top in layout::TOPS {
            crate::util::fs::create_dirs(&out.join(top))?;
        }
        let quarantined = Store::quarantine_unreadable(out)?;
        let mut index = BTreeMap::new();
        for meta in Store::list_in(out) {
            if let Some(dir) = meta.0.parent() {
                index.insert(dedup_key(&meta.1), dir.to_path_buf());
                for k in &meta.1.merged_keys {
                    index.insert(k.clone(), dir.to_path_buf());
                }
            }
        }
        Ok(Store { out: out.to_path_buf(), index, quarantined })
    }

    /// Moves every finding directory whose `meta.json` is present but unreadable to
    /// `OUT/quarantine/<top>-<kind>-<id>[-n]`; returns (from, to) pairs. (Also what
    /// `smtstorm report` does, when no campaign holds the store.)
    pub fn quarantine_unreadable(out: &Path) -> std::io::Result<Vec<(PathBuf, PathBuf)>> {
        let mut moved = vec![];
        for (top, dir) in Store::unreadable_in(out) {
            let to = quarantine_slot(out, &quarantine_name("", top, &dir))?;
            std::fs::rename(&dir, &to)?;
            moved.push((dir, to));
        }
        Ok(moved)
    }

    /// The finding directories of the store at `out` whose `meta.json` is present but
    /// does not read, with their top directory's name (`bugs`, `seed-findings`).
    /// [`Store::list_in`] leaves them out; whoever shows the findings says these.
    pub fn unreadable_in(out: &Path) -> Vec<(&'static str, PathBuf)> {
        finding_dirs(out).into_iter().filter(|(_, dir)| FindingDir::new(dir).meta_unreadable()).collect()
    }

    /// How many findings `OUT/quarantine/` holds.
    pub fn quarantine_count(out: &Path) -> usize {
        std::fs::read_dir(layout::quarantine(out)).map_or(0, |d| d.flatten().filter(|e| e.path().is_dir()).count())
    }

    /// Findings moved to `OUT/quarantine/` when the store was opened (unreadable
    /// `meta.json`), as (from, to).
    pub fn quarantined(&self) -> &[(PathBuf, PathBuf)] {
        &self.quarantined
    }

    /// Every stored finding (fuzzing and seed findings) as (meta.json path, meta).
    pub fn list_in(out: &Path) -> Vec<(PathBuf, Meta)> {
        let mut v = vec![];
        for (_, dir) in finding_dirs(out) {
            let f = FindingDir::new(dir);
            if let Ok(m) = f.read_meta() {
                v.push((f.meta_path(), m));
            }
        }
        v.sort_by(|a, b| a.1.found_at.total_cmp(&b.1.found_at).then(a.1.id.cmp(&b.1.id)));
        v
    }

    /// Number of distinct findings stored (fuzzing, seed).
    pub fn counts(&self) -> (usize, usize) {
        // Distinct directories: merged findings leave their keys pointing at the survivor.
        let dirs: std::collections::BTreeSet<&PathBuf> = self.index.values().collect();
        let seeds = dirs.iter().filter(|p| p.starts_with(self.out.join(layout::SEED_FINDINGS))).count();
        (dirs.len() - seeds, seeds)
    }

    /// Stores a confirmed finding, or counts it as a duplicate of a stored one.
    pub fn record(&mut self, mut meta: Meta, trigger: &str) -> std::io::Result<Recorded> {
        let key = dedup_key(&meta);
        if let Some(dir) = self.index.get(&key).cloned() {
            let f = FindingDir::new(&dir);
            let mut old: Meta = f.read_meta().unwrap_or_else(|_| meta.clone());
            old.duplicates += 1;
            let known = merged_known(&old.known, &meta.known);
            if trigger.len() < old.trigger_bytes && key_names_one_cause(&meta) {
                // Keep the smallest trigger, with the description that goes with it. Its
                // old reduction goes first (meta.json, then reduced.smt2), so that no
                // moment after a `kill -9` pairs the new trigger with a stale reduction;
                // the reducer derives a new one.
                if old.reduction.is_some() || f.has_reduced() {
                    f.write_meta(&Meta { reduction: None, ..old.clone() })?;
                    f.remove_reduced()?;
                }
                f.write_trigger(trigger)?;
                let dups = old.duplicates;
                let (id, found_at, found_unix, run) = (old.id.clone(), old.found_at, old.found_unix, old.run);
                let merged_keys = std::mem::take(&mut old.merged_keys);
                // The instances merged into it stay; its identity and range were the old
                // reduction's and are derived again with the new one.
                let cause = Cause { instances: std::mem::take(&mut old.cause.instances), ..Default::default() };
                old = Meta {
                    id,
                    found_at,
                    found_unix,
                    run,
                    duplicates: dups,
                    trigger_bytes: trigger.len(),
                    merged_keys,
                    cause,
                    ..meta
                };
            }
            if let Some(known) = known {
                old.known = known;
            }
            f.write_meta(&old)?;
            return Ok(Recorded::Duplicate(dir));
        }
        meta.id = short_hash(&key)[..12].to_string();
        meta.trigger_bytes = trigger.len();
        let f = self.slot(&meta);
        // Trigger first, meta last: a directory without meta.json is not a finding yet
        // and is overwritten when the bug is found again.
        f.write_trigger(trigger)?;
        f.write_meta(&meta)?;
        let dir = f.path().to_path_buf();
        self.index.insert(key, dir.clone());
        Ok(Recorded::New(dir))
    }

    /// Where this store keeps the finding `meta` describes (by its top, kind and id).
    fn slot(&self, meta: &Meta) -> FindingDir {
        FindingDir::new(self.out.join(top_of(meta)).join(meta.kind.as_str()).join(&meta.id))
    }
}

/// The `known` mark of a finding found again, `stored` its mark and `new` the new
/// instance's: regression mode's mark ([`known::baseline_mark`]: not the build's bug)
/// holds only if both instances have one, since one instance that is the build's makes
/// the finding the build's (kept otherwise, a smaller duplicate would carry a mark its
/// own meta gave, and a build's regression would be listed apart). `None`: a baseline
/// mark on both sides or neither, the kept meta's mark stays (a `--known` listing is
/// settled by [`Store::mark_known`]).
fn merged_known(stored: &Option<String>, new: &Option<String>) -> Option<Option<String>> {
    let marked = |k: &Option<String>| k.as_deref().is_some_and(known::is_baseline_mark);
    match (marked(stored), marked(new)) {
        (true, false) => Some(new.clone()),
        (false, true) => Some(stored.clone()),
        _ => None,
    }
}

/// The directory a finding goes under: seed findings apart.
fn top_of(meta: &Meta) -> &'static str {
    if meta.seed_finding {
        layout::SEED_FINDINGS
    } else {
        layout::BUGS
    }
}

/// `[PREFIX-]<top>-<kind>-<id>`: the name a finding directory gets in `quarantine/`.
fn quarantine_name(prefix: &str, top: &str, dir: &Path) -> String {
    let part = |p: Option<&std::ffi::OsStr>| p.map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = format!("{top}-{}-{}", part(dir.parent().and_then(Path::file_name)), part(dir.file_name()));
    if prefix.is_empty() {
        name
    } else {
        format!("{prefix}-{name}")
    }
}

/// A free path `OUT/quarantine/NAME[-n]` (its parent created).
fn quarantine_slot(out: &Path, name: &str) -> std::io::Result<PathBuf> {
    let q = layout::quarantine(out);
    crate::util::fs::create_dirs(&q)?;
    let mut to = q.join(name);
    let mut n = 1;
    while to.exists() {
        to = q.join(format!("{name}-{n}"));
        n += 1;
    }
    Ok(to)
}

/// Copies the regular files of `from` (and its subdirectories) to `to`; symbolic links
/// are not followed.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    crate::util::fs::create_dirs(to)?;
    for e in std::fs::read_dir(from)?.flatten() {
        let t = e.file_type()?;
        if t.is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        } else if t.is_file() {
            crate::util::fs::write_atomic(&to.join(e.file_name()), &std::fs::read(e.path())?)?;
        }
    }
    Ok(())
}

/// Every finding directory of the store at `out` (`bugs/<kind>/<id>`,
/// `seed-findings/<kind>/<id>`), with its top directory's name.
fn finding_dirs(out: &Path) -> Vec<(&'static str, PathBuf)> {
    let mut v = vec![];
    for top in layout::TOPS {
        let Ok(kinds) = std::fs::read_dir(out.join(top)) else { continue };
        for k in kinds.flatten() {
            let Ok(ids) = std::fs::read_dir(k.path()) else { continue };
            v.extend(ids.flatten().map(|id| (top, id.path())));
        }
    }
    v
}

/// What makes two findings the same bug: kind, blamed solver, and — for crashes — the
/// normalised message; for soundness, invalid models and crashes that say nothing but
/// their signal (a bare `SIGSEGV`) the logic, the answer pattern and, when the ladder was
/// bisected, the release that fixed it. (A bare signal alone merged every segfault of a
/// solver: in session 14, z3 5.4.0's `euf-completion` and `elim-uncnstr`/`smtfd` crashes,
/// two bugs, shared one key.)
///
/// Where the message says little (all but crashes with a state or message), the seed the
/// finding came from is part of the key too: a duplicate keeps only the smaller trigger,
/// so two causes under one key lose one for good — cvc5's "unsat core is sat" in `ALL`
/// came from four seeds in one run, and two z3 regressions of one logic and release
/// shared an id (issue 39, judge26a). Mutants of one seed with one symptom stay one
/// finding; findings of two seeds become one cause when their reductions' identities meet
/// ([`identity::key`], merged at the end of a campaign). A finding without a seed hash (a
/// fuzz target's: every input is its own seed) is keyed by its symptom alone.
pub fn dedup_key(m: &Meta) -> String {
    let top = if m.seed_finding { "seed" } else { "fuzz" };
    let bare_signal = is_bare_signal(&m.signature);
    match m.kind {
        // The crash state (ClusterFuzz's three frames) tells crashes apart where the
        // message cannot: every segfault has the same one.
        BugKind::Crash if !m.frames.is_empty() => format!("{top}|crash|{}|{}", m.blamed, m.frames.join("|")),
        BugKind::Crash if !bare_signal => format!("{top}|crash|{}|{}", m.blamed, m.signature),
        // Which oracle decided is part of the key (issue 40): a solver's own checker and
        // a disagreement between families are different reports even on one input.
        k => {
            let mut key = format!(
                "{top}|{k}|{}|{}|{}|{}|{}",
                m.blame_by.oracle(),
                m.blamed,
                m.logic,
                m.signature,
                m.fixed_in.as_deref().unwrap_or("-")
            );
            if let Some(seed) = key_seed(m) {
                key.push_str("|seed|");
                key.push_str(seed);
            }
            key
        }
    }
}

/// The seed a finding's key names ([`dedup_key`]): a grown seed's original one (a line of
/// grown seeds is one seed's); none for BanditFuzz's (every instance is generated, its
/// "seed" is the instance itself) or without a seed hash (a fuzz target's).
fn key_seed(m: &Meta) -> Option<&str> {
    if matches!(m.origin, Origin::Bandit(_)) {
        return None;
    }
    let seed = m.lineage.as_ref().map_or(m.seed_hash.as_str(), |l| l.origin_hash.as_str());
    (!seed.is_empty()).then_some(seed)
}

/// Whether the findings under `m`'s key are taken for one cause: a crash told apart by its
/// state or message, or a finding keyed by its seed (its duplicates are that seed's
/// mutants with the same symptom). A duplicate of such a finding may take its place
/// with a smaller trigger; one keyed by its symptom alone (a fuzz target's wrong answer,
/// a bare signal without frames) keeps the trigger it was found with, since the smaller
/// one may be another cause and would replace it for good.
fn key_names_one_cause(m: &Meta) -> bool {
    (m.kind == BugKind::Crash && (!m.frames.is_empty() || !is_bare_signal(&m.signature))) || key_seed(m).is_some()
}

/// Whether a crash signature is a signal and nothing else (`SIGSEGV`): it says nothing of
/// where the solver crashed.
pub fn is_bare_signal(signature: &str) -> bool {
    signature.starts_with("SIG") && !signature.contains(|c: char| c.is_whitespace() || c == ':')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::BlameBy;
    use crate::util::fs::write_atomic;

    fn meta(logic: &str, fixed_in: &str, found_at: f64) -> Meta {
        Meta {
            id: String::new(),
            kind: BugKind::InvalidModel,
            blamed: "z3-4.8.7".into(),
            blamed_version: None,
            blame_by: BlameBy::Validation,
            logic: logic.into(),
            signature: "an invalid model was generated".into(),
            fixed_in: Some(fixed_in.into()),
            bisection: vec![],
            not_bisected: None,
            answers: vec![],
            seed: String::new(),
            // A campaign's finding: its seed names it (the tests of one finding per seed
            // and of a fuzz target's findings set their own).
            seed_hash: "seed".into(),
            origin: Origin::Triage,
            edits: vec![],
            seed_slice: None,
            rng_seed: 0,
            found_at,
            found_unix: 0,
            run: 1,
            trigger_bytes: 0,
            duplicates: 0,
            seed_finding: false,
            reduction: None,
            merged_keys: vec![],
            merged_from: vec![],
            frames: vec![],
            cause: Default::default(),
            known: None,
            lineage: None,
        }
    }

    /// A crash with a message is one bug per message, whatever the logic; a bare signal
    /// says too little, so its logic and fixed-in release keep two bugs apart.
    #[test]
    fn bare_signals_are_told_apart_by_logic_and_fix() {
        let crash = |logic: &str, fixed_in: &str, signature: &str| Meta {
            kind: BugKind::Crash,
            blame_by: BlameBy::Crash,
            signature: signature.into(),
            ..meta(logic, fixed_in, 0.0)
        };
        let key = |m: Meta| dedup_key(&m);
        assert_eq!(
            key(crash("UFLIA", "-", "ASSERTION VIOLATION ast.cpp:375")),
            key(crash("QF_BV", "4.12.6", "ASSERTION VIOLATION ast.cpp:375"))
        );
        assert_ne!(key(crash("UFLIA", "-", "SIGSEGV")), key(crash("ALL", "-", "SIGSEGV")));
        assert_ne!(key(crash("ALL", "4.12.6", "SIGSEGV")), key(crash("ALL", "5.4.0", "SIGSEGV")));
        assert_eq!(key(crash("ALL", "5.4.0", "SIGSEGV")), key(crash("ALL", "5.4.0", "SIGSEGV")));
        // A signal with the solver's last words is a message.
        assert_eq!(
            key(crash("ALL", "-", "SIGSEGV: ; ignoring unsupported logic")),
            key(crash("QF_UF", "4.8.8", "SIGSEGV: ; ignoring unsupported logic"))
        );
    }

    /// A wrong answer or regression says little in its message: two seeds with one
    /// symptom are two findings (until their reductions meet), one seed's mutants one; a
    /// fuzz target's finding (no seed hash) is keyed by the symptom; a crash with a
    /// message is one bug whatever the seed. Recorded, the second seed's trigger is kept.
    #[test]
    fn a_symptom_that_says_little_is_one_finding_per_seed() {
        let wrong = |seed: &str| Meta {
            kind: BugKind::Soundness,
            blame_by: BlameBy::Majority,
            signature: "unsat core is sat".into(),
            seed_hash: seed.into(),
            ..meta("ALL", "-", 0.0)
        };
        assert_ne!(dedup_key(&wrong("a1")), dedup_key(&wrong("b2")));
        assert_eq!(dedup_key(&wrong("a1")), dedup_key(&wrong("a1")));
        assert!(!dedup_key(&wrong("")).contains("seed"), "{}", dedup_key(&wrong("")));
        let crash = |seed: &str| Meta {
            kind: BugKind::Crash,
            blame_by: BlameBy::Crash,
            signature: "ASSERTION VIOLATION ast.cpp:375".into(),
            seed_hash: seed.into(),
            ..meta("ALL", "-", 0.0)
        };
        assert_eq!(dedup_key(&crash("a1")), dedup_key(&crash("b2")));
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        assert!(matches!(store.record(wrong("a1"), "(check-sat) ; a").unwrap(), Recorded::New(_)));
        assert!(matches!(store.record(wrong("a1"), "(check-sat) ; a, again").unwrap(), Recorded::Duplicate(_)));
        assert!(matches!(store.record(wrong("b2"), "(check-sat) ; b, longer").unwrap(), Recorded::New(_)));
        assert_eq!(Store::list_in(dir.path()).len(), 2);
        // A smaller duplicate takes the trigger's place only under a key that names one
        // cause: a seed's, not a symptom alone (a fuzz target's finding).
        let trigger = |seed: &str| {
            let (p, _) = Store::list_in(dir.path()).into_iter().find(|(_, m)| m.seed_hash == seed).unwrap();
            std::fs::read_to_string(p.parent().unwrap().join("trigger.smt2")).unwrap()
        };
        store.record(wrong("a1"), "(check-sat)").unwrap();
        assert_eq!(trigger("a1"), "(check-sat)");
        store.record(wrong(""), "(check-sat) ; the first of its symptom").unwrap();
        assert!(matches!(store.record(wrong(""), "(check-sat)").unwrap(), Recorded::Duplicate(_)));
        assert_eq!(trigger(""), "(check-sat) ; the first of its symptom");
    }

    /// Issue 39: under a component its maintainers disown, findings are one cause per
    /// component, kind and fix, whatever the input, logic or crash site; a plain
    /// `check-sat` finding of another shape, or one the ladder shows fixed in another
    /// release, stays apart. (Judged by hand, the configuration-on run of session 24 had
    /// four `euf-completion` invalid models of one cause stored as four.)
    #[test]
    fn findings_under_a_disowned_component_are_one_cause_per_kind_and_fix() {
        let m = |kind: BugKind, fixed: Option<&str>| Meta {
            kind,
            blame_by: if kind == BugKind::Crash { BlameBy::Crash } else { BlameBy::Validation },
            fixed_in: fixed.map(String::from),
            ..meta("ALL", "-", 0.0)
        };
        let key = |m: &Meta, text: &str| identity::key(m, &[], text).unwrap();
        let im = m(BugKind::InvalidModel, None);
        let int = "(declare-fun x () Int)\n(assert (= 1 x))\n(check-sat-using euf-completion)\n";
        let bv = "(declare-fun x () (_ BitVec 4))\n(assert (= x #b1000))\n(check-sat-using euf-completion)\n";
        let s = "(declare-const c String)\n(assert (= c (str.++ c \"\")))\n(check-sat-using (then simplify euf-completion))\n";
        assert_eq!(key(&im, int), key(&im, bv));
        assert_eq!(key(&im, int), key(&im, s));
        // Without the tactic the shapes decide, and they differ.
        let plain = |t: &str| t.replace("(check-sat-using euf-completion)", "(check-sat)");
        assert_ne!(key(&im, &plain(int)), key(&im, &plain(bv)));
        assert_ne!(key(&im, int), key(&im, &plain(int)));
        // Another kind, another component, another fix: another cause.
        let crash = m(BugKind::Crash, None);
        assert_ne!(key(&im, int), key(&crash, int));
        assert_ne!(key(&im, int), key(&im, &int.replace("euf-completion", "smtfd")));
        assert_ne!(key(&im, int), key(&m(BugKind::InvalidModel, Some("4.15.4")), int));
        // The SLS tactics and an `sls.*` parameter given inside `using-params` are one
        // component, whatever the crash site.
        let site = |sig: &str| Meta { signature: sig.into(), ..crash.clone() };
        assert_eq!(
            key(&site("ASSERTION VIOLATION sls_seq_plugin.cpp:137"), "(declare-fun s () (Seq Int))\n(assert (= 0 (seq.len s)))\n(check-sat-using sls-smt)\n"),
            key(
                &site("ASSERTION VIOLATION sls_bv_eval.cpp:693"),
                "(declare-fun m () (_ BitVec 1))\n(assert (= m (bvredor m)))\n(check-sat-using (using-params ufnia :sls.enable true))\n"
            )
        );
        // A script that also asks a plain `check-sat` may be about that answer: its shape
        // decides; so does a disowned option switched off.
        let both = "(declare-fun x () Int)\n(assert (= 1 x))\n(check-sat)\n(check-sat-using euf-completion)\n";
        assert!(!key(&im, both).contains("|caveat|"), "{}", key(&im, both));
        // A self-contradiction is the component's unless the other families side with the
        // pipeline: then the plain check's answer is the wrong one.
        let contradiction = |other: &str| {
            let answer = |solver: &str, o: &[&str]| {
                serde_json::from_value::<meta::SolverAnswer>(serde_json::json!({
                    "solver": solver, "version": null, "outcomes": o, "stdout_excerpt": "",
                    "stderr_excerpt": "", "seconds": 0.1
                }))
                .unwrap()
            };
            Meta {
                kind: BugKind::Soundness,
                blame_by: BlameBy::SelfContradiction,
                signature: "sat to check-sat, unsat to check-sat-using euf-completion".into(),
                answers: vec![answer("z3-4.8.7", &["sat", "unsat"]), answer("cvc5", &[other, other])],
                ..meta("ALL", "-", 0.0)
            }
        };
        assert!(
            key(&contradiction("sat"), both).contains("|caveat|euf-completion|"),
            "{}",
            key(&contradiction("sat"), both)
        );
        assert!(key(&contradiction("unknown"), both).contains("|caveat|euf-completion|"));
        assert!(!key(&contradiction("unsat"), both).contains("|caveat|"));
        let off = "(set-option :smt.sls.enable false)\n(declare-fun x () Int)\n(check-sat)\n";
        assert!(!key(&im, off).contains("|caveat|"), "{}", key(&im, off));
        assert!(key(&im, &off.replace("false", "true")).contains("|caveat|sls|"));
        // A crash under a tactic nobody disowns keeps its crash site.
        assert_ne!(
            key(&site("ASSERTION VIOLATION ast.cpp:375"), "(assert true)\n(check-sat-using bv1-blast)\n"),
            key(&site("ASSERTION VIOLATION ast.cpp:376"), "(assert true)\n(check-sat-using bv1-blast)\n")
        );
    }

    /// Issue 39: findings whose reductions are one shape are one cause, whatever their
    /// declared logic and fixed-in release; the others move under the survivor's
    /// `instances/`, and a merged bug found again is a duplicate of the survivor.
    #[test]
    fn findings_of_one_shape_are_merged_once_and_stay_merged() {
        let out = tempfile::tempdir().unwrap();
        let out = out.path();
        let mut st = Store::open(out).unwrap();
        let dir = |r: Recorded| match r {
            Recorded::New(d) => d,
            Recorded::Duplicate(d) => panic!("stored as a duplicate of {}", d.display()),
        };
        // The same bug from a QF_SLIA and an ALL seed (declared logics differ), found
        // again with another fixed-in release, and a different reduction.
        let a = dir(st.record(meta("QF_SLIA", "4.8.9", 1.0), "(set-logic QF_SLIA)").unwrap());
        let b = dir(st.record(meta("ALL", "4.8.9", 2.0), "(set-logic ALL)").unwrap());
        let c = dir(st.record(meta("QF_S", "4.8.8", 3.0), "(set-logic QF_S)").unwrap());
        let d = dir(st.record(meta("QF_LIA", "4.8.9", 4.0), "(set-logic QF_LIA)").unwrap());
        std::fs::write(a.join("reduced.smt2"), "(declare-const s String)\n(assert (str.<= s s))\n(check-sat)\n")
            .unwrap();
        std::fs::write(b.join("reduced.smt2"), "(declare-const t String)\n(assert (str.<= t t))\n(check-sat)\n")
            .unwrap();
        std::fs::write(
            c.join("reduced.smt2"),
            "(set-logic QF_S)\n(declare-const u String)\n(assert (str.<= u u))\n(check-sat)\n",
        )
        .unwrap();
        std::fs::write(
            d.join("reduced.smt2"),
            "; smtstorm-witness: ((x 1))\n(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n",
        )
        .unwrap();
        assert_eq!(st.regroup(&[]), vec![(a.clone(), b.clone()), (a.clone(), c.clone())]);
        assert_eq!(st.counts(), (2, 0));
        assert!(!b.exists() && !c.exists());
        assert!(identity::instance_dir(&a, &b.file_name().unwrap().to_string_lossy()).join("trigger.smt2").is_file());
        let kept: Meta = serde_json::from_slice(&std::fs::read(a.join("meta.json")).unwrap()).unwrap();
        assert_eq!((kept.duplicates, kept.merged_keys.len(), kept.cause.instances.len()), (2, 2, 2));
        assert_eq!(kept.cause.family.as_deref(), Some("z3"));
        // Nothing left to merge; the merged bugs found again are duplicates of the
        // survivor, also after the store is reopened.
        assert!(st.regroup(&[]).is_empty());
        assert_eq!(st.record(meta("ALL", "4.8.9", 5.0), "x").unwrap(), Recorded::Duplicate(a.clone()));
        let mut again = Store::open(out).unwrap();
        assert_eq!(again.record(meta("QF_S", "4.8.8", 6.0), "x").unwrap(), Recorded::Duplicate(a.clone()));
        let kept: Meta = serde_json::from_slice(&std::fs::read(a.join("meta.json")).unwrap()).unwrap();
        assert_eq!((kept.duplicates, kept.merged_keys.len()), (4, 2));
    }

    /// Issue 39: a finding whose reduction never came is still regrouped where its
    /// identity needs no reduced shape: two invalid models under `smtfd` (a component
    /// z3's maintainers triage as one, #6002) from two seeds and logics merge, the reduced
    /// one kept; two unreduced wrong answers stay apart (their shapes are only their
    /// triggers').
    #[test]
    fn unreduced_findings_merge_by_a_shapeless_identity_and_nothing_else() {
        let out = tempfile::tempdir().unwrap();
        let out = out.path();
        let mut st = Store::open(out).unwrap();
        let new = |r: Recorded| match r {
            Recorded::New(d) => d,
            Recorded::Duplicate(d) => panic!("stored as a duplicate of {}", d.display()),
        };
        let smtfd = |logic: &str, seed: &str| Meta { seed_hash: seed.into(), fixed_in: None, ..meta(logic, "-", 1.0) };
        let under = "(declare-fun f (Int) Int)\n(assert (= 0 (f 0)))\n(check-sat-using smtfd)\n";
        let a = new(st.record(smtfd("QF_UFLIA", "s1"), &format!("{under}; first seed, a long trigger")).unwrap());
        let b = new(st.record(smtfd("QF_AUFLIA", "s2"), under).unwrap());
        std::fs::write(a.join("reduced.smt2"), under).unwrap();
        let wrong = |seed: &str| Meta {
            kind: BugKind::Soundness,
            blame_by: BlameBy::Majority,
            signature: "sat vs unsat".into(),
            seed_hash: seed.into(),
            ..meta("ALL", "-", 2.0)
        };
        new(st.record(wrong("s3"), "(check-sat) ; w1").unwrap());
        new(st.record(wrong("s4"), "(check-sat) ; w2").unwrap());
        assert_eq!(st.regroup(&[]), vec![(a.clone(), b.clone())]);
        assert_eq!(Store::list_in(out).len(), 3);
        let kept: Meta = serde_json::from_slice(&std::fs::read(a.join("meta.json")).unwrap()).unwrap();
        assert_eq!(kept.cause.instances.len(), 1);
        assert!(kept.cause.key.as_deref().is_some_and(|k| k.contains("|caveat|smtfd|")), "{:?}", kept.cause.key);
    }

    /// Issue 21, item 7: a smaller duplicate takes the trigger's place together with its
    /// reduction's (removed, to be derived anew), and a finding whose meta.json does not
    /// read is quarantined on open, never skipped and later overwritten.
    #[test]
    fn smaller_duplicates_drop_stale_reductions_and_unreadable_findings_are_quarantined() {
        let out = tempfile::tempdir().unwrap();
        let out = out.path();
        let mut st = Store::open(out).unwrap();
        let Recorded::New(dir) = st.record(meta("QF_LIA", "4.8.9", 1.0), "(check-sat) ; a long trigger").unwrap()
        else {
            panic!("new")
        };
        std::fs::write(dir.join("reduced.smt2"), "(check-sat) ; reduced from the long one").unwrap();
        let mut m: Meta = serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
        m.reduction = Some(reduction::Report { original_bytes: 28, reduced_bytes: 40, ..Default::default() });
        write_atomic(&dir.join("meta.json"), &serde_json::to_vec_pretty(&m).unwrap()).unwrap();
        // A larger duplicate changes nothing but the count.
        st.record(meta("QF_LIA", "4.8.9", 2.0), "(check-sat) ; an even longer trigger").unwrap();
        assert!(dir.join("reduced.smt2").exists());
        // A smaller one replaces the trigger; the old reduction goes with it.
        assert_eq!(st.record(meta("QF_LIA", "4.8.9", 3.0), "(check-sat)").unwrap(), Recorded::Duplicate(dir.clone()));
        let now: Meta = serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
        assert_eq!((now.trigger_bytes, now.duplicates, now.reduction.is_none()), (11, 2, true));
        assert!(!dir.join("reduced.smt2").exists());
        assert_eq!(std::fs::read_to_string(dir.join("trigger.smt2")).unwrap(), "(check-sat)");
        // A torn meta.json: moved away whole on the next open, said, not indexed.
        std::fs::write(dir.join("meta.json"), "{\"id\": \"trunc").unwrap();
        let mut st = Store::open(out).unwrap();
        assert_eq!(st.quarantined().len(), 1);
        let (from, to) = st.quarantined()[0].clone();
        assert_eq!(from, dir);
        assert!(to.starts_with(out.join("quarantine")) && to.join("trigger.smt2").is_file());
        assert!(!dir.exists());
        assert_eq!(st.counts(), (0, 0));
        // Found again, it is stored anew beside the quarantined copy.
        assert!(matches!(st.record(meta("QF_LIA", "4.8.9", 4.0), "(check-sat)").unwrap(), Recorded::New(_)));
        assert!(to.join("meta.json").is_file());
    }

    /// Issue 42: regression mode's mark (not the build's bug) stays on a finding found
    /// again only if every instance has it; a smaller duplicate's meta must not bring a
    /// mark in, nor drop the build's instance's lack of one.
    #[test]
    fn a_baseline_mark_stays_only_while_every_instance_has_it() {
        let out = tempfile::tempdir().unwrap();
        let mut st = Store::open(out.path()).unwrap();
        let mark = known::baseline_mark("the baseline gives the same answers (z3-5.4.0)");
        let with = |k: Option<&str>, t: f64| Meta { known: k.map(String::from), ..meta("QF_LIA", "-", t) };
        let read = |d: &Path| serde_json::from_slice::<Meta>(&std::fs::read(d.join("meta.json")).unwrap()).unwrap();
        let Recorded::New(dir) = st.record(with(None, 1.0), "(check-sat) ; the build's, long").unwrap() else {
            panic!("new")
        };
        // A smaller marked duplicate replaces the meta: the build's instance keeps it unmarked.
        st.record(with(Some(&mark), 2.0), "(check-sat) ; shorter").unwrap();
        assert_eq!(read(&dir).trigger_bytes, "(check-sat) ; shorter".len(), "the smaller one replaced it");
        assert_eq!(read(&dir).known, None);
        // Marked on both sides: the mark stays (a second store, every instance marked).
        let out2 = tempfile::tempdir().unwrap();
        let mut st2 = Store::open(out2.path()).unwrap();
        let Recorded::New(d2) = st2.record(with(Some(&mark), 1.0), "(check-sat) ; long one").unwrap() else {
            panic!("new")
        };
        st2.record(with(Some(&mark), 2.0), "(check-sat)").unwrap();
        assert_eq!(read(&d2).known.as_deref(), Some(mark.as_str()));
        // An unmarked (the build's) instance clears it, smaller or not.
        st2.record(with(None, 3.0), "(check-sat) ; a longer trigger than stored").unwrap();
        assert_eq!(read(&d2).known, None);
        // A `--known` listing is kept as before (the kept meta's).
        let out3 = tempfile::tempdir().unwrap();
        let mut st3 = Store::open(out3.path()).unwrap();
        let Recorded::New(d3) = st3.record(with(Some("known.txt:1"), 1.0), "(check-sat) ; long one").unwrap() else {
            panic!("new")
        };
        st3.record(with(Some(&mark), 2.0), "(check-sat)").unwrap();
        assert_eq!(read(&d3).known.as_deref(), Some("known.txt:1"));
    }
}
