//! What a libFuzzer target does before its first execution (`fuzz_target!(init: ...)`),
//! so that the bare `cargo fuzz run storm_target` fuzzes solvers from the first second:
//!
//! * **Seeds where cargo-fuzz looks.** cargo-fuzz hands the target `fuzz/corpus/<target>/`,
//!   which starts empty; byte inputs from nothing never become a script a solver reads.
//!   When every corpus directory given is empty, the project's seeds (the `.smt2` files
//!   under `corpus/`, or under `SMTSTORM_SEEDS`) are copied into the first one — at most
//!   `SMTSTORM_FIRST_SEEDS` (256) of them, the rest fed while the target runs
//!   ([`super::feed`]). They are copied on first start rather than committed per target:
//!   one seed set, `corpus/`, stays the only source, and what libFuzzer adds later lands
//!   beside them (the directory is not tracked).
//! * **The dictionary without flags.** libFuzzer reads `-dict=` only from its command line
//!   and parses that line after this runs, so a target started without one re-executes
//!   itself once with `-dict=dictionaries/smtlib.dict` added (and, while seeds are left to
//!   feed, a `-max_len` that admits the largest; `SMTSTORM_NO_DICT=1` keeps the command
//!   line as given).
//! * **Which solvers.** One line names the solvers the target asks and how to put another
//!   release under test (`SMTSTORM_SOLVERS`).
//!
//! `LLVMFuzzerInitialize` runs before libFuzzer parses its flags or reads a corpus (LLVM's
//! `FuzzerDriver.cpp`), which is what makes both the copy and the re-execution take effect.

use std::path::{Path, PathBuf};

/// The project directory this library was built from: where `corpus/` and
/// `dictionaries/` are in a checkout. Absent after the binary moved (OSS-Fuzz), where
/// the build ships its own seed corpus and dictionary.
fn project_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The target's name (for its store, [`super::kept::store_dir`]) and whether it runs given
/// files rather than fuzzing (set by [`libfuzzer_init`]).
static TARGET: std::sync::OnceLock<(String, bool)> = std::sync::OnceLock::new();

/// The running target's name (`fuzz` outside a libFuzzer target).
pub fn target_name() -> String {
    TARGET.get().map_or_else(|| "fuzz".into(), |t| t.0.clone())
}

/// Whether libFuzzer was given files to run (reproducing an artifact) rather than corpus
/// directories: every confirmed finding then aborts ([`super::kept`]).
pub fn replaying() -> bool {
    TARGET.get().is_some_and(|t| t.1)
}

/// Whether `args` (program name first) run given files: a positional argument that is no
/// directory.
fn runs_files(args: &[String]) -> bool {
    args.iter().skip(1).filter(|a| !a.starts_with('-')).any(|p| !Path::new(p.as_str()).is_dir())
}

/// Set on the re-executed process, so that it never re-executes again.
const REEXEC_ENV: &str = "SMTSTORM_REEXECUTED";

/// What the start of a target saw and did (for the message and for tests).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// Seeds copied into this corpus directory.
    pub seeded: Option<(PathBuf, usize)>,
    /// Seeds of the suite left to the feed ([`super::feed`]) after the copy.
    pub to_feed: usize,
    /// The argument list of the re-execution, when one is due.
    pub reexec: Option<Vec<String>>,
}

/// Where the seeds of a start come from and how many go into an empty corpus at once
/// (the rest are fed while the target runs, their count kept in `state`).
pub struct Seeds<'a> {
    pub dir: &'a Path,
    pub first: usize,
    pub state: &'a Path,
}

