//! Regressions along the release ladder (Janus, ASE 2022: incompleteness as a bug class).
//!
//! When a campaign runs several releases of one family, a query that an *older* release
//! decides (`sat`/`unsat`) and the *newer* one answers `unknown`, does not answer within
//! its limit, or decides at least [`SLOWDOWN`] times slower (and [`MARGIN`] slower in
//! absolute time, so that start-up noise on tiny queries never counts), is a regression
//! candidate. The newer release is the newest of the family in the run; with a baseline
//! (`--baseline NAME`, a solver team's reference build) every other release of that
//! family is compared against the baseline instead.
//!
//! With a baseline the run is a solver team's regression mode: what the build gets wrong
//! that the baseline gets right. Besides incompleteness, a definite answer of the build
//! that the baseline contradicts is a wrong answer blamed on the build, the baseline's
//! answer expected ([`wrong_answers`]; the differential oracle, one vote per family,
//! would see a tie between two builds of one family), and a finding the baseline shares
//! is told apart ([`shared_with`]).
//!
//! Incompleteness is never a wrong answer: a regression is its own [`BugKind::Regression`]
//! (blamed [`BlameBy::Ladder`] or [`BlameBy::Baseline`]), and the oracle stays silent
//! whenever the older answer may itself be wrong: any other solver's definite answer, or a
//! known status, that contradicts it (that is the soundness oracle's business), and any
//! definite answer of the newer release that differs from it.
//!
//! A candidate is confirmed in fresh processes ([`Confirm::regression`], reached through
//! [`Confirm::confirm_with`] like every other kind): the older release must decide
//! [`REPEATS`] times with the same answers, the other solvers must not contradict it, and
//! the newer one, given a longer limit ([`newer_limit`]: a near miss is not a regression),
//! must fail every time. Bisection (in the campaign) then finds the release that introduced it.

use super::confirm::{fresh_text, Confirm, Confirmed, Expected, Refused};
use super::{BlameBy, BugKind, Verdict};
use crate::smtlib::{self, Script};
use crate::solver::registry::version_cmp;
use crate::solver::{run_file, Family, Limits, Outcome, QueryResult, SolverSpec};
use std::time::Duration;

/// How many times slower a newer release must be to regress (Janus uses 10×).
pub const SLOWDOWN: f64 = 10.0;
/// The least absolute slowdown that counts: a process start is tens of milliseconds, and
/// 10× of 20 ms is noise. Two seconds, not Janus's bare 10×: three sessions' hand judges
/// (judge28a, judge29b, judge31a) called every stored slowdown that still ended within
/// about two seconds "not a bug" (z3 5.4.0 deciding a string query in 0.37–0.54 s where
/// 4.8.12 takes 0.03 s) — no maintainer files those, and a loaded machine makes them.
pub const MARGIN: Duration = Duration::from_secs(2);
/// The most the newer release gets, in multiples of the campaign's per-query limit.
pub const NEWER_LIMIT_FACTOR: f64 = 3.0;
/// Fresh runs of each side in confirmation.
pub const REPEATS: usize = 3;

/// How the newer release fails where the older one decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It answers `unknown` (before its limit).
    Unknown,
    /// It gives no answer within its limit (or `unknown` at the limit).
    Timeout,
    /// It decides the same way, [`SLOWDOWN`]× and [`MARGIN`] slower.
    Slower,
}

impl Failure {
    /// How a regression's signature (`timeout where z3-4.8.5 decides, …`) says the newer
    /// release fails.
    pub fn of_signature(signature: &str) -> Option<Failure> {
        let how = signature.split_once(" where ")?.0;
        [Failure::Unknown, Failure::Timeout, Failure::Slower].into_iter().find(|f| f.as_str() == how)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Failure::Unknown => "unknown",
            Failure::Timeout => "timeout",
            Failure::Slower => "10x slower",
        }
    }
}

