//! The user's interestingness command as the judge (`smtstorm reduce FILE OUT -- CMD`):
//! exit status 0, or with `--match-output` ddSMT's convention (status and output as the
//! original run's); see [`External`]. By default a candidate is interesting iff the
//! command exits with status 0 on it (and, with `--match-out`/`--match-err`, its standard
//! output/error contains the given text); with `--match-output`, its exit status, standard
//! output and standard error must equal the original input's run ([`Golden`];
//! `--match-out`/`--match-err` then relax one stream to "contains").

use super::{tempdir_in, Check, Judge, Options, ReduceError, Report};
use crate::smtlib;
use crate::solver::{Limits, RawRun};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The user's interestingness command for [`reduce_external`].
pub struct ExternalCheck {
    pub argv: Vec<String>,
    /// Interesting only if stdout / stderr contains this text.
    pub match_out: Option<String>,
    pub match_err: Option<String>,
    /// `--match-output`: status, stdout and stderr as the original's run (ddSMT's
    /// default); otherwise exit status 0 ([`External`]).
    pub match_output: bool,
    /// Limit per check; `None`: three times what the command took on the original (at
    /// least one second).
    pub timeout: Option<Duration>,
    /// Address-space limit of the command in bytes; `None`: no limit.
    pub memory: Option<u64>,
}

/// The lowest limit per check the adaptive limit goes down to: the shell and solver
/// start-up of a checker script (10–30 ms) many times over, so that a loaded machine does
/// not turn an interesting check into a timeout.
pub const ADAPTIVE_FLOOR: Duration = Duration::from_millis(250);

/// Reduces `input` to `output` while the external ddSMT-style checker `cmd` finds it
/// interesting (see [`External`]). Without `timeout`, the limit per check is three
/// times the command's time on the input (at least a second) and then follows the time of
/// recent interesting checks down as the script shrinks (at least [`ADAPTIVE_FLOOR`]): a
/// 300-byte candidate that runs a second where its 300-byte predecessors crashed in 20 ms
/// is not going to crash, and waiting for it was most of a big trigger's time.
pub fn reduce_external(input: &Path, output: &Path, cmd: ExternalCheck, opts: &Options) -> Result<Report, ReduceError> {
    let t0 = Instant::now();
    let ExternalCheck { argv, match_out, match_err, match_output, timeout, memory } = cmd;
    let text = crate::util::files::read_input_text(input)?;
    let parsed = smtlib::parse(&text);
    let scratch = tempdir_in(&std::env::temp_dir())?;
    let file_name = input.file_name().map_or("input.smt2".into(), |n| n.to_string_lossy().into_owned());
    let mut judge = External {
        argv,
        match_out,
        match_err,
        match_output,
        golden: Default::default(),
        // The user's command gets no memory limit unless one is asked for: it may be a
        // script that starts several solvers, or a solver that needs more than ours.
        // No grace after the limit: the grace is for a solver that enforces its own
        // limit and needs a moment to say so; a user's command is simply stopped (with
        // two seconds of grace, every slow candidate cost its limit plus two seconds).
        limits: crate::solver::Limits {
            time: timeout.unwrap_or(Duration::from_secs(60)),
            grace: Duration::ZERO,
            memory,
            ..Default::default()
        },
        dir: scratch.path().to_path_buf(),
        file_name,
        adaptive_floor: timeout.is_none().then_some(ADAPTIVE_FLOOR),
        recent: Default::default(),
        deadline: opts.time.map(|t| t0 + t),
        stop: opts.stop,
    };
    let original = parsed.as_ref().map_or(text.clone(), smtlib::print);
    // The run that times the original also says whether it is interesting, and if not,
    // why not: the reduction need not ask again (on a large trigger the original is the
    // slowest check of all).
    let took = judge.check_input(&original)?;
    if timeout.is_none() {
        judge.limits.time = (took * 3).max(Duration::from_secs(1));
    }
    let opts = Options { time: opts.time.map(|t| t.saturating_sub(t0.elapsed())), ..opts.clone() };
    match parsed {
        Ok(script) => {
            // The input's text goes: the reduction holds its own print (`original`, the
            // same text once printed, is dropped once compared; issue 37).
            drop(text);
            Ok(super::driver::reduce_known(script, &judge, &opts, Some(output), "", Some(original))?.1)
        }
        Err(e) => super::lines::reduce_lines(&text, &e.to_string(), &judge, &opts, output),
    }
}

