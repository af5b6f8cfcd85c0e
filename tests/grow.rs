//! Issue 41: the campaign's corpus grows. `smtstorm fuzz` keeps mutants on which a real
//! solver (z3 5.4.0, yices) showed behaviour not seen before as seeds in `OUT/corpus/`,
//! within `--grow N`; a resumed run (also after `kill -9`) reads them back, minimised, and
//! gives them turns; `--grow 0` grows nothing; one worker with a fixed `--seed` grows the
//! same corpus twice.

mod common;

use common::{repo, smtstorm, spawn_quiet, tempdir};
use serde_json::Value;
use smtstorm::store::corpus;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SEEDS: [&str; 3] = ["lia_div_mod.smt2", "bv_signed.smt2", "lra_strict.smt2"];

fn seeds(dir: &Path, names: &[&str]) -> PathBuf {
    let s = dir.join("seeds");
    std::fs::create_dir_all(&s).unwrap();
    for n in names {
        std::fs::copy(repo().join("corpus").join(n), s.join(n)).unwrap();
    }
    s
}

/// `smtstorm fuzz SEEDS --solver z3-5.4.0 --solver yices ARGS.. --workers 1`: the exit
/// status must be 0 or 10 (found something); returns stderr.
fn fuzz(seeds: &Path, out: &Path, args: &[&str]) -> String {
    let mut argv = vec!["fuzz", seeds.to_str().unwrap(), "--solver", "z3-5.4.0", "--solver", "yices"];
    argv.extend_from_slice(args);
    argv.extend_from_slice(&["--workers", "1", "--reduce", "0", "--out", out.to_str().unwrap(), "--quiet"]);
    let (code, _, err) = smtstorm(&argv);
    assert!(code == 0 || code == 10, "exit {code}: {err}");
    err
}