/// The (older, newer) pairs a run compares, by solver index: with a `baseline`, (baseline,
/// every other solver of its family); else (every older versioned release, the newest
/// release of its family), per family with two releases or more. Unknown command lines
/// (family `Other`) are never compared without a baseline: their versions are not known.
pub fn pairs(specs: &[SolverSpec], baseline: Option<usize>) -> Vec<(usize, usize)> {
    if let Some(b) = baseline {
        return (0..specs.len()).filter(|&k| k != b && specs[k].family == specs[b].family).map(|k| (b, k)).collect();
    }
    let mut out = vec![];
    for (n, newest) in specs.iter().enumerate() {
        let Some(nv) = newest.version.as_deref().filter(|_| newest.family != Family::Other) else { continue };
        let newer_exists = specs
            .iter()
            .any(|s| s.family == newest.family && s.version.as_deref().is_some_and(|v| version_cmp(v, nv).is_gt()));
        if newer_exists {
            continue;
        }
        for (o, older) in specs.iter().enumerate() {
            if older.family == newest.family && older.version.as_deref().is_some_and(|v| version_cmp(v, nv).is_lt()) {
                out.push((o, n));
            }
        }
    }
    out
}

/// The older release's answers if it decided every check-sat (and did not crash).
pub fn decided(r: &QueryResult) -> Option<&[Outcome]> {
    let ok = r.crash.is_none() && !r.outcomes.is_empty() && r.outcomes.iter().all(Outcome::is_definite);
    ok.then_some(&r.outcomes[..])
}

/// How `newer` fails against the older release's answers `want`, which took `older`
/// (wall time); `limit` is the limit `newer` ran under (an `unknown` at 90 % of it is a
/// timeout). `None`: it does not fail (decides the same way, in time), or it says
/// something that is not incompleteness (a crash, an error, a resource limit, an invalid
/// model, another definite answer): other oracles' business, never a regression.
pub fn failure(newer: &QueryResult, want: &[Outcome], older: Duration, limit: Duration) -> Option<Failure> {
    if newer.crash.is_some() {
        return None;
    }
    let mut how = None;
    for (c, w) in want.iter().enumerate() {
        match newer.outcomes.get(c) {
            None | Some(Outcome::Timeout) => how = how.or(Some(Failure::Timeout)),
            Some(Outcome::Unknown { .. }) => {
                let at_limit = newer.wall.as_secs_f64() >= 0.9 * limit.as_secs_f64();
                how = how.or(Some(if at_limit { Failure::Timeout } else { Failure::Unknown }));
            }
            Some(o) if o == w => {}
            Some(_) => return None,
        }
    }
    if how.is_some() {
        return how;
    }
    slower(newer.wall, older).then_some(Failure::Slower)
}

/// Whether every `unknown` of `newer` (and there is one) answers a `check-sat-using`
/// (`framing` labels the script's checks): a tactic that does not apply to its goal
/// fails, and z3 then answers `unknown` by design (a campaign keeps such an
/// answer short of the limit out of the regression oracle).
pub fn tactic_declined(newer: &QueryResult, framing: &crate::smtlib::framing::Framing) -> bool {
    let unknown = |o: &Outcome| matches!(o, Outcome::Unknown { .. });
    newer.outcomes.iter().any(unknown)
        && newer
            .outcomes
            .iter()
            .enumerate()
            .all(|(c, o)| !unknown(o) || framing.labels.get(c).is_some_and(|l| l.starts_with("check-sat-using")))
}

/// Whether `newer` is a regression's slowdown of `older`: [`SLOWDOWN`]× and [`MARGIN`].
pub fn slower(newer: Duration, older: Duration) -> bool {
    newer.as_secs_f64() >= SLOWDOWN * older.as_secs_f64() && newer.saturating_sub(older) >= MARGIN
}

