//! Running solver processes: persistent sessions and one-shot runs.
//!
//! Every solver process runs in its own process group, so a watchdog can kill it with
//! everything it started; a memory limit is set on the child with `prlimit` as it starts.
//! Sessions drive their pipes with poll(2) and one-shot runs read on helper threads, so a
//! solver that hangs, floods its output or never reads its input cannot block the caller
//! past the deadline. Dropping a [`Session`] kills and reaps
//! its process: nothing is left behind.

use super::outcome::{classify_reply, normalise_crash, split_responses, Outcome, QueryResult};
use super::registry::SolverSpec;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Limits for one query.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The solver's own per-query limit; the watchdog fires `grace` later.
    pub time: Duration,
    pub grace: Duration,
    /// Address-space limit for the solver process, in bytes.
    pub memory: Option<u64>,
    /// Output beyond this many bytes makes the query an error (and restarts the process).
    pub max_output: usize,
}

/// The per-query time limit when none is given, in seconds: campaigns, `check`,
/// triage and reduction all start from it.
pub const DEFAULT_TIMEOUT_S: f64 = 10.0;
/// The memory limit per solver process when none is given, in MiB.
pub const DEFAULT_MEMORY_MB: u64 = 8192;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_secs_f64(DEFAULT_TIMEOUT_S),
            grace: Duration::from_secs(2),
            memory: Some(DEFAULT_MEMORY_MB << 20),
            max_output: 64 << 20,
        }
    }
}

const EXCERPT: usize = 4096;

fn excerpt(s: &str) -> String {
    if s.len() <= EXCERPT {
        return s.to_string();
    }
    let mut end = EXCERPT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

fn spawn(argv: &[String], memory: Option<u64>, stdin: Stdio) -> std::io::Result<Child> {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]).stdin(stdin).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    // No `pre_exec`: it makes std fork() instead of posix_spawn (vfork), and fork copies
    // this process's page tables for every solver start — measured as most of smtstorm's
    // own CPU in an OpFuzz campaign (kernel `copy_page_range`, one-shot confirmations and
    // restarts). The memory limit is set on the child with prlimit(2) right after it
    // exists, before it has read any input.
    let child = cmd.spawn()?;
    if let Some(bytes) = memory {
        let lim = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
        // SAFETY: plain syscall on our own child's pid with a limit struct we own.
        unsafe { libc::prlimit(child.id() as libc::pid_t, libc::RLIMIT_AS, &lim, std::ptr::null_mut()) };
    }
    Ok(child)
}

fn kill_group(pid: u32) {
    // SAFETY: plain syscall; the negative pid addresses the process group we created.
    unsafe {
        libc::kill(-(pid as i32), libc::SIGKILL);
    }
}

/// The CPU-time clock of process `pid` (user + system of all its threads).
fn cpu_clock(pid: u32) -> Option<libc::clockid_t> {
    let mut clk: libc::clockid_t = 0;
    // SAFETY: plain libc call writing one clockid_t we own.
    (unsafe { libc::clock_getcpuclockid(pid as libc::pid_t, &mut clk) } == 0).then_some(clk)
}

/// Reads a process's CPU clock. Replaces reading `/proc/<pid>/stat` once per query,
/// which cost the kernel a text rendering of 52 fields (a visible share of smtstorm's own
/// CPU in a campaign, issue 5) and counted in 10 ms ticks, coarser than most queries;
/// the clock counts nanoseconds.
fn cpu_time(clk: libc::clockid_t) -> Option<Duration> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: plain syscall writing one timespec we own.
    (unsafe { libc::clock_gettime(clk, &mut t) } == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

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

enum Line {
    Text(String),
    Eof,
}

/// The deadline passed before a whole line arrived.
struct TimedOut;

fn set_nonblocking(fd: &impl AsRawFd) {
    // SAFETY: fcntl on a descriptor we own; only the O_NONBLOCK status flag changes.
    unsafe {
        let fl = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, fl | libc::O_NONBLOCK);
    }
}

