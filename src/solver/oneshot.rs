//! One-shot runs: a fresh process per query, as every verdict that would become a bug
//! is confirmed, and as solvers without a session protocol run.

use super::limits::{excerpt, Limits};
use super::os::{guard_group, kill_group, rusage, spawn, wait4};
use super::outcome::{classify_reply, split_responses, Outcome, QueryResult};
use super::registry::SolverSpec;
use super::session::{crash_or_reply, failed, partial};
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Collects a pipe on a thread, keeping at most `cap` bytes.
fn collect(mut r: impl Read + Send + 'static, cap: usize) -> Arc<Mutex<Vec<u8>>> {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let b2 = buf.clone();
    std::thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        while let Ok(n) = r.read(&mut chunk) {
            if n == 0 {
                break;
            }
            let mut b = b2.lock().unwrap();
            let room = cap.saturating_sub(b.len());
            b.extend_from_slice(&chunk[..n.min(room)]);
        }
    });
    buf
}

/// What a one-shot process did: exit status (`None` when killed by the watchdog), its
/// output, and its resource use.
#[derive(Debug)]
pub struct RawRun {
    pub status: Option<ExitStatus>,
    pub timed_out: bool,
    /// Output went past `limits.max_output` and the process was killed.
    pub flooded: bool,
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
    pub cpu: Duration,
}

/// Runs `argv` once in its own process group with stdin closed, under the limits'
/// watchdog (`time + grace`), memory limit and output cap; kills the whole group when it
/// ends or times out, so nothing is left behind. `Err` only when it cannot start.
pub fn run_argv(argv: &[String], limits: &Limits) -> std::io::Result<RawRun> {
    run_once(argv, limits, &[], false)
}

/// [`run_argv`] for a command that may start processes of its own (a reducer's checker
/// script): it also stops the process group (status `None`, not timed out) as soon as any
/// flag of `cancel` is set (a check whose verdict no longer matters, or Ctrl-C), and the
/// group, children included, dies with smtstorm even on `kill -9` (`os::GroupGuard`).
pub fn run_argv_until(
    argv: &[String],
    limits: &Limits,
    cancel: &[&std::sync::atomic::AtomicBool],
) -> std::io::Result<RawRun> {
    run_once(argv, limits, cancel, true)
}

fn run_once(
    argv: &[String],
    limits: &Limits,
    cancel: &[&std::sync::atomic::AtomicBool],
    guarded: bool,
) -> std::io::Result<RawRun> {
    let t0 = Instant::now();
    let mut child = spawn(argv, limits, Stdio::null())?;
    let pid = child.id();
    // Dropped (reaped) after the group is killed below.
    let _guard = guarded.then(|| guard_group(pid));
    let out = collect(child.stdout.take().unwrap(), limits.max_output + 1);
    let err = collect(child.stderr.take().unwrap(), 1 << 20);
    let deadline = t0 + limits.time + limits.grace;
    let mut status: libc::c_int = 0;
    let mut usage = rusage();
    let (mut timed_out, mut killed) = (false, false);
    loop {
        let r = wait4(pid, true, &mut status, &mut usage);
        if r == pid as i32 || r < 0 {
            break;
        }
        let cancelled = cancel.iter().any(|c| c.load(std::sync::atomic::Ordering::Relaxed));
        if cancelled || Instant::now() >= deadline || out.lock().unwrap().len() > limits.max_output {
            timed_out = Instant::now() >= deadline;
            killed = true;
            kill_group(pid);
            wait4(pid, false, &mut status, &mut usage);
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // The child was reaped with wait4; std's handle must not wait again.
    std::mem::forget(child);
    kill_group(pid); // anything the process left running in its group
                     // Give the reader threads a moment to drain the closed pipes.
    let drain = Instant::now();
    while drain.elapsed() < Duration::from_millis(200) && (Arc::strong_count(&out) > 1 || Arc::strong_count(&err) > 1) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let stdout = String::from_utf8_lossy(&out.lock().unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&err.lock().unwrap()).into_owned();
    Ok(RawRun {
        status: (!killed).then(|| ExitStatus::from_raw(status)),
        timed_out,
        flooded: stdout.len() > limits.max_output,
        stdout,
        stderr,
        wall: t0.elapsed(),
        cpu: crate::util::cpu::rusage_cpu(&usage),
    })
}

/// Runs a solver once on a file (fresh process), with the same classification and the
/// same watchdog as a session. This is how every verdict that would become a bug is
/// confirmed, and how solvers without a session protocol run.
pub fn run_file(spec: &SolverSpec, file: &Path, checks: usize, limits: &Limits) -> QueryResult {
    let t0 = Instant::now();
    // The solver may run in a scratch directory: it gets the file by its full path.
    let abs = std::path::absolute(file);
    let argv = spec.file_argv(abs.as_deref().unwrap_or(file), limits.time);
    let run = match run_argv(&argv, limits) {
        Ok(r) => r,
        Err(e) => {
            let message = format!("cannot start {}: {e}", argv[0]);
            return failed(vec![Outcome::Error { message }; checks.max(1)], t0);
        }
    };
    let RawRun { status, timed_out, flooded, stdout, stderr, wall, cpu } = run;
    let responses = split_responses(&stdout);
    let mut crash = None;
    let outcomes = if flooded {
        vec![Outcome::Error { message: format!("output exceeds {} bytes", limits.max_output) }; checks.max(1)]
    } else if timed_out {
        partial(&responses, checks, Outcome::Timeout)
    } else {
        let (o, c) = crash_or_reply(&responses, checks, status, &stderr, &stdout);
        crash = c;
        o
    };
    QueryResult {
        data: classify_reply(&responses, checks).1,
        outcomes,
        crash,
        stdout_excerpt: excerpt(&stdout),
        stderr_excerpt: excerpt(&stderr),
        wall,
        cpu: Some(cpu),
    }
}