/// What the checker did on the original input, which every candidate must repeat
/// under `--match-output` (ddSMT's "golden run").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Golden {
    /// Exit code, or the signal that ended it.
    pub status: (Option<i32>, Option<i32>),
    pub stdout: String,
    pub stderr: String,
}

impl Golden {
    /// The run on `file`, its path in the output written `FILE`: each candidate is a file
    /// of its own (`w<i>/`), and a checker that names it (a parse error's "file:line")
    /// must still match the original's run.
    fn of(r: &RawRun, file: &Path) -> Golden {
        use std::os::unix::process::ExitStatusExt;
        let path = file.display().to_string();
        let bare = |t: &str| if path.is_empty() { t.to_string() } else { t.replace(&path, "FILE") };
        Golden {
            status: (r.status.and_then(|s| s.code()), r.status.and_then(|s| s.signal())),
            stdout: bare(&r.stdout),
            stderr: bare(&r.stderr),
        }
    }
}

/// A ddSMT-style external checker.
pub struct External {
    pub argv: Vec<String>,
    pub match_out: Option<String>,
    pub match_err: Option<String>,
    /// `--match-output`: interesting iff status and output equal the original's
    /// ([`Golden`], recorded by [`External::check_input`]); otherwise iff status 0.
    pub match_output: bool,
    pub golden: std::sync::OnceLock<Golden>,
    pub limits: Limits,
    /// Scratch directory; worker `i` writes its candidates under `dir/w<i>/`.
    pub dir: PathBuf,
    /// File name candidates get (the input's, so checkers that look at the suffix work).
    pub file_name: String,
    /// When set (the limit was derived from the input's time, not given), the limit per
    /// check follows the script as it shrinks: three times the slowest of the last three
    /// interesting checks, at least this long, at most `limits.time`
    /// ([`Judge::observe`]).
    pub adaptive_floor: Option<Duration>,
    /// How long the last three interesting checks took.
    pub recent: std::sync::Mutex<Vec<Duration>>,
    /// The end of the reduction's `--time`: no check runs past it, the first one on the
    /// input included (a hanging checker held `--time 5` for its 60-second default).
    pub deadline: Option<Instant>,
    /// Ctrl-C: a running check is stopped at once, not waited for.
    pub stop: Option<&'static AtomicBool>,
}

struct ExternalWorker<'a> {
    judge: &'a External,
    file: PathBuf,
    timed_out: bool,
}

/// What the checker said about the input itself, before any reduction.
#[derive(Debug, thiserror::Error)]
pub enum InputCheck {
    #[error("the checker `{cmd}` cannot be started (not found or not executable)")]
    CannotStart { cmd: String, source: std::io::Error },
    #[error(
        "the checker `{cmd}` timed out on the input after {secs:.1}s (limit: --timeout, or --time); nothing to reduce"
    )]
    TimedOut { cmd: String, secs: f64 },
    #[error("interrupted while the checker ran on the input")]
    Interrupted,
    #[error("the input is not interesting: the checker `{cmd}` {why}")]
    Rejects { cmd: String, why: String },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

