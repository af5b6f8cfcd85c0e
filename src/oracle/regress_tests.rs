//! The ladder-regression oracle's unit tests ([`super`]; a file of their own: the oracle
//! and its tests together passed the 700 lines a file gets).

use super::*;

/// A result with `o` answered in `ms` (also the campaign's baseline tests').
pub(crate) fn r(o: &[Outcome], ms: u64) -> QueryResult {
    QueryResult { wall: Duration::from_millis(ms), ..crate::oracle::tests::r(o) }
}

fn spec(name: &str, family: Family, version: Option<&str>) -> SolverSpec {
    let mut s = SolverSpec::new(name, family, vec![name.into()]);
    s.version = version.map(String::from);
    s
}

fn ladder() -> Vec<SolverSpec> {
    vec![
        spec("z3-4.8.5", Family::Z3, Some("4.8.5")),
        spec("cvc5", Family::Cvc5, Some("1.4.2")),
        spec("z3-5.4.0", Family::Z3, Some("5.4.0")),
        spec("z3-4.12.6", Family::Z3, Some("4.12.6")),
    ]
}

#[test]
fn pairs_are_older_releases_against_the_newest_or_the_baseline_against_the_rest() {
    let s = ladder();
    assert_eq!(pairs(&s, None), vec![(0, 2), (3, 2)]);
    assert_eq!(pairs(&s, Some(3)), vec![(3, 0), (3, 2)]);
    assert!(pairs(&s[..2], None).is_empty(), "one release per family: nothing to compare");
}

#[test]
fn unknown_timeout_and_slowdown_are_candidates_and_wrong_or_noisy_answers_are_not() {
    let s = ladder();
    let unk = Outcome::Unknown { reason: "incomplete".into() };
    let limit = Duration::from_secs(10);
    let judge = |rs: &[QueryResult], truth: Option<&[Outcome]>| {
        let refs: Vec<Option<&QueryResult>> = rs.iter().map(Some).collect();
        candidates(&refs, &s, None, truth, limit)
    };
    let sat = |ms| r(&[Outcome::Sat], ms);
    let v = judge(&[sat(50), sat(60), r(std::slice::from_ref(&unk), 40), sat(70)], None);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].kind, v[0].blamed, v[0].blame_by), (BugKind::Regression, Some(2), BlameBy::Ladder));
    assert_eq!(v[0].signature, "unknown where z3-4.8.5 decides");
    assert_eq!(older_in(&v[0].signature), Some("z3-4.8.5"));
    assert_eq!(older_in("unknown where z3-4.8.5 decides, introduced in 4.12.6"), Some("z3-4.8.5"));
    assert_eq!(Failure::of_signature("unknown where z3-4.8.5 decides, introduced in 4.12.6"), Some(Failure::Unknown));
    assert_eq!(Failure::of_signature("10x slower where z3-4.8.5 decides"), Some(Failure::Slower));
    assert_eq!(Failure::of_signature("timeout where z3-4.8.5 decides"), Some(Failure::Timeout));
    assert_eq!(Failure::of_signature("segfault in z3"), None);
    let v = judge(&[sat(50), sat(60), r(&[Outcome::Timeout], 10_000), sat(70)], None);
    assert_eq!(v[0].signature, "timeout where z3-4.8.5 decides");
    let v = judge(&[sat(50), sat(60), sat(2600), sat(70)], None);
    assert_eq!(v[0].signature, "10x slower where z3-4.8.5 decides");
    // 10× but within the margin: noise (judge31a's string slowdowns ended in 0.5 s).
    assert!(judge(&[sat(20), sat(60), sat(300), sat(70)], None).is_empty());
    assert!(judge(&[sat(50), sat(60), sat(900), sat(70)], None).is_empty());
    // The older answer is contradicted (cvc5 says unsat; a status says unsat): the
    // soundness oracle's business.
    assert!(judge(&[sat(50), r(&[Outcome::Unsat], 60), r(std::slice::from_ref(&unk), 40), sat(70)], None).is_empty());
    assert!(judge(&[sat(50), sat(60), r(std::slice::from_ref(&unk), 40), sat(70)], Some(&[Outcome::Unsat])).is_empty());
    // The newer release answers otherwise: a wrong answer, not incompleteness.
    assert!(judge(&[sat(50), r(&[Outcome::Unsat], 60), r(&[Outcome::Unsat], 40), sat(70)], None).is_empty());
    // The newer one errs or crashes: not a regression.
    let err = r(&[Outcome::Error { message: "x".into() }], 5);
    assert!(judge(&[sat(50), sat(60), err, sat(70)], None).is_empty());
    // The older one does not decide: nothing to lose.
    assert!(judge(&[r(std::slice::from_ref(&unk), 50), sat(60), r(&[unk], 40), r(&[Outcome::Timeout], 10_000)], None)
        .is_empty());
}

