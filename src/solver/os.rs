//! The operating-system calls of solver processes, each behind a safe function: spawning
//! into a process group with a memory limit and a parent-death signal, killing the group, per-process CPU clocks,
//! non-blocking pipes, raw reads into a buffer's spare room, poll(2) and wait4(2). Every
//! `unsafe` of the solver floor that talks to the kernel is here, each with the reason it
//! is sound; the other is the optional in-process z3 binding's FFI ([`super::inprocess`],
//! feature `z3-inprocess`), which carries its own reasons.

use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, OnceLock};
use std::time::Duration;

pub(super) fn spawn(argv: &[String], limits: &super::Limits, stdin: Stdio) -> std::io::Result<Child> {
    let memory = limits.memory;
    // A relative executable path (`--solver a=./mysolver`) means relative to where we run,
    // also when the solver runs in the scratch directory.
    let workdir = super::sandbox::workdir();
    let exe: PathBuf = match workdir {
        Some(_) if argv[0].contains('/') => std::path::absolute(&argv[0])?,
        _ => argv[0].clone().into(),
    };
    // The solver dies with smtstorm, `kill -9` included: util-linux's `setpriv` sets the
    // parent-death signal (PR_SET_PDEATHSIG) and execs the solver in the same process.
    // The parent that counts is the *thread* that spawned it, so every spawn goes through
    // a thread that lives as long as the process, confined to the scratch directory
    // ([`super::sandbox::confine_writes`]). A missing solver is still an error here, as
    // it was without the wrapper.
    let wrapper = setpriv().filter(|_| resolve(&exe).is_some());
    let mut cmd = match wrapper {
        Some(w) => {
            let mut c = Command::new(w);
            c.args(["--pdeathsig", "KILL", "--"]).arg(&exe);
            c
        }
        None => Command::new(&exe),
    };
    cmd.args(&argv[1..]).stdin(stdin).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    if let Some(dir) = workdir {
        // glibc's posix_spawn_file_actions_addchdir_np: still no fork.
        cmd.current_dir(dir);
    }
    // No `pre_exec`: it makes std fork() instead of posix_spawn (vfork), and fork copies
    // this process's page tables for every solver start — measured as most of smtstorm's
    // own CPU in an OpFuzz campaign (kernel `copy_page_range`, one-shot confirmations and
    // restarts). The memory limit is set on the child with prlimit(2) right after it
    // exists, before it has read any input.
    let child = spawn_on_spawner(cmd, workdir)?;
    crate::util::stop::register_group(child.id());
    if let Some(bytes) = memory {
        let lim = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
        // SAFETY: plain syscall on our own child's pid with a limit struct we own.
        unsafe { libc::prlimit(child.id() as libc::pid_t, libc::RLIMIT_AS, &lim, std::ptr::null_mut()) };
    }
    Ok(child)
}

