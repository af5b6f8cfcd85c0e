//! Issue 38: the store owns its files. An old store (`tests/fixtures/store-0957fee`) reads
//! through the typed records with its typed fields filled in and its ids kept; a
//! finding's files are read and written only through `store::FindingDir`, atomically and
//! never through a symbolic link; and no file name of the store is spelled outside
//! `src/store/`.

mod common;

use common::{repo, smtstorm, tempdir};
use smtstorm::mutate::edit::Edit;
use smtstorm::mutate::Engine;
use smtstorm::oracle::BugKind;
use smtstorm::solver::Outcome;
use smtstorm::store::{self, layout, CampaignFile, FindingDir, Origin, Recorded, Store};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const SOUNDNESS: &str = "bugs/soundness/5c1d0e7f3a2b";
const SEED_CRASH: &str = "seed-findings/crash/0a1b2c3d4e5f";

/// A copy of the old store (the fixture itself is never written).
fn old_store(name: &str) -> PathBuf {
    let out = tempdir(name);
    for rel in [SOUNDNESS, SEED_CRASH] {
        let (from, to) = (repo().join("tests/fixtures/store-0957fee").join(rel), out.join(rel));
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(&from).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
    out
}

/// The fixture's typed fields come back as what they say, not as defaults: the origin
/// from `engine`, every outcome from its text, the edits (in the old spelling of a STORM
/// instance) as a `Recombine`; and the ids are the directories' names.
#[test]
fn an_old_store_reads_through_the_typed_records() {
    let out = old_store("store-files-typed");
    let found = Store::list_in(&out);
    assert_eq!(found.len(), 2);
    let by_id = |id: &str| found.iter().find(|(_, m)| m.id == id).unwrap_or_else(|| panic!("no finding {id}"));
    for (path, m) in &found {
        let dir = FindingDir::of_meta(path).unwrap();
        assert_eq!(dir.path().file_name().unwrap().to_str(), Some(m.id.as_str()), "the id is the directory");
        assert_eq!(dir.store_root(), Some(out.as_path()));
    }

    let (_, s) = by_id("5c1d0e7f3a2b");
    assert_eq!(s.kind, BugKind::Soundness);
    assert_eq!(s.origin, Origin::Engine(Engine::Storm));
    assert_eq!(s.origin, Engine::Storm);
    let outcomes: Vec<(&str, &[Outcome])> = s.answers.iter().map(|a| (a.solver.as_str(), &a.outcomes[..])).collect();
    assert_eq!(outcomes, vec![("z3-4.8.7", &[Outcome::Unsat][..]), ("z3-5.4.0", &[Outcome::Sat][..])]);
    assert_eq!(s.edits, vec![Edit::Recombine { assertions: vec!["(> x 0)".into()], blocks: vec![], tactic: None }]);
    assert_eq!(s.storm_tactic(), None);

    let (_, c) = by_id("0a1b2c3d4e5f");
    assert_eq!((c.kind, c.seed_finding), (BugKind::Crash, true));
    assert_eq!(c.origin, Origin::Engine(Engine::OpFuzz));
    assert!(c.edits.is_empty(), "`null` is no edits");
    assert_eq!(c.merged_keys, vec!["seed|crash|yices|SIGABRT".to_string()]);

    // Opened, the store keeps every id: the same bugs found again are duplicates of the
    // old directories, whatever the new meta says of its origin and edits.
    let mut st = Store::open(&out).unwrap();
    assert_eq!(st.counts(), (1, 1));
    for (path, m) in &found {
        let again = store::Meta { origin: Origin::Triage, edits: vec![], ..m.clone() };
        let dir = FindingDir::of_meta(path).unwrap();
        let longer = format!("(check-sat)\n{}", ";".repeat(200));
        assert_eq!(st.record(again, &longer).unwrap(), Recorded::Duplicate(dir.path().to_path_buf()));
    }
    // The duplicate counts went up in place; the typed fields were written back in the old
    // shape and read again.
    let after = Store::list_in(&out);
    let ids: Vec<&str> = after.iter().map(|(_, m)| m.id.as_str()).collect();
    assert_eq!(ids, vec!["0a1b2c3d4e5f", "5c1d0e7f3a2b"]);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join(SOUNDNESS).join(layout::META)).unwrap()).unwrap();
    assert_eq!(json["engine"], "storm", "origin is stored as the engine's name");
    assert_eq!(json["answers"][0]["outcomes"], serde_json::json!(["unsat"]));
    assert_eq!(json["edits"][0]["edit"], "recombine");
    assert_eq!(json["duplicates"], 3);
}

