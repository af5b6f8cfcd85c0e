//! `smtstorm reduce`: typed, bug-preserving, parallel test-case reduction.
//!
//! The driver runs the [`passes`] to a fixpoint. Each pass lists candidates for the
//! current best script; candidates are printed, parsed and sort-checked here (invalid
//! ones never reach a solver), must be strictly smaller ([`passes::measure`]), and are
//! looked up in a cache keyed by the SHA-256 of their text. The rest are checked `jobs`
//! at a time, one per worker, each worker with its own persistent solver sessions or
//! scratch files ([`Judge::worker`]). Of a wave, the first interesting candidate in list
//! order wins, so the result depends only on the input and the judge, not on timing. A
//! winner is confirmed ([`Judge::confirm`], fresh processes for bug findings) before it
//! becomes the new best, and the best-so-far file is rewritten atomically after every
//! success: an interrupted reduction keeps its progress.

pub mod bounds;
pub mod judge;
pub mod passes;

use crate::mutate::scope::Scope;
use crate::smtlib::{self, check, Script};
use crate::solver::SolverSpec;
use crate::store::campaign::CampaignFile;
pub use crate::store::reduction::{BoundsReport, Report};
use passes::{materialize, measure, Ctx, PASSES};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Decides whether a candidate still shows the behaviour being reduced.
pub trait Judge: Sync {
    /// A checker for one worker thread (owning its sessions or scratch files).
    fn worker(&self, id: usize) -> Box<dyn Check + Send + '_>;
    /// Re-checks a candidate a worker found interesting, the way the result will be used
    /// (a bug finding: every solver in a fresh process). Defaults to accepting.
    fn confirm(&self, _text: &str) -> bool {
        true
    }
    /// Called when a worker rejects the original that [`Judge::confirm`] accepts: workers
    /// made afterwards must check the way `confirm` does. Returns whether it can.
    fn check_like_confirm(&self) -> bool {
        false
    }
    /// How long a check that found a candidate interesting took (a judge may derive its
    /// limit per check from it).
    fn observe(&self, _interesting: Duration) {}
}

/// One worker's interestingness test.
pub trait Check {
    fn interesting(&mut self, text: &str) -> bool;
    /// [`Check::interesting`] that may give up (answering `false`) once `cancel` is set:
    /// the driver sets it when an earlier candidate of the wave has won, so a later one
    /// that would run to the time limit does not hold the wave up.
    fn interesting_until(&mut self, text: &str, _cancel: &AtomicBool) -> bool {
        self.interesting(text)
    }
    /// Whether the last check was cut off by the per-check limit (statistics only).
    fn timed_out(&self) -> bool {
        false
    }
}

/// Reduction settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Candidates checked in parallel.
    pub jobs: usize,
    /// Stop after this long, keeping the best so far.
    pub time: Option<Duration>,
    /// Print progress to stderr.
    pub verbose: bool,
    /// Run only the passes with these names (all when empty).
    pub passes: Vec<String>,
    /// Stop (keeping the best so far) when this flag is set, e.g. by a signal handler.
    pub stop: Option<&'static std::sync::atomic::AtomicBool>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            time: None,
            verbose: false,
            passes: vec![],
            stop: None,
        }
    }
}