/// Decides what to do for libFuzzer's command line `args` (program name first): which
/// seeds go where, and whether to re-execute with the dictionary (and, when seeds are
/// left to feed, with a `-max_len` that admits the largest of them: libFuzzer's default
/// is the largest input of the corpus it starts from). Copies the seeds and starts the
/// feed.
pub fn prepare(args: &[String], seeds: &Seeds, dictionary: &Path, reexecuted: bool) -> Start {
    let flags: Vec<&String> = args.iter().skip(1).filter(|a| a.starts_with('-')).collect();
    let positional: Vec<&String> = args.iter().skip(1).filter(|a| !a.starts_with('-')).collect();
    // Modes where the positional arguments are not a corpus to grow (running given
    // inputs, merging, minimising a crash) keep their inputs as they are.
    // A `-fork` job (libFuzzer's `FuzzerFork.cpp` gives it `-features_dir=` and
    // `-seed_inputs=`) starts in an empty directory of its own: neither seeds nor a reset
    // of the shared feed belong there.
    let special = [
        "-merge=",
        "-minimize_crash=",
        "-cleanse_crash=",
        "-runs=0",
        "-set_cover_merge=",
        "-features_dir=",
        "-seed_inputs=",
    ];
    let mut out = Start::default();
    let mut largest = 0;
    let dirs_only = !positional.is_empty() && positional.iter().all(|p| Path::new(p.as_str()).is_dir());
    if dirs_only && !flags.iter().any(|f| special.iter().any(|s| f.starts_with(s))) {
        let empty = positional.iter().all(|p| std::fs::read_dir(p.as_str()).is_ok_and(|mut d| d.next().is_none()));
        if empty {
            let into = PathBuf::from(positional[0].as_str());
            let order = super::feed::order(seeds.dir);
            let first = seeds.first.min(order.len());
            out.seeded = Some((into.clone(), copy_seeds(seeds.dir, &order[..first], &into)));
            out.to_feed = order.len() - first;
            let started = if out.to_feed > 0 { super::feed::start(seeds.state, first) } else { Ok(()) };
            if let Err(e) = started {
                eprintln!("smtstorm: the seed feed's state {}: {e}", seeds.state.display());
            }
            // A corpus seeded whole must not go on feeding from an older start's state.
            if out.to_feed == 0 {
                let _ = std::fs::remove_file(seeds.state);
            }
        }
    }
    // While seeds are left to feed (this start's copy, or a restart's state), libFuzzer's
    // `-max_len` must admit the largest seed of the suite: its default is the largest
    // input of the corpus it starts from, and it cuts a longer input it loads to that.
    // Only where the directories are a corpus to grow: a replayed file or a merge must
    // not be cut to a -max_len.
    let grows = dirs_only && !flags.iter().any(|f| special.iter().any(|s| f.starts_with(s)));
    let order = if grows { super::feed::order(seeds.dir) } else { vec![] };
    let feeding = grows && (out.to_feed > 0 || super::feed::Feed::open_with(&order, seeds.state).is_some());
    if feeding {
        largest = order.iter().filter_map(|p| p.metadata().ok()).map(|m| m.len()).max().unwrap_or(0);
    }
    let mut added = vec![];
    if !flags.iter().any(|f| f.starts_with("-dict=")) && dictionary.is_file() {
        added.push(format!("-dict={}", dictionary.display()));
    }
    if feeding && !flags.iter().any(|f| f.starts_with("-max_len=")) {
        added.push(format!("-max_len={}", largest.clamp(MIN_MAX_LEN, MAX_SANE_LEN)));
    }
    if !reexecuted && !added.is_empty() {
        out.reexec = Some(args.iter().cloned().chain(added).collect());
    }
    out
}

/// libFuzzer's own bounds on its default `-max_len` (`kMinDefaultLen`, `kMaxSaneLen` in
/// LLVM's `FuzzerLoop.cpp`): a fed seed beyond the cap is passed over, as libFuzzer
/// would truncate it.
const MIN_MAX_LEN: u64 = 4096;
const MAX_SANE_LEN: u64 = 1 << 20;