/// Cap on the stderr kept per process (the rest is read and dropped).
const STDERR_CAP: usize = 1 << 20;

/// A session process's three pipes, driven with poll(2) from the calling thread.
///
/// No helper threads and no channel message per line: the first version read stdout on
/// a thread and forwarded each line through a channel, and wrote stdin on another; the
/// wake-ups, futexes and thread starts were most of smtstorm's own CPU in a campaign
/// (BENCHMARKS.md, issue 5). Every fd is non-blocking, and writing happens inside the
/// same poll loop as reading, so a solver that stops reading its input, floods its
/// output or hangs still cannot block the caller past the deadline.
struct Pipes {
    /// `None` once the solver closed its end (EPIPE): what was pending is dropped.
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// `None` at end of file.
    stderr: Option<ChildStderr>,
    /// Bytes queued for stdin; `pending[written..]` is still to be written.
    pending: Vec<u8>,
    written: usize,
    /// Stdout read but not yet returned: `out[out_pos..]`.
    out: Vec<u8>,
    out_pos: usize,
    out_eof: bool,
    err: Vec<u8>,
}

impl Pipes {
    fn new(stdin: ChildStdin, stdout: ChildStdout, stderr: ChildStderr) -> Pipes {
        set_nonblocking(&stdin);
        set_nonblocking(&stdout);
        set_nonblocking(&stderr);
        Pipes {
            stdin: Some(stdin),
            stdout,
            stderr: Some(stderr),
            pending: Vec::new(),
            written: 0,
            out: Vec::with_capacity(1 << 14),
            out_pos: 0,
            out_eof: false,
            err: Vec::new(),
        }
    }

    /// Queues `msg` for the solver's stdin and writes what the pipe takes right away.
    fn send(&mut self, msg: Vec<u8>) {
        if self.stdin.is_none() {
            return;
        }
        if self.written == self.pending.len() {
            self.pending = msg;
            self.written = 0;
        } else {
            self.pending.extend_from_slice(&msg);
        }
        self.write_some();
    }