/// Why a reduction could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    #[error("the input is not interesting: the judge rejects it before any reduction")]
    NotInteresting,
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
    #[error(transparent)]
    Input(#[from] crate::Error),
    #[error(transparent)]
    Finding(#[from] judge::FindingError),
    /// The external checker on the input itself: cannot start, times out, is interrupted
    /// or rejects it (each said apart).
    #[error(transparent)]
    Checker(#[from] judge::InputCheck),
}

/// The solvers a finding was found with: its campaign's `campaign.json` (three levels up
/// from `bugs/<kind>/<id>`), then `.solvers/solvers.toml` for names it does not define.
pub fn finding_solvers(dir: &Path) -> Vec<SolverSpec> {
    let mut out: Vec<SolverSpec> = vec![];
    if let Some(c) = dir.ancestors().nth(3).map(|d| d.join("campaign.json")) {
        if let Some(cf) = std::fs::read(&c).ok().and_then(|b| serde_json::from_slice::<CampaignFile>(&b).ok()) {
            out.extend(cf.solvers);
        }
    }
    if let Ok(reg) = crate::solver::Registry::load(&crate::solver::registry::default_toml()) {
        for s in reg.solvers {
            if !out.iter().any(|o| o.name == s.name) {
                out.push(s);
            }
        }
    }
    out
}

/// Reduces the stored finding in `dir` with its built-in judge ([`judge::FindingJudge`]):
/// writes `dir/reduced.smt2` (atomically after every success, so an interrupted run
/// keeps its progress; a STORM witness line stays on top) and records the report in
/// `meta.json`. `max_time` caps the per-check limit the judge derives from the finding.
pub fn reduce_finding(
    dir: &Path,
    solvers: &[SolverSpec],
    opts: &Options,
    max_time: Duration,
) -> Result<Report, ReduceError> {
    let t0 = Instant::now();
    let scratch = tempdir_in(dir)?;
    let (mut judge, mut meta) = judge::FindingJudge::for_finding(dir, solvers, max_time, scratch.path())?;
    let trigger_path = dir.join("trigger.smt2");
    let text = crate::util::files::read_input_text(&trigger_path)?;
    let mut script = smtlib::parse(&text).map_err(|e| e.in_file(&trigger_path))?;
    let mut header =
        text.lines().find(|l| l.starts_with(crate::mutate::storm::WITNESS_PREFIX)).map(|l| format!("{l}\n"));
    // A STORM trigger first goes through bound minimisation (at most half the budget).
    let mut bounds_report = None;
    if judge.witness.is_some() && meta.engine == "storm" {
        let deadline = opts.time.map(|t| t0 + t / 2);
        if let Some(m) = storm_bounds(dir, &judge, &meta, smtlib::print(&script).len(), deadline) {
            bounds_report = Some(BoundsReport {
                amax: m.bounds.amax,
                dmax: m.bounds.dmax,
                nc: m.bounds.nc,
                from_bytes: smtlib::print(&script).len(),
                to_bytes: m.text.len(),
                instances: m.tried,
            });
            if let Ok(s) = smtlib::parse(&m.text) {
                script = s;
                header = Some(format!("{}\n", crate::mutate::storm::witness_line(&m.witness)));
                judge = judge.with_witness(m.witness);
            }
        }
    }
    let out = dir.join("reduced.smt2");
    let opts = Options { time: opts.time.map(|t| t.saturating_sub(t0.elapsed())), ..opts.clone() };
    let (_, mut report) = reduce(&script, &judge, &opts, Some(&out), header.as_deref().unwrap_or(""))?;
    if let Some(b) = bounds_report {
        report.original_bytes = b.from_bytes;
        report.seconds = t0.elapsed().as_secs_f64();
        report.bounds = Some(b);
    }
    meta.reduction = Some(report.clone());
    let mp = dir.join("meta.json");
    crate::util::fs::write_atomic(&mp, &serde_json::to_vec_pretty(&meta).unwrap_or_default())
        .map_err(|e| ReduceError::Write { path: mp.display().to_string(), source: e })?;
    Ok(report)
}

/// `smtstorm storm-minimize`: STORM's bound minimisation alone on the finding in `dir`.
/// Writes `dir/minimized.smt2` (witness line first) and returns what it found, or `None`
/// when no smaller instance reproduces the bug within `time`.
pub fn storm_minimize_finding(
    dir: &Path,
    solvers: &[SolverSpec],
    max_time: Duration,
    time: Option<Duration>,
) -> Result<Option<BoundsReport>, ReduceError> {
    let t0 = Instant::now();
    let scratch = tempdir_in(dir)?;
    let (judge, meta) = judge::FindingJudge::for_finding(dir, solvers, max_time, scratch.path())?;
    if judge.witness.is_none() {
        return Err(ReduceError::Finding(judge::FindingError::Unusable {
            id: meta.id.clone(),
            why: "not a STORM soundness finding (no witness line)".into(),
        }));
    }
    let trigger_path = dir.join("trigger.smt2");
    let text = crate::util::files::read_input_text(&trigger_path)?;
    let script = smtlib::parse(&text).map_err(|e| e.in_file(&trigger_path))?;
    let from = smtlib::print(&script).len();
    let Some(m) = storm_bounds(dir, &judge, &meta, from, time.map(|t| t0 + t)) else { return Ok(None) };
    let out = dir.join("minimized.smt2");
    let body = format!("{}\n{}", crate::mutate::storm::witness_line(&m.witness), m.text);
    crate::util::fs::write_atomic(&out, body.as_bytes())
        .map_err(|e| ReduceError::Write { path: out.display().to_string(), source: e })?;
    Ok(Some(BoundsReport {
        amax: m.bounds.amax,
        dmax: m.bounds.dmax,
        nc: m.bounds.nc,
        from_bytes: from,
        to_bytes: m.text.len(),
        instances: m.tried,
    }))
}

/// Bound minimisation for a STORM finding: the seed (as the campaign recorded its path,
/// loaded and sliced as the campaign fuzzed it),
/// the campaign's bounds, and the campaign's STORM reference as the model's source.
fn storm_bounds(
    dir: &Path,
    judge: &judge::FindingJudge,
    meta: &crate::store::Meta,
    current: usize,
    deadline: Option<Instant>,
) -> Option<bounds::Minimised> {
    let campaign_dir = dir.ancestors().nth(3)?;
    let cf: CampaignFile =
        std::fs::read(campaign_dir.join("campaign.json")).ok().and_then(|b| serde_json::from_slice(&b).ok())?;
    let seed = crate::solver::seed::as_fuzzed(&std::fs::read(&meta.seed).ok()?, meta.seed_slice.as_deref()).ok()?;
    let r = crate::solver::registry::reference_index(&cf.solvers, cf.config.reference.as_deref())?;
    let mut reference = cf.solvers.get(r)?.clone();
    // The option tables the judge's solvers know (none are stored in campaign.json).
    reference.option_owners = judge.solvers.first().map(|s| s.option_owners.clone()).unwrap_or_default();
    let original = cf.config.storm;
    let edits: Vec<crate::mutate::edit::Edit> = serde_json::from_value(meta.edits.clone()).unwrap_or_default();
    let tactic = edits.iter().find_map(|e| match e {
        crate::mutate::edit::Edit::Recombine { tactic, .. } => tactic.clone(),
        _ => None,
    });
    bounds::minimise(judge, &seed, &reference, &original, tactic.as_deref(), current, judge.limits, deadline)
}

/// A fresh scratch directory under `parent` (hidden, unpredictable name), removed when
/// dropped. One left behind by a reduction that was killed (`kill -9`, a second Ctrl-C)
/// is removed by the next reduction that makes one under the same parent (the finding's
/// directory, or `$TMPDIR` for a file): see [`crate::util::fs::scratch_dir`].
pub fn tempdir_in(parent: &Path) -> Result<crate::util::fs::ScratchDir, ReduceError> {
    crate::util::fs::scratch_dir(parent, ".reduce-")
        .map_err(|e| ReduceError::Write { path: parent.display().to_string(), source: e })
}

/// The user's interestingness command for [`reduce_external`] (ddSMT's convention).
pub struct ExternalCheck {
    pub argv: Vec<String>,
    /// Interesting only if stdout / stderr contains this text.
    pub match_out: Option<String>,
    pub match_err: Option<String>,
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
/// interesting (see [`judge::External`]). Without `timeout`, the limit per check is three
/// times the command's time on the input (at least a second) and then follows the time of
/// recent interesting checks down as the script shrinks (at least [`ADAPTIVE_FLOOR`]): a
/// 300-byte candidate that runs a second where its 300-byte predecessors crashed in 20 ms
/// is not going to crash, and waiting for it was most of a big trigger's time.
pub fn reduce_external(input: &Path, output: &Path, cmd: ExternalCheck, opts: &Options) -> Result<Report, ReduceError> {
    let t0 = Instant::now();
    let ExternalCheck { argv, match_out, match_err, timeout, memory } = cmd;
    let text = crate::util::files::read_input_text(input)?;
    let parsed = smtlib::parse(&text);
    let scratch = tempdir_in(&std::env::temp_dir())?;
    let file_name = input.file_name().map_or("input.smt2".into(), |n| n.to_string_lossy().into_owned());
    let mut judge = judge::External {
        argv,
        match_out,
        match_err,
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
        Ok(script) => Ok(reduce_known(&script, &judge, &opts, Some(output), "", Some(&original))?.1),
        Err(e) => reduce_lines(&text, &e.to_string(), &judge, &opts, output),
    }
}

/// The untyped fallback for an input that does not parse even as S-expressions (an
/// unbalanced parenthesis, a stray token; ddSMT stops at those too): ddmin over its lines
/// (Zeller and Hildebrandt, TSE 2002), chunks of half the lines down to single lines,
/// until no line can go. The first interesting candidate in line order wins, so the
/// result is deterministic; each success is written to `output` at once. The caller has
/// found `text` itself interesting.
fn reduce_lines(
    text: &str,
    why: &str,
    judge: &dyn Judge,
    opts: &Options,
    output: &Path,
) -> Result<Report, ReduceError> {
    let t0 = Instant::now();
    let deadline = opts.time.map(|t| t0 + t);
    let mut w = judge.worker(0);
    let mut report =
        Report { original_bytes: text.len(), untyped: Some(why.to_string()), checks: 1, ..Report::default() };
    let mut lines: Vec<&str> = text.lines().collect();
    let join = |ls: &[&str]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let mut n = (lines.len() / 2).max(1);
    'outer: loop {
        let mut progress = false;
        let mut i = 0;
        while i < lines.len() {
            let stopped = opts.stop.is_some_and(|f| f.load(Ordering::Relaxed));
            if stopped || deadline.is_some_and(|d| Instant::now() >= d) {
                report.timed_out = true;
                break 'outer;
            }
            let cand: Vec<&str> = lines[..i].iter().chain(&lines[(i + n).min(lines.len())..]).copied().collect();
            let t = join(&cand);
            report.checks += 1;
            if w.interesting(&t) {
                crate::util::fs::write_atomic(output, t.as_bytes())
                    .map_err(|source| ReduceError::Write { path: output.display().to_string(), source })?;
                lines = cand;
                progress = true;
                report.successes += 1;
                *report.by_pass.entry("lines".into()).or_default() += 1;
            } else {
                i += n;
            }
        }
        if !progress {
            if n == 1 {
                break;
            }
            n = (n / 2).max(1);
        }
    }
    let best = join(&lines);
    if report.successes == 0 {
        crate::util::fs::write_atomic(output, best.as_bytes())
            .map_err(|source| ReduceError::Write { path: output.display().to_string(), source })?;
    }
    report.reduced_bytes = best.len();
    report.seconds = t0.elapsed().as_secs_f64();
    Ok(report)
}

struct State<'j> {
    best: Script,
    text: String,
    size: (usize, usize, usize, usize, usize, usize),
    baseline: usize,
    seen: HashSet<[u8; 32]>,
    report: Report,
    workers: Vec<Box<dyn Check + Send + 'j>>,
    deadline: Option<Instant>,
    /// How many declarations were unused when dropping them all at once was last refused.
    unused_refused: usize,
}

/// Reduces `input` while `judge` finds it interesting. The best text so far is written
/// atomically to `best_out` (with `header` prepended, e.g. a STORM witness line) after
/// every success. Returns the reduced text (without the header) and statistics.
pub fn reduce(
    input: &Script,
    judge: &dyn Judge,
    opts: &Options,
    best_out: Option<&Path>,
    header: &str,
) -> Result<(String, Report), ReduceError> {
    reduce_known(input, judge, opts, best_out, header, None)
}

/// [`reduce`], where `known` is a text a worker already found interesting (not checked
/// again if the reduction starts from it).
fn reduce_known(
    input: &Script,
    judge: &dyn Judge,
    opts: &Options,
    best_out: Option<&Path>,
    header: &str,
    known: Option<&str>,
) -> Result<(String, Report), ReduceError> {
    let t0 = Instant::now();
    let text = smtlib::print(input);
    let jobs = opts.jobs.max(1);
    let mut st = State {
        baseline: check::check(input).diagnostics.len(),
        size: measure(input, &text),
        best: input.clone(),
        report: Report { original_bytes: text.len(), ..Report::default() },
        text,
        seen: HashSet::new(),
        workers: (0..jobs).map(|i| judge.worker(i)).collect(),
        deadline: opts.time.map(|t| t0 + t),
        unused_refused: 0,
    };
    st.report.checks += 1;
    if !judge.confirm(&st.text) {
        return Err(ReduceError::NotInteresting);
    }
    // Never worse than what is already there: an earlier result in the output file that is
    // smaller, sort-checks as well and still shows the bug is where this run starts (an
    // interrupted or time-limited reduction resumes; a rerun cannot overwrite it with the
    // unreduced input). One that does not show the bug belongs to another input and is
    // overwritten.
    if let Some(earlier) = best_out.and_then(|p| std::fs::read(p).ok()).and_then(|b| smtlib::parse_bytes(&b).ok()) {
        let text = smtlib::print(&earlier);
        if measure(&earlier, &text) < st.size && check::check(&earlier).diagnostics.len() <= st.baseline {
            st.report.checks += 1;
            if judge.confirm(&text) {
                st.report.resumed_from = Some(text.len());
                st.size = measure(&earlier, &text);
                st.best = earlier;
                st.text = text;
            }
        }
    }
    // (`known` was already checked by the caller.)
    if known != Some(st.text.as_str()) && !st.workers[0].interesting(&st.text) {
        if st.report.resumed_from.is_some() && known == Some(smtlib::print(input).as_str()) {
            // An earlier output that the check the input passed rejects belongs to
            // another input (the judge confirms everything): start from the input.
            st.report.resumed_from = None;
            st.text = smtlib::print(input);
            st.size = measure(input, &st.text);
            st.best = input.clone();
            st.report.checks += 1;
        } else if !judge.check_like_confirm() {
            return Err(ReduceError::NotInteresting);
        } else {
            // Screening disagrees with confirmation on the original itself (z3 4.8.7
            // validates models in a session but not on a file): screen the way
            // confirmation runs.
            st.workers = (0..jobs).map(|i| judge.worker(i)).collect();
        }
    }
    let write = |text: &str| -> Result<(), ReduceError> {
        if let Some(p) = best_out {
            crate::util::fs::write_atomic(p, format!("{header}{text}").as_bytes())
                .map_err(|e| ReduceError::Write { path: p.display().to_string(), source: e })?;
        }
        Ok(())
    };
    write(&st.text)?;
    let cleanup = opts.passes.is_empty() || opts.passes.iter().any(|p| p == "unused");
    // Bookkeeping of a success of pass `name` (the text was `bytes` long before it).
    let record = |st: &mut State, name: &str, bytes: usize, t0: Instant| -> Result<(), ReduceError> {
        *st.report.bytes_by_pass.entry(name.to_string()).or_default() += bytes.saturating_sub(st.text.len()) as u64;
        st.report.successes += 1;
        *st.report.by_pass.entry(name.to_string()).or_default() += 1;
        write(&st.text)?;
        if opts.verbose {
            eprintln!(
                "[{:7.1}s] {name}: {} bytes ({} checks)",
                t0.elapsed().as_secs_f64(),
                st.text.len(),
                st.report.checks
            );
        }
        Ok(())
    };
    'rounds: loop {
        let mut progress = false;
        for &(name, pass) in PASSES.iter().filter(|p| opts.passes.is_empty() || opts.passes.iter().any(|n| n == p.0)) {
            let mut at = 0;
            loop {
                let stopped = opts.stop.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
                // Checked before every wave of at most `jobs` candidates, and inside a
                // wave between candidates that are prepared but refused (`wave`).
                if stopped || st.deadline.is_some_and(|d| Instant::now() >= d) {
                    st.report.timed_out = true;
                    break 'rounds;
                }
                let (checks, bytes) = (st.report.checks, st.text.len());
                let w = wave(&mut st, judge, pass, &mut at);
                if st.report.checks > checks {
                    *st.report.checks_by_pass.entry(name.to_string()).or_default() += st.report.checks - checks;
                }
                match w {
                    Wave::Done => break,
                    Wave::Nothing => {}
                    Wave::Success => {
                        progress = true;
                        record(&mut st, name, bytes, t0)?;
                        // What the success left unused goes at once, in one check (else
                        // `commands` would go on dropping those declarations one by one,
                        // a check each). Tried again only when more are unused than at
                        // the last refusal.
                        let unused = passes::unused_commands(&st.best).len();
                        if cleanup && name != "unused" && unused > st.unused_refused {
                            let (checks, bytes) = (st.report.checks, st.text.len());
                            let w = wave(&mut st, judge, passes::unused_all, &mut 0);
                            *st.report.checks_by_pass.entry("unused".into()).or_default() += st.report.checks - checks;
                            if let Wave::Success = w {
                                st.unused_refused = 0;
                                record(&mut st, "unused", bytes, t0)?;
                            } else {
                                st.unused_refused = unused;
                            }
                        }
                    }
                }
            }
        }
        if !progress {
            break;
        }
    }
    st.report.reduced_bytes = st.text.len();
    st.report.seconds = t0.elapsed().as_secs_f64();
    Ok((st.text, st.report))
}

