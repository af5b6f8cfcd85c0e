//! A stored finding's regression range (issue 39): every installed release of the blamed
//! solver's family run on the *reduced* trigger, oldest first.
//!
//! The bisection a campaign runs when it stores a finding (`oracle::bisect`) is on the
//! trigger as found, over newer releases only, and assumes a release stays fixed once
//! fixed: `4777ca5fae8a` read "fixed in 5.4.0" where its reduced trigger is fixed in
//! 4.12.6; `4531959abda5` read "fixed in 4.8.17" while its own probes showed 4.8.17 to
//! 4.13.4 failing. Here every release is run (the ladder is about a dozen), older ones
//! too, so the range says where the bug came in (ClusterFuzz's regressed range), where it
//! went (its fixed range) and whether the newest release still fails.

use super::judge::{FindingJudge, Symptom};
use super::{tempdir_in, ReduceError};
use crate::oracle::{crash_fixed, self_contradiction};
use crate::smtlib;
use crate::solver::registry::version_cmp;
use crate::solver::{run_file, Outcome, QueryResult, SolverSpec};
use crate::store::identity::{Probe, ProbeVerdict, Range};
use crate::store::{layout, FindingDir};
use std::path::Path;
use std::time::Duration;

/// The releases of `blamed`'s family in `ladder` (and `blamed` itself), one per version,
/// oldest first; `blamed` stands for its own version (a configured variant keeps its
/// command line there).
pub fn releases(blamed: &SolverSpec, ladder: &[SolverSpec]) -> Vec<SolverSpec> {
    let Some(bv) = blamed.version.as_deref() else { return vec![blamed.clone()] };
    let mut out: Vec<SolverSpec> = vec![blamed.clone()];
    for s in ladder.iter().filter(|s| s.family == blamed.family) {
        let Some(v) = s.version.as_deref() else { continue };
        if v != bv && !out.iter().any(|o| o.version.as_deref() == Some(v)) {
            let mut s = s.clone();
            s.option_owners.merge(&blamed.option_owners);
            out.push(s);
        }
    }
    out.sort_by(|a, b| version_cmp(a.version.as_deref().unwrap_or(""), b.version.as_deref().unwrap_or("")));
    out
}

/// Runs the ladder on the finding in `dir` (its reduction, or its trigger when it has
/// none) and returns the range. Each release is judged against the finding's own symptom:
/// a crash fails wherever the release crashes (its message and frames are its own build's)
/// and passes where it answers; a wrong answer fails where the release gives it and the
/// other solvers of the finding do not; an `unknown` the release gives up with passes
/// (no wrong answer is given); an error, a timeout, an `unknown` at the time limit or a
/// memory-out is inconclusive. For a crash, the crash state on
/// the newest failing release is recorded ([`Range::state`]).
pub fn regression_range(
    dir: &Path,
    solvers: &[SolverSpec],
    ladder: &[SolverSpec],
    max_time: Duration,
) -> Result<Range, ReduceError> {
    probed(dir, solvers, max_time, &mut |blamed| releases(blamed, ladder), true, false, false)
}

/// The range of the finding in `dir` on its trigger as found (whatever reduction it has),
/// and the releases a reduction must keep passing
/// ([`super::judge::FindingJudge::keep_passing`]): the releases on either side of the
/// newest run of failing ones that do not show the bug — the last before it (where the
/// bug came in; one that refuses the trigger counts) and the first passing one after it
/// (where it was fixed). A candidate that
/// makes one of them fail has slipped to another bug, one the trigger does not show
/// there. (A candidate that passes where the trigger failed is not refused: a trigger can
/// hold two bugs, and a reduction keeps one of them — see `tests/identity.rs`, whose
/// trigger holds two string-escape changes of meaning.)
pub fn guards(
    dir: &Path,
    solvers: &[SolverSpec],
    ladder: &[SolverSpec],
    max_time: Duration,
) -> Result<(Range, Vec<SolverSpec>), ReduceError> {
    let mut used = vec![];
    let range = probed(
        dir,
        solvers,
        max_time,
        &mut |b| {
            used = releases(b, ladder);
            used.clone()
        },
        false,
        false,
        true,
    )?;
    let verdict = |i: usize| range.probes[i].verdict;
    let Some(last) = (0..range.probes.len()).rev().find(|&i| verdict(i) == ProbeVerdict::Fails) else {
        return Ok((range, vec![]));
    };
    // A release that refuses the trigger (an error: it does not read the logic, a sort,
    // an option) does not show the bug either; a candidate it reads and fails on has
    // slipped to a bug of that release: z3 5.4.0's QF_FF `get-unsat-assumptions` bug
    // (older releases have no finite fields) reduced to the `check-sat-assuming (false)`
    // form every release since 4.8.7 gets wrong (judge26a, judge27b). The price: a
    // reduction keeps what that release refuses (here the finite-field sort) even where
    // the bug does not need it. A release that ran out of time says nothing either way.
    let quiet = |i: usize| {
        verdict(i) == ProbeVerdict::Passes
            || (verdict(i) == ProbeVerdict::Inconclusive && range.probes[i].answers.starts_with("error("))
    };
    let before = (0..last).rev().find(|&i| quiet(i));
    let after = (last + 1..range.probes.len()).find(|&i| verdict(i) == ProbeVerdict::Passes);
    Ok((range, before.into_iter().chain(after).filter_map(|i| used.get(i).cloned()).collect()))
}