    fn write_some(&mut self) {
        while self.written < self.pending.len() {
            let Some(w) = self.stdin.as_mut() else { return };
            match w.write(&self.pending[self.written..]) {
                Ok(0) => break,
                Ok(n) => self.written += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    // The solver closed its input (it exited): its output says why.
                    self.stdin = None;
                    self.pending.clear();
                    self.written = 0;
                    return;
                }
            }
        }
    }

    /// Reads what stdout has now (until the pipe is empty or closed).
    fn read_stdout(&mut self) {
        if self.out_pos > 0 {
            self.out.drain(..self.out_pos);
            self.out_pos = 0;
        }
        loop {
            // Straight into the buffer's spare room: no bounce buffer to zero and copy.
            self.out.reserve(1 << 14);
            let spare = self.out.spare_capacity_mut();
            // SAFETY: reads at most `spare.len()` bytes into memory the vector owns.
            let n = unsafe { libc::read(self.stdout.as_raw_fd(), spare.as_mut_ptr().cast(), spare.len()) };
            if n > 0 {
                let room = spare.len();
                // SAFETY: the kernel initialised the first `n` bytes of the spare room.
                unsafe { self.out.set_len(self.out.len() + n as usize) };
                if (n as usize) < room {
                    // A pipe read returns what is there: the pipe is empty now, and
                    // another read would only say so (one syscall per wake-up).
                    return;
                }
                continue;
            }
            if n == 0 {
                self.out_eof = true;
                return;
            }
            match std::io::Error::last_os_error().kind() {
                std::io::ErrorKind::Interrupted => {}
                std::io::ErrorKind::WouldBlock => return,
                _ => {
                    self.out_eof = true;
                    return;
                }
            }
        }
    }

    /// Reads what stderr has now, keeping at most [`STDERR_CAP`] bytes.
    fn read_stderr(&mut self) {
        let mut chunk = [0u8; 8192];
        while let Some(e) = self.stderr.as_mut() {
            match e.read(&mut chunk) {
                Ok(0) => self.stderr = None,
                Ok(n) => {
                    let room = STDERR_CAP.saturating_sub(self.err.len());
                    self.err.extend_from_slice(&chunk[..n.min(room)]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(_) => self.stderr = None,
            }
        }
    }

    /// The next stdout line already read (with its newline), or `Eof` when the solver
    /// closed stdout and everything was returned; `None` until more arrives. A run of more
    /// than `max_line` bytes without a newline comes back as one line, so the caller's
    /// output cap sees a flood.
    fn take_line(&mut self, max_line: usize) -> Option<Line> {
        let rest = &self.out[self.out_pos..];
        let n = match memchr::memchr(b'\n', rest) {
            Some(i) => i + 1,
            None if rest.len() > max_line || (self.out_eof && !rest.is_empty()) => rest.len(),
            None if self.out_eof => return Some(Line::Eof),
            None => return None,
        };
        let line = String::from_utf8_lossy(&rest[..n]).into_owned();
        self.out_pos += n;
        Some(Line::Text(line))
    }

    /// Adds the descriptors to wait on: stdout, stderr while open, stdin while input is
    /// pending.
    fn poll_fds(&self, fds: &mut Vec<libc::pollfd>) {
        fds.push(libc::pollfd { fd: self.stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 });
        if let Some(e) = &self.stderr {
            fds.push(libc::pollfd { fd: e.as_raw_fd(), events: libc::POLLIN, revents: 0 });
        }
        if let (Some(w), true) = (&self.stdin, self.written < self.pending.len()) {
            fds.push(libc::pollfd { fd: w.as_raw_fd(), events: libc::POLLOUT, revents: 0 });
        }
    }

    /// Services descriptor `fd`, which poll reported ready.
    fn ready(&mut self, fd: libc::c_int) {
        if fd == self.stdout.as_raw_fd() {
            self.read_stdout();
        } else if self.stderr.as_ref().is_some_and(|e| e.as_raw_fd() == fd) {
            self.read_stderr();
        } else if self.stdin.as_ref().is_some_and(|w| w.as_raw_fd() == fd) {
            self.write_some();
        }
    }
}

struct Proc {
    child: Child,
    pid: u32,
    pipes: Pipes,
    /// CPU-time clock of the process ([`cpu_clock`]).
    clock: Option<libc::clockid_t>,
    queries: u32,
}

impl Proc {
    fn start(spec: &SolverSpec, limits: &Limits) -> std::io::Result<Proc> {
        let argv = spec.session_argv(limits.time);
        let mut child = spawn(&argv, limits.memory, Stdio::piped())?;
        let pid = child.id();
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let pipes = Pipes::new(stdin.unwrap(), stdout.unwrap(), stderr.unwrap());
        let clock = cpu_clock(pid);
        Ok(Proc { child, pid, pipes, clock, queries: 0 })
    }

    /// Kills the process group and reaps the process.
    fn kill(mut self) -> Option<ExitStatus> {
        kill_group(self.pid);
        self.child.wait().ok()
    }

    /// Kills and reaps the process, then returns its exit status and everything it wrote
    /// to stderr: once it is dead, its last words are all in the pipe.
    fn end(mut self) -> (Option<ExitStatus>, String) {
        kill_group(self.pid);
        let status = self.child.wait().ok();
        self.pipes.read_stderr();
        (status, String::from_utf8_lossy(&self.pipes.err).into_owned())
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        kill_group(self.pid);
        let _ = self.child.wait();
    }
}

/// How a session separates queries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Framing {
    /// `(reset)` before every query: each query is a whole script. The default.
    Reset,
    /// One solver context per process: `prelude` (logic and options) is sent once when
    /// the process starts, and each query is wrapped in `(push 1)` ... `(pop 1)`. z3 runs
    /// different engines under push/pop (incremental mode), so this is a separate
    /// configuration, used for incremental instances — never silently mixed with `Reset`.
    PushPop { prelude: String },
}

