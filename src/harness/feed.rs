//! A large seed suite fed to libFuzzer while it fuzzes, not all before.
//!
//! libFuzzer runs every input of its corpus once before it mutates any (its `INITED`
//! line). A solver target's execution costs a third of a second (five solvers, each up to
//! its limit, and the answer oracles): on the 4,070 cvc5-regress seeds that first pass was
//! the whole 30-minute run, 5,125 executions and no mutant (BENCHMARKS.md, session 28).
//! So an empty corpus gets the first [`first_seeds`] of the suite in feed order ([`order`]:
//! a shuffle, so that a prefix samples every directory, as a campaign's pre-screen order
//! does), and the mutator
//! hands libFuzzer the others, one in [`FEED_EVERY`] of its calls, unmutated: each is then
//! executed as any seed is (a seed that already fails is a seed finding), and kept if it
//! shows something new. A campaign does the same with its pre-screen's share of the time
//! (`campaign::schedule`).
//!
//! Where the feed stands is a count in the target's store (`seed-feed`, next to its
//! findings), claimed under a lock: a restart goes on where the last run stopped, and
//! `-fork`/`-jobs` siblings never feed one seed twice (a `-fork` job's own empty corpus
//! directory is not seeded: [`super::start::prepare`]). Without that file (a corpus not
//! seeded by this start, or one seeded before the feed existed) nothing is fed. The
//! count is a position in the suite's order: seeds added to the suite between runs
//! shift it (some fed twice, some not at all); start from an empty corpus to feed a
//! changed suite whole.

use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// One mutator call in this many hands libFuzzer the next seed of the feed, while any is
/// left: the campaign's pre-screen share (a quarter of the time).
pub const FEED_EVERY: u32 = 4;

/// How many seeds an empty corpus gets at once (`SMTSTORM_FIRST_SEEDS`, 0: all of them,
/// as before the feed): about a minute and a half of a first pass at a third of a second
/// per execution, and a suite of this size or smaller is copied whole.
pub const FIRST_SEEDS: usize = 256;

/// The name of the feed's state file in the target's store.
pub const STATE: &str = "seed-feed";

/// `SMTSTORM_FIRST_SEEDS`, or [`FIRST_SEEDS`]; 0 means every seed at once. A value that
/// is not a count is an error naming the variable, as every harness variable's.
pub fn first_seeds() -> Result<usize, super::env::HarnessError> {
    let n =
        super::env::env_var("SMTSTORM_FIRST_SEEDS", "a number of seeds (0: all at once)", |v| v.parse::<usize>().ok())?;
    Ok(match n {
        None => FIRST_SEEDS,
        Some(0) => usize::MAX,
        Some(n) => n,
    })
}

/// The `.smt2` files under `seeds` in feed order: shuffled by a hash of each one's path
/// under `seeds`. A suite's listing order is its authors' directories (cvc5's `regress0`
/// before `regress1..4`); a prefix of this order samples all of them. Paths, not
/// contents, decide, so ordering costs no read of the suite, and adding files does not
/// reorder the others.
pub fn order(seeds: &Path) -> Vec<PathBuf> {
    let listed = crate::util::files::collect_smt2(&[seeds.to_path_buf()]).unwrap_or_else(|e| {
        eprintln!("smtstorm: seeds: {e}");
        vec![]
    });
    let mut files: Vec<PathBuf> = listed.into_iter().filter(|p| p.is_file()).collect();
    let key = |p: &PathBuf| {
        let rel = p.strip_prefix(seeds).unwrap_or(p);
        crate::util::hash::fnv1a(rel.to_string_lossy().as_bytes())
    };
    files.sort_by_cached_key(|p| (key(p), p.clone()));
    files
}

/// The seeds still to feed, and where the count of those handed out is kept.
pub struct Feed {
    order: Vec<PathBuf>,
    state: PathBuf,
    /// Seeds handed to libFuzzer by this process, and seeds passed over (larger than
    /// libFuzzer's `max_len`, or unreadable).
    pub fed: u64,
    pub skipped: u64,
}