/// What one check of a wave said.
#[derive(Clone, Copy, Debug, Default)]
struct Verdict {
    ok: bool,
    secs: f64,
    /// Cut at the limit per check.
    timed_out: bool,
    /// Stopped because an earlier candidate had won (the verdict is unknown).
    cut: bool,
}

enum Wave {
    /// The pass has no candidates left.
    Done,
    /// None of this wave's candidates was interesting.
    Nothing,
    Success,
}

/// Prepares up to `jobs` candidates of `pass` from position `*at`, checks them in
/// parallel, and takes the first interesting one in list order. After a success the pass
/// resumes at the winner's position in the new script's list (ddSMT does the same: the
/// candidates before it were tried already).
fn wave(st: &mut State, judge: &dyn Judge, pass: fn(&Ctx) -> Vec<passes::Change>, at: &mut usize) -> Wave {
    let checked = check::check(&st.best);
    let scope = Scope::new(&st.best, &checked);
    let ctx = Ctx { s: &st.best, checked: &checked, scope: &scope };
    let changes = pass(&ctx);
    if *at >= changes.len() {
        return Wave::Done;
    }
    let jobs = st.workers.len();
    let mut batch: Vec<(usize, String, Script, [u8; 32])> = vec![];
    while *at < changes.len() && batch.len() < jobs {
        if st.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let i = *at;
        *at += 1;
        let text = materialize(&ctx, &changes[i]);
        let Ok(s) = smtlib::parse(&text) else {
            st.report.refused += 1;
            continue;
        };
        // Print what was parsed: the text a solver gets is always the canonical print.
        let text = smtlib::print(&s);
        if measure(&s, &text) >= st.size || check::check(&s).diagnostics.len() > st.baseline {
            st.report.refused += 1;
            continue;
        }
        let key: [u8; 32] = Sha256::digest(text.as_bytes()).into();
        if st.seen.contains(&key) || batch.iter().any(|b| b.3 == key) {
            st.report.cache_hits += 1;
            continue;
        }
        batch.push((i, text, s, key));
    }
    if batch.is_empty() {
        return if *at >= changes.len() { Wave::Done } else { Wave::Nothing };
    }
    st.report.checks += batch.len() as u64;
    // Verdicts arrive as checks finish. Once every candidate before an interesting one is
    // known to be boring, that one is confirmed at once (while the others still run); if
    // it is confirmed it wins whatever the later ones say, and they are stopped (`cancel`)
    // instead of being waited for. A cancelled verdict is unknown, not boring.
    let cancel = AtomicBool::new(false);
    let n = batch.len();
    // Per candidate: its verdict, and whether confirmation accepted it (`None`: not asked).
    let (timed, confirmed): (Vec<Verdict>, Vec<Option<bool>>) = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut handles = vec![];
        for (k, (w, (_, text, _, _))) in st.workers.iter_mut().zip(&batch).enumerate() {
            let (tx, cancel) = (tx.clone(), &cancel);
            handles.push(scope.spawn(move || {
                let t = Instant::now();
                let ok = w.interesting_until(text, cancel);
                let v = Verdict {
                    ok,
                    secs: t.elapsed().as_secs_f64(),
                    timed_out: w.timed_out(),
                    cut: !ok && cancel.load(Ordering::Relaxed),
                };
                let _ = tx.send((k, v));
            }));
        }
        drop(tx);
        let mut got: Vec<Option<Verdict>> = vec![None; n];
        let mut confirmed: Vec<Option<bool>> = vec![None; n];
        for (k, v) in rx {
            got[k] = Some(v);
            for i in 0..n {
                match got[i] {
                    None => break,
                    Some(g) if !g.ok => continue,
                    Some(_) => {
                        let ok = *confirmed[i].get_or_insert_with(|| judge.confirm(&batch[i].1));
                        if ok {
                            cancel.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            }
        }
        // A worker that panicked sent nothing: boring (joined here, so that its panic
        // does not end the scope, and the process, with it).
        for h in handles {
            let _ = h.join();
        }
        (got.into_iter().map(|g| g.unwrap_or_default()).collect(), confirmed)
    });
    for v in &timed {
        st.report.check_seconds += v.secs;
        if v.ok {
            judge.observe(crate::util::time::seconds(v.secs));
        } else {
            st.report.boring_seconds += v.secs;
        }
        st.report.timeouts += u64::from(v.timed_out);
        st.report.cancelled += u64::from(v.cut);
    }
    let winner = confirmed.iter().position(|c| *c == Some(true));
    st.report.unconfirmed += confirmed.iter().filter(|c| **c == Some(false)).count() as u64;
    for k in 0..n {
        // Cached as uninteresting: what was checked to the end and found boring, and what
        // confirmation refused (before the winner; after it, nothing was asked).
        let boring = !timed[k].ok && !timed[k].cut;
        if Some(k) != winner && (boring || confirmed[k] == Some(false)) {
            st.seen.insert(batch[k].3);
        }
    }
    match winner {
        Some(k) => {
            let (i, text, s, _) = batch.swap_remove(k);
            st.size = measure(&s, &text);
            st.best = s;
            st.text = text;
            *at = i;
            Wave::Success
        }
        None => Wave::Nothing,
    }
}

#[cfg(test)]
mod tests;