impl External {
    /// Runs the command on `text` written to `file`, stopped at the limit per check, the
    /// deadline, Ctrl-C or `cancel`.
    fn exec(&self, file: &Path, text: &str, cancel: Option<&AtomicBool>) -> Result<RawRun, InputCheck> {
        std::fs::write(file, text).map_err(|source| InputCheck::Write { path: file.display().to_string(), source })?;
        let mut argv = self.argv.clone();
        argv.push(file.display().to_string());
        let left = self.deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(Instant::now()));
        let limits = Limits { time: self.limit().min(left), ..self.limits };
        let flags: Vec<&AtomicBool> = cancel.into_iter().chain(self.stop).collect();
        crate::solver::run_argv_until(&argv, &limits, &flags)
            .map_err(|source| InputCheck::CannotStart { cmd: self.argv.join(" "), source })
    }

    fn verdict(&self, r: &RawRun, file: &Path) -> bool {
        // A stream named by --match-out/--match-err need only contain its text.
        let stream = |got: &str, m: &Option<String>, golden: Option<&str>| match (m, golden) {
            (Some(m), _) => got.contains(m.as_str()),
            (None, Some(g)) => got == g,
            (None, None) => true,
        };
        if r.timed_out {
            return false;
        }
        if self.match_output {
            let Some(g) = self.golden.get() else { return false };
            let now = Golden::of(r, file);
            now.status == g.status
                && stream(&now.stdout, &self.match_out, Some(&g.stdout))
                && stream(&now.stderr, &self.match_err, Some(&g.stderr))
        } else {
            r.status.and_then(|s| s.code()) == Some(0)
                && stream(&r.stdout, &self.match_out, None)
                && stream(&r.stderr, &self.match_err, None)
        }
    }

    /// Whether the command finds `text` interesting, run on `file`, and whether it was
    /// stopped at the time limit.
    fn run(&self, file: &Path, text: &str, cancel: Option<&AtomicBool>) -> (bool, bool) {
        match self.exec(file, text, cancel) {
            Ok(r) => (self.verdict(&r, file), r.timed_out),
            Err(_) => (false, false),
        }
    }

    /// Checks the input itself; `Ok` with the time it took if it is interesting, else
    /// why not, each cause told apart: a checker that cannot start, one that hangs,
    /// Ctrl-C, and one that answers "not interesting" (with its status and last words).
    pub fn check_input(&self, text: &str) -> Result<Duration, InputCheck> {
        let dir = self.dir.join("input");
        std::fs::create_dir_all(&dir)
            .map_err(|source| InputCheck::Write { path: dir.display().to_string(), source })?;
        let file = dir.join(&self.file_name);
        let r = self.exec(&file, text, None)?;
        let cmd = self.argv.join(" ");
        if self.match_output && !r.timed_out && r.status.is_some() {
            // The original's run is the golden one, whatever it exits with; with
            // --match-out/--match-err it must still show that text.
            let _ = self.golden.set(Golden::of(&r, &file));
        }
        if self.verdict(&r, &file) {
            return Ok(r.wall);
        }
        if r.timed_out {
            return Err(InputCheck::TimedOut { cmd, secs: r.wall.as_secs_f64() });
        }
        if r.status.is_none() && self.stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(InputCheck::Interrupted);
        }
        let last = r.stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
        let said = if last.is_empty() {
            String::new()
        } else {
            format!(" (stderr: {})", last.chars().take(200).collect::<String>())
        };
        let why = match r.status.and_then(|s| s.code()) {
            Some(c) if self.match_output || c == 0 => {
                let want = [("stdout", &self.match_out), ("stderr", &self.match_err)]
                    .into_iter()
                    .filter_map(|(f, m)| m.as_ref().map(|m| format!("{f} lacks {m:?}")))
                    .collect::<Vec<_>>();
                format!("exits with status {c} but its {}", want.join(" and its "))
            }
            Some(c) => format!("exits with status {c} on it{said}"),
            None => format!("was killed by a signal{said}"),
        };
        Err(InputCheck::Rejects { cmd, why })
    }

    /// The current limit per check (see [`External::adaptive_floor`]).
    pub fn limit(&self) -> Duration {
        let Some(floor) = self.adaptive_floor else { return self.limits.time };
        let recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        match recent.iter().max() {
            Some(&slowest) => (slowest * 3).clamp(floor.min(self.limits.time), self.limits.time),
            None => self.limits.time,
        }
    }
}

impl Judge for External {
    fn observe(&self, interesting: Duration) {
        if self.adaptive_floor.is_some() {
            let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
            recent.push(interesting);
            let n = recent.len();
            if n > 3 {
                recent.drain(..n - 3);
            }
        }
    }
    fn worker(&self, id: usize) -> Box<dyn Check + Send + '_> {
        let dir = self.dir.join(format!("w{id}"));
        let _ = std::fs::create_dir_all(&dir);
        Box::new(ExternalWorker { judge: self, file: dir.join(&self.file_name), timed_out: false })
    }
}

impl Check for ExternalWorker<'_> {
    fn interesting(&mut self, text: &str) -> bool {
        let (ok, out) = self.judge.run(&self.file, text, None);
        self.timed_out = out;
        ok
    }
    fn interesting_until(&mut self, text: &str, cancel: &AtomicBool) -> bool {
        let (ok, out) = self.judge.run(&self.file, text, Some(cancel));
        self.timed_out = out;
        ok
    }
    fn timed_out(&self) -> bool {
        self.timed_out
    }
}