/// One release's verdict on a regression's trigger: it fails where it gives up, runs out
/// of time or is 10x slower than the older release took (`older`) within `limit`, passes
/// where it decides as the older one did. A tactic declining its goal (`unknown` at once
/// to a `check-sat-using`) says nothing of the regression, as the oracle does not count
/// it: a judge saw 4.12.6's `lia2pb` decline a real goal read as the release that
/// introduced an `smtfd` hang (judge27a, 10e84d53777b).
fn regression_probe(
    r: &QueryResult,
    want: &[Outcome],
    older: Duration,
    limit: Duration,
    framing: &smtlib::framing::Framing,
) -> ProbeVerdict {
    use crate::oracle::regress::{decided, failure, starved, tactic_declined, Failure};
    match failure(r, want, older, limit) {
        Some(Failure::Unknown) if tactic_declined(r, framing) => ProbeVerdict::Inconclusive,
        // Out of time with a share of the CPU a loaded machine leaves: the load's, not
        // the release's (session 28's false timeouts).
        Some(Failure::Timeout) if starved(r, limit) => ProbeVerdict::Inconclusive,
        Some(_) => ProbeVerdict::Fails,
        None if decided(r) == Some(want) => ProbeVerdict::Passes,
        None => ProbeVerdict::Inconclusive,
    }
}

/// The finding in `dir` judged on one `build` only (`smtstorm recheck`), by its own
/// symptom as [`regression_range`] judges each release: the one probe, labelled with the
/// build's version (else its name), under [`Range::on`]'s file. Unlike a range, the
/// blamed solver itself is not run (nor is an unversioned build left out: a finding
/// blamed on `dev` is rechecked on the next `dev`).
pub fn recheck(
    dir: &Path,
    solvers: &[SolverSpec],
    build: &SolverSpec,
    max_time: Duration,
) -> Result<Range, ReduceError> {
    let mut on_build = |blamed: &SolverSpec| {
        let mut b = build.clone();
        b.option_owners.merge(&blamed.option_owners);
        vec![b]
    };
    // `fixed` must rest on an answer: a build that gives up (`unknown`) on a wrong
    // answer's trigger has not fixed it, whatever a range says of an old release.
    probed(dir, solvers, max_time, &mut on_build, false, true, false)
}