/// Whether a run that gave no answer within `limit` was starved of the CPU: it ran on a
/// CPU for between a twentieth and a half of its limit. On a loaded machine (a judge saw
/// load 9 on 2 cores) a release that decides in a second ran out of a 2.5 s wall limit
/// with a fifth of it on the CPU, and two false "timeout" regressions were stored
/// (session 28, judge28a). Less than a twentieth is not starvation but a process that
/// waits (a hang) or whose work the figure misses (a wrapper script's children): read as
/// before. No CPU figure (an in-process run): not starved.
pub fn starved(r: &QueryResult, limit: Duration) -> bool {
    let share = |c: Duration| c.as_secs_f64() / limit.as_secs_f64().max(1e-3);
    r.cpu.is_some_and(|c| (0.05..0.5).contains(&share(c)))
}

/// The newer release's fresh run in a confirmation: run once under `limits`; a timeout
/// starved of the CPU ([`starved`]) is run again with the wall limit stretched by how
/// little of the CPU it got (at most [`NEWER_LIMIT_FACTOR`]×). The rerun can only
/// refute: it stands as a timeout if it gave no answer having had at least half the
/// first limit on the CPU, or having gained next to no CPU from the longer limit (it
/// waits: not starved); a rerun that decides, or starves again, leaves the question
/// open (`None`) — under load its wall time says nothing of a slowdown either. The run
/// and the limit it ran under.
pub fn newer_run(
    run: &mut dyn FnMut(&Limits) -> QueryResult,
    want: &[Outcome],
    older: Duration,
    limits: &Limits,
) -> Option<(QueryResult, Duration)> {
    let r = run(limits);
    let timed_out = |r: &QueryResult, l: Duration| failure(r, want, older, l) == Some(Failure::Timeout);
    if !(timed_out(&r, limits.time) && starved(&r, limits.time)) {
        return Some((r, limits.time));
    }
    let share = r.cpu.unwrap_or_default().as_secs_f64() / r.wall.as_secs_f64().max(1e-3);
    let stretch = (1.0 / share.max(1e-3)).min(NEWER_LIMIT_FACTOR);
    let longer = Limits { time: limits.time.mul_f64(stretch), ..*limits };
    let again = run(&longer);
    let cpu = |r: &QueryResult| r.cpu.unwrap_or_default().as_secs_f64();
    let busy = cpu(&again) >= 0.5 * limits.time.as_secs_f64();
    // A process that waits (a hang; a wrapper whose children the figure misses; the test
    // proxy's sleep after its interpreter's start-up) gains next to no CPU time from the
    // longer wall limit, where a starved one gains its share of it.
    let extra = again.wall.saturating_sub(r.wall).as_secs_f64();
    let waiting = cpu(&again) <= cpu(&r) + (0.02 * extra).max(0.05);
    (timed_out(&again, longer.time) && (busy || waiting)).then_some((again, longer.time))
}

/// Whether the older answers `want` are contradicted by anyone else: another solver's
/// definite answer at the same check-sat, or a known status.
fn contradicted(results: &[Option<&QueryResult>], skip: &[usize], want: &[Outcome], truth: Option<&[Outcome]>) -> bool {
    let other = results.iter().enumerate().filter(|(k, _)| !skip.contains(k)).filter_map(|(_, r)| *r);
    let by_solver = other
        .flat_map(|r| r.outcomes.iter().enumerate())
        .any(|(c, o)| o.is_definite() && want.get(c).is_some_and(|w| w != o));
    let by_status = truth.is_some_and(|t| t.iter().zip(want).any(|(t, w)| t.is_definite() && t != w));
    by_solver || by_status
}

/// The regression candidates among one query's answers (`results[k]` for solver `k`,
/// `None` where it was not asked), `limit` the limit they ran under: at most one per
/// newer release (the first older release that decides where it fails).
pub fn candidates(
    results: &[Option<&QueryResult>],
    specs: &[SolverSpec],
    baseline: Option<usize>,
    truth: Option<&[Outcome]>,
    limit: Duration,
) -> Vec<Verdict> {
    let mut v: Vec<Verdict> = vec![];
    for (o, n) in pairs(specs, baseline) {
        if v.iter().any(|x| x.blamed == Some(n)) {
            continue;
        }
        let (Some(Some(old)), Some(Some(new))) = (results.get(o), results.get(n)) else { continue };
        let Some(want) = decided(old) else { continue };
        // The family's releases disagree, or someone contradicts the older answer: the
        // soundness oracle judges that query, never this one.
        if contradicted(results, &[o], want, truth) {
            continue;
        }
        if let Some(f) = failure(new, want, old.wall, limit) {
            v.push(verdict(specs, o, n, f, baseline.is_some()));
        }
    }
    v
}