/// Copies `files` (`.smt2` files under `seeds`, subdirectories included as `smtstorm
/// fuzz` walks them: [`super::feed::order`]; a suite such as cvc5's regressions keeps its
/// seeds in `regress0/...`, and copying only the top level gave a 30-minute run nothing to
/// start from, issue 41) into `into`; how many. A copy is named by its path under `seeds`
/// (`a/b.smt2` → `a__b.smt2`), so files of one name in two directories are both kept.
fn copy_seeds(seeds: &Path, files: &[PathBuf], into: &Path) -> usize {
    let mut n = 0;
    for p in files {
        let rel = p.strip_prefix(seeds).unwrap_or(p);
        let name = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect::<Vec<_>>().join("__");
        // `a__b.smt2` and `a/b.smt2` flatten alike: the second gets a number.
        let fresh = (0..).map(|k| if k == 0 { name.clone() } else { format!("{k}~{name}") });
        for candidate in fresh.take(100) {
            let to = into.join(&candidate);
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&to) {
                Ok(mut out) => {
                    if std::fs::File::open(p).and_then(|mut i| std::io::copy(&mut i, &mut out)).is_ok() {
                        n += 1;
                    }
                    break;
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(_) => break,
            }
        }
    }
    n
}

/// The `init:` of every libFuzzer target: seeds, dictionary, and (for `solvers`) the
/// line saying which solvers are asked. Does not return when it re-executes.
pub fn libfuzzer_init(target: &str, solvers: bool) {
    let args: Vec<String> = std::env::args().collect();
    let seeds = std::env::var_os("SMTSTORM_SEEDS").map_or_else(|| project_dir().join("corpus"), PathBuf::from);
    let dictionary = project_dir().join("dictionaries/smtlib.dict");
    let reexecuted = std::env::var_os(REEXEC_ENV).is_some() || std::env::var_os("SMTSTORM_NO_DICT").is_some();
    let _ = TARGET.set((target.to_string(), runs_files(&args)));
    let first = super::feed::first_seeds().unwrap_or_else(|e| {
        eprintln!("smtstorm: {target}: {e}");
        std::process::exit(1)
    });
    let state = super::kept::store_dir().join(super::feed::STATE);
    let start = prepare(&args, &Seeds { dir: &seeds, first, state: &state }, &dictionary, reexecuted);
    match &start.seeded {
        Some((dir, 0)) => eprintln!(
            "smtstorm: {target}: corpus {} is empty and {} has no .smt2 seeds: set SMTSTORM_SEEDS=DIR",
            dir.display(),
            seeds.display()
        ),
        Some((dir, n)) => {
            eprintln!(
                "smtstorm: {target}: corpus {} was empty: {n} seeds copied from {}{}",
                dir.display(),
                seeds.display(),
                if start.to_feed > 0 {
                    format!(
                        "; the other {} are fed while it runs, one mutation in {} (SMTSTORM_FIRST_SEEDS=0 copies all)",
                        start.to_feed,
                        super::feed::FEED_EVERY
                    )
                } else {
                    String::new()
                }
            )
        }
        None => {}
    }
    if !runs_files(&args) {
        super::feed::install(&seeds, &state);
    }
    if let Some(a) = start.reexec {
        let added: Vec<&str> = a[args.len()..].iter().map(String::as_str).collect();
        eprintln!("smtstorm: {target}: adding {} (SMTSTORM_NO_DICT=1 to run without)", added.join(" "));
        use std::os::unix::process::CommandExt;
        let e = std::process::Command::new("/proc/self/exe").arg0(&a[0]).args(&a[1..]).env(REEXEC_ENV, "1").exec();
        eprintln!("smtstorm: {target}: could not re-execute with {} ({e}); continuing without", added.join(" "));
    }
    if solvers {
        let h = super::runner::harness();
        eprintln!("smtstorm: {target}: {}", h.describe());
    }
}