/// A persistent solver process answering one query after another.
///
/// Each query is framed as `(reset)` + options + script + `(echo "<marker>")` and read up
/// to the marker. Options are sent with every query because z3 and yices keep them across
/// `(reset)`. After a timeout, crash, flood or garbage the process is killed and the next
/// query starts a fresh one; it is also restarted every `restart_every` queries.
pub struct Session {
    spec: SolverSpec,
    limits: Limits,
    proc: Option<Proc>,
    serial: u64,
    /// Options sent before every query, e.g. `(set-option :produce-models true)`.
    pub options: String,
    pub framing: Framing,
    /// Processes started so far (for tests and statistics).
    pub starts: u64,
}

impl Session {
    pub fn new(spec: SolverSpec, limits: Limits) -> Session {
        Session { spec, limits, proc: None, serial: 0, options: String::new(), framing: Framing::Reset, starts: 0 }
    }

    /// A session that switches the solver's own model validation on for every query (z3
    /// `model_validate`, cvc5 `check-models`), as campaigns, the reducer's judge and the
    /// fuzz targets do: an invalid model is then an outcome, not a silent wrong answer.
    pub fn validating(spec: SolverSpec, limits: Limits) -> Session {
        let options = spec.family.dialect().model_validation.to_string();
        Session { options, ..Session::new(spec, limits) }
    }

    /// A push/pop session (see [`Framing::PushPop`]).
    pub fn incremental(spec: SolverSpec, limits: Limits, prelude: &str) -> Session {
        Session { framing: Framing::PushPop { prelude: prelude.to_string() }, ..Session::new(spec, limits) }
    }

    pub fn spec(&self) -> &SolverSpec {
        &self.spec
    }

    /// Changes the per-query limit for the following queries. The solver's own limit was
    /// fixed when its process started; a shorter limit is enforced by the watchdog
    /// (which kills and restarts the process), a longer one after the next restart.
    pub fn set_time_limit(&mut self, time: Duration) {
        self.limits.time = time;
    }

    /// Pid of the running process, if any.
    pub fn pid(&self) -> Option<u32> {
        self.proc.as_ref().map(|p| p.pid)
    }

    /// Runs `script` (SMT-LIB text without `(exit)`), which has `checks` check-sats.
    pub fn query(&mut self, script: &str, checks: usize) -> QueryResult {
        self.query_batch(&[(script, checks)]).pop().unwrap()
    }

    /// Runs several independent queries, pipelined: all are written at once, so the
    /// solver never sleeps waiting for the next one (a round trip costs z3 ~1.5 ms here).
    /// Each query still gets its own time limit, counted from when the previous one
    /// finished, and its own outcome. After a timeout, crash or flood the process is
    /// killed and the queries it had not answered run again in a fresh process.
    pub fn query_batch(&mut self, queries: &[(&str, usize)]) -> Vec<QueryResult> {
        query_batches(&mut [(self, queries)]).pop().unwrap_or_default()
    }

