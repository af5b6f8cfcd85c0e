//! `OUT/corpus/`: the seeds a campaign grew. A mutant on which a solver showed behaviour
//! the campaign had not seen ([`crate::solver::behaviour`]) is kept as a seed of its own,
//! so that it is mutated again, as AFL keeps an input that hits a new edge in its queue
//! (Zalewski, AFL "technical details", §2) and libFuzzer one with a new feature in its
//! corpus.
//!
//! Each grown seed is two files: `<hash>.smt2`, its script, and `<hash>.json`, its
//! [`GrownSeed`] record, written in that order and each atomically: the record is the
//! commit, so a campaign killed at any instant (`kill -9`) leaves a seed whole or a
//! script without a record, which [`read`] removes.
//!
//! The corpus is kept small by minimisation, as `libFuzzer -merge=1` keeps the inputs
//! that together have every feature of a corpus (LibAFL's `MinimizerScheduler` likewise
//! favours, per feature, the smallest input that has it): [`minimise`] picks seeds
//! greedily by new features per byte, and a seed whose features a smaller one has too
//! is [`redundant`].

use crate::mutate::edit::Edit;
use crate::mutate::Engine;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Where a grown seed came from: the seed it is a mutant of, and the user's seed at the
/// root of its line (the same as `parent_hash` for a seed grown from the suite).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lineage {
    pub parent_hash: String,
    /// The engine whose mutant of the parent it is.
    pub engine: Engine,
    /// The original seed's path, as the campaign was given it, and its hash.
    pub origin_seed: String,
    pub origin_hash: String,
}

/// A grown seed's record (`<hash>.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GrownSeed {
    /// [`super::seed_hash`] of its script: its file names.
    pub hash: String,
    pub lineage: Lineage,
    /// The edits that made it from its parent.
    pub edits: Vec<Edit>,
    /// Its behaviour features ([`crate::solver::behaviour`]), sorted.
    pub features: Vec<u64>,
    /// Its script's length in bytes.
    pub bytes: usize,
    /// The campaign run that grew it.
    pub run: u32,
}

/// Writes a grown seed: its script, then its record (the commit). Returns the script's
/// path.
pub fn write(out: &Path, rec: &GrownSeed, text: &str) -> std::io::Result<PathBuf> {
    let seed = super::layout::corpus_seed(out, &crate::util::fs::safe_name(&rec.hash));
    crate::util::fs::write_atomic(&seed, text.as_bytes())?;
    let json = serde_json::to_vec_pretty(rec).map_err(std::io::Error::other)?;
    crate::util::fs::write_atomic(&super::layout::corpus_record(out, &crate::util::fs::safe_name(&rec.hash)), &json)?;
    Ok(seed)
}

/// The grown seeds of the store at `out`, by hash, each with its script's path. A script
/// without a record (a run killed between the two writes) is removed; a record that does
/// not read, or whose script is gone, is skipped.
pub fn read(out: &Path) -> Vec<(GrownSeed, PathBuf)> {
    let Ok(dir) = std::fs::read_dir(super::layout::corpus(out)) else { return vec![] };
    let mut found = vec![];
    let mut scripts = vec![];
    for e in dir.flatten() {
        let p = e.path();
        match p.extension().and_then(|x| x.to_str()) {
            Some("json") => {
                let Ok(rec) = super::layout::read_json::<GrownSeed>(&p) else { continue };
                let seed = super::layout::corpus_seed(out, &crate::util::fs::safe_name(&rec.hash));
                if seed.is_file() {
                    found.push((rec, seed));
                }
            }
            Some("smt2") => scripts.push(p),
            _ => {}
        }
    }
    for s in scripts {
        if !found.iter().any(|(_, p)| *p == s) {
            let _ = std::fs::remove_file(s);
        }
    }
    found.sort_by(|a, b| a.0.hash.cmp(&b.0.hash));
    found
}

/// Removes a grown seed: its record first, so a kill in between leaves a script
/// [`read`] removes.
pub fn remove(out: &Path, hash: &str) {
    let name = crate::util::fs::safe_name(hash);
    let _ = std::fs::remove_file(super::layout::corpus_record(out, &name));
    let _ = std::fs::remove_file(super::layout::corpus_seed(out, &name));
}

/// The seeds to keep of `seeds` (features, bytes), at most `bound`, in the order picked:
/// greedy set cover by features per byte (libFuzzer's `-merge=1` keeps, input by input,
/// those that add a feature; picking by features per byte first keeps the small ones, as
/// its inputs sorted by size do). A seed that adds no feature to those picked before it
/// is not kept. Ties go to the smaller seed, then the earlier one: the choice is a
/// function of its input.
pub fn minimise(seeds: &[(&[u64], usize)], bound: usize) -> Vec<usize> {
    let mut covered: HashSet<u64> = HashSet::new();
    let mut picked = vec![];
    let mut left: Vec<usize> = (0..seeds.len()).collect();
    while picked.len() < bound {
        let new = |i: usize| seeds[i].0.iter().collect::<HashSet<_>>().iter().filter(|f| !covered.contains(f)).count();
        let best = left.iter().copied().map(|i| (i, new(i))).filter(|&(_, n)| n > 0).max_by(|&(a, na), &(b, nb)| {
            let (ra, rb) = (na as f64 / seeds[a].1.max(1) as f64, nb as f64 / seeds[b].1.max(1) as f64);
            ra.total_cmp(&rb).then(seeds[b].1.cmp(&seeds[a].1)).then(b.cmp(&a))
        });
        let Some((i, _)) = best else { break };
        covered.extend(seeds[i].0.iter().copied());
        picked.push(i);
        left.retain(|&j| j != i);
    }
    picked
}