/// [`candidates`] beside the other oracles' `verdicts` on the same answers: none when a
/// soundness verdict is among them (a query whose answers conflict is the soundness
/// oracle's alone), and none for an `unknown` short of the limit at a `check-sat-using`.
///
/// A tactic that does not apply to its goal fails, and `check-sat-using` then answers
/// `unknown` at once: z3 does this by design, and newer releases decline more goals
/// (sat-preprocess marks theory atoms as over-approximated, qe_rec refuses
/// uninterpreted functions, symmetry-reduce quantifiers). A hand judge of a ladder run
/// found 24 of 25 such "regressions" were tactics declining, none a wrong older answer.
/// A timeout or a slowdown there still counts, and so does any `unknown` to a plain check.
pub fn candidates_beside(
    results: &[Option<&QueryResult>],
    specs: &[SolverSpec],
    baseline: Option<usize>,
    truth: Option<&[Outcome]>,
    limit: Duration,
    framing: Option<&crate::smtlib::framing::Framing>,
    verdicts: &[Verdict],
) -> Vec<Verdict> {
    if verdicts.iter().any(|v| v.kind == BugKind::Soundness) {
        return vec![];
    }
    let declined = |x: &Verdict| {
        let newer = x.blamed.and_then(|n| results.get(n).copied().flatten());
        Failure::of_signature(&x.signature) == Some(Failure::Unknown)
            && newer.zip(framing).is_some_and(|(r, f)| tactic_declined(r, f))
    };
    let mut v = candidates(results, specs, baseline, truth, limit);
    v.retain(|x| !declined(x));
    v
}

/// A regression verdict: `newer` fails as `f` where `older` decides. The older release is
/// named in the signature: confirmation and the reducer read it back ([`older_in`]).
fn verdict(specs: &[SolverSpec], older: usize, newer: usize, f: Failure, baseline: bool) -> Verdict {
    Verdict {
        kind: BugKind::Regression,
        blamed: Some(newer),
        blame_by: if baseline { BlameBy::Baseline } else { BlameBy::Ladder },
        signature: format!("{} where {} decides", f.as_str(), specs[older].name),
    }
}

