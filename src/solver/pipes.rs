//! A session process and its three pipes, driven with poll(2) from the calling thread.

use super::limits::Limits;
use super::os::{cpu_clock, kill_group, read_append, set_nonblocking, spawn};
use super::registry::SolverSpec;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, ExitStatus, Stdio};

pub(super) enum Line {
    Text(String),
    Eof,
}

/// The deadline passed before a whole line arrived.
pub(super) struct TimedOut;

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
pub(super) struct Pipes {
    /// `None` once the solver closed its end (EPIPE): what was pending is dropped.
    pub(super) stdin: Option<ChildStdin>,
    pub(super) stdout: ChildStdout,
    /// `None` at end of file.
    pub(super) stderr: Option<ChildStderr>,
    /// Bytes queued for stdin; `pending[written..]` is still to be written.
    pub(super) pending: Vec<u8>,
    pub(super) written: usize,
    /// Stdout read but not yet returned: `out[out_pos..]`.
    pub(super) out: Vec<u8>,
    pub(super) out_pos: usize,
    pub(super) out_eof: bool,
    pub(super) err: Vec<u8>,
}

impl Pipes {
    pub(super) fn new(stdin: ChildStdin, stdout: ChildStdout, stderr: ChildStderr) -> Pipes {
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
    pub(super) fn send(&mut self, msg: Vec<u8>) {
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

    pub(super) fn write_some(&mut self) {
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
    pub(super) fn read_stdout(&mut self) {
        if self.out_pos > 0 {
            self.out.drain(..self.out_pos);
            self.out_pos = 0;
        }
        loop {
            let (n, room) = read_append(&self.stdout, &mut self.out, 1 << 14);
            if n > 0 {
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
    pub(super) fn read_stderr(&mut self) {
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
    pub(super) fn take_line(&mut self, max_line: usize) -> Option<Line> {
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
    pub(super) fn poll_fds(&self, fds: &mut Vec<libc::pollfd>) {
        fds.push(libc::pollfd { fd: self.stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 });
        if let Some(e) = &self.stderr {
            fds.push(libc::pollfd { fd: e.as_raw_fd(), events: libc::POLLIN, revents: 0 });
        }
        if let (Some(w), true) = (&self.stdin, self.written < self.pending.len()) {
            fds.push(libc::pollfd { fd: w.as_raw_fd(), events: libc::POLLOUT, revents: 0 });
        }
    }

    /// Services descriptor `fd`, which poll reported ready.
    pub(super) fn ready(&mut self, fd: libc::c_int) {
        if fd == self.stdout.as_raw_fd() {
            self.read_stdout();
        } else if self.stderr.as_ref().is_some_and(|e| e.as_raw_fd() == fd) {
            self.read_stderr();
        } else if self.stdin.as_ref().is_some_and(|w| w.as_raw_fd() == fd) {
            self.write_some();
        }
    }
}

pub(super) struct Proc {
    pub(super) child: Child,
    pub(super) pid: u32,
    pub(super) pipes: Pipes,
    /// CPU-time clock of the process ([`cpu_clock`]).
    pub(super) clock: Option<libc::clockid_t>,
    pub(super) queries: u32,
}

impl Proc {
    pub(super) fn start(spec: &SolverSpec, limits: &Limits) -> std::io::Result<Proc> {
        let argv = spec.session_argv(limits.time);
        let mut child = spawn(&argv, limits, Stdio::piped())?;
        let pid = child.id();
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let pipes = Pipes::new(stdin.unwrap(), stdout.unwrap(), stderr.unwrap());
        let clock = cpu_clock(pid);
        Ok(Proc { child, pid, pipes, clock, queries: 0 })
    }

    /// Kills the process group and reaps the process.
    pub(super) fn kill(mut self) -> Option<ExitStatus> {
        kill_group(self.pid);
        self.child.wait().ok()
    }

    /// Kills and reaps the process, then returns its exit status and everything it wrote
    /// to stderr: once it is dead, its last words are all in the pipe.
    pub(super) fn end(mut self) -> (Option<ExitStatus>, String) {
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