/// `exe` as it would be executed: itself if it names a path, else the first executable
/// of that name on `PATH`.
pub(crate) fn resolve(exe: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    if exe.components().count() > 1 || exe.is_absolute() {
        return runnable(exe).then(|| exe.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(exe)).find(|p| runnable(p))
}

/// util-linux's `setpriv`, if it is installed and knows `--pdeathsig` (2.33 and later).
/// `SMTSTORM_NO_PDEATHSIG=1` turns the wrapper off.
fn setpriv() -> Option<&'static Path> {
    static SETPRIV: OnceLock<Option<PathBuf>> = OnceLock::new();
    SETPRIV
        .get_or_init(|| {
            if std::env::var_os("SMTSTORM_NO_PDEATHSIG").is_some_and(|v| v == "1") {
                return None;
            }
            let p = resolve(Path::new("setpriv"))?;
            let ok = Command::new(&p)
                .args(["--pdeathsig", "KILL", "--", "true"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            ok.then_some(p)
        })
        .as_deref()
}

type Request = (Command, mpsc::Sender<std::io::Result<Child>>);

/// A spawner thread: where it sends requests, and how the kernel confines it.
struct Spawner {
    tx: mpsc::Sender<Request>,
    confinement: super::sandbox::Confinement,
}

/// The spawner threads, one per scratch directory (a process sets one, tests several).
static SPAWNERS: std::sync::Mutex<Vec<(Option<&'static Path>, Spawner)>> = std::sync::Mutex::new(Vec::new());

/// The spawner thread for `workdir`, started (and confined, [`super::sandbox::confine_writes`])
/// on first use; it never ends.
fn spawner(workdir: Option<&'static Path>) -> std::io::Result<(mpsc::Sender<Request>, super::sandbox::Confinement)> {
    let mut all = SPAWNERS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, s)) = all.iter().find(|(d, _)| *d == workdir) {
        return Ok((s.tx.clone(), s.confinement));
    }
    let (tx, rx) = mpsc::channel::<Request>();
    let (ready_tx, ready) = mpsc::channel();
    std::thread::Builder::new().name("smtstorm-spawner".into()).spawn(move || {
        let _ = ready_tx.send(super::sandbox::confine_writes(workdir));
        for (mut c, reply) in rx {
            let _ = reply.send(c.spawn());
        }
    })?;
    let confinement = ready.recv().map_err(|_| std::io::Error::other("the spawner thread did not start"))?;
    all.push((workdir, Spawner { tx: tx.clone(), confinement }));
    Ok((tx, confinement))
}

/// How solver processes started now are confined ([`super::sandbox::confine_writes`]):
/// what the spawner thread for the current scratch directory got, asked of the kernel
/// once.
pub fn confinement() -> super::sandbox::Confinement {
    spawner(super::sandbox::workdir()).map_or(super::sandbox::Confinement::TextOnly, |s| s.1)
}

/// Spawns `cmd` from the spawner thread for `workdir` (see [`spawn`]). There is no
/// unconfined fallback: a solver that cannot be started confined is not started.
fn spawn_on_spawner(cmd: Command, workdir: Option<&'static Path>) -> std::io::Result<Child> {
    let (tx, _) = spawner(workdir)?;
    let (reply, answer) = mpsc::channel();
    let gone = || std::io::Error::other("the spawner thread is gone");
    tx.send((cmd, reply)).map_err(|_| gone())?;
    answer.recv().map_err(|_| gone())?
}

/// A watchdog inside a process group that kills the whole group when smtstorm dies,
/// `kill -9` included. The parent-death signal of [`spawn`] reaches only the process it
/// was set on: a reducer's checker script dies with smtstorm, but what the script started
/// (`z3 ... &`, `sleep 1000`) would be left running, orphaned. The watchdog is a shell
/// blocked reading a pipe whose only writer is this process; when the process ends, in
/// whatever way, the kernel closes the pipe, `read` returns, and the shell kills its
/// group (`kill 0`), itself included. It is a second process, so only checks that may
/// start children get one (`oneshot::run_argv_until`), not every solver start.
pub(super) struct GroupGuard(Child);

/// Puts a [`GroupGuard`] into the process group `pgid` (a child spawned by [`spawn`],
/// not yet reaped, so the group exists even if its leader has exited). `None` when no
/// shell can be started or the group is gone: the check then runs as before, its
/// children killed at its end but not at smtstorm's death.
pub(super) fn guard_group(pgid: u32) -> Option<GroupGuard> {
    let child = Command::new("/bin/sh")
        .args(["-c", "read x; kill -KILL 0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(pgid as i32)
        .spawn()
        .ok()?;
    Some(GroupGuard(child))
}

impl Drop for GroupGuard {
    /// The guard is normally killed with its group (`kill_group`); this reaps it, and
    /// stops it if the group was not killed.
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(super) fn kill_group(pid: u32) {
    // SAFETY: plain syscall; the negative pid addresses the process group we created.
    unsafe {
        libc::kill(-(pid as i32), libc::SIGKILL);
    }
    crate::util::stop::forget_group(pid);
}

/// The CPU-time clock of process `pid` (user + system of all its threads).
pub(super) fn cpu_clock(pid: u32) -> Option<libc::clockid_t> {
    let mut clk: libc::clockid_t = 0;
    // SAFETY: plain libc call writing one clockid_t we own.
    (unsafe { libc::clock_getcpuclockid(pid as libc::pid_t, &mut clk) } == 0).then_some(clk)
}

/// Reads a process's CPU clock. Replaces reading `/proc/<pid>/stat` once per query,
/// which cost the kernel a text rendering of 52 fields (a visible share of smtstorm's own
/// CPU in a campaign, issue 5) and counted in 10 ms ticks, coarser than most queries;
/// the clock counts nanoseconds.
pub(super) fn cpu_time(clk: libc::clockid_t) -> Option<Duration> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: plain syscall writing one timespec we own.
    (unsafe { libc::clock_gettime(clk, &mut t) } == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

pub(super) fn set_nonblocking(fd: &impl AsRawFd) {
    // SAFETY: fcntl on a descriptor we own; only the O_NONBLOCK status flag changes.
    unsafe {
        let fl = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, fl | libc::O_NONBLOCK);
    }
}

/// Reads from `fd` straight into the spare capacity of `buf` (no bounce buffer to zero
/// and copy), after reserving `reserve` bytes. Returns what read(2) returned and how much
/// room there was: `n > 0` bytes were appended; 0 is end of file; < 0 an error
/// (`std::io::Error::last_os_error()` says which).
pub(super) fn read_append(fd: &impl AsRawFd, buf: &mut Vec<u8>, reserve: usize) -> (isize, usize) {
    buf.reserve(reserve);
    let spare = buf.spare_capacity_mut();
    let room = spare.len();
    // SAFETY: read(2) writes at most `room` bytes into memory the vector owns.
    let n = unsafe { libc::read(fd.as_raw_fd(), spare.as_mut_ptr().cast(), room) };
    if n > 0 {
        // SAFETY: the kernel initialised the first `n <= room` bytes of the spare room.
        unsafe { buf.set_len(buf.len() + n as usize) };
    }
    (n, room)
}

/// poll(2) on `fds` for at most `ms` milliseconds; the number of ready descriptors, 0 on
/// time-out, < 0 on error (EINTR).
pub(super) fn poll(fds: &mut [libc::pollfd], ms: libc::c_int) -> libc::c_int {
    // SAFETY: `fds` is a live, exclusively borrowed slice of pollfd of the given length.
    unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) }
}

/// A zeroed `rusage` for [`wait4`] to fill.
pub(super) fn rusage() -> libc::rusage {
    // SAFETY: rusage is plain old data; all-zero is a valid value.
    unsafe { std::mem::zeroed() }
}

/// wait4(2) on our own child `pid`, without blocking if `nohang`; fills `status` and
/// `usage`. Returns the pid when the child was reaped, 0 if it is still running (with
/// `nohang`), < 0 on error.
pub(super) fn wait4(pid: u32, nohang: bool, status: &mut libc::c_int, usage: &mut libc::rusage) -> libc::pid_t {
    let flags = if nohang { libc::WNOHANG } else { 0 };
    // SAFETY: `status` and `usage` are exclusive references to live values.
    unsafe { libc::wait4(pid as libc::pid_t, status, flags, usage) }
}