/// Whether a kept seed of `features` and `bytes` is made redundant by a newer one: every
/// feature it has, the newer one has too, and the newer one is no larger (libFuzzer's
/// `-reduce_inputs`: an input is replaced by a smaller one with the same features).
pub fn redundant(features: &[u64], bytes: usize, newer: &[u64], newer_bytes: usize) -> bool {
    newer_bytes <= bytes && features.iter().all(|f| newer.contains(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seed whose features smaller seeds already cover is dropped; the bound is held;
    /// the same input makes the same choice.
    #[test]
    fn minimise_keeps_the_fewest_bytes_that_cover_every_feature() {
        let a: &[u64] = &[1, 2, 3];
        let b: &[u64] = &[1, 2];
        let c: &[u64] = &[3, 4];
        let d: &[u64] = &[4];
        let seeds = [(a, 300), (b, 20), (c, 30), (d, 5)];
        let kept = minimise(&seeds, 10);
        // d (0.2 features a byte), b (0.1), then c adds 3: a adds nothing.
        assert_eq!(kept, vec![3, 1, 2]);
        assert_eq!(minimise(&seeds, 2), vec![3, 1]);
        assert_eq!(minimise(&seeds, 0), Vec::<usize>::new());
        assert!(minimise(&[(&[][..], 10)], 5).is_empty(), "a seed with no feature is never kept");
        assert!(redundant(b, 20, a, 20) && !redundant(b, 20, a, 21) && !redundant(c, 30, a, 10));
    }

    /// On random corpora: the kept seeds cover every feature of the whole (unbounded),
    /// each adds a feature to those picked before it, the bound holds, and the same input
    /// gives the same choice. Counts the seeds it dropped, so that it fails if it never
    /// exercised a redundant one.
    #[test]
    fn minimise_covers_everything_with_no_redundant_seed() {
        let mut rng = crate::mutate::choice::Rng::new(41);
        let (mut cases, mut dropped) = (0, 0);
        for _ in 0..300 {
            let n = 1 + (rng.next_u64() % 12) as usize;
            let seeds: Vec<(Vec<u64>, usize)> = (0..n)
                .map(|_| {
                    let k = (rng.next_u64() % 5) as usize;
                    ((0..k).map(|_| rng.next_u64() % 16).collect(), 1 + (rng.next_u64() % 100) as usize)
                })
                .collect();
            let view: Vec<(&[u64], usize)> = seeds.iter().map(|(f, b)| (&f[..], *b)).collect();
            let kept = minimise(&view, usize::MAX);
            assert_eq!(kept, minimise(&view, usize::MAX));
            let all: HashSet<u64> = seeds.iter().flat_map(|(f, _)| f.iter().copied()).collect();
            let mut covered = HashSet::new();
            for &i in &kept {
                assert!(seeds[i].0.iter().any(|f| !covered.contains(f)), "{i} adds nothing: {seeds:?}");
                covered.extend(seeds[i].0.iter().copied());
            }
            assert_eq!(covered, all, "{seeds:?}");
            let bound = (rng.next_u64() % 4) as usize;
            assert!(minimise(&view, bound).len() <= bound);
            assert_eq!(minimise(&view, bound)[..], kept[..kept.len().min(bound)]);
            cases += 1;
            dropped += n - kept.len();
        }
        assert!(cases == 300 && dropped > 50, "{dropped} seeds dropped in {cases} corpora");
    }

    /// Written seeds read back whole; a script left without its record is removed, and a
    /// removed seed is gone.
    #[test]
    fn grown_seeds_survive_and_half_written_ones_are_cleared() {
        let out = tempfile::tempdir().unwrap();
        let rec = |h: &str| GrownSeed {
            hash: h.into(),
            lineage: Lineage {
                parent_hash: "p".into(),
                engine: Engine::OpFuzz,
                origin_seed: "seeds/a.smt2".into(),
                origin_hash: "p".into(),
            },
            edits: vec![],
            features: vec![7, 9],
            bytes: 12,
            run: 1,
        };
        write(out.path(), &rec("aa"), "(check-sat)\n").unwrap();
        write(out.path(), &rec("bb"), "(check-sat)\n").unwrap();
        let orphan = super::super::layout::corpus_seed(out.path(), "cc");
        std::fs::write(&orphan, "(check-sat)").unwrap();
        let got = read(out.path());
        assert_eq!(got.iter().map(|(r, _)| r.hash.as_str()).collect::<Vec<_>>(), ["aa", "bb"]);
        assert_eq!(got[0].0, rec("aa"));
        assert!(!orphan.exists());
        remove(out.path(), "aa");
        assert_eq!(read(out.path()).len(), 1);
    }
}
