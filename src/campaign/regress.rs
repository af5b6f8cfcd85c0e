//! The ladder-regression oracle in a campaign ([`crate::oracle::regress`]): its
//! candidates beside the other oracles' verdicts, and the bisection of a confirmed one
//! over the installed releases between the release that decides and the one that fails.

use super::*;
use crate::oracle::regress;
use crate::solver::registry::version_cmp;
use crate::solver::run_file;
use crate::store::identity::{Probe, ProbeVerdict, Range};

/// The solver index of the run's `--baseline`, if it has one.
pub(super) fn baseline(sh: &Shared) -> Option<usize> {
    let name = sh.cfg.baseline.as_deref()?;
    sh.solvers.iter().position(|s| s.name == name)
}

/// The regression candidates of one query's answers, beside `verdicts` (the other
/// oracles'): none when the run has it off, or when a soundness verdict is among them
/// (a query whose answers conflict is the soundness oracle's alone). `seed_blames`: the
/// seed's own findings; an older release blamed for a wrong answer on the seed is no
/// reference for its mutants (its speed there may be its bug: in the first ladder run
/// z3 4.8.5 answered a string seed `sat` wrongly, and a mutant it decided 20× faster
/// than 5.4.0 came back as a slowdown).
pub(super) fn candidates(
    sh: &Shared,
    rs: &[Option<&QueryResult>],
    truth: Option<&[Outcome]>,
    limit: Duration,
    framing: Option<&crate::smtlib::framing::Framing>,
    verdicts: &[oracle::Verdict],
    seed_blames: &[(BugKind, Option<usize>, String)],
) -> Vec<oracle::Verdict> {
    if !sh.cfg.regressions {
        return vec![];
    }
    let wrong_on_seed = |v: &oracle::Verdict| {
        let older = regress::older_in(&v.signature).and_then(|n| sh.solvers.iter().position(|s| s.name == n));
        seed_blames.iter().any(|(k, b, _)| *k == BugKind::Soundness && b.is_some() && *b == older)
    };
    let mut v = regress::candidates_beside(rs, &sh.solvers, baseline(sh), truth, limit, framing, verdicts);
    v.retain(|x| !wrong_on_seed(x));
    v
}

/// With a `--baseline`, the wrong answers of the other builds of its family against it
/// ([`regress::wrong_answers`]) take the place of the differential verdicts on those
/// builds in `verdicts`: the verdict blamed on the build, and the tie its split with the
/// baseline makes (one vote per family). A build's self-contradiction, unsat core or
/// metamorphic flip stays: each is its own bug.
pub(super) fn against_baseline(
    sh: &Shared,
    rs: &[Option<&QueryResult>],
    truth: Option<&[Outcome]>,
    framing: Option<&crate::smtlib::framing::Framing>,
    verdicts: &mut Vec<oracle::Verdict>,
) {
    let Some(b) = baseline(sh) else { return };
    replace_with_wrong_answers(&sh.solvers, &sh.families, b, rs, truth, framing, verdicts);
}

/// [`against_baseline`] for the baseline `b`. Only a tie the builds' split with the
/// baseline makes goes: the judge keeps one tie per query (the first), so a tie that
/// the judge still finds with the builds under test left out is among other families
/// (at another check-sat) and stays.
fn replace_with_wrong_answers(
    specs: &[SolverSpec],
    families: &[crate::solver::Family],
    b: usize,
    rs: &[Option<&QueryResult>],
    truth: Option<&[Outcome]>,
    framing: Option<&crate::smtlib::framing::Framing>,
    verdicts: &mut Vec<oracle::Verdict>,
) {
    let wrong = regress::wrong_answers(rs, specs, b, truth, framing);
    if wrong.is_empty() {
        return;
    }
    let build = |k: usize| k != b && specs[k].family == specs[b].family;
    let without: Vec<Option<&QueryResult>> =
        rs.iter().enumerate().map(|(k, r)| if build(k) { None } else { *r }).collect();
    let tie = |x: &oracle::Verdict| x.blamed.is_none() && x.blame_by == BlameBy::Undecided;
    let others_tie = oracle::judge(&without, families, truth, framing).iter().any(tie);
    verdicts.retain(|x| {
        let differential = x.kind == BugKind::Soundness
            && x.blame_by.oracle() != oracle::kind::Oracle::SelfConsistency
            && !matches!(x.blame_by, BlameBy::UnsatCore | BlameBy::Metamorphic);
        let builds_tie = x.blamed.is_none() && !(tie(x) && others_tie);
        !(differential && (builds_tie || wrong.iter().any(|w| w.blamed == x.blamed)))
    });
    verdicts.extend(wrong);
}