impl Feed {
    /// The feed over `seeds` whose state is the file `state`; `None` when there is no
    /// such file (nothing to feed) or every seed has been fed.
    pub fn open(seeds: &Path, state: &Path) -> Option<Feed> {
        Feed::open_with(&order(seeds), state)
    }

    /// [`Feed::open`] over a suite already in feed order.
    pub fn open_with(order: &[PathBuf], state: &Path) -> Option<Feed> {
        let at = read_count(&std::fs::read_to_string(state).ok()?)?;
        (at < order.len()).then(|| Feed { order: order.to_vec(), state: state.to_path_buf(), fed: 0, skipped: 0 })
    }

    /// How many seeds the suite has, and how many of them have been handed out so far
    /// (by every process sharing the state).
    pub fn progress(&self) -> (usize, usize) {
        let at = std::fs::read_to_string(&self.state).ok().and_then(|t| read_count(&t)).unwrap_or(0);
        (at.min(self.order.len()), self.order.len())
    }

    /// The next seed's bytes, at most `max_size` of them: larger seeds (and unreadable
    /// ones) are passed over, counted in `skipped`. `Ok(None)` when the feed is done; an
    /// error when its state cannot be claimed (the caller says so: a feed that stops
    /// silently leaves the rest of the suite unread with nothing to tell why).
    pub fn next(&mut self, max_size: usize) -> std::io::Result<Option<Vec<u8>>> {
        loop {
            let at = claim(&self.state)?;
            let Some(path) = self.order.get(at) else { return Ok(None) };
            // The size first: a seed larger than libFuzzer takes is never read whole.
            let fits = path.metadata().is_ok_and(|m| m.len() <= max_size as u64);
            match fits.then(|| std::fs::read(path)) {
                Some(Ok(b)) if b.len() <= max_size => {
                    self.fed += 1;
                    return Ok(Some(b));
                }
                _ => self.skipped += 1,
            }
        }
    }
}

fn read_count(text: &str) -> Option<usize> {
    text.trim().parse().ok()
}

/// Takes the next position of the feed in `state` under an exclusive lock (a `-fork`
/// sibling claims the one after): the position before the increment.
fn claim(state: &Path) -> std::io::Result<usize> {
    let mut f = crate::util::fs::open_store_file(state, false)?;
    f.lock()?;
    let mut text = String::new();
    f.read_to_string(&mut text)?;
    let at = read_count(&text).ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not a count of seeds: {:?}", text.trim()))
    })?;
    // Written over in place, then cut to what was written: a crash between the two
    // leaves a count, never an empty file (which would end the feed for good).
    let next = (at + 1).to_string();
    f.rewind()?;
    f.write_all(next.as_bytes())?;
    f.set_len(next.len() as u64)?;
    Ok(at)
}

/// Writes the feed's state: `fed` seeds of the order are in the corpus already.
pub fn start(state: &Path, fed: usize) -> std::io::Result<()> {
    if let Some(d) = state.parent() {
        crate::util::fs::create_dirs(d)?;
    }
    let mut f = crate::util::fs::open_store_file(state, false)?;
    f.lock()?;
    // Padded to the old count's length: written over in place, it is never a mix of the
    // two numbers ("3814" over by "256" would read "2564").
    let old = f.metadata()?.len() as usize;
    let text = format!("{fed:<old$}");
    f.write_all(text.as_bytes())?;
    f.set_len(text.len() as u64)
}

/// The running target's feed, opened by [`super::start::libfuzzer_init`].
static FEED: OnceLock<Mutex<Option<Feed>>> = OnceLock::new();

/// Opens the target's feed (once per process).
pub fn install(seeds: &Path, state: &Path) {
    let _ = FEED.set(Mutex::new(Feed::open(seeds, state)));
}