/// Defines `__asan_default_options` in a fuzz target (one line in each target file: the
/// symbol must be in the binary, not in a library archive the linker may skip).
///
/// ASan keeps freed memory in a quarantine of 256 MB by default, to catch use after free;
/// a `storm_target` run under the bare `cargo fuzz run` grew from 41 to ~450 MB RSS
/// with it, and stayed at 71 MB with `quarantine_size_mb=0` (BENCHMARKS.md, issue 25):
/// the growth was the quarantine filling, not smtstorm's own memory. 16 MB keeps recent
/// frees checked and bounds the run. `ASAN_OPTIONS` from the environment still override.
#[macro_export]
macro_rules! asan_default_options {
    () => {
        #[no_mangle]
        pub extern "C" fn __asan_default_options() -> *const std::ffi::c_char {
            c"quarantine_size_mb=16".as_ptr()
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    /// The bare `cargo fuzz run` line: an empty corpus directory gets the seeds and the
    /// dictionary is added; a corpus with inputs, a run on given files, or a merge is
    /// left alone; a re-executed process never re-executes.
    #[test]
    fn an_empty_corpus_gets_the_seeds_and_a_missing_dictionary_is_added() {
        let root = std::env::temp_dir().join(format!("smtstorm-start-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (empty, full) = (root.join("empty"), root.join("full"));
        std::fs::create_dir_all(&empty).unwrap();
        std::fs::create_dir_all(&full).unwrap();
        std::fs::write(full.join("x"), "(check-sat)").unwrap();
        let seeds_dir = project_dir().join("corpus");
        let state = root.join("seed-feed");
        let seeds = Seeds { dir: &seeds_dir, first: FIRST, state: &state };
        let dict = project_dir().join("dictionaries/smtlib.dict");
        let n_seeds = std::fs::read_dir(&seeds_dir)
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "smt2"))
            .count();
        assert!(n_seeds > 50 && n_seeds <= FIRST, "corpus/ has {n_seeds} seeds");
        let e = empty.display().to_string();
        let s = prepare(&args(&["t", "-artifact_prefix=a/", &e]), &seeds, &dict, false);
        assert_eq!(s.seeded, Some((empty.clone(), n_seeds)));
        assert_eq!(std::fs::read_dir(&empty).unwrap().count(), n_seeds);
        let re = s.reexec.expect("no -dict given: re-execute with it");
        assert_eq!(re.last().unwrap(), &format!("-dict={}", dict.display()), "no feed: no -max_len");
        assert!(!state.exists(), "a corpus seeded whole has no feed");
        // Now it has seeds: nothing is copied again; the re-executed process keeps its line.
        let s = prepare(&args(&["t", &e]), &seeds, &dict, true);
        assert_eq!(s, Start::default());
        let f = full.display().to_string();
        let given = full.join("x").display().to_string();
        for line in [vec!["t", f.as_str()], vec!["t", given.as_str()], vec!["t", "-merge=1", e.as_str(), f.as_str()]] {
            assert_eq!(prepare(&args(&line), &seeds, &dict, true).seeded, None, "{line:?}");
        }
        let with_dict = format!("-dict={}", dict.display());
        assert_eq!(prepare(&args(&["t", &with_dict, &f]), &seeds, &dict, false).reexec, None);
        // A suite keeps its seeds in subdirectories (cvc5's `regress0/...`), two of one name.
        let (suite_dir, into) = (root.join("suite"), root.join("into"));
        let suite = Seeds { dir: &suite_dir, first: FIRST, state: &state };
        for d in ["a", "b/c"] {
            std::fs::create_dir_all(suite_dir.join(d)).unwrap();
            std::fs::write(suite_dir.join(d).join("x.smt2"), "(check-sat)").unwrap();
        }
        std::fs::create_dir_all(&into).unwrap();
        let i = into.display().to_string();
        assert_eq!(prepare(&args(&["t", &i]), &suite, &dict, true).seeded, Some((into.clone(), 2)));
        let mut names: Vec<String> =
            std::fs::read_dir(&into).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["a__x.smt2", "b__c__x.smt2"]);
        // A top-level file whose name is another's flattened path: both kept.
        let into2 = root.join("into2");
        std::fs::create_dir_all(&into2).unwrap();
        std::fs::write(suite_dir.join("a__x.smt2"), "(assert true)").unwrap();
        let i2 = into2.display().to_string();
        assert_eq!(prepare(&args(&["t", &i2]), &suite, &dict, true).seeded, Some((into2.clone(), 3)));
        assert_eq!(std::fs::read_dir(&into2).unwrap().count(), 3);
        let _ = std::fs::remove_dir_all(&root);
    }

    const FIRST: usize = super::super::feed::FIRST_SEEDS;

    /// A suite larger than the first copy: an empty corpus gets `first` seeds from every
    /// directory, the feed's state says so, and the re-execution adds a `-max_len` that
    /// admits the largest seed left (a flag given keeps its value); the feed then hands
    /// out exactly the others.
    #[test]
    fn a_large_suite_is_copied_in_part_and_the_rest_fed() {
        let root = std::env::temp_dir().join(format!("smtstorm-start-feed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (suite, into, state) = (root.join("suite"), root.join("into"), root.join("store/seed-feed"));
        for d in 0..4 {
            std::fs::create_dir_all(suite.join(format!("r{d}"))).unwrap();
            for i in 0..30 {
                let pad = if d == 2 && i == 3 { "x".repeat(9000) } else { String::new() };
                std::fs::write(suite.join(format!("r{d}/s{i}.smt2")), format!(";{pad}\n(check-sat)\n")).unwrap();
            }
        }
        std::fs::create_dir_all(&into).unwrap();
        let dict = project_dir().join("dictionaries/smtlib.dict");
        let seeds = Seeds { dir: &suite, first: 40, state: &state };
        let i = into.display().to_string();
        let s = prepare(&args(&["t", &i]), &seeds, &dict, false);
        assert_eq!((s.seeded, s.to_feed), (Some((into.clone(), 40)), 80));
        let dirs: std::collections::BTreeSet<String> = std::fs::read_dir(&into)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().split("__").next().unwrap().to_string())
            .collect();
        assert_eq!(dirs.len(), 4, "{dirs:?}");
        assert_eq!(std::fs::read_to_string(&state).unwrap(), "40");
        // The largest seed of the suite, copied or not: libFuzzer cuts a longer input it
        // loads to its -max_len.
        let max_len = format!("-max_len={}", 9000 + ";\n(check-sat)\n".len());
        let re = s.reexec.unwrap();
        assert_eq!(re[re.len() - 1], max_len, "{re:?}");
        // A restart (the corpus has inputs, the feed is not done) adds it again.
        let again = prepare(&args(&["t", &i]), &seeds, &dict, false);
        assert_eq!((again.seeded, again.reexec.unwrap().last()), (None, Some(&max_len)));
        // A -fork job's own empty directory is not seeded, and the feed is not reset.
        std::fs::write(&state, "77").unwrap();
        let job = root.join("C1");
        std::fs::create_dir_all(&job).unwrap();
        let j = job.display().to_string();
        let forked = prepare(&args(&["t", "-features_dir=F1", "-seed_inputs=@S1", &j]), &seeds, &dict, true);
        assert_eq!((forked.seeded, forked.to_feed), (None, 0));
        assert_eq!(std::fs::read_to_string(&state).unwrap(), "77");
        assert_eq!(std::fs::read_dir(&job).unwrap().count(), 0);
        std::fs::write(&state, "40").unwrap();
        // A -max_len given stays the only one.
        let other = root.join("other");
        std::fs::create_dir_all(&other).unwrap();
        let given = prepare(&args(&["t", "-max_len=100", &other.display().to_string()]), &seeds, &dict, false);
        assert_eq!(given.to_feed, 80);
        assert_eq!(given.reexec.unwrap().iter().filter(|a| a.starts_with("-max_len=")).count(), 1);
        let mut feed = super::super::feed::Feed::open(&suite, &state).unwrap();
        let mut fed = 0;
        while feed.next(1 << 20).unwrap().is_some() {
            fed += 1;
        }
        assert_eq!(fed, 80);
        let _ = std::fs::remove_dir_all(&root);
    }
}