    /// Starts a run of `queries` (restarting the process if it is due, starting one if
    /// there is none) and sends as many as this process may answer. `Err` when no
    /// process could be started: that is the first query's result.
    fn launch(&mut self, queries: &[(&str, usize)]) -> Result<Run, Box<QueryResult>> {
        let t_start = Instant::now();
        let restart = self.spec.restart_every() as usize;
        if self.proc.as_ref().is_some_and(|p| restart > 0 && p.queries as usize >= restart) {
            self.proc.take().map(Proc::kill);
        }
        if self.proc.is_none() {
            match Proc::start(&self.spec, &self.limits) {
                Ok(p) => {
                    self.proc = Some(p);
                    self.starts += 1;
                }
                Err(e) => {
                    let message = format!("cannot start {}: {e}", self.spec.command[0]);
                    return Err(Box::new(failed(vec![Outcome::Error { message }; queries[0].1.max(1)], t_start)));
                }
            }
        }
        // Only as many queries as the process may still answer before its restart.
        let p = self.proc.as_mut().unwrap();
        let room = if restart > 0 { restart - p.queries as usize } else { queries.len() };
        let queries = &queries[..queries.len().min(room.max(1))];
        let mut markers = Vec::with_capacity(queries.len());
        let mut msg = String::new();
        if p.queries == 0 {
            if let Framing::PushPop { prelude } = &self.framing {
                msg.push_str(&self.options);
                msg.push_str(prelude);
                msg.push('\n');
            }
        }
        for (script, _) in queries {
            self.serial += 1;
            let marker = format!("smtstorm-{}-{}", p.pid, self.serial);
            match self.framing {
                Framing::Reset => {
                    msg.push_str("(reset)\n");
                    msg.push_str(&self.options);
                    msg.push_str(script);
                }
                Framing::PushPop { .. } => {
                    msg.push_str("(push 1)\n");
                    msg.push_str(script);
                    msg.push_str("\n(pop 1)");
                }
            }
            msg.push_str(&format!("\n(echo \"{marker}\")\n"));
            markers.push(marker);
        }
        p.pipes.send(msg.into_bytes());
        let checks = queries.iter().map(|q| q.1).collect();
        let mut run = Run { markers, checks, done: 0, t0: t_start, out: String::new(), cpu_prev: None };
        self.begin_query(&mut run);
        Ok(run)
    }

    fn begin_query(&mut self, run: &mut Run) {
        let p = self.proc.as_mut().unwrap();
        p.queries += 1;
        // One clock read per query: a query's end reading is the next one's start.
        if run.cpu_prev.is_none() {
            run.cpu_prev = p.clock.and_then(cpu_time);
        }
    }

    /// The current query's deadline.
    fn deadline(&self, run: &Run) -> Instant {
        run.t0 + self.limits.time + self.limits.grace
    }

    /// Feeds one event (a line, end of file, or the deadline) to the current query of
    /// `run`. When the query ends, its result goes to `results`; returns whether the run
    /// is over (all its queries answered, or the process ended).
    fn step(&mut self, run: &mut Run, ev: Result<Line, TimedOut>, results: &mut Vec<QueryResult>) -> bool {
        let marker = &run.markers[run.done];
        let end = match ev {
            Ok(Line::Text(l)) => {
                let t = l.trim();
                // cvc5 prints the echo quoted, z3 and yices bare.
                if t == marker || t.strip_prefix('"').and_then(|x| x.strip_suffix('"')) == Some(marker.as_str()) {
                    End::Marker
                } else {
                    run.out.push_str(&l);
                    if run.out.len() <= self.limits.max_output {
                        return false;
                    }
                    End::Flood
                }
            }
            Ok(Line::Eof) => End::Eof,
            Err(TimedOut) => End::Timeout,
        };
        let checks = run.checks[run.done];
        let p = self.proc.as_mut().unwrap();
        let cpu1 = p.clock.and_then(cpu_time);
        let cpu = match (run.cpu_prev, cpu1) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        run.cpu_prev = cpu1;
        let out = std::mem::take(&mut run.out);
        let responses = split_responses(&out);
        let (answers, data) = classify_reply(&responses, checks);
        let mut crash = None;
        let alive = matches!(end, End::Marker);
        // The stderr excerpt: a live process's stderr is excerpted in place (it grows up
        // to 1 MB over a process's life and was copied whole for every query before).
        let (outcomes, stderr_excerpt) = match end {
            End::Marker => (answers, excerpt(&String::from_utf8_lossy(&p.pipes.err))),
            End::Timeout => {
                let (_, stderr) = self.proc.take().unwrap().end();
                (partial(&responses, checks, Outcome::Timeout), excerpt(&stderr))
            }
            End::Flood => {
                let (_, stderr) = self.proc.take().unwrap().end();
                let message = format!("output exceeds {} bytes", self.limits.max_output);
                (vec![Outcome::Error { message }; checks.max(1)], excerpt(&stderr))
            }
            End::Eof => {
                // Died before the marker: a crash, unless it exited 0 after answering
                // everything (a script with `(exit)`) or printed an error (yices exits 0).
                let (status, stderr) = self.proc.take().unwrap().end();
                let (o, c) = crash_or_reply(&responses, checks, status, &stderr, &out);
                crash = c;
                (o, excerpt(&stderr))
            }
        };
        let now = Instant::now();
        results.push(QueryResult {
            data,
            outcomes,
            crash,
            stdout_excerpt: excerpt(&out),
            stderr_excerpt,
            wall: now - run.t0,
            cpu,
        });
        run.t0 = now;
        run.done += 1;
        if !alive || run.done == run.markers.len() {
            return true;
        }
        self.begin_query(run);
        false
    }
}