/// For the mutator: on one call in [`FEED_EVERY`] (by libFuzzer's `seed`), the next seed
/// of the running target's feed, if it has one.
pub fn next_for_mutator(seed: u32, max_size: usize) -> Option<Vec<u8>> {
    // Bits of `seed` above the four `mutate_with` reads for its byte-mutation share
    // (`seed % 16`): the two draws are independent.
    if !(seed / 16).is_multiple_of(FEED_EVERY) {
        return None;
    }
    let mut g = FEED.get()?.lock().unwrap_or_else(|e| e.into_inner());
    let feed = g.as_mut()?;
    match feed.next(max_size) {
        Ok(Some(b)) => Some(b),
        Ok(None) => {
            *g = None;
            None
        }
        Err(e) => {
            eprintln!("smtstorm: seed feed {}: {e}; no more seeds are fed by this process", feed.state.display());
            *g = None;
            None
        }
    }
}

/// The feed's line for the target's statistics: seeds handed out of the suite, and
/// passed over by this process; `None` without a feed.
pub fn stats_line() -> Option<String> {
    // Printed at exit (libFuzzer's `exit()`): never wait there for a mutator's lock.
    let g = FEED.get()?.try_lock().ok()?;
    let f = g.as_ref()?;
    let (at, n) = f.progress();
    Some(format!("seeds fed {at} of {n} ({} here, {} too large)", f.fed, f.skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The feed hands out every seed the first copy left, each once, in order, across a
    /// restart and between two processes' handles on one state; a seed larger than
    /// `max_size` is passed over; without a state file nothing is fed.
    #[test]
    fn every_seed_is_fed_once_across_restarts() {
        let root = std::env::temp_dir().join(format!("smtstorm-feed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let suite = root.join("suite");
        for d in 0..5 {
            std::fs::create_dir_all(suite.join(format!("regress{d}"))).unwrap();
            for i in 0..20 {
                let big = if d == 3 && i == 7 { "x".repeat(5000) } else { String::new() };
                let text = format!("; {d}/{i}{big}\n(check-sat)\n");
                std::fs::write(suite.join(format!("regress{d}/s{i}.smt2")), text).unwrap();
            }
        }
        let all = order(&suite);
        assert_eq!(all.len(), 100);
        assert_eq!(all, order(&suite), "the order is the same each time");
        // A prefix samples every directory.
        let dirs: std::collections::BTreeSet<_> = all.iter().take(25).map(|p| p.parent().unwrap().to_owned()).collect();
        assert_eq!(dirs.len(), 5, "{dirs:?}");
        let state = root.join("store").join(STATE);
        assert!(Feed::open(&suite, &state).is_none(), "no state: nothing to feed");
        start(&state, 30).unwrap();
        let (mut a, mut b) = (Feed::open(&suite, &state).unwrap(), Feed::open(&suite, &state).unwrap());
        assert_eq!(a.progress(), (30, 100));
        let mut got = vec![];
        for k in 0..30 {
            let f = if k % 3 == 0 { &mut b } else { &mut a };
            got.push(f.next(1000).unwrap().unwrap());
        }
        // A restart: a new handle on the same state goes on where the others stopped.
        let mut c = Feed::open(&suite, &state).unwrap();
        while let Some(x) = c.next(1000).unwrap() {
            got.push(x);
        }
        let expected: Vec<Vec<u8>> =
            all[30..].iter().map(|p| std::fs::read(p).unwrap()).filter(|b| b.len() <= 1000).collect();
        assert_eq!(got, expected, "each seed after the first 30 once, in order");
        let large = all.iter().position(|p| p.ends_with("regress3/s7.smt2")).unwrap();
        assert_eq!(a.skipped + b.skipped + c.skipped, u64::from(large >= 30));
        assert_eq!(a.fed + b.fed + c.fed, got.len() as u64);
        assert!(Feed::open(&suite, &state).is_none(), "every seed fed");
        // A state that no longer holds a count is an error the caller can report, not
        // the feed's end.
        start(&state, 40).unwrap();
        let mut d = Feed::open(&suite, &state).unwrap();
        std::fs::write(&state, "garbage").unwrap();
        let e = d.next(1000).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData, "{e}");
        assert!(e.to_string().contains("garbage"), "{e}");
        let _ = std::fs::remove_dir_all(&root);
    }
}