/// Runs the releases `ladder_of(blamed)` gives on the finding in `dir` (see
/// [`regression_range`]); `crash_state`: record the crash state of the newest failing
/// release; `answered`: a probe passes only with no `unknown` among its answers (else it
/// is inconclusive), as `recheck`'s "fixed" needs; `trigger`: on the trigger even where
/// there is a reduction.
fn probed(
    dir: &Path,
    solvers: &[SolverSpec],
    max_time: Duration,
    ladder_of: &mut dyn FnMut(&SolverSpec) -> Vec<SolverSpec>,
    crash_state: bool,
    answered: bool,
    trigger: bool,
) -> Result<Range, ReduceError> {
    let scratch = tempdir_in(dir)?;
    let (judge, _meta) = FindingJudge::for_finding(dir, solvers, max_time, scratch.path())?;
    let f = FindingDir::new(dir);
    let reduced = if trigger { Err(std::io::ErrorKind::NotFound.into()) } else { f.read_reduced() };
    let (on, text) = match reduced {
        Ok(t) => (layout::REDUCED, t),
        Err(_) => (
            layout::TRIGGER,
            f.read_trigger()
                .map_err(|e| ReduceError::Write { path: f.trigger_path().display().to_string(), source: e })?,
        ),
    };
    let script = smtlib::parse(&text).map_err(|e| e.in_file(&f.path().join(on)))?;
    let checks = smtlib::checks(&script);
    let file = scratch.path().join("range.smt2");
    let run_on = |spec: &SolverSpec, script: &smtlib::Script| -> QueryResult {
        if std::fs::write(&file, crate::oracle::confirm::fresh_text(spec, script)).is_err() {
            let message = "cannot write the probe file".to_string();
            return crate::solver::failed(vec![Outcome::Error { message }; checks.max(1)], std::time::Instant::now());
        }
        run_file(spec, &file, checks, &judge.limits)
    };
    let run = |spec: &SolverSpec| run_on(spec, &script);
    // A metamorphic finding: each release is asked the seed side and its variant.
    let variant = match &judge.symptom {
        Symptom::Metamorphic { relations, .. } => crate::mutate::equisat::apply(&script, relations).ok(),
        _ => None,
    };
    // The other solvers' definite answers per check-sat: what a wrong answer is measured
    // against (they do not change with the blamed solver's release).
    let others: Vec<Vec<Outcome>> = match &judge.symptom {
        Symptom::Answers { .. } => judge.solvers[1..].iter().map(|s| run(s).outcomes).collect(),
        _ => vec![],
    };
    // A regression's releases are timed against the older release that decides.
    let older = match &judge.symptom {
        Symptom::Regression { .. } => run(&judge.solvers[1]).wall,
        _ => Duration::ZERO,
    };
    let framing = smtlib::framing::framing(&script);
    let verdict = |r: &QueryResult| -> ProbeVerdict {
        use ProbeVerdict::*;
        let crashed = r.crash.is_some() || r.outcomes.iter().any(|o| matches!(o, Outcome::Crash { .. }));
        let refused = r.outcomes.is_empty()
            || r.outcomes
                .iter()
                .any(|o| matches!(o, Outcome::Error { .. } | Outcome::Timeout | Outcome::Resource { .. }));
        match &judge.symptom {
            Symptom::Crash { .. } if crashed => Fails,
            Symptom::Crash { .. } if crash_fixed(r) => Passes,
            Symptom::Crash { .. } => Inconclusive,
            _ if crashed => Inconclusive,
            // A timeout is this symptom, not a refusal; another answer says nothing of it.
            Symptom::Regression { want, .. } => regression_probe(r, want, older, judge.limits.time, &framing),
            Symptom::InvalidModel { .. } if r.outcomes.iter().any(|o| matches!(o, Outcome::InvalidModel { .. })) => {
                Fails
            }
            Symptom::CheckFailed { signature }
                if r.outcomes.iter().any(|o| matches!(o, Outcome::CheckFailed { message } if message == signature)) =>
            {
                Fails
            }
            Symptom::Contradiction if self_contradiction(r, &framing).is_some() => Fails,
            Symptom::Contradiction if r.outcomes.iter().filter(|o| o.is_definite()).count() < 2 => Inconclusive,
            Symptom::Answers { want } => {
                let Some(wrong) = want.first().cloned().flatten() else { return Inconclusive };
                let fails = r.outcomes.iter().enumerate().any(|(c, o)| {
                    let said: Vec<&Outcome> =
                        others.iter().filter_map(|x| x.get(c)).filter(|o| o.is_definite()).collect();
                    *o == wrong && (said.is_empty() || said.iter().any(|s| **s != wrong))
                });
                match (fails, refused) {
                    (true, _) => Fails,
                    (false, true) => Inconclusive,
                    (false, false) => Passes,
                }
            }
            _ if refused => Inconclusive,
            _ => Passes,
        }
    };
    let ladder = ladder_of(&judge.solvers[0]);
    let mut range = Range { on: on.to_string(), ..Default::default() };
    for spec in &ladder {
        let r = run(spec);
        let v = match (&judge.symptom, &variant) {
            (Symptom::Metamorphic { seed, variant: want, .. }, Some(vs)) => {
                metamorphic_probe(&r, &run_on(spec, vs), seed, want)
            }
            // A core finding: the release's own core re-checked, as the campaign did, with
            // the finding's other solvers (a release without the bug gives a core that
            // holds; the named script's answer alone says nothing).
            (Symptom::Core { signature }, _) => {
                use crate::oracle::cores::{recheck, Recheck};
                let specs: Vec<&SolverSpec> = std::iter::once(spec).chain(&judge.solvers[1..]).collect();
                let others: Vec<usize> = (1..specs.len()).collect();
                match recheck(&script, 0, &others, false, &mut |k, s, _| run_on(specs[k], s)) {
                    Recheck::Wrong { verdict, .. } if verdict.signature == *signature => ProbeVerdict::Fails,
                    Recheck::Holds { .. } => ProbeVerdict::Passes,
                    _ => ProbeVerdict::Inconclusive,
                }
            }
            _ => verdict(&r),
        };
        let gave_up = r.outcomes.iter().any(|o| matches!(o, Outcome::Unknown { .. }));
        // An `unknown` near the limit is the solver's own timeout (z3 answers `unknown`
        // at `-t:`), not a release that gave up: what it would answer with more time is
        // not known, so it has not fixed anything (a judge saw "fixed in 5.4.0" where
        // 5.4.0 still runs past 20 s).
        let out_of_time = gave_up && r.wall >= judge.limits.time.mul_f64(0.8);
        let v = match (&judge.symptom, v) {
            (Symptom::Regression { .. }, v) => v,
            (_, ProbeVerdict::Passes) if out_of_time => ProbeVerdict::Inconclusive,
            (Symptom::Crash { .. }, v) => v,
            (_, ProbeVerdict::Passes) if answered && gave_up => ProbeVerdict::Inconclusive,
            (_, v) => v,
        };
        range.probes.push(Probe {
            release: spec.version.clone().unwrap_or_else(|| spec.name.clone()),
            verdict: v,
            answers: r.outcomes.iter().chain(&r.crash).map(|o| o.to_string()).collect::<Vec<_>>().join(" "),
        });
    }
    range.settle();
    if let (Symptom::Crash { .. }, true) = (&judge.symptom, crash_state) {
        // The crash state on the newest failing release: the same crash reached from two
        // releases is compared on one build.
        let newest = range.probes.iter().rposition(|p| p.verdict == ProbeVerdict::Fails);
        if let Some(spec) = newest.map(|i| &ladder[i]) {
            let r = run(spec);
            let message = r.crash.iter().chain(&r.outcomes).find_map(|o| match o {
                Outcome::Crash { message, .. } => Some(message.clone()),
                _ => None,
            });
            let bare = crate::store::is_bare_signal;
            range.state = match message {
                Some(m) if !bare(&m) => vec![m],
                // A bare signal without frames says nothing: the identity falls back to
                // the finding's own crash state, or its shape.
                _ => crate::solver::backtrace::crash_state(spec, &file, &judge.limits).unwrap_or_default(),
            };
        }
    }
    Ok(range)
}