/// The last stats line: the end of the latest run.
fn stats(out: &Path) -> Value {
    let text = std::fs::read_to_string(out.join("stats.jsonl")).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

/// Events of the latest run (from its `start`).
fn last_run_events(out: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(out.join("events.jsonl")).unwrap();
    let all: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let start = all.iter().rposition(|e| e["event"] == "start").unwrap();
    all[start..].to_vec()
}

fn hashes(out: &Path) -> BTreeSet<String> {
    corpus::read(out).into_iter().map(|(r, _)| r.hash).collect()
}

/// A short campaign grows the corpus within its bound; every grown seed is whole (its
/// script hashes to its name) and names its parent, engine and original seed; a resumed
/// run reads them back, minimised, and gives them turns; the bound holds again.
#[test]
fn the_corpus_grows_within_its_bound_and_a_resumed_run_fuzzes_it() {
    let dir = tempdir("grow-resume");
    let s = seeds(&dir, &SEEDS);
    let out = dir.join("out");
    let err = fuzz(&s, &out, &["--mutants", "160", "--seed", "7", "--grow", "6"]);
    let grown = corpus::read(&out);
    let st = stats(&out);
    assert!(!grown.is_empty() && grown.len() <= 6, "{} grown: {st} {err}", grown.len());
    assert!(st["seeds_grown"].as_u64().unwrap() >= grown.len() as u64, "{st}");
    assert!(st["features"].as_u64().unwrap() > 0, "{st}");
    let known: BTreeSet<String> = SEEDS.iter().map(|n| s.join(n).display().to_string()).collect();
    let mut hashes_seen: BTreeSet<String> =
        SEEDS.iter().map(|n| smtstorm::store::seed_hash(&std::fs::read_to_string(s.join(n)).unwrap())).collect();
    // Every seed grown in the run (some retired since for a smaller one).
    hashes_seen.extend(
        last_run_events(&out)
            .iter()
            .filter(|e| e["event"] == "seed-grown")
            .map(|e| Path::new(e["seed"].as_str().unwrap()).file_stem().unwrap().to_string_lossy().into_owned()),
    );
    for (rec, path) in &grown {
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(smtstorm::store::seed_hash(&text), rec.hash, "{}", path.display());
        assert_eq!(rec.bytes, text.len());
        assert!(smtstorm::smtlib::parse(&text).is_ok(), "{}", path.display());
        assert!(known.contains(&rec.lineage.origin_seed), "{:?}", rec.lineage);
        assert!(hashes_seen.contains(&rec.lineage.parent_hash), "{:?}", rec.lineage);
        assert!(!rec.features.is_empty() && !rec.edits.is_empty(), "{rec:?}");
    }
    let grew = last_run_events(&out).iter().filter(|e| e["event"] == "seed-grown").count() as u64;
    assert_eq!(grew, st["seeds_grown"].as_u64().unwrap());

    // Resumed: the stored seeds are read back (minimised) and get fuzzing turns.
    let err = fuzz(&s, &out, &["--mutants", "160", "--grow", "6"]);
    let events = last_run_events(&out);
    let minimised = events.iter().find(|e| e["event"] == "corpus-minimised").unwrap_or_else(|| panic!("{err}"));
    assert!(minimised["kept"].as_u64().unwrap() >= 1, "{minimised}");
    let st = stats(&out);
    assert!(st["grown_turns"].as_u64().unwrap() > 0, "{st}");
    let after = corpus::read(&out);
    assert!(!after.is_empty() && after.len() <= 6, "{}", after.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--grow 0`: nothing grows, nothing is counted, no grown seed gets a turn.
#[test]
fn grow_zero_grows_nothing() {
    let dir = tempdir("grow-off");
    let s = seeds(&dir, &SEEDS);
    let out = dir.join("out");
    fuzz(&s, &out, &["--mutants", "120", "--seed", "7", "--grow", "0"]);
    let st = stats(&out);
    assert!(st["mutants"].as_u64().unwrap() > 0, "{st}");
    assert_eq!((st["seeds_grown"].as_u64(), st["grown_turns"].as_u64()), (Some(0), Some(0)), "{st}");
    assert!(corpus::read(&out).is_empty());
    assert!(!last_run_events(&out).iter().any(|e| e["event"] == "seed-grown"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// One worker, one seed, a fixed `--seed` and `--mutants`: the same corpus grows twice
/// (features are answers and time by the decade; grown seeds' draws are keyed by their
/// content; their turns come in a fixed rotation).
#[test]
fn a_fixed_seed_grows_the_same_corpus_twice() {
    let dir = tempdir("grow-repro");
    let s = seeds(&dir, &["lia_div_mod.smt2"]);
    let runs: Vec<(BTreeSet<String>, u64)> = ["a", "b"]
        .iter()
        .map(|r| {
            let out = dir.join(r);
            fuzz(&s, &out, &["--mutants", "96", "--seed", "7", "--grow", "64"]);
            (hashes(&out), stats(&out)["timeouts"].as_u64().unwrap_or(u64::MAX))
        })
        .collect();
    assert!(!runs[0].0.is_empty() && !runs[1].0.is_empty(), "nothing grew");
    // A mutant that ran into its limit is not clean and does not grow: under a load spike
    // the two runs may see different timeouts, and then their corpora may differ. The
    // mutants themselves are the same (tests/mutator.rs pins them).
    if runs[0].1 == 0 && runs[1].1 == 0 {
        assert_eq!(runs[0].0, runs[1].0);
    } else {
        eprintln!("timeouts {} and {}: the corpora are not compared", runs[0].1, runs[1].1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A campaign killed with `kill -9` while it grows leaves every grown seed whole, and the
/// resumed run reads them all back.
#[test]
fn grown_seeds_survive_kill_9() {
    let dir = tempdir("grow-kill");
    let s = seeds(&dir, &SEEDS);
    let out = dir.join("out");
    let (seeds_arg, out_arg) = (s.to_str().unwrap(), out.to_str().unwrap());
    let mut child = spawn_quiet(&[
        "fuzz",
        seeds_arg,
        "--solver",
        "z3-5.4.0",
        "--solver",
        "yices",
        "--seed",
        "7",
        "--grow",
        "64",
        "--time",
        "60",
        "--workers",
        "1",
        "--reduce",
        "0",
        "--out",
        out_arg,
        "--quiet",
    ]);
    let t0 = Instant::now();
    while corpus::read(&out).len() < 3 {
        assert!(t0.elapsed() < Duration::from_secs(50), "fewer than 3 seeds grew in 50 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL: no clean-up runs
    child.wait().unwrap();
    let stored = hashes(&out);
    for (rec, path) in corpus::read(&out) {
        assert_eq!(smtstorm::store::seed_hash(&std::fs::read_to_string(path).unwrap()), rec.hash);
    }
    fuzz(&s, &out, &["--mutants", "16"]);
    let events = last_run_events(&out);
    let minimised = events.iter().find(|e| e["event"] == "corpus-minimised").expect("the corpus read back");
    let read = minimised["kept"].as_u64().unwrap() + minimised["dropped"].as_u64().unwrap();
    assert_eq!(read, stored.len() as u64, "{minimised}");
    let _ = std::fs::remove_dir_all(&dir);
}