/// Why a confirmed finding is not a regression of a build under `--baseline`, or `None`
/// when it is one (or the run has no baseline).
///
/// Regression mode reports what a build gets wrong that the baseline gets right. A
/// finding the baseline shares ([`regress::shared_with`]: it crashes too, answers the
/// same wrong way, ...), or one blamed on no build under test (the baseline's own bug,
/// another family's, an undecided tie) is not the build's regression. Such findings are
/// still stored, marked as `--known` marks filed causes ([`crate::store::known`]): the
/// report lists them apart and the exit status does not count them, but nothing a
/// campaign confirmed is dropped (a bug the release shares is still a bug a team may
/// want, and a later `recheck` can tell when the build fixes it). Not storing them would
/// lose that and make a resumed run find them again as if new.
pub(super) fn not_the_builds(sh: &Shared, v: &oracle::Verdict, fresh: &oracle::confirm::Fresh) -> Option<String> {
    let b = baseline(sh)?;
    let base = &sh.solvers[b];
    let Some(k) = v.blamed.filter(|&k| k != b && sh.solvers[k].family == base.family) else {
        let who = v.blamed.map_or("no solver (undecided)".to_string(), |k| sh.solvers[k].name.clone());
        return Some(crate::store::known::baseline_mark(&format!("blamed on {who}, not a build under test")));
    };
    let why = regress::shared_with(v, fresh.results[b].as_ref(), fresh.results[k].as_ref())?;
    Some(crate::store::known::baseline_mark(&format!("{why} ({})", base.name)))
}

/// What [`bisect`] found: the release that introduced the regression (the first failing
/// one after the last that decides), and every release run, with its verdict.
#[derive(Debug, Default)]
pub(super) struct Bisected {
    pub(super) introduced_in: Option<String>,
    /// The search stopped at a release it could not judge (starved of the CPU twice):
    /// no range is kept.
    pub(super) range_open: bool,
    /// The search stopped because a probe would have run past the run's `--time`.
    pub(super) cut: bool,
    /// (release, answers and time), in the order run.
    pub(super) probes: Vec<(String, String)>,
    /// The range over the releases run, oldest first (the older and newer ones included).
    pub(super) range: Range,
}