/// A release on a metamorphic finding: it fails where it answers the seed side and the
/// variant as the finding's solver did at one check-sat, passes where it answers both
/// definitely and the same at every check-sat; anything else is inconclusive.
fn metamorphic_probe(a: &QueryResult, b: &QueryResult, seed: &Outcome, variant: &Outcome) -> ProbeVerdict {
    let fails = (0..a.outcomes.len()).any(|k| a.outcomes.get(k) == Some(seed) && b.outcomes.get(k) == Some(variant));
    let agree = !a.outcomes.is_empty()
        && a.outcomes.len() == b.outcomes.len()
        && a.outcomes.iter().zip(&b.outcomes).all(|(x, y)| x.is_definite() && x == y);
    match (fails, agree) {
        (true, _) => ProbeVerdict::Fails,
        (false, true) => ProbeVerdict::Passes,
        (false, false) => ProbeVerdict::Inconclusive,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A release that declines a `check-sat-using` goal at once is no evidence of the
    /// regression; the same `unknown` to a plain check is; a timeout under a tactic is; a
    /// release that decides as the older one did passes.
    #[test]
    fn a_tactic_declining_is_no_probe_of_a_regression() {
        let result = |o: Outcome, ms: u64| {
            let mut r = crate::solver::failed(vec![o], std::time::Instant::now());
            r.wall = Duration::from_millis(ms);
            r
        };
        let unknown = || Outcome::Unknown { reason: String::new() };
        let script =
            |check: &str| smtlib::parse(&format!("(declare-const x Real)\n(assert (> x 1.0))\n{check}\n")).unwrap();
        let using = smtlib::framing::framing(&script("(check-sat-using lia2pb)"));
        let plain = smtlib::framing::framing(&script("(check-sat)"));
        let (want, older, limit) = ([Outcome::Sat], Duration::from_millis(20), Duration::from_secs(5));
        let probe = |r: &QueryResult, f| regression_probe(r, &want, older, limit, f);
        assert_eq!(probe(&result(unknown(), 10), &using), ProbeVerdict::Inconclusive);
        assert_eq!(probe(&result(unknown(), 10), &plain), ProbeVerdict::Fails);
        assert_eq!(probe(&result(Outcome::Timeout, 5000), &using), ProbeVerdict::Fails);
        assert_eq!(probe(&result(Outcome::Sat, 25), &using), ProbeVerdict::Passes);
        // A timeout with a fifth of its limit on the CPU says nothing of the release; one
        // that used the CPU, or (a hang) next to none of it, fails.
        let timeout_with =
            |cpu_ms: u64| QueryResult { cpu: Some(Duration::from_millis(cpu_ms)), ..result(Outcome::Timeout, 5000) };
        assert_eq!(probe(&timeout_with(1000), &plain), ProbeVerdict::Inconclusive);
        assert_eq!(probe(&timeout_with(4800), &plain), ProbeVerdict::Fails);
        assert_eq!(probe(&timeout_with(10), &plain), ProbeVerdict::Fails);
    }
}
