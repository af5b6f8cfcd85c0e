//! A stored finding reduced with its built-in judge ([`judge::FindingJudge`]): its files
//! are the store's ([`FindingDir`]), its solvers its campaign's.

use super::{bounds, judge, BoundsReport, Options, ReduceError, Report};
use crate::mutate::Engine;
use crate::smtlib;
use crate::solver::SolverSpec;
use crate::store::reduction::{Notation, OwnError, Typing};
use crate::store::{CampaignFile, FindingDir};
use std::path::Path;
use std::time::{Duration, Instant};

/// The solvers a finding was found with: its store's campaign file, then
/// `.solvers/solvers.toml` for names it does not define.
pub fn finding_solvers(dir: &Path) -> Vec<SolverSpec> {
    let mut out: Vec<SolverSpec> = vec![];
    if let Some(cf) = campaign_of(&FindingDir::new(dir)) {
        out.extend(cf.solvers);
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

/// The campaign file of the store a finding belongs to, if it has one that reads.
pub(super) fn campaign_of(dir: &FindingDir) -> Option<CampaignFile> {
    CampaignFile::read(dir.store_root()?).ok().flatten()
}

/// Reduces the stored finding in `dir` with its built-in judge ([`judge::FindingJudge`]):
/// writes its reduction (`reduced.smt2`, atomically after every success, so an
/// interrupted run keeps its progress; a STORM witness line stays on top) and records the
/// report in its `meta.json`. `max_time` caps the per-check limit the judge derives from the finding.
/// `ladder`: the installed releases; the trigger's range over them (kept in `meta.json`
/// until the reduction's own replaces it) names the releases the reduction must keep
/// passing ([`super::range::guards`]).
pub fn reduce_finding(
    dir: &Path,
    solvers: &[SolverSpec],
    ladder: &[SolverSpec],
    opts: &Options,
    max_time: Duration,
) -> Result<Report, ReduceError> {
    let t0 = Instant::now();
    let deadline = opts.time.map(|t| t0 + t);
    let scratch = tempdir_in(dir)?;
    let dir = FindingDir::new(dir);
    let (mut judge, mut meta) = judge::FindingJudge::for_finding(dir.path(), solvers, max_time, scratch.path())?;
    let trigger_path = dir.trigger_path();
    let text = crate::util::files::read_input_text(&trigger_path)?;
    let mut script = smtlib::parse(&text).map_err(|e| e.in_file(&trigger_path))?;
    let mut header =
        text.lines().find(|l| l.starts_with(crate::mutate::storm::WITNESS_PREFIX)).map(|l| format!("{l}\n"));
    // A STORM trigger first goes through bound minimisation (at most half the budget).
    let mut bounds_report = None;
    if judge.witness.is_some() && meta.origin == Engine::Storm {
        let deadline = opts.time.map(|t| t0 + t / 2);
        if let Some(m) = bounds::storm_bounds(&dir, &judge, &meta, smtlib::print(&script).len(), deadline) {
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
    let narrowed = narrow_limit(&mut judge, &meta, &smtlib::print(&script), opts.time.map(|t| t0 + t));
    let left = opts.time.map(|t| t.saturating_sub(t0.elapsed()));
    guard(&mut judge, &mut meta, dir.path(), solvers, ladder, &smtlib::print(&script), left);
    let out = dir.reduced_path();
    let opts = Options { time: opts.time.map(|t| t.saturating_sub(t0.elapsed())), ..opts.clone() };
    // The script is handed over, not copied: the reduction drops it once it has beaten it.
    let header = header.as_deref().unwrap_or("");
    let (best, mut report) = super::driver::reduce_known(script, &judge, &opts, Some(&out), header, None)?;
    report.typing = strict_typing(&judge, &best, &out, header, &mut report)?;
    let shown = match report.typing {
        Some(Typing::Strict) => std::fs::read_to_string(&out).ok().map(|t| t.replacen(header, "", 1)),
        _ => None,
    }
    .unwrap_or(best);
    report.gates = gates(&mut judge, &shown, deadline, &mut report.checks);
    if deadline.is_none_or(|d| Instant::now() < d) {
        // Whether the bug needs the refused command is the blamed solver's question alone:
        // without the guards, an older release's other bug cannot answer it.
        let guards = std::mem::take(&mut judge.keep_passing);
        report.own_error = Some(match judge.refused(&shown, &mut report.checks) {
            Some((command, keyword)) => OwnError::Refused { command, keyword },
            None => OwnError::Absent,
        });
        // A bug of the solver's lenient typing is that extension's, `let` or not.
        let stopped = opts.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        if report.typing != Some(Typing::Lenient) && !stopped {
            report.notation = notation(&judge, &shown, &mut report.checks);
        }
        judge.keep_passing = guards;
    }
    if let Some((limit, checks)) = narrowed {
        report.check_limit = limit.map(|l| l.as_secs_f64());
        report.checks += checks;
    }
    if let Some(b) = bounds_report {
        report.original_bytes = b.from_bytes;
        report.bounds = Some(b);
    }
    report.seconds = t0.elapsed().as_secs_f64();
    meta.reduction = Some(report.clone());
    dir.write_meta(&meta).map_err(|e| ReduceError::Write { path: dir.meta_path().display().to_string(), source: e })?;
    Ok(report)
}

/// The reduction `best` written as SMT-LIB types it ([`smtlib::strict`]), where a solver
/// read it leniently. When the bug still shows on it (confirmed as every candidate is),
/// it becomes the reduction (to `out`, after `header`) — a maintainer gets standard input
/// — and the typing is [`Typing::Strict`]. When it does not, twice, while `best` still
/// does between the two, the bug needs the leniency ([`Typing::Lenient`]: the finding's
/// identity and severity say so); a machine too loaded to confirm `best` concludes
/// nothing (`None`), and a single failed run never makes a finding lenient. `None` too
/// when `best` is SMT-LIB already.
fn strict_typing(
    judge: &judge::FindingJudge,
    best: &str,
    out: &Path,
    header: &str,
    report: &mut Report,
) -> Result<Option<Typing>, ReduceError> {
    use super::Judge;
    use smtlib::strict::Strict;
    let Ok(script) = smtlib::parse(best) else { return Ok(None) };
    let strict = match smtlib::strict::strict(&script) {
        Strict::Standard | Strict::Unsearched => return Ok(None),
        Strict::Unrepaired => return Ok(Some(Typing::Unrepaired)),
        Strict::Repaired(s) => s,
    };
    let text = smtlib::print(&strict);
    for round in 0..2 {
        report.checks += 1;
        if judge.confirm(&text) {
            crate::util::fs::write_atomic(out, format!("{header}{text}").as_bytes())
                .map_err(|e| ReduceError::Write { path: out.display().to_string(), source: e })?;
            report.reduced_bytes = text.len();
            return Ok(Some(Typing::Strict));
        }
        if round == 0 {
            report.checks += 1;
            if !judge.confirm(best) {
                return Ok(None);
            }
        }
    }
    Ok(Some(Typing::Lenient))
}

/// The notation the bug of the reduction `text` needs ([`Notation`]): with the names its
/// `let`s bind made fresh ([`super::passes::rename_let_bound`]) it is the same formula,
/// term for term, and if the blamed solver shows the bug on `text` but not on that, twice
/// in a row with `text` showing it between (a check lost to load is not a notation), the
/// bug is in its reading of `let`. Asked of wrong answers only (a differential one or the
/// solver contradicting itself): a crash is told apart by its crash state, a regression
/// by its release, and a metamorphic variant or a model's message would not be compared
/// like for like. `checks` counts the confirmations.
fn notation(judge: &judge::FindingJudge, text: &str, checks: &mut u64) -> Option<Notation> {
    use super::Judge;
    use judge::Symptom;
    if !matches!(judge.symptom, Symptom::Answers { .. } | Symptom::Contradiction) {
        return None;
    }
    let renamed = super::passes::rename_let_bound(text).filter(|r| r != text)?;
    for _ in 0..2 {
        *checks += 2;
        if judge.confirm(&renamed) || !judge.confirm(text) {
            return None;
        }
    }
    Some(Notation::Let)
}

/// The commands of the reduction `text` that it keeps only for `judge`'s releases to keep
/// passing ([`crate::store::reduction::Report::gates`]): without one, the bug still shows
/// (confirmed as every candidate is, the guards aside) but a guard release then fails.
/// Each command is tried once, until `deadline`; `checks` counts the confirmations. The
/// judge's guards are as they were afterwards.
fn gates(judge: &mut judge::FindingJudge, text: &str, deadline: Option<Instant>, checks: &mut u64) -> Vec<usize> {
    use super::Judge;
    // A reduction is a handful of commands; one far longer was cut short and is not
    // worth one confirmation per command.
    const MAX_COMMANDS: usize = 24;
    let Ok(script) = smtlib::parse(text) else { return vec![] };
    if judge.keep_passing.is_empty() || script.commands.len() > MAX_COMMANDS {
        return vec![];
    }
    let guards = std::mem::take(&mut judge.keep_passing);
    let mut found = vec![];
    for i in 0..script.commands.len() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        if script.is_check(&script.commands[i].kind) {
            continue;
        }
        let keep: Vec<usize> = (0..script.commands.len()).filter(|&k| k != i).collect();
        let candidate = smtlib::print(&smtlib::slice::keep_commands(&script, &keep));
        *checks += 1;
        if !judge.confirm(&candidate) {
            continue;
        }
        // Refused by a guard release showing the bug, not by anything else a
        // confirmation checks (a timeout under load would make a false gate, and a false
        // gate merges shapes that differ).
        judge.keep_passing = guards.clone();
        *checks += 1;
        if judge.a_guard_shows(&candidate) {
            found.push(i);
        }
        judge.keep_passing.clear();
    }
    judge.keep_passing = guards;
    found
}

/// Sets the releases `judge` keeps passing ([`super::range::guards`]) from the trigger's
/// range over `ladder` (each release under the judge's own limit), and keeps that range
/// in `meta` where it has none. Skipped for a symptom no single release shows alone, and
/// where less than 20 s of what is left of the reduction's budget (`left`) would remain
/// after every release ran to the limit; the guards are dropped if the trigger itself
/// (`text`) fails them, so that they can never stop a reduction from starting.
fn guard(
    judge: &mut judge::FindingJudge,
    meta: &mut crate::store::Meta,
    dir: &Path,
    solvers: &[SolverSpec],
    ladder: &[SolverSpec],
    text: &str,
    left: Option<Duration>,
) {
    use super::Judge;
    use judge::Symptom;
    let alone = matches!(
        judge.symptom,
        Symptom::Crash { .. }
            | Symptom::InvalidModel { .. }
            | Symptom::CheckFailed { .. }
            | Symptom::Answers { .. }
            | Symptom::Contradiction
            | Symptom::Core { .. }
    );
    let releases = super::range::releases(&judge.solvers[0], ladder).len();
    let cost = judge.limits.time * releases as u32;
    if !alone || releases < 2 || left.is_some_and(|t| t < cost + Duration::from_secs(20)) {
        return;
    }
    let Ok((range, guards)) = super::range::guards(dir, solvers, ladder, judge.limits.time) else { return };
    if meta.cause.range.is_none() {
        meta.cause.range = Some(range);
    }
    judge.keep_passing = guards;
    if !judge.keep_passing.is_empty() && !judge.confirm(text) {
        judge.keep_passing.clear();
    }
}

/// A finding whose trigger made a solver wait (a query that ran to its limit, or gave up
/// with `unknown`) costs that wait in every check: the smtfd model-evaluation crash of
/// issue 39, whose first `check-sat` times out, cost the campaign's limit per check and
/// was never reduced. Its judge's limit is lowered to the smallest of 1 s, 2 s, 4 s, ...
/// below the current one that still shows the bug on the trigger (`text`), measured
/// with the judge's own confirmation; the steps double, so the limit is at most twice
/// what the decisive query needs, and the measurement costs at most about twice that.
/// Returns the new limit (`None`: unchanged) and the checks it cost; `None` when the
/// finding made nothing wait.
fn narrow_limit(
    judge: &mut judge::FindingJudge,
    meta: &crate::store::Meta,
    text: &str,
    deadline: Option<Instant>,
) -> Option<(Option<Duration>, u64)> {
    use super::Judge;
    use crate::solver::Outcome;
    let involved = |name: &str| judge.solvers.iter().any(|s| s.name == name);
    let waited = meta
        .answers
        .iter()
        .filter(|a| involved(&a.solver))
        .any(|a| a.outcomes.iter().any(|o| matches!(o, Outcome::Timeout | Outcome::Unknown { .. })));
    if !waited {
        return None;
    }
    let full = judge.limits.time;
    let mut rung = Duration::from_secs(1);
    let mut checks = 0;
    while rung < full && deadline.is_none_or(|d| Instant::now() + rung < d) {
        judge.limits.time = rung;
        checks += 1;
        if judge.confirm(text) {
            return Some((Some(rung), checks));
        }
        rung *= 2;
    }
    judge.limits.time = full;
    Some((None, checks))
}

/// A fresh scratch directory under `parent` (hidden, unpredictable name), removed when
/// dropped. One left behind by a reduction that was killed (`kill -9`, a second Ctrl-C)
/// is removed by the next reduction that makes one under the same parent (the finding's
/// directory, or `$TMPDIR` for a file): see [`crate::util::fs::scratch_dir`].
pub fn tempdir_in(parent: &Path) -> Result<crate::util::fs::ScratchDir, ReduceError> {
    crate::util::fs::scratch_dir(parent, ".reduce-")
        .map_err(|e| ReduceError::Write { path: parent.display().to_string(), source: e })
}