/// One process's share of a batch in flight: the queries sent to it and how far it got.
struct Run {
    markers: Vec<String>,
    checks: Vec<usize>,
    /// Queries answered so far; `markers[done]` is the one being read.
    done: usize,
    /// When the current query's time started (the previous one's end).
    t0: Instant,
    out: String,
    cpu_prev: Option<Duration>,
}

/// A session and the batch of `(script, check-sat count)` queries it is to answer.
pub type BatchJob<'a> = (&'a mut Session, &'a [(&'a str, usize)]);

/// Runs a batch on each of several sessions at the same time, from the calling thread:
/// one poll(2) waits on every process, so a batch costs the slowest solver, not the sum,
/// and no thread is started per batch (two thread starts per batch were a measurable
/// part of smtstorm's own CPU in a campaign). Each session behaves exactly as
/// [`Session::query_batch`]: per-query limits, restarts after a timeout, crash or flood,
/// and the unanswered rest re-sent to a fresh process.
pub fn query_batches(jobs: &mut [BatchJob<'_>]) -> Vec<Vec<QueryResult>> {
    let mut results: Vec<Vec<QueryResult>> = jobs.iter().map(|j| Vec::with_capacity(j.1.len())).collect();
    let mut runs: Vec<Option<Run>> = jobs.iter().map(|_| None).collect();
    let mut fds: Vec<libc::pollfd> = Vec::new();
    let mut owner: Vec<usize> = Vec::new();
    loop {
        // Start a run wherever one is due; feed every buffered line and expired deadline.
        let mut next_deadline: Option<Instant> = None;
        for (k, (sess, queries)) in jobs.iter_mut().enumerate() {
            loop {
                if runs[k].is_none() {
                    if results[k].len() == queries.len() {
                        break;
                    }
                    match sess.launch(&queries[results[k].len()..]) {
                        Ok(r) => runs[k] = Some(r),
                        Err(r) => {
                            results[k].push(*r);
                            continue;
                        }
                    }
                }
                let run = runs[k].as_mut().unwrap();
                let ev = if Instant::now() >= sess.deadline(run) {
                    Err(TimedOut)
                } else {
                    match sess.proc.as_mut().unwrap().pipes.take_line(sess.limits.max_output) {
                        Some(line) => Ok(line),
                        None => break,
                    }
                };
                if sess.step(run, ev, &mut results[k]) {
                    runs[k] = None;
                }
            }
            if let Some(run) = &runs[k] {
                let d = sess.deadline(run);
                next_deadline = Some(next_deadline.map_or(d, |n| n.min(d)));
            }
        }
        let Some(deadline) = next_deadline else { break };
        fds.clear();
        owner.clear();
        for (k, (sess, _)) in jobs.iter().enumerate() {
            if runs[k].is_some() {
                let n = fds.len();
                sess.proc.as_ref().unwrap().pipes.poll_fds(&mut fds);
                owner.extend(std::iter::repeat_n(k, fds.len() - n));
            }
        }
        let now = Instant::now();
        let ms = deadline.saturating_duration_since(now).as_micros().div_ceil(1000).min(i32::MAX as u128);
        // SAFETY: `fds` is a live vector of pollfd.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms as libc::c_int) };
        if r <= 0 {
            continue; // a deadline (handled above) or EINTR
        }
        for (f, &k) in fds.iter().zip(&owner) {
            if f.revents != 0 {
                if let Some(p) = jobs[k].0.proc.as_mut() {
                    p.pipes.ready(f.fd);
                }
            }
        }
    }
    results
}

enum End {
    Marker,
    Timeout,
    Flood,
    Eof,
}

/// A result without any solver output (the process could not be started or fed).
pub fn failed(outcomes: Vec<Outcome>, t0: Instant) -> QueryResult {
    QueryResult {
        outcomes,
        crash: None,
        data: vec![],
        stdout_excerpt: String::new(),
        stderr_excerpt: String::new(),
        wall: t0.elapsed(),
        cpu: None,
    }
}

/// Answers read before the query was cut short keep their value; the rest get `rest`.
/// Any error read so far invalidates the query.
fn partial(responses: &[&str], checks: usize, rest: Outcome) -> Vec<Outcome> {
    let (got, _) =
        classify_reply(responses, responses.iter().filter(|r| matches!(**r, "sat" | "unsat" | "unknown")).count());
    if let Some(e @ Outcome::Error { .. }) = got.first() {
        return vec![e.clone(); checks.max(1)];
    }
    let mut v: Vec<Outcome> = got.into_iter().take(checks).collect();
    while v.len() < checks.max(1) {
        v.push(rest.clone());
    }
    v
}

/// Outcomes of a process that ended before the end marker (or a one-shot run), and the
/// crash if it died abnormally.
fn crash_or_reply(
    responses: &[&str],
    checks: usize,
    status: Option<ExitStatus>,
    stderr: &str,
    out: &str,
) -> (Vec<Outcome>, Option<Outcome>) {
    let signal = status.and_then(|s| s.signal());
    let code = status.and_then(|s| s.code());
    let has_error = responses.iter().any(|r| super::outcome::error_message(r).is_some());
    if (signal.is_none() && code == Some(0)) || (signal.is_none() && has_error) {
        // A clean exit (or an error reply, which yices and cvc5 follow with an exit).
        let answered = responses.iter().filter(|r| matches!(**r, "sat" | "unsat" | "unknown")).count();
        if !has_error && answered < checks {
            let message = "solver exited before answering".to_string();
            return (partial(responses, checks, Outcome::Error { message }), None);
        }
        return (classify_reply(responses, checks).0, None);
    }
    let crash = Outcome::Crash { signal, exit_code: code, message: normalise_crash(stderr, out, signal, code) };
    (partial(responses, checks, crash.clone()), Some(crash))
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
    let t0 = Instant::now();
    let mut child = spawn(argv, limits.memory, Stdio::null())?;
    let pid = child.id();
    let out = collect(child.stdout.take().unwrap(), limits.max_output + 1);
    let err = collect(child.stderr.take().unwrap(), 1 << 20);
    let deadline = t0 + limits.time + limits.grace;
    let mut status: libc::c_int = 0;
    // SAFETY: zeroed rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let (mut timed_out, mut killed) = (false, false);
    loop {
        // SAFETY: waits for our own child; status and usage point to live locals.
        let r = unsafe { libc::wait4(pid as i32, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid as i32 || r < 0 {
            break;
        }
        if Instant::now() >= deadline || out.lock().unwrap().len() > limits.max_output {
            timed_out = Instant::now() >= deadline;
            killed = true;
            kill_group(pid);
            // SAFETY: as above; blocking wait after SIGKILL.
            unsafe { libc::wait4(pid as i32, &mut status, 0, &mut usage) };
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
    let argv = spec.file_argv(file, limits.time);
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