/// Wrong answers against a baseline (`--baseline`, a solver team's reference build): at
/// the first check-sat where the baseline `b` decides and another build `k` of its family
/// decides otherwise, `k` is blamed ([`BlameBy::Baseline`]) with the baseline's answer as
/// the expected one (`sat where unsat is expected`).
///
/// Why not the differential oracle's votes: one vote per family ([`super::voter`]), so a
/// dev z3 and a baseline z3 that disagree cast none, and the split is an undecided tie
/// that only a model cross-check might settle; the question regression mode asks is
/// "what does my build get wrong that the baseline gets right", which names the expected
/// answer. The baseline is taken for right only where nothing contradicts it: any solver
/// outside its family with another definite answer at that check-sat, or a known status,
/// silences this oracle (the differential one judges that query as always). A check-sat
/// under a meaning-changing parameter (`framing`, as [`super::judge`] skips it) is about
/// another formula, and two releases may read the parameter differently: not judged.
pub fn wrong_answers(
    results: &[Option<&QueryResult>],
    specs: &[SolverSpec],
    b: usize,
    truth: Option<&[Outcome]>,
    framing: Option<&smtlib::framing::Framing>,
) -> Vec<Verdict> {
    let changed = |c: usize| framing.is_some_and(|f| f.changed.get(c) == Some(&true));
    let Some(Some(base)) = results.get(b) else { return vec![] };
    let family = specs[b].family;
    let kin: Vec<usize> = (0..specs.len()).filter(|&k| specs[k].family == family).collect();
    let word = |o: &Outcome| o.to_string();
    let mut v = vec![];
    for &k in kin.iter().filter(|&&k| k != b) {
        let Some(Some(build)) = results.get(k) else { continue };
        if build.crash.is_some() || base.crash.is_some() {
            continue;
        }
        let wrong = base
            .outcomes
            .iter()
            .zip(&build.outcomes)
            .enumerate()
            .find(|(c, (w, o))| !changed(*c) && w.is_definite() && o.is_definite() && w != o);
        let Some((c, (want, said))) = wrong else { continue };
        // The baseline's answer at this check-sat only: contradicted by another family
        // or the status, it may be the baseline that is wrong.
        let by_other = results
            .iter()
            .enumerate()
            .filter(|(j, _)| !kin.contains(j))
            .filter_map(|(_, r)| r.and_then(|r| r.outcomes.get(c)))
            .any(|o| o.is_definite() && o != want);
        let by_status = truth.and_then(|t| t.get(c)).is_some_and(|t| t.is_definite() && t != want);
        if by_other || by_status {
            continue;
        }
        v.push(Verdict {
            kind: BugKind::Soundness,
            blamed: Some(k),
            blame_by: BlameBy::Baseline,
            signature: format!("{} where {} is expected", word(said), word(want)),
        });
    }
    v
}

/// Whether the baseline's result `base` shows the symptom the confirmed verdict `v` found
/// in a build (its fresh result `build`): then the build does not get wrong what the
/// baseline gets right, and the finding is not the build's regression. The words say
/// why; `None`: the baseline gets it right (or the symptom is one this cannot compare:
/// a regression, an unsat core, a metamorphic pair, which are reported as found).
///
/// * a crash: the baseline crashes the same way (the verdict's signature; another crash
///   is another bug);
/// * an invalid model or a failed self-check: the baseline's is rejected too;
/// * a wrong answer (differential, status, witness, construction, a self-contradiction):
///   the baseline gives the build's definite answers at every check-sat the build decided
///   (a baseline that does not decide them does not share a wrong answer: the build's
///   is a regression that answers faster, and wrongly).
pub fn shared_with(v: &Verdict, base: Option<&QueryResult>, build: Option<&QueryResult>) -> Option<&'static str> {
    let (base, build) = (base?, build?);
    let has = |f: fn(&Outcome) -> bool| base.outcomes.iter().chain(&base.crash).any(f);
    match v.kind {
        // The same crash (its normalised message, as confirmation compares it): another
        // crash of the baseline is another bug, and this one is the build's.
        BugKind::Crash => super::confirm::crashes_with(base, &v.signature).then_some("the baseline crashes too"),
        BugKind::InvalidModel => {
            has(|o| matches!(o, Outcome::InvalidModel { .. })).then_some("the baseline's model is invalid too")
        }
        BugKind::CheckFailed => {
            has(|o| matches!(o, Outcome::CheckFailed { .. })).then_some("the baseline's self-check fails too")
        }
        BugKind::Soundness if matches!(v.blame_by, BlameBy::UnsatCore | BlameBy::Metamorphic | BlameBy::Baseline) => {
            None
        }
        BugKind::Soundness => {
            let decided: Vec<usize> = (0..build.outcomes.len()).filter(|&c| build.outcomes[c].is_definite()).collect();
            let said = |c: usize| base.outcomes.get(c).filter(|o| o.is_definite());
            // Only the same answers are shared: where the baseline times out, gives up or
            // errs, a wrong answer of the build is the build's (faster, and wrong).
            let same = !decided.is_empty() && decided.iter().all(|&c| said(c) == Some(&build.outcomes[c]));
            same.then_some("the baseline gives the same answers")
        }
        BugKind::Regression => None,
    }
}