/// Bisects a confirmed regression over the installed releases of its family strictly
/// between the older release (`fresh`'s result for it decides) and the newer one (fails):
/// binary search for the first release that fails, each run once in a fresh process on
/// `file` under the newer release's limit, judged against the older's median time
/// (a release that answers otherwise, errs or crashes counts as deciding: the search then
/// moves to newer releases; a timeout starved of the CPU is run again under a longer
/// limit, [`regress::newer_run`], and one that stays open ends the search with no
/// release named). Without versions on both sides (a build under test against
/// its baseline), or with the newer one older than the baseline, the blamed release is
/// where it came in.
/// `run_release` runs a release of the ladder on the trigger (`file` in a fresh process,
/// as [`bisected`] calls it). No probe starts that could run past `until` (the search
/// then stops as a starved one does, with `cut` set).
pub(super) fn bisect(
    ladder: &[SolverSpec],
    specs: &[SolverSpec],
    v: &oracle::Verdict,
    fresh: &oracle::confirm::Fresh,
    limits: &Limits,
    until: Option<std::time::Instant>,
    run_release: &mut dyn FnMut(&SolverSpec, &Limits) -> QueryResult,
) -> Bisected {
    let mut b = Bisected::default();
    let (Some(n), Some(o)) =
        (v.blamed, regress::older_in(&v.signature).and_then(|x| specs.iter().position(|s| s.name == x)))
    else {
        return b;
    };
    let (Some(old), Some(new)) = (fresh.results[o].as_ref(), fresh.results[n].as_ref()) else { return b };
    let Some(want) = regress::decided(old) else { return b };
    let label = |s: &SolverSpec| s.version.clone().unwrap_or_else(|| s.name.clone());
    let probe =
        |s: &SolverSpec, r: &QueryResult, verdict| Probe { release: label(s), verdict, answers: regress::timed(r) };
    let mut probes = vec![probe(&specs[o], old, ProbeVerdict::Passes)];
    let new_probe = probe(&specs[n], new, ProbeVerdict::Fails);
    let ordered = match (specs[o].version.as_deref(), specs[n].version.as_deref()) {
        (Some(ov), Some(nv)) if specs[o].family == specs[n].family && version_cmp(ov, nv).is_lt() => Some((ov, nv)),
        _ => None,
    };
    let new_limits = Limits { time: regress::newer_limit(limits.time, old.wall), ..*limits };
    let mut open = false;
    if let Some((ov, nv)) = ordered {
        let mut between: Vec<&SolverSpec> = ladder
            .iter()
            .filter(|s| s.family == specs[n].family)
            .filter(|s| s.version.as_deref().is_some_and(|v| version_cmp(v, ov).is_gt() && version_cmp(v, nv).is_lt()))
            .collect();
        between.sort_by(|a, b| version_cmp(a.version.as_deref().unwrap_or(""), b.version.as_deref().unwrap_or("")));
        between.dedup_by(|a, b| a.version == b.version);
        let (mut lo, mut hi) = (0usize, between.len()); // first failing index in [lo, hi]; hi: the newer one
        while lo < hi {
            if crate::util::time::would_overrun(until, new_limits.time) {
                (open, b.cut) = (true, true);
                break;
            }
            let mid = (lo + hi) / 2;
            // A timeout on a starved CPU is run again under a longer limit, as in the
            // confirmation; one that stays open ends the search without a release.
            let mut run = |l: &Limits| run_release(between[mid], l);
            let Some((r, limit)) = regress::newer_run(&mut run, want, old.wall, &new_limits) else {
                open = true;
                break;
            };
            let fails = regress::failure(&r, want, old.wall, limit).is_some();
            b.probes.push((label(between[mid]), regress::timed(&r)));
            probes.push(probe(between[mid], &r, if fails { ProbeVerdict::Fails } else { ProbeVerdict::Passes }));
            if fails {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        b.introduced_in = (!open).then(|| between.get(lo).map_or_else(|| label(&specs[n]), |s| label(s)));
    } else {
        b.introduced_in = Some(label(&specs[n]));
    }
    probes.push(new_probe);
    probes.sort_by(|a, b| version_cmp(&a.release, &b.release));
    let mut range = Range { on: store::layout::TRIGGER.to_string(), probes, ..Default::default() };
    range.settle();
    if open {
        // The search stopped at a release it could not judge: the probes so far do not
        // say where it came in (a release between the last passing and the first failing
        // one is unjudged), and a range read off them would say it all the same.
        b.range_open = true;
    }
    if ordered.is_none() {
        // A build against its baseline: no ladder between them, the build itself is where
        // it came in.
        range.introduced_in = b.introduced_in.clone();
    }
    b.range = range;
    b
}

/// [`bisect`] for a campaign's confirmed regression `v` (`file`: what the newer release
/// was sent): the probes, the range, the signature with where it came in, and whether the
/// run's time cut the search.
pub(super) fn bisected(
    sh: &Shared,
    v: &oracle::Verdict,
    fresh: &oracle::confirm::Fresh,
    file: &Path,
    limits: &Limits,
) -> (Vec<(String, String)>, Option<Range>, String, bool) {
    let until = super::bisect_until(sh);
    let b =
        bisect(&sh.ladder, &sh.solvers, v, fresh, limits, until, &mut |spec, l| run_file(spec, file, fresh.checks, l));
    let signature = match &b.introduced_in {
        Some(i) => format!("{}, introduced in {i}", v.signature),
        None => v.signature.clone(),
    };
    (b.probes, Some(b.range).filter(|_| !b.range_open), signature, b.cut)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Family;

    fn r(o: &[Outcome]) -> QueryResult {
        crate::oracle::regress::tests::r(o, 10)
    }

    /// Issue 42: the tie a build's split with the baseline makes gives way to the build's
    /// wrong answer; a tie among other families at another check-sat stays.
    #[test]
    fn only_the_builds_tie_gives_way_to_a_wrong_answer() {
        let specs = vec![
            SolverSpec::new("dev", Family::Z3, vec!["dev".into()]),
            SolverSpec::new("z3-5.4.0", Family::Z3, vec!["z3".into()]),
            SolverSpec::new("cvc5", Family::Cvc5, vec!["cvc5".into()]),
            SolverSpec::new("yices", Family::Yices, vec!["yices".into()]),
        ];
        let families: Vec<Family> = specs.iter().map(|s| s.family).collect();
        let (sat, unsat, unk) = (Outcome::Sat, Outcome::Unsat, Outcome::Unknown { reason: String::new() });
        let run = |rs: &[QueryResult]| {
            let refs: Vec<Option<&QueryResult>> = rs.iter().map(Some).collect();
            let mut v = oracle::judge(&refs, &families, None, None);
            replace_with_wrong_answers(&specs, &families, 1, &refs, None, None, &mut v);
            v.iter().map(|x| (x.blamed, x.blame_by)).collect::<Vec<_>>()
        };
        // dev and the baseline split at the first check-sat, the others abstain; cvc5 and
        // yices split at the second, z3 abstains: that tie is not the builds'.
        let both = run(&[
            r(&[unsat.clone(), unk.clone()]),
            r(&[sat.clone(), unk.clone()]),
            r(&[unk.clone(), sat.clone()]),
            r(&[unk.clone(), unsat.clone()]),
        ]);
        assert!(both.contains(&(Some(0), BlameBy::Baseline)), "{both:?}");
        assert!(both.contains(&(None, BlameBy::Undecided)), "the other families' tie stays: {both:?}");
        // The builds' tie alone: it gives way.
        let only = run(&[r(&[unsat]), r(&[sat]), r(std::slice::from_ref(&unk)), r(&[unk])]);
        assert_eq!(only, vec![(Some(0), BlameBy::Baseline)]);
    }

    /// Bisection on the ladder between an older release that decides and the newest that
    /// times out: the first failing release is where it came in; a release whose timeout
    /// was starved of the CPU twice ([`regress::newer_run`]) ends the search with no
    /// release named and no range kept (a range read off the probes so far would name one
    /// all the same). The releases are not run here: `run` injects their results.
    #[test]
    fn a_bisection_stopped_by_a_starved_release_names_none() {
        let z3 = |v: &str| {
            let mut s = SolverSpec::new(&format!("z3-{v}"), Family::Z3, vec!["z3".into()]);
            s.version = Some(v.into());
            s
        };
        let ladder: Vec<SolverSpec> = ["4.8.5", "4.8.12", "4.12.6", "4.15.4", "5.4.0"].into_iter().map(z3).collect();
        let specs = vec![z3("4.8.5"), z3("5.4.0")];
        let v = oracle::Verdict {
            kind: BugKind::Regression,
            blamed: Some(1),
            blame_by: BlameBy::Ladder,
            signature: "timeout where z3-4.8.5 decides".into(),
        };
        let timed = |o: Outcome, wall: u64, cpu: u64| QueryResult {
            wall: Duration::from_millis(wall),
            cpu: Some(Duration::from_millis(cpu)),
            ..crate::oracle::regress::tests::r(&[o], wall)
        };
        let fresh = oracle::confirm::Fresh {
            checks: 1,
            readers: vec![0, 1],
            files: vec![None, None],
            results: vec![Some(timed(Outcome::Sat, 300, 300)), Some(timed(Outcome::Timeout, 4000, 3900))],
        };
        let limits = Limits { time: Duration::from_secs(4), ..Limits::default() };
        let newer = |s: &SolverSpec| s.version.as_deref().is_some_and(|v| version_cmp(v, "4.12.6").is_ge());
        // 4.12.6 on is slow, on the CPU the whole limit: it came in with 4.12.6.
        let b = bisect(&ladder, &specs, &v, &fresh, &limits, None, &mut |s, l| {
            let ms = l.time.as_millis() as u64;
            if newer(s) {
                timed(Outcome::Timeout, ms, ms)
            } else {
                timed(Outcome::Sat, 300, 300)
            }
        });
        assert_eq!(b.introduced_in.as_deref(), Some("4.12.6"), "{:?}", b.probes);
        assert!(!b.range_open);
        // 4.12.6, the first release the search asks, starves both times (a fifth of its
        // first limit on the CPU; under the longer one more, but not half the first
        // limit, and not so little that it only waits): open.
        let mut asked = vec![];
        let first = regress::newer_limit(limits.time, Duration::from_millis(300));
        let b = bisect(&ladder, &specs, &v, &fresh, &limits, None, &mut |s, l| {
            asked.push(s.version.clone().unwrap_or_default());
            let ms = l.time.as_millis() as u64;
            let cpu = if l.time == first { ms / 5 } else { first.as_millis() as u64 * 2 / 5 };
            timed(Outcome::Timeout, ms, cpu)
        });
        assert_eq!(asked, ["4.12.6", "4.12.6"], "run again under a longer limit, then given up");
        assert_eq!(b.introduced_in, None);
        assert!(b.range_open, "no range read off the probes so far");
        assert!(!b.cut, "the CPU, not the run's time, stopped it");
        // The run's time: a probe that could end after `until` is not started, and the
        // search says so rather than naming a release.
        let mut asked = 0;
        let until = std::time::Instant::now() + first / 2;
        let b = bisect(&ladder, &specs, &v, &fresh, &limits, Some(until), &mut |_, _| {
            asked += 1;
            timed(Outcome::Sat, 300, 300)
        });
        assert_eq!((asked, b.introduced_in, b.range_open, b.cut), (0, None, true, true), "{:?}", b.probes);
    }
}