/// `smtstorm merge` of the old store into a new one keeps its ids and typed fields.
#[test]
fn merging_an_old_store_keeps_its_ids() {
    let src = old_store("store-files-merge-src");
    let out = tempdir("store-files-merge-out");
    let (code, stdout, stderr) = smtstorm(&["merge", out.to_str().unwrap(), src.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("2 new"), "{stdout}");
    for rel in [SOUNDNESS, SEED_CRASH] {
        let f = FindingDir::new(out.join(rel));
        let m = f.read_meta().unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert_eq!(f.read_trigger().unwrap(), FindingDir::new(src.join(rel)).read_trigger().unwrap());
        assert_eq!(m.merged_from.len(), 1, "{rel}");
        assert_ne!(m.origin, Origin::Other(String::new()));
    }
    assert_eq!(FindingDir::new(out.join(SOUNDNESS)).read_meta().unwrap().origin, Engine::Storm);
}

/// A finding's files: written atomically with mode 0644, never through a symbolic link
/// planted at their name, and read back as written; a missing reduction removes cleanly.
#[test]
fn finding_files_are_written_in_place_never_through_a_link() {
    let out = old_store("store-files-links");
    let f = FindingDir::new(out.join(SOUNDNESS));
    let mut m = f.read_meta().unwrap();
    // A link where meta.json and reduced.smt2 go, pointing outside the store.
    let victim = out.join("victim.txt");
    std::fs::write(&victim, "not the store's").unwrap();
    std::fs::remove_file(f.meta_path()).unwrap();
    std::os::unix::fs::symlink(&victim, f.meta_path()).unwrap();
    std::os::unix::fs::symlink(&victim, f.reduced_path()).unwrap();
    m.duplicates = 7;
    f.write_meta(&m).unwrap();
    f.write_reduced(b"(check-sat)\n").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "not the store's");
    for p in [f.meta_path(), f.reduced_path()] {
        let md = std::fs::symlink_metadata(&p).unwrap();
        assert!(md.file_type().is_file(), "{}", p.display());
        assert_eq!(md.permissions().mode() & 0o777, 0o644, "{}", p.display());
    }
    assert_eq!(f.read_meta().unwrap().duplicates, 7);
    assert_eq!(f.best_input(), (layout::REDUCED, "(check-sat)\n".to_string()));
    f.remove_reduced().unwrap();
    f.remove_reduced().unwrap();
    assert_eq!(f.best_input().0, layout::TRIGGER);
    let (name, path) = f.repro("z3 -smt2");
    assert_eq!(f.write_repro("z3 -smt2", "(check-sat)\n").unwrap(), name);
    assert!(path.starts_with(f.path()) && path.is_file(), "{}", path.display());
}

/// `campaign.json`: none is `None`, a torn one an error naming the file (never taken for
/// none: a campaign would start over at run 1), a written one reads back.
#[test]
fn the_campaign_file_reads_one_way_everywhere() {
    let out = tempdir("store-files-campaign");
    assert!(CampaignFile::read(&out).unwrap().is_none());
    let cf =
        CampaignFile { config: Default::default(), solvers: vec![], runs: 3, first_start_unix: 9, elapsed_before: 1.5 };
    cf.write(&out).unwrap();
    let back = CampaignFile::read(&out).unwrap().unwrap();
    assert_eq!((back.runs, back.first_start_unix), (3, 9));
    std::fs::write(layout::campaign(&out), "{\"config\": ").unwrap();
    let e = CampaignFile::read(&out).unwrap_err();
    assert!(matches!(e, store::StoreFileError::Json { .. }), "{e}");
    assert!(e.to_string().contains(&layout::campaign(&out).display().to_string()), "{e}");
    // A finding reaches its store's campaign file from its own directory.
    let f = FindingDir::new(out.join("bugs/crash/abc"));
    assert_eq!(f.store_root(), Some(out.as_path()));
    assert_eq!(store::store_root_of(Path::new("elsewhere/abc")), None);
}

/// One content hash for seeds: BanditFuzz's findings and campaigns' use the same one.
#[test]
fn seeds_have_one_content_hash() {
    let h = store::seed_hash("(check-sat)\n");
    assert_eq!(h.len(), 16);
    assert!(h.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(h, smtstorm::util::hash::short_hash("(check-sat)\n"));
    assert_ne!(h, store::seed_hash("(check-sat)"));
}

/// The file names a store is made of are spelled in `src/store/` only (as string
/// literals: a message may name a file in its prose), and no finding finds its store by
/// counting ancestors.
#[test]
fn no_file_name_of_the_store_is_spelled_outside_the_store() {
    let names = [
        "meta.json",
        "trigger.smt2",
        "reduced.smt2",
        "minimized.smt2",
        "campaign.json",
        "bandit.json",
        "events.jsonl",
        "stats.jsonl",
        "report.md",
        "report.html",
        "triage.json",
        "bench.smt2",
        "timings.jsonl",
        "decisions.jsonl",
        "agents.json",
        "summary.json",
        "cactus.svg",
        "bugs",
        "seed-findings",
        "quarantine",
        "scratch",
        "repro",
        "perf",
        "tmp",
    ];
    let mut files = 0;
    let mut found = vec![];
    let mut stack = vec![repo().join("src")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p != repo().join("src/store") {
                    stack.push(p);
                }
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&p).unwrap();
            for (n, line) in text.lines().enumerate() {
                let spelled = names.iter().find(|f| {
                    line.contains(&format!("join(\"{f}\")")) || line.contains(&format!("\"{f}\"")) && f.contains('.')
                });
                if spelled.is_some() || line.contains("ancestors().nth(") {
                    found.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(files > 100, "only {files} source files read");
    assert!(found.is_empty(), "store file names outside src/store/:\n{}", found.join("\n"));
}