/// The older solver's name in a regression's signature (`timeout where z3-4.8.5 decides`,
/// with `, introduced in V` after bisection).
pub fn older_in(signature: &str) -> Option<&str> {
    let (_, rest) = signature.split_once(" where ")?;
    Some(rest.split_once(" decides")?.0)
}

/// The limit the newer release gets against an older one that decides in `older`: the
/// campaign's, and at least enough to see a [`SLOWDOWN`]× slowdown finish (so that a
/// timeout at this limit is a slowdown beyond doubt, and a near miss is measured, not
/// cut) — but never more than [`NEWER_LIMIT_FACTOR`] times the campaign's: an older
/// release that needed most of the run's limit (14.5 s under load, in a CI run) made
/// every bisection probe of a release that never answers run 145 s. Past that cap the
/// newer release gave no answer in three times the run's budget where the older one
/// answered within it: a timeout regression, as such.
pub fn newer_limit(campaign: Duration, older: Duration) -> Duration {
    campaign.max((older.mul_f64(SLOWDOWN * 1.2) + MARGIN).min(campaign.mul_f64(NEWER_LIMIT_FACTOR)))
}

/// The median of some durations (the upper one of an even count).
fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d.get(d.len() / 2).copied().unwrap_or_default()
}

impl Confirm<'_> {
    /// Confirms a regression candidate `v` in fresh processes: every reader once (the
    /// older release's answers must stand: nobody contradicts them, and no soundness
    /// verdict comes back), the older release [`REPEATS`] times (deciding every time,
    /// the same way), then the newer one up to [`REPEATS`] times under [`newer_limit`]
    /// of the older's median, failing every time. The fresh results kept are the median
    /// run of each side, so a finding's answers show both timings.
    pub fn regression(
        &self,
        trigger: &Script,
        readers: &[usize],
        known: &Expected,
        v: &Verdict,
    ) -> Result<Confirmed, Refused> {
        let newer = v.blamed.ok_or(Refused::NotReproduced)?;
        let older = older_in(&v.signature)
            .and_then(|name| self.specs.iter().position(|s| s.name == name))
            .ok_or(Refused::NotReproduced)?;
        let others: Vec<usize> = readers.iter().copied().filter(|&k| k != newer).collect();
        if !others.contains(&older) {
            return Err(Refused::NotReproduced);
        }
        let limits = *self.limits;
        let mut fresh = self.rerun(trigger, &others, &mut |k, f, n| run_file(&self.specs[k], f, n, &limits))?;
        let all = fresh.all();
        let framing = smtlib::framing::framing(trigger);
        let first = fresh.results[older].as_ref().ok_or(Refused::NotReproduced)?;
        let want = decided(first).ok_or(Refused::NotReproduced)?.to_vec();
        let soundness =
            super::judge(&all, self.families, known.truth, Some(&framing)).iter().any(|x| x.kind == BugKind::Soundness);
        if soundness || contradicted(&all, &[older], &want, known.truth) {
            return Err(Refused::NotReproduced);
        }
        let checks = fresh.checks;
        let old_file = fresh.file(older).ok_or(Refused::NotReproduced)?.to_path_buf();
        let mut old_runs = vec![first.clone()];
        for _ in 1..REPEATS {
            let r = run_file(&self.specs[older], &old_file, checks, &limits);
            if decided(&r) != Some(&want[..]) {
                return Err(Refused::NotReproduced);
            }
            old_runs.push(r);
        }
        let m_old = median(old_runs.iter().map(|r| r.wall).collect());
        let new_limits = Limits { time: newer_limit(limits.time, m_old), ..limits };
        let new_file = self.dir.join(format!("{}candidate-{newer}.smt2", self.tag));
        std::fs::write(&new_file, fresh_text(&self.specs[newer], trigger)).map_err(|_| Refused::Unwritable)?;
        let mut new_runs = vec![];
        for _ in 0..REPEATS {
            if crate::util::time::would_overrun(self.until, new_limits.time) {
                return Err(Refused::OutOfTime);
            }
            let mut run = |l: &Limits| run_file(&self.specs[newer], &new_file, checks, l);
            let (r, limit) = newer_run(&mut run, &want, m_old, &new_limits).ok_or(Refused::NotReproduced)?;
            // Each run must fail against the older release's median: one that decides in
            // time ends the confirmation (most false candidates end on the first run).
            failure(&r, &want, m_old, limit).ok_or(Refused::NotReproduced)?;
            new_runs.push((r, limit));
        }
        let pick = |runs: Vec<(QueryResult, Duration)>| {
            let m = median(runs.iter().map(|r| r.0.wall).collect());
            runs.into_iter().find(|r| r.0.wall == m)
        };
        let (kept, kept_limit) = pick(new_runs).ok_or(Refused::NotReproduced)?;
        // The signature names how the kept (median) run fails, so that it reads as the
        // answers stored beside it and the reducer keeps that failure: the runs may
        // differ (one decides 10x slower, the median gives up at the limit).
        let how = failure(&kept, &want, m_old, kept_limit).ok_or(Refused::NotReproduced)?;
        let file = self.dir.join(format!("{}plain.smt2", self.tag));
        let pair = (&self.specs[newer], &self.specs[older]);
        holds_without_validation(pair, trigger, &want, m_old, (&new_limits, &limits), &file)
            .ok_or(Refused::NotReproduced)?;
        fresh.results[older] = {
            let m = median(old_runs.iter().map(|r| r.wall).collect());
            old_runs.into_iter().find(|r| r.wall == m)
        };
        fresh.results[newer] = Some(kept);
        fresh.files[newer] = Some(new_file);
        if !fresh.readers.contains(&newer) {
            fresh.readers.push(newer);
        }
        let verdict = verdict(self.specs, older, newer, how, v.blame_by == BlameBy::Baseline);
        Ok(Confirmed { verdict, fresh })
    }
}

