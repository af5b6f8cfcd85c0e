//! What a libFuzzer target does before its first execution (`fuzz_target!(init: ...)`),
//! so that the bare `cargo fuzz run storm_target` fuzzes solvers from the first second:
//!
//! * **Seeds where cargo-fuzz looks.** cargo-fuzz hands the target `fuzz/corpus/<target>/`,
//!   which starts empty; byte inputs from nothing never become a script a solver reads.
//!   When every corpus directory given is empty, the project's seeds (the `.smt2` files
//!   under `corpus/`, or under `SMTSTORM_SEEDS`) are copied into the first one. They are
//!   copied on first start rather than committed per target: one seed set, `corpus/`,
//!   stays the only source, and what libFuzzer adds later lands beside them (the
//!   directory is not tracked).
//! * **The dictionary without flags.** libFuzzer reads `-dict=` only from its command line
//!   and parses that line after this runs, so a target started without one re-executes
//!   itself once with `-dict=dictionaries/smtlib.dict` added (`SMTSTORM_NO_DICT=1` keeps the
//!   command line as given).
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
    /// The argument list of the re-execution, when one is due.
    pub reexec: Option<Vec<String>>,
}

/// Decides what to do for libFuzzer's command line `args` (program name first): which
/// seeds go where, and whether to re-execute with the dictionary. Copies the seeds.
pub fn prepare(args: &[String], seeds: &Path, dictionary: &Path, reexecuted: bool) -> Start {
    let flags: Vec<&String> = args.iter().skip(1).filter(|a| a.starts_with('-')).collect();
    let positional: Vec<&String> = args.iter().skip(1).filter(|a| !a.starts_with('-')).collect();
    // Modes where the positional arguments are not a corpus to grow (running given
    // inputs, merging, minimising a crash) keep their inputs as they are.
    let special = ["-merge=", "-minimize_crash=", "-cleanse_crash=", "-runs=0", "-set_cover_merge="];
    let mut out = Start::default();
    let dirs_only = !positional.is_empty() && positional.iter().all(|p| Path::new(p.as_str()).is_dir());
    if dirs_only && !flags.iter().any(|f| special.iter().any(|s| f.starts_with(s))) {
        let empty = positional.iter().all(|p| std::fs::read_dir(p.as_str()).is_ok_and(|mut d| d.next().is_none()));
        if empty {
            let into = PathBuf::from(positional[0].as_str());
            out.seeded = Some((into.clone(), copy_seeds(seeds, &into)));
        }
    }
    if !reexecuted && !flags.iter().any(|f| f.starts_with("-dict=")) && dictionary.is_file() {
        let mut a: Vec<String> = args.to_vec();
        a.push(format!("-dict={}", dictionary.display()));
        out.reexec = Some(a);
    }
    out
}

/// Copies the `.smt2` files under `seeds` into `into`; how many. Subdirectories are
/// walked as `smtstorm fuzz` walks them (a suite such as cvc5's regressions keeps its
/// seeds in `regress0/...`: copying only the top level gave a 30-minute run nothing to
/// start from, issue 41); a copy is named by its path under `seeds` (`a/b.smt2` →
/// `a__b.smt2`), so files of one name in two directories are both kept.
fn copy_seeds(seeds: &Path, into: &Path) -> usize {
    let files = match crate::util::files::collect_smt2(&[seeds.to_path_buf()]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("smtstorm: seeds: {e}");
            return 0;
        }
    };
    let mut n = 0;
    for p in files.iter().filter(|p| p.is_file()) {
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
    let start = prepare(&args, &seeds, &dictionary, reexecuted);
    match &start.seeded {
        Some((dir, 0)) => eprintln!(
            "smtstorm: {target}: corpus {} is empty and {} has no .smt2 seeds: set SMTSTORM_SEEDS=DIR",
            dir.display(),
            seeds.display()
        ),
        Some((dir, n)) => {
            eprintln!(
                "smtstorm: {target}: corpus {} was empty: {n} seeds copied from {}",
                dir.display(),
                seeds.display()
            )
        }
        None => {}
    }
    if let Some(a) = start.reexec {
        eprintln!("smtstorm: {target}: adding -dict={} (SMTSTORM_NO_DICT=1 to run without)", dictionary.display());
        use std::os::unix::process::CommandExt;
        let e = std::process::Command::new("/proc/self/exe").arg0(&a[0]).args(&a[1..]).env(REEXEC_ENV, "1").exec();
        eprintln!("smtstorm: {target}: could not re-execute with the dictionary ({e}); continuing without it");
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
        let seeds = project_dir().join("corpus");
        let dict = project_dir().join("dictionaries/smtlib.dict");
        let n_seeds = std::fs::read_dir(&seeds)
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "smt2"))
            .count();
        assert!(n_seeds > 50, "corpus/ has {n_seeds} seeds");
        let e = empty.display().to_string();
        let s = prepare(&args(&["t", "-artifact_prefix=a/", &e]), &seeds, &dict, false);
        assert_eq!(s.seeded, Some((empty.clone(), n_seeds)));
        assert_eq!(std::fs::read_dir(&empty).unwrap().count(), n_seeds);
        let re = s.reexec.expect("no -dict given: re-execute with it");
        assert_eq!(re.last().unwrap(), &format!("-dict={}", dict.display()));
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
        let (suite, into) = (root.join("suite"), root.join("into"));
        for d in ["a", "b/c"] {
            std::fs::create_dir_all(suite.join(d)).unwrap();
            std::fs::write(suite.join(d).join("x.smt2"), "(check-sat)").unwrap();
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
        std::fs::write(suite.join("a__x.smt2"), "(assert true)").unwrap();
        let i2 = into2.display().to_string();
        assert_eq!(prepare(&args(&["t", &i2]), &suite, &dict, true).seeded, Some((into2.clone(), 3)));
        assert_eq!(std::fs::read_dir(&into2).unwrap().count(), 3);
        let _ = std::fs::remove_dir_all(&root);
    }
}