/// A dev build against its baseline: one family, so the differential oracle sees a
/// tie; here the build is blamed with the baseline's answer expected, unless another
/// family or the status contradicts the baseline. What the baseline shares is told.
#[test]
fn a_build_s_wrong_answer_is_blamed_against_the_baseline_and_a_shared_one_is_told() {
    let s = vec![
        spec("dev", Family::Z3, None),
        spec("z3-5.4.0", Family::Z3, Some("5.4.0")),
        spec("cvc5", Family::Cvc5, Some("1.4.2")),
    ];
    let (sat, unsat) = (Outcome::Sat, Outcome::Unsat);
    let unk = Outcome::Unknown { reason: String::new() };
    let judge = |rs: &[Option<QueryResult>], truth: Option<&[Outcome]>| {
        let refs: Vec<Option<&QueryResult>> = rs.iter().map(Option::as_ref).collect();
        wrong_answers(&refs, &s, 1, truth, None)
    };
    // Only the two z3 builds answer: the differential oracle's tie…
    let two = [Some(r(&[sat.clone(), unsat.clone()], 10)), Some(r(&[sat.clone(), sat.clone()], 10)), None];
    let refs: Vec<Option<&QueryResult>> = two.iter().map(Option::as_ref).collect();
    let families: Vec<Family> = s.iter().map(|x| x.family).collect();
    assert_eq!(crate::oracle::judge(&refs, &families, None, None)[0].blame_by, BlameBy::Undecided);
    // …is the build's wrong answer at the second check-sat, the baseline's expected.
    let v = judge(&two, None);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].kind, v[0].blamed, v[0].blame_by), (BugKind::Soundness, Some(0), BlameBy::Baseline));
    assert_eq!(v[0].signature, "unsat where sat is expected");
    // cvc5 agrees with the baseline: still the build's; cvc5 or the status contradicts
    // the baseline: the baseline may be the wrong one, silent.
    let with = |c: Outcome| [two[0].clone(), two[1].clone(), Some(r(&[unk.clone(), c], 10))];
    assert_eq!(judge(&with(sat.clone()), None).len(), 1);
    assert!(judge(&with(unsat.clone()), None).is_empty());
    assert!(judge(&two, Some(&[unk.clone(), unsat.clone()])).is_empty());
    // Agreeing, or the build does not decide: no wrong answer.
    assert!(judge(&[two[1].clone(), two[1].clone(), None], None).is_empty());
    assert!(judge(&[Some(r(&[unk.clone(), unk.clone()], 10)), two[1].clone(), None], None).is_empty());
    // Shared with the baseline: the same answers, a crash, an invalid model.
    let wrong = Verdict {
        kind: BugKind::Soundness,
        blamed: Some(0),
        blame_by: BlameBy::Majority,
        signature: "unsat where sat is expected".into(),
    };
    let dev = r(&[sat.clone(), unsat.clone()], 10);
    assert!(shared_with(&wrong, Some(&dev), Some(&dev)).is_some());
    // The baseline does not decide it: the build's wrong answer (faster, and wrong).
    assert_eq!(shared_with(&wrong, Some(&r(&[unk.clone(), unk.clone()], 10)), Some(&dev)), None);
    assert_eq!(shared_with(&wrong, Some(&r(&[Outcome::Timeout], 10)), Some(&dev)), None);
    assert_eq!(shared_with(&wrong, two[1].as_ref(), Some(&dev)), None, "the baseline gets it right");
    let mut crashed = r(std::slice::from_ref(&sat), 10);
    crashed.crash = Some(Outcome::Crash { signal: Some(11), exit_code: None, message: "SIGSEGV".into() });
    let crash =
        Verdict { kind: BugKind::Crash, blame_by: BlameBy::Crash, signature: "SIGSEGV".into(), ..wrong.clone() };
    assert!(shared_with(&crash, Some(&crashed), Some(&crashed)).is_some());
    assert_eq!(shared_with(&crash, Some(&r(std::slice::from_ref(&sat), 10)), Some(&crashed)), None);
    // Another crash of the baseline is another bug: this one is the build's.
    let mut other = crashed.clone();
    other.crash = Some(Outcome::Crash { signal: None, exit_code: Some(1), message: "ASSERTION VIOLATION".into() });
    assert_eq!(shared_with(&crash, Some(&other), Some(&crashed)), None);
    let invalid = Verdict { kind: BugKind::InvalidModel, blame_by: BlameBy::Validation, ..wrong.clone() };
    let bad = r(&[Outcome::InvalidModel { message: "x".into() }], 10);
    assert!(shared_with(&invalid, Some(&bad), Some(&bad)).is_some());
    assert_eq!(shared_with(&invalid, Some(&r(&[sat], 10)), Some(&bad)), None);
    // The baseline's answer is the expected one by construction: never shared.
    assert_eq!(shared_with(&v[0], Some(&dev), Some(&dev)), None);
}

