//! Persistent solver sessions: one process answers many queries, framed by `(reset)` or
//! by `push`/`pop`, restarted when it dies or after a number of queries; batches of
//! queries on several sessions run side by side in one poll loop.

use super::limits::{excerpt, Limits};
use super::os::{cpu_time, poll};
use super::outcome::{
    classify_reply, crash_evidence, normalise_crash, resource_exhaustion, split_responses, Outcome, QueryResult,
};
use super::pipes::{Line, Proc, TimedOut};
use super::registry::SolverSpec;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

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
    /// When the caller's run ends (a campaign's `--time`): a query still running then is
    /// cut as a timeout, and queries not yet sent are not sent (they come back as
    /// timeouts, which are never findings), so a run ends within its time plus the
    /// watchdog's grace rather than a batch of per-query limits later.
    pub stop_at: Option<Instant>,
}

impl Session {
    pub fn new(spec: SolverSpec, limits: Limits) -> Session {
        Session {
            spec,
            limits,
            proc: None,
            serial: 0,
            options: String::new(),
            framing: Framing::Reset,
            starts: 0,
            stop_at: None,
        }
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
        // Sized once (a doubled message of a megabyte mutant was twice its text, issue 37):
        // what the loop below writes, with room for each marker line.
        let prelude = match &self.framing {
            Framing::PushPop { prelude } if p.queries == 0 => self.options.len() + prelude.len() + 1,
            _ => 0,
        };
        let per_query = 64 + if matches!(self.framing, Framing::Reset) { self.options.len() } else { 0 };
        let mut msg = String::with_capacity(prelude + queries.iter().map(|(q, _)| q.len() + per_query).sum::<usize>());
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
        let err_mark = p.pipes.err.len();
        let mut run = Run { markers, checks, done: 0, t0: t_start, out: String::new(), cpu_prev: None, err_mark };
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
        let own = run.t0 + self.limits.time + self.limits.grace;
        self.stop_at.map_or(own, |s| own.min(s))
    }

    /// Whether the caller's run is over ([`Session::stop_at`]).
    pub fn stopped(&self) -> bool {
        self.stop_at.is_some_and(|s| Instant::now() >= s)
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
            End::Marker => {
                run.err_mark = p.pipes.err.len();
                (answers, excerpt(&String::from_utf8_lossy(&p.pipes.err)))
            }
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
                let own = stderr.get(run.err_mark..).unwrap_or(&stderr);
                let (o, c) = crash_or_reply(&responses, checks, status, own, &out);
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
    /// Length of the process's stderr when the current query began: a crash's message is
    /// read from what this query made it write, not from earlier queries' warnings (a
    /// fresh process re-running the query would not have them).
    err_mark: usize,
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
                    if sess.stopped() {
                        let left = &queries[results[k].len()..];
                        results[k]
                            .extend(left.iter().map(|q| failed(vec![Outcome::Timeout; q.1.max(1)], Instant::now())));
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
        let r = poll(&mut fds, ms as libc::c_int);
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
pub(super) fn partial(responses: &[&str], checks: usize, rest: Outcome) -> Vec<Outcome> {
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
/// crash if it died abnormally. An exhausted resource (memory, the OOM killer, a CPU or
/// file-size rlimit) is a [`Outcome::Resource`], never a crash; a non-zero exit without a
/// signal and without crash evidence (assertion, sanitizer report, uncaught exception) is
/// an error: the solver refused or failed, it did not crash.
pub(super) fn crash_or_reply(
    responses: &[&str],
    checks: usize,
    status: Option<ExitStatus>,
    stderr: &str,
    out: &str,
) -> (Vec<Outcome>, Option<Outcome>) {
    let signal = status.and_then(|s| s.signal());
    let code = status.and_then(|s| s.code());
    let has_error = responses.iter().any(|r| super::outcome::error_message(r).is_some());
    let clean = signal.is_none() && code == Some(0);
    if !clean {
        if let Some(message) = resource_exhaustion(stderr, out, signal) {
            return (partial(responses, checks, Outcome::Resource { message: message.clone() }), None);
        }
    }
    // A self-check that failed ([`super::checks`]): cvc5 aborts on an internal error
    // that names the check. The check's failure, not a crash of the search; a failed
    // model check is an invalid model.
    if !clean {
        // cvc5 writes the failed model check on stderr; stdout is where a seed's `echo`
        // text goes, and it must never decide a verdict.
        if let Some(message) = super::checks::model_check_failure_in(stderr) {
            return (partial(responses, checks, Outcome::InvalidModel { message }), None);
        }
        let text = format!("{stderr}\n{out}");
        if let Some(message) = super::checks::failure_in(&text) {
            return (partial(responses, checks, Outcome::CheckFailed { message }), None);
        }
    }
    let evidence = crash_evidence(stderr, out);
    if clean || (signal.is_none() && (has_error || evidence.is_none())) {
        // A clean exit, an error reply (which yices and cvc5 follow with an exit), or a
        // failure exit that shows no sign of a crash (bitwuzla exits 10 or 20 after `sat`
        // or `unsat`: the answers stand).
        let answered = responses.iter().filter(|r| matches!(**r, "sat" | "unsat" | "unknown")).count();
        if !has_error && answered < checks {
            let message = match code {
                Some(c) if c != 0 => format!("exit status {c} before answering"),
                _ => "solver exited before answering".to_string(),
            };
            return (partial(responses, checks, Outcome::Error { message }), None);
        }
        return (classify_reply(responses, checks).0, None);
    }
    let message = evidence.unwrap_or_else(|| normalise_crash(stderr, out, signal, code));
    let crash = Outcome::Crash { signal, exit_code: code, message };
    (partial(responses, checks, crash.clone()), Some(crash))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    /// cvc5's failed model check counts from its stderr only: the same words on stdout
    /// (where a seed's `echo` text goes) never make an invalid model, whatever the exit.
    #[test]
    fn a_model_check_failure_is_read_from_stderr_only() {
        let words = "Internal error detected SolverEngine::checkModel(): ERRORS SATISFYING ASSERTIONS WITH MODEL { THEORY_UF }:";
        let abort = Some(ExitStatus::from_raw(libc::SIGABRT));
        let (on_stderr, _) = crash_or_reply(&[], 1, abort, words, "");
        assert!(matches!(&on_stderr[..], [Outcome::InvalidModel { .. }]), "{on_stderr:?}");
        let exit1 = Some(ExitStatus::from_raw(1 << 8));
        let echoed = format!("\"{words}\"\n");
        for status in [abort, exit1] {
            let (o, _) = crash_or_reply(&[echoed.as_str()], 1, status, "", &echoed);
            assert!(!o.iter().any(|o| matches!(o, Outcome::InvalidModel { .. })), "{status:?}: {o:?}");
        }
    }
}
