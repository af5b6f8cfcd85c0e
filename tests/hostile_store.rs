//! Issue 37 ("a seed is untrusted input"), items 5, 6, 7 and 10: a store and a reducer
//! facing a hostile or broken environment. Each test drives the real binary and asserts
//! on what a user sees: exit status, messages, files, modes, processes left behind.
//!
//! `SMTSTORM_TEST_BIN=/path/to/smtstorm` runs them against another build (how each was
//! seen to fail on 41afc40).

mod common;

use common::{bin, tempdir};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `smtstorm ARGS` in `dir` with `TMPDIR=dir/tmp`, output to `dir/{out,err}.txt`.
fn start(dir: &Path, args: &[&str]) -> Child {
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", dir.join("tmp"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join("out.txt")).unwrap())
        .stderr(std::fs::File::create(dir.join("err.txt")).unwrap())
        .spawn()
        .unwrap()
}

/// Waits at most `limit` for `child` (killed after it): (exit status, stdout, stderr, wall).
fn finish(dir: &Path, mut child: Child, limit: Duration) -> (i32, String, String, Duration) {
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code().unwrap_or(-1);
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break -9;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
    (status, read("out.txt"), read("err.txt"), t0.elapsed())
}

fn run(dir: &Path, args: &[&str], limit: Duration) -> (i32, String, String, Duration) {
    let child = start(dir, args);
    finish(dir, child, limit)
}

/// Pids of processes whose command line contains `marker`.
fn pids_with(marker: &str) -> Vec<i32> {
    let out = Command::new("pgrep").args(["-f", marker]).output().unwrap();
    String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.trim().parse().ok()).collect()
}