#[test]
fn an_unknown_to_a_tactic_is_the_tactic_declining() {
    let f = crate::smtlib::framing::framing(
        &crate::smtlib::parse("(assert true)(check-sat)(check-sat-using (then sat-preprocess smt))").unwrap(),
    );
    let unknown = Outcome::Unknown { reason: String::new() };
    assert!(tactic_declined(&r(&[Outcome::Sat, unknown.clone()], 10), &f));
    assert!(!tactic_declined(&r(&[unknown.clone(), Outcome::Sat], 10), &f));
    assert!(!tactic_declined(&r(&[unknown.clone(), unknown], 10), &f));
    assert!(!tactic_declined(&r(&[Outcome::Sat, Outcome::Sat], 10), &f));
}

#[test]
fn a_timeout_starved_of_the_cpu_is_run_again_longer_and_never_a_finding_on_its_own() {
    let want = [Outcome::Sat];
    let limits = Limits { time: Duration::from_millis(2500), ..Limits::default() };
    let run = |wall: u64, cpu: u64, o: &[Outcome]| QueryResult { cpu: Some(Duration::from_millis(cpu)), ..r(o, wall) };
    let older = Duration::from_millis(100);
    let t = [Outcome::Timeout];
    // (first run, rerun if any) -> how it stands.
    let cases: [(QueryResult, Option<QueryResult>, Option<Failure>); 6] = [
        // Busy for its whole limit: a timeout, no rerun.
        (run(2500, 2400, &t), None, Some(Failure::Timeout)),
        // A waiting process (a hang, or work the figure misses): read as before.
        (run(2500, 10, &t), None, Some(Failure::Timeout)),
        // A fifth of the CPU (load 9 on 2 cores), then busy under the longer limit.
        (run(2500, 500, &t), Some(run(7500, 1500, &t)), Some(Failure::Timeout)),
        // The rerun decides: open, not "10x slower" (its wall time is the load's).
        (run(2500, 500, &t), Some(run(6000, 900, &want)), None),
        // Starved again (it gained CPU, less than half the first limit): open.
        (run(2500, 500, &t), Some(run(7500, 700, &t)), None),
        // A twelfth of the CPU, and no more under the longer limit: it waits, a timeout.
        (run(2500, 200, &t), Some(run(7500, 230, &t)), Some(Failure::Timeout)),
    ];
    for (i, (first, rerun, stands)) in cases.into_iter().enumerate() {
        let mut seen = vec![];
        let mut go = |l: &Limits| {
            seen.push(l.time);
            if seen.len() == 1 {
                first.clone()
            } else {
                rerun.clone().expect("no rerun expected")
            }
        };
        let got = newer_run(&mut go, &want, older, &limits).and_then(|(r, l)| failure(&r, &want, older, l));
        assert_eq!(got, stands, "case {i}");
        assert_eq!(seen.len(), 1 + rerun.is_some() as usize, "case {i}");
        assert!(seen.iter().all(|&l| l <= limits.time.mul_f64(NEWER_LIMIT_FACTOR)), "case {i}: {seen:?}");
    }
}

#[test]
fn the_newer_limit_leaves_room_for_a_slowdown_to_finish() {
    let t = Duration::from_secs(10);
    assert_eq!(newer_limit(t, Duration::from_millis(100)), t);
    assert!(newer_limit(t, Duration::from_secs(2)) >= Duration::from_secs(20) + MARGIN);
    // Capped at three times the run's limit, however slow the older answer was.
    assert_eq!(newer_limit(t, Duration::from_millis(14_500)), Duration::from_secs(30));
    assert!(slower(Duration::from_millis(2200), Duration::from_millis(100)));
    assert!(!slower(Duration::from_millis(1900), Duration::from_millis(100)), "within the margin");
    assert!(!slower(Duration::from_millis(540), Duration::from_millis(30)), "judge31a's string slowdown");
    assert!(!slower(Duration::from_millis(2500), Duration::from_millis(300)), "under 10x");
}