/// How the regression of `newer` against `older` (`pair`) on `s` shows without smtstorm's
/// own validation options, or `None` if it does not: `older` decides `want` as a user
/// would send it the script, and `newer` fails against that (or against `older_took`,
/// whichever is longer), each under its limit of `limits` (newer's, older's); `file` is
/// where the queries are written. Those options are not the user's, and z3's
/// `:model_validate` changes its search: a hand judge found a z3 5.4.0 "timeout where
/// 4.8.12 decides" that 5.4.0 answered in 0.03 s without it (a push/pop quantified
/// search; issue 41, judge27a). Confirmation and the reducer's judge both ask it.
pub fn holds_without_validation(
    pair: (&SolverSpec, &SolverSpec),
    s: &Script,
    want: &[Outcome],
    older_took: Duration,
    limits: (&Limits, &Limits),
    file: &std::path::Path,
) -> Option<Failure> {
    let checks = smtlib::checks(s);
    let run = |spec: &SolverSpec, limits: &Limits| {
        std::fs::write(file, smtlib::print(&spec.own_script(s))).ok()?;
        Some(run_file(spec, file, checks, limits))
    };
    let old = run(pair.1, limits.1)?;
    if decided(&old) != Some(want) {
        return None;
    }
    let older = older_took.max(old.wall);
    let text = smtlib::print(&pair.0.own_script(s));
    let mut newer = |l: &Limits| {
        if std::fs::write(file, &text).is_err() {
            return crate::solver::failed(
                vec![Outcome::Error { message: "unwritable".into() }],
                std::time::Instant::now(),
            );
        }
        run_file(pair.0, file, checks, l)
    };
    let (r, limit) = newer_run(&mut newer, want, older, limits.0)?;
    failure(&r, want, older, limit)
}

/// Answers and wall time in words: `sat sat (0.12 s)`.
pub fn timed(r: &QueryResult) -> String {
    let a: Vec<String> = r.outcomes.iter().chain(&r.crash).map(|o| o.to_string()).collect();
    format!("{} ({:.2} s)", a.join(" "), r.wall.as_secs_f64())
}

#[cfg(test)]
#[path = "regress_tests.rs"]
pub(crate) mod tests;