/// Waits up to `limit` for every process with `marker` to be gone; kills the rest (so a
/// failing test leaves nothing behind) and returns how many there were.
fn survivors(marker: &str, limit: Duration) -> usize {
    let t0 = Instant::now();
    while t0.elapsed() < limit && !pids_with(marker).is_empty() {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = pids_with(marker);
    for &p in &left {
        // SAFETY: plain kill(2) of a process this test started (its unique marker).
        unsafe { libc::kill(p, libc::SIGKILL) };
    }
    left.len()
}

/// Kills what is left with its marker when dropped: a failing assertion (41afc40 left
/// the checker's children running) does not leave them behind either.
struct Reap(String);

impl Drop for Reap {
    fn drop(&mut self) {
        survivors(&self.0, Duration::ZERO);
    }
}

fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A 73-byte input whose candidates (all smaller) make `slow.sh` hang.
const INPUT: &str = "(declare-const x Int)\n(declare-const y Int)\n(assert (> x y))\n(check-sat)\n";

/// Item 5: a checker that hangs is bounded by `--time` from its first check, stopped at
/// Ctrl-C, and killed with its children when smtstorm is killed; its scratch directory
/// is removed by the next run; each way a checker fails is said apart; `-j` is bounded;
/// OUTPUT = INPUT and a missing INPUT are refused by name.
#[test]
fn a_hanging_checker_is_bounded_interrupted_and_dies_with_smtstorm_and_its_children() {
    let dir = tempdir("hostile-reduce");
    let marker = format!("1000.{}5", std::process::id());
    let _reap = Reap(marker.clone());
    std::fs::write(dir.join("in.smt2"), INPUT).unwrap();
    // Hangs on everything, in two processes of its own.
    script(&dir.join("hang.sh"), &format!("sleep {marker} &\nsleep {marker}"));
    // The input (73 bytes) is interesting at once; any candidate hangs.
    script(
        &dir.join("slow.sh"),
        &format!("[ \"$(wc -c < \"$1\")\" -ge 70 ] && exit 0\nsleep {marker} &\nsleep {marker}"),
    );

    // --time bounds the first check too (it ran for 60 s), and says why it stopped.
    let (code, _, err, wall) =
        run(&dir, &["reduce", "--time", "5", "in.smt2", "out.smt2", "--", "./hang.sh"], Duration::from_secs(40));
    assert!(wall < Duration::from_secs(15), "--time 5 took {wall:?}: {err}");
    assert_ne!(code, 0);
    assert!(err.contains("timed out") && err.contains("hang.sh"), "{err}");
    assert_eq!(survivors(&marker, Duration::from_secs(3)), 0, "the checker's children outlived its deadline");

    // A checker that cannot run and one that rejects the input are told apart.
    let (c1, _, missing, _) =
        run(&dir, &["reduce", "in.smt2", "o.smt2", "--", "./no-such-checker"], Duration::from_secs(20));
    let (c2, _, rejects, _) = run(&dir, &["reduce", "in.smt2", "o.smt2", "--", "false"], Duration::from_secs(20));
    assert!(c1 != 0 && c2 != 0);
    assert!(missing.contains("no-such-checker") && missing.contains("cannot be started"), "{missing}");
    assert!(rejects.contains("not interesting") && rejects.contains("status 1"), "{rejects}");
    assert!(!missing.contains("not interesting"), "{missing}");

    // An OUTPUT left by another input (smaller, not interesting) is no reason to call the
    // input uninteresting: the reduction starts from the input and overwrites it.
    script(&dir.join("need.sh"), "grep -q assert \"$1\"");
    std::fs::write(dir.join("other.smt2"), "(check-sat)\n").unwrap();
    let (code, _, err, _) = run(&dir, &["reduce", "in.smt2", "other.smt2", "--", "./need.sh"], Duration::from_secs(20));
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(dir.join("other.smt2")).unwrap().contains("assert"));

    // -j above 4096 is refused by name, at once.
    let (code, _, err, wall) = run(
        &dir,
        &["reduce", "-j", "100000", "--time", "5", "in.smt2", "o.smt2", "--", "true"],
        Duration::from_secs(60),
    );
    assert!(code != 0 && err.contains("-j") && err.contains("4096"), "{code} {err}");
    assert!(wall < Duration::from_secs(5), "{wall:?}");

    // OUTPUT that is INPUT (under another spelling) is refused; the input is untouched.
    let (code, _, err, _) = run(&dir, &["reduce", "in.smt2", "./in.smt2", "--", "true"], Duration::from_secs(20));
    assert!(code != 0 && err.contains("OUTPUT") && err.contains("INPUT"), "{code} {err}");
    assert_eq!(std::fs::read_to_string(dir.join("in.smt2")).unwrap(), INPUT);

    // A missing INPUT is named as such.
    let (code, _, err, _) = run(&dir, &["reduce", "gone.smt2", "o.smt2", "--", "true"], Duration::from_secs(20));
    assert!(code != 0 && err.contains("gone.smt2") && err.contains("INPUT"), "{code} {err}");

    // Ctrl-C stops the running checks at once (took 52 s) and keeps what was found.
    let wait_for_checker = |what: &str| {
        let t0 = Instant::now();
        while pids_with(&marker).is_empty() {
            assert!(t0.elapsed() < Duration::from_secs(20), "{what}: the checker never started a candidate");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let child = start(&dir, &["reduce", "--timeout", "100", "-j", "2", "in.smt2", "int.smt2", "--", "./slow.sh"]);
    wait_for_checker("Ctrl-C");
    // SAFETY: plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let (code, _, err, wall) = finish(&dir, child, Duration::from_secs(30));
    assert!(wall < Duration::from_secs(10), "Ctrl-C took {wall:?} to stop: {err}");
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("int.smt2").is_file());
    assert_eq!(survivors(&marker, Duration::from_secs(3)), 0, "checker processes outlived Ctrl-C");

    // kill -9: the checker's children die with smtstorm; the scratch directory it could
    // not remove is removed by the next reduction.
    let mut child = start(&dir, &["reduce", "--timeout", "100", "-j", "2", "in.smt2", "k.smt2", "--", "./slow.sh"]);
    wait_for_checker("kill -9");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(survivors(&marker, Duration::from_secs(5)), 0, "checker processes outlived kill -9 of smtstorm");
    let scratch = |d: &Path| -> Vec<String> {
        std::fs::read_dir(d.join("tmp"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".reduce-"))
            .collect()
    };
    let left = scratch(&dir);
    assert_eq!(left.len(), 1, "{left:?}");
    let (code, _, err, _) = run(&dir, &["reduce", "in.smt2", "o.smt2", "--", "true"], Duration::from_secs(20));
    assert_eq!(code, 0, "{err}");
    assert!(scratch(&dir).is_empty(), "left behind: {:?}", scratch(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of the store written by 0957fee (one bug, one seed finding) at `to`, with a
/// campaign file so that `report` takes it.
fn fixture_store(to: &Path) {
    let from = common::repo().join("tests/fixtures/store-0957fee");
    for (top, kind, id) in [("bugs", "soundness", "5c1d0e7f3a2b"), ("seed-findings", "crash", "0a1b2c3d4e5f")] {
        let d = to.join(top).join(kind).join(id);
        std::fs::create_dir_all(&d).unwrap();
        for f in ["meta.json", "trigger.smt2"] {
            std::fs::copy(from.join(top).join(kind).join(id).join(f), d.join(f)).unwrap();
        }
    }
    let cf = smtstorm::store::campaign::CampaignFile {
        config: Default::default(),
        solvers: vec![],
        runs: 1,
        first_start_unix: 7,
        elapsed_before: 0.0,
    };
    std::fs::write(to.join("campaign.json"), serde_json::to_vec(&cf).unwrap()).unwrap();
}

const BUG: &str = "bugs/soundness/5c1d0e7f3a2b";

/// Item 6: a finding whose meta.json is torn is quarantined by `merge` and `report` (a
/// line on stderr, a count in the report), never dropped; a source that is not a store
/// makes `merge` fail before it merges anything.
#[test]
fn merge_and_report_quarantine_unreadable_findings_and_refuse_garbage_stores() {
    let dir = tempdir("hostile-quarantine");
    let s1 = dir.join("s1");
    fixture_store(&s1);
    let trigger = std::fs::read(s1.join(BUG).join("trigger.smt2")).unwrap();
    let torn = std::fs::read(s1.join(BUG).join("meta.json")).unwrap()[..100].to_vec();
    std::fs::write(s1.join(BUG).join("meta.json"), &torn).unwrap();

    let (code, out, err, _) = run(&dir, &["merge", "m", "s1"], Duration::from_secs(30));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 quarantined") && err.contains("5c1d0e7f3a2b"), "{out}\n{err}");
    let q: Vec<PathBuf> = std::fs::read_dir(dir.join("m/quarantine")).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(q.len(), 1, "{q:?}");
    assert_eq!(std::fs::read(q[0].join("trigger.smt2")).unwrap(), trigger);
    assert_eq!(std::fs::read(q[0].join("meta.json")).unwrap(), torn);
    // Merged again: nothing copied twice.
    let (code, _, err, _) = run(&dir, &["merge", "m", "s1"], Duration::from_secs(30));
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_dir(dir.join("m/quarantine")).unwrap().count(), 1);
    let (code, _, err, _) = run(&dir, &["report", "m"], Duration::from_secs(30));
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(dir.join("m/report.md")).unwrap();
    assert!(md.contains("1 findings quarantined: see quarantine/"), "{md}");

    // report on the source: moved to its quarantine/, said, counted.
    let (code, _, err, _) = run(&dir, &["report", "s1"], Duration::from_secs(30));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("5c1d0e7f3a2b") && err.contains("quarantine"), "{err}");
    assert!(!s1.join(BUG).exists());
    let md = std::fs::read_to_string(s1.join("report.md")).unwrap();
    assert!(md.contains("1 findings quarantined: see quarantine/"), "{md}");
    assert!(std::fs::read_to_string(s1.join("report.html")).unwrap().contains("1 findings quarantined"));

    // Garbage among the sources: an error naming it, and nothing merged from the others.
    let g = dir.join("g");
    std::fs::create_dir_all(g.join("bugs")).unwrap();
    std::fs::write(g.join("bugs/junk"), "x").unwrap();
    let good = dir.join("good");
    fixture_store(&good);
    let (code, _, err, _) = run(&dir, &["merge", "m2", "good", "g"], Duration::from_secs(30));
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("g: ") && err.contains("junk"), "{err}");
    assert!(!dir.join("m2/bugs/soundness").exists(), "merged before the garbage source was refused");
    std::fs::remove_file(g.join("bugs/junk")).unwrap();
    std::fs::write(g.join("campaign.json"), "not json").unwrap();
    let (code, _, err, _) = run(&dir, &["merge", "m2", "g"], Duration::from_secs(30));
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("campaign.json"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 7: `OUT/lock` and `OUT/events.jsonl` replaced by symbolic links are refused with
/// an error naming them; the files they point to stay as they were.
#[test]
fn symbolic_links_inside_a_store_are_refused_not_followed() {
    let dir = tempdir("hostile-symlink");
    fixture_store(&dir.join("src"));
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    std::fs::create_dir_all(dir.join("m")).unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("m/lock")).unwrap();
    let (code, _, err, _) = run(&dir, &["merge", "m", "src"], Duration::from_secs(30));
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("m/lock") && err.contains("symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");

    // A campaign appends to events.jsonl: a link there is refused before any append.
    common::solver_bin("z3-5.4.0/bin/z3");
    std::fs::create_dir_all(dir.join("seeds")).unwrap();
    std::fs::write(dir.join("seeds/a.smt2"), INPUT).unwrap();
    let out = dir.join("c");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("events.jsonl")).unwrap();
    let args = ["fuzz", "seeds", "--solver", "z3-5.4.0", "--mutants", "5", "--workers", "1", "--out", "c", "--quiet"];
    let (code, _, err, _) = run(&dir, &args, Duration::from_secs(60));
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("events.jsonl") && err.contains("symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let _ = std::fs::remove_dir_all(&dir);
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())).permissions().mode() & 0o777
}

/// `smtstorm ARGS` under `umask`, in `dir`.
fn run_umask(dir: &Path, umask: &str, args: &[&str]) -> (i32, String, String, Duration) {
    let exe = bin();
    let mut all = vec!["-c", "umask $0; exec \"$@\"", umask, exe.to_str().unwrap()];
    all.extend_from_slice(args);
    let child = Command::new("/bin/sh")
        .args(&all)
        .current_dir(dir)
        .env("TMPDIR", dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join("out.txt")).unwrap())
        .stderr(std::fs::File::create(dir.join("err.txt")).unwrap())
        .spawn()
        .unwrap();
    finish(dir, child, Duration::from_secs(60))
}

/// Item 10: what the store and the reducer write is 0644 (directories 0755) less the
/// umask, not tempfile's 0600: a store on a shared disk is readable by others.
#[test]
fn files_the_store_writes_are_world_readable_less_the_umask() {
    let dir = tempdir("hostile-modes");
    fixture_store(&dir.join("src"));
    std::fs::write(dir.join("in.smt2"), INPUT).unwrap();
    let mut checked = 0;
    for (umask, file, directory) in [("022", 0o644, 0o755), ("077", 0o600, 0o700)] {
        let m = format!("m{umask}");
        let (code, _, err, _) = run_umask(&dir, umask, &["merge", &m, "src"]);
        assert_eq!(code, 0, "{err}");
        let (code, _, err, _) = run_umask(&dir, umask, &["report", &m]);
        assert_eq!(code, 0, "{err}");
        let out = format!("out{umask}.smt2");
        let (code, _, err, _) = run_umask(&dir, umask, &["reduce", "in.smt2", &out, "--", "true"]);
        assert_eq!(code, 0, "{err}");
        let m = dir.join(m);
        for f in [
            m.join(BUG).join("meta.json"),
            m.join(BUG).join("trigger.smt2"),
            m.join("campaign.json"),
            m.join("report.md"),
            m.join("report.html"),
            m.join(BUG).join("report.md"),
            dir.join(&out),
        ] {
            assert_eq!(mode(&f), file, "{} under umask {umask}", f.display());
            checked += 1;
        }
        for d in [m.join("bugs"), m.join("bugs/soundness"), m.join(BUG)] {
            assert_eq!(mode(&d), directory, "{} under umask {umask}", d.display());
            checked += 1;
        }
    }
    assert_eq!(checked, 20);
    let _ = std::fs::remove_dir_all(&dir);
}
