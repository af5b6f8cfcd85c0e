//! Solver sessions against real solvers, and fault injection with a fake solver script.

mod common;

use common::*;
use smtstorm::smtlib;
use smtstorm::solver::{self, run_file, Family, Limits, Outcome, Session, SolverSpec};
use std::time::Duration;

fn names(r: &smtstorm::solver::QueryResult) -> Vec<String> {
    r.outcomes.iter().map(|o| o.name().to_string()).collect()
}

/// Every corpus seed through one persistent session per solver: answers match `:status`,
/// and match a fresh process (one-shot mode) on the same file.
#[test]
fn sessions_answer_the_corpus_like_fresh_processes() {
    let limits = Limits { time: Duration::from_secs(20), ..Limits::default() };
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let yices = real("yices/bin/yices-smt2", Family::Yices, &["--incremental"]);
    let yices_logics = ["QF_UF", "QF_LIA", "QF_LRA", "QF_BV", "QF_AX", "QF_ABV", "QF_NRA", "QF_NIA"];
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    // Seeds cvc5 reads differently by design: z3-only syntax, or options it needs
    // (--arrays-exp for constant arrays, --fp-exp for Float16).
    // (z3-only syntax is routed by `SolverSpec::cannot_read`.)
    let cvc5_skip = ["arrays_const.smt2", "fp_specials.smt2"];
    let bitwuzla = py_solver("bitwuzla", Family::Bitwuzla);
    // bitwuzla 0.9 rejects QF_AX (it wants a bit-vector or FP logic for arrays).
    let bitwuzla_logics = ["QF_UF", "QF_BV", "QF_ABV", "QF_FP", "QF_BVFP"];
    for spec in [z3, yices, cvc5, bitwuzla] {
        let mut session = Session::new(spec.clone(), limits);
        let mut n = 0;
        for p in corpus_files() {
            let text = std::fs::read_to_string(&p).unwrap();
            let s = smtlib::parse(&text).unwrap();
            if spec.family == Family::Yices
                && (!yices_logics.contains(&s.logic().unwrap_or(""))
                    || text.contains("(as const")
                    || text.contains("(push)"))
            {
                continue;
            }
            if spec.cannot_read(&s).is_some() {
                continue;
            }
            let file_name = p.file_name().unwrap().to_str().unwrap();
            if spec.family == Family::Cvc5 && cvc5_skip.contains(&file_name) {
                continue;
            }
            if spec.family == Family::Bitwuzla && !bitwuzla_logics.contains(&s.logic().unwrap_or("")) {
                continue;
            }
            let (q, checks) = solver::session_text(&s);
            let r = session.query(&q, checks);
            // cvc5 may give up (`unknown`) on quantifiers and recursive functions, bitwuzla
            // on uninterpreted sorts; `unknown` is never wrong. Whether they give up
            // depends on the time they get, so a session's and a fresh process's answers
            // are compared after the same allowance (the one-shot once failed beside a
            // CI run, session 24).
            let gives_up = matches!(spec.family, Family::Cvc5 | Family::Bitwuzla);
            let settle = |got: Vec<String>| -> Vec<String> {
                got.into_iter().zip(expected(&s)).map(|(g, e)| if gives_up && g == "unknown" { e } else { g }).collect()
            };
            assert_eq!(settle(names(&r)), expected(&s), "{} on {}: {:?}", spec.name, p.display(), r.outcomes);
            let f = run_file(&spec, &p, checks, &limits);
            assert_eq!(names(&f).len(), names(&r).len(), "{} one-shot vs session on {}", spec.name, p.display());
            assert_eq!(settle(names(&f)), settle(names(&r)), "{} one-shot vs session on {}", spec.name, p.display());
            assert!(f.cpu.is_some() && r.wall > Duration::ZERO);
            n += 1;
        }
        let want = if spec.family == Family::Bitwuzla { 15 } else { 20 };
        assert!(n >= want, "{}: only {n} seeds", spec.name);
        let want_starts = (n as u64).div_ceil(spec.restart_every() as u64);
        assert_eq!(session.starts, want_starts, "{}: the session restarted without a reason", spec.name);
    }
}

#[test]
fn errors_invalidate_the_query_even_when_answers_follow() {
    // z3 keeps answering after an error; the query must still count as an error.
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let mut s = Session::new(z3, Limits::default());
    let r = s.query("(declare-const x Int)\n(assert (> y 0))\n(check-sat)\n", 1);
    assert!(
        matches!(r.outcome(), Outcome::Error { message } if message.contains("unknown constant")),
        "{:?}",
        r.outcomes
    );
    // The same process answers the next query.
    let r = s.query("(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n(get-value (x))\n", 1);
    assert_eq!(r.outcomes, vec![Outcome::Sat]);
    assert_eq!(r.data.len(), 1, "get-value's response is kept: {:?}", r.data);
    assert_eq!(s.starts, 1);
}

#[test]
fn a_seeds_status_does_not_outlive_its_query() {
    // z3 keeps `(set-info :status unsat)` across `(reset)` and `(pop)`: sent as is, one
    // unsat seed made every later sat query of the session an error.
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let unsat =
        smtlib::parse("(set-info :status unsat)\n(declare-const x Int)\n(assert (> x x))\n(check-sat)\n").unwrap();
    let sat = smtlib::parse("(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n").unwrap();
    let mut reset = Session::new(z3.clone(), Limits::default());
    let mut inc = Session::incremental(z3, Limits::default(), "");
    for (s, text) in [
        (&mut reset, solver::session_text as fn(&smtlib::Script) -> (String, usize)),
        (&mut inc, solver::incremental_text),
    ] {
        assert!(!text(&unsat).0.contains(":status"));
        assert_eq!(s.query(&text(&unsat).0, 1).outcomes, vec![Outcome::Unsat]);
        assert_eq!(s.query(&text(&sat).0, 1).outcomes, vec![Outcome::Sat]);
        assert_eq!(s.starts, 1);
    }
}

#[test]
fn z3_own_time_limit_answers_unknown_and_the_watchdog_backs_it() {
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let limits = Limits { time: Duration::from_millis(300), grace: Duration::from_secs(3), ..Limits::default() };
    let mut s = Session::new(z3, limits);
    // Hard nonlinear integer problem: z3 gives up at its -t limit with `unknown`.
    let hard = "(declare-const x Int)(declare-const y Int)(declare-const z Int)\n(assert (and (> x 1) (> y 1) (> z 1) (= (+ (* x x x) (* y y y)) (* z z z))))\n(check-sat)\n";
    let r = s.query(hard, 1);
    assert!(matches!(r.outcome(), Outcome::Unknown { .. } | Outcome::Timeout), "{:?}", r.outcomes);
    assert!(r.wall < Duration::from_secs(4), "took {:?}", r.wall);
    let r = s.query("(check-sat)\n", 1);
    assert_eq!(r.outcomes, vec![Outcome::Sat]);
}

// ---- fault injection -----------------------------------------------------------------

fn fake(mode: &str, tag: &str) -> SolverSpec {
    SolverSpec {
        name: format!("fake-{mode}"),
        // Treated like z3 so that sessions are used; the script ignores solver flags.
        family: Family::Z3,
        command: vec![
            "python3".into(),
            repo().join("tests/fixtures/fake_solver.py").display().to_string(),
            mode.into(),
            format!("--tag={tag}"),
        ],
        version: None,
        restart_every: None,
        option_owners: Default::default(),
        // A fake has no option table to read (it would answer `-p` as any query).
        allowed: smtstorm::solver::AllowList::known(None),
    }
}

/// Whether a process whose command line contains `tag` is alive.
fn alive(tag: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
        std::fs::read(e.path().join("cmdline")).map(|c| String::from_utf8_lossy(&c).contains(tag)).unwrap_or(false)
    })
}

fn limits() -> Limits {
    Limits {
        time: Duration::from_millis(1500),
        grace: Duration::from_millis(500),
        max_output: 1 << 20,
        ..Limits::default()
    }
}

const Q: &str = "(declare-const x Int)\n(check-sat)\n";

/// Runs two queries on a session in `mode`, checks the first outcome, that the second
/// query is answered (the session recovers), and that no process is left afterwards.
fn inject(mode: &str, first: impl Fn(&Outcome) -> bool, second: Option<Outcome>) {
    let tag = format!("smtstorm-test-{mode}-{}", std::process::id());
    {
        let mut s = Session::new(fake(mode, &tag), limits());
        let r = s.query(Q, 1);
        assert!(first(r.outcome()), "{mode}: first query gave {:?}", r.outcomes);
        assert!(r.wall < Duration::from_secs(4), "{mode}: took {:?}", r.wall);
        if let Some(want) = second {
            let r = s.query(Q, 1);
            assert_eq!(r.outcome(), &want, "{mode}: second query");
        }
    }
    std::thread::sleep(Duration::from_millis(50));
    assert!(!alive(&tag), "{mode}: a solver process is still running");
}

#[test]
fn fault_hang_is_a_timeout_and_the_session_restarts() {
    inject("hang-on-1", |o| *o == Outcome::Timeout, Some(Outcome::Timeout));
    // Hangs only on its 2nd query: the restarted process answers.
    let tag = format!("smtstorm-test-hang2-{}", std::process::id());
    {
        let mut s = Session::new(fake("hang-on-2", &tag), limits());
        assert_eq!(s.query(Q, 1).outcomes, vec![Outcome::Sat]);
        assert_eq!(s.query(Q, 1).outcomes, vec![Outcome::Timeout]);
        assert_eq!(s.query(Q, 1).outcomes, vec![Outcome::Sat]);
        assert_eq!(s.starts, 2);
    }
    assert!(!alive(&tag));
}

#[test]
fn fault_crash_mid_answer_is_a_crash_with_its_signal() {
    // The message is the signal and what the solver said on stderr, its address removed
    // (two crashes on one signal that say different things are two bugs).
    let said = "SIGSEGV: fake solver: segmentation fault at";
    inject(
        "crash-on-1",
        |o| matches!(o, Outcome::Crash { signal: Some(s), message, .. } if *s == libc::SIGSEGV && message == said),
        Some(Outcome::Crash { signal: Some(libc::SIGSEGV), exit_code: None, message: said.into() }),
    );
    let tag = format!("smtstorm-test-crash2-{}", std::process::id());
    let mut s = Session::new(fake("crash-on-2", &tag), limits());
    assert_eq!(s.query(Q, 1).outcomes, vec![Outcome::Sat]);
    let r = s.query(Q, 1);
    assert!(matches!(r.outcome(), Outcome::Crash { .. }));
    // The solver's last words reach the finding (read after it died, to the end).
    assert!(r.stderr_excerpt.contains("segmentation fault at 0x7ffd1234"), "stderr: {:?}", r.stderr_excerpt);
    assert_eq!(s.query(Q, 1).outcomes, vec![Outcome::Sat], "recovered after the crash");
}

#[test]
fn fault_garbage_is_an_error_not_an_answer() {
    inject("garbage", |o| matches!(o, Outcome::Error { message } if message.contains("expected 1 answers")), None);
}

#[test]
fn fault_flood_is_cut_off() {
    inject(
        "flood",
        |o| matches!(o, Outcome::Error { message } if message.contains("output exceeds")),
        Some(Outcome::Error { message: format!("output exceeds {} bytes", 1 << 20) }),
    );
}

#[test]
fn fault_missing_marker_is_a_timeout() {
    inject("no-marker", |o| *o == Outcome::Sat || *o == Outcome::Timeout, None);
    // The answer arrived but the marker never did: the answer is kept, nothing hangs.
    let tag = format!("smtstorm-test-nomark-{}", std::process::id());
    let mut s = Session::new(fake("no-marker", &tag), limits());
    let r = s.query("(check-sat)\n(check-sat)\n", 2);
    assert_eq!(r.outcomes, vec![Outcome::Sat, Outcome::Sat]);
    assert!(r.wall >= Duration::from_millis(1500));
}

#[test]
fn fault_deaf_solver_cannot_block_a_query_larger_than_the_pipe() {
    // The solver never reads: a 1 MB query fills the pipe after 64 KB. Writing happens in
    // the same poll loop as reading, so the deadline still holds and nothing is left.
    let tag = format!("smtstorm-test-deaf-{}", std::process::id());
    {
        let mut s = Session::new(fake("deaf", &tag), limits());
        let big = format!("{}(check-sat)\n", "(assert true)\n".repeat(80_000));
        let r = s.query(&big, 1);
        assert_eq!(r.outcomes, vec![Outcome::Timeout]);
        assert!(r.wall < Duration::from_secs(4), "took {:?}", r.wall);
    }
    std::thread::sleep(Duration::from_millis(50));
    assert!(!alive(&tag), "the deaf solver is still running");
}

#[test]
fn fault_stderr_flood_does_not_stall_the_answer() {
    // 4 MB on stderr before each answer: a reader of stdout alone would deadlock with a
    // solver blocked on a full stderr pipe.
    inject("stderr-flood", |o| *o == Outcome::Sat, Some(Outcome::Sat));
}

#[test]
fn fault_slow_start_still_answers() {
    inject("slow-start", |o| *o == Outcome::Sat, Some(Outcome::Sat));
}

#[test]
fn fault_exit_after_one_query_recovers() {
    let tag = format!("smtstorm-test-exit1-{}", std::process::id());
    {
        let mut s = Session::new(fake("exit-after-1", &tag), limits());
        assert_eq!(s.query(Q, 1).outcomes, vec![Outcome::Sat]);
        let r = s.query(Q, 1);
        assert!(matches!(r.outcome(), Outcome::Error { .. }), "exited 0 without answering: {:?}", r.outcomes);
        assert_eq!(s.query(Q, 1).outcomes, vec![Outcome::Sat]);
        assert_eq!(s.starts, 2);
    }
    assert!(!alive(&tag));
}

#[test]
fn fault_error_with_exit_status_zero_is_an_error() {
    inject("error", |o| matches!(o, Outcome::Error { message } if message == "fake: unsupported"), None);
}

#[test]
fn one_shot_runs_classify_and_clean_up_too() {
    let dir = std::env::temp_dir().join(format!("smtstorm-oneshot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("q.smt2");
    std::fs::write(&f, Q).unwrap();
    for (mode, check) in [
        ("ok", Box::new(|o: &Outcome| *o == Outcome::Sat) as Box<dyn Fn(&Outcome) -> bool>),
        ("hang-on-1", Box::new(|o: &Outcome| *o == Outcome::Timeout)),
        ("crash-on-1", Box::new(|o: &Outcome| matches!(o, Outcome::Crash { signal: Some(_), .. }))),
        ("flood", Box::new(|o: &Outcome| matches!(o, Outcome::Error { .. }))),
        ("crash-at-exit", Box::new(|o: &Outcome| *o == Outcome::Sat)),
    ] {
        let tag = format!("smtstorm-test-oneshot-{mode}-{}", std::process::id());
        let mut spec = fake(mode, &tag);
        spec.family = Family::Other;
        let r = run_file(&spec, &f, 1, &limits());
        assert!(check(r.outcome()), "{mode}: {:?}", r.outcomes);
        let crashed = matches!(r.crash, Some(Outcome::Crash { signal: Some(s), .. }) if s == libc::SIGSEGV);
        assert_eq!(crashed, mode.starts_with("crash"), "{mode}: crash field {:?}", r.crash);
        std::thread::sleep(Duration::from_millis(50));
        assert!(!alive(&tag), "{mode}: process left behind");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pipelined_batches_survive_a_hang_in_the_middle() {
    let tag = format!("smtstorm-test-batch-{}", std::process::id());
    {
        let mut s = Session::new(fake("hang-on-2", &tag), limits());
        let batch = vec![(Q, 1); 5];
        let r: Vec<Outcome> = s.query_batch(&batch).into_iter().map(|r| r.outcome().clone()).collect();
        // The 2nd query hangs; the 3rd..5th were queued behind it and run again in a
        // fresh process, where the 2nd of them hangs too (the fixture counts per process).
        assert_eq!(r, vec![Outcome::Sat, Outcome::Timeout, Outcome::Sat, Outcome::Timeout, Outcome::Sat]);
        assert_eq!(s.starts, 3);
    }
    assert!(!alive(&tag));
    // Real solver: a batch gives the same answers as one query at a time.
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let qs: Vec<String> = (0..40).map(|i| smtstorm::solver::bench::query(3, i)).collect();
    let mut one = Session::new(z3.clone(), Limits::default());
    let single: Vec<Outcome> = qs.iter().map(|q| one.query(q, 1).outcome().clone()).collect();
    let mut many = Session::new(z3, Limits::default());
    let batch: Vec<(&str, usize)> = qs.iter().map(|q| (q.as_str(), 1)).collect();
    let results = many.query_batch(&batch);
    let piped: Vec<Outcome> = results.iter().map(|r| r.outcome().clone()).collect();
    assert_eq!(single, piped);
    // Each query's CPU time is the solver's own, in nanoseconds: these take about a
    // millisecond, which a clock-tick count (10 ms) would mostly report as zero.
    let measured = results.iter().filter(|r| r.cpu.is_some_and(|c| c > Duration::ZERO)).count();
    assert!(measured >= results.len() * 9 / 10, "{measured} of {} queries have a CPU time", results.len());
    assert!(results.iter().all(|r| r.cpu.unwrap() <= r.wall + Duration::from_millis(5)));
    assert!(piped.iter().all(|o| o.is_definite()));
}

#[test]
fn batches_on_several_sessions_run_side_by_side_in_one_poll() {
    // Two solvers that hang on their 2nd query, driven from one thread: each times out on
    // its own clock at the same time, so the call costs one limit (2 s), not two.
    let tag = format!("smtstorm-test-side-{}", std::process::id());
    {
        let mut a = Session::new(fake("hang-on-2", &tag), limits());
        let mut b = Session::new(fake("hang-on-2", &tag), limits());
        let qs = [(Q, 1); 3];
        let t = std::time::Instant::now();
        let r = solver::query_batches(&mut [(&mut a, &qs[..]), (&mut b, &qs[..1])]);
        let took = t.elapsed();
        let names: Vec<Vec<Outcome>> = r.iter().map(|rs| rs.iter().map(|r| r.outcome().clone()).collect()).collect();
        assert_eq!(names, vec![vec![Outcome::Sat, Outcome::Timeout, Outcome::Sat], vec![Outcome::Sat]]);
        // Now both are at their process's 2nd query.
        let t2 = std::time::Instant::now();
        let r = solver::query_batches(&mut [(&mut a, &qs[..1]), (&mut b, &qs[..1])]);
        let both = t2.elapsed();
        assert!(r.iter().all(|rs| rs[0].outcome() == &Outcome::Timeout), "both hang on their 2nd query");
        assert!(took < Duration::from_millis(3500), "one hang took {took:?}");
        assert!(both < Duration::from_millis(3500), "two hangs side by side took {both:?}, not one limit");
        assert_eq!((a.starts, b.starts), (2, 1));
    }
    std::thread::sleep(Duration::from_millis(50));
    assert!(!alive(&tag));
    // Real solvers: two z3 sessions in one poll answer like one session each.
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let old = real("z3-4.8.7/bin/z3", Family::Z3, &["-smt2"]);
    let qs: Vec<String> = (0..30).map(|i| smtstorm::solver::bench::query(3, i)).collect();
    let batch: Vec<(&str, usize)> = qs.iter().map(|q| (q.as_str(), 1)).collect();
    let alone: Vec<Outcome> =
        Session::new(z3.clone(), Limits::default()).query_batch(&batch).iter().map(|r| r.outcome().clone()).collect();
    let (mut x, mut y) = (Session::new(z3, Limits::default()), Session::new(old, Limits::default()));
    let r = solver::query_batches(&mut [(&mut x, &batch[..]), (&mut y, &batch[..])]);
    for rs in &r {
        let got: Vec<Outcome> = rs.iter().map(|r| r.outcome().clone()).collect();
        assert_eq!(got, alone);
    }
    assert!(alone.iter().all(|o| o.is_definite()));
}

#[test]
fn models_from_each_solver_parse_and_validate_in_another() {
    use smtstorm::solver::model::{parse_model, parse_statistics, parse_values};
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let yices = real("yices/bin/yices-smt2", Family::Yices, &["--incremental"]);
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    let decls = "(set-option :produce-models true)\n(set-logic QF_LIA)\n(declare-const x Int)\n(declare-const y Int)\n";
    let formula = "(assert (and (> x 2) (< y (- x 5)) (= (+ x y) 1)))\n";
    let specs = [z3.clone(), yices, cvc5];
    for (i, a) in specs.iter().enumerate() {
        let mut s = Session::new(a.clone(), Limits::default());
        let r = s.query(&format!("{decls}{formula}(check-sat)\n(get-model)\n"), 1);
        assert_eq!(r.outcomes, vec![Outcome::Sat], "{}", a.name);
        let text = r.data.join("\n");
        let model = parse_model(&text).unwrap_or_else(|e| panic!("{}: {e}: {text}", a.name));
        let vals = model.values();
        assert_eq!(vals.len(), 2, "{}: {vals:?}", a.name);
        let r = s.query(&format!("{decls}{formula}(check-sat)\n(get-value (x (+ x y)))\n"), 1);
        let pairs = parse_values(&r.data[0]).unwrap();
        assert_eq!(pairs[1].1, "1", "{}: (+ x y) must be 1: {pairs:?}", a.name);
        // The model, asserted into the next solver together with the formula, is sat.
        let b = &specs[(i + 1) % specs.len()];
        let fixed: String = vals.iter().map(|(k, v)| format!("(assert (= {k} {v}))\n")).collect();
        let mut t = Session::new(b.clone(), Limits::default());
        let r2 = t.query(&format!("{decls}{formula}{fixed}(check-sat)\n"), 1);
        assert_eq!(r2.outcomes, vec![Outcome::Sat], "{}'s model rejected by {}", a.name, b.name);
    }
    let mut s = Session::new(z3, Limits::default());
    let r = s.query(&format!("{decls}{formula}(check-sat)\n(get-info :all-statistics)\n"), 1);
    let stats = parse_statistics(&r.data[0]).unwrap();
    assert!(stats.contains_key("memory") && stats.len() > 3, "{stats:?}");
}

#[test]
fn push_pop_sessions_are_a_separate_configuration_with_the_same_answers() {
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    // The QF_LIA half of the benchmark queries: every one redeclares x, y, z, which only
    // works if each query's declarations were popped.
    let qs: Vec<smtlib::Script> =
        (0..60).step_by(2).map(|i| smtlib::parse(&smtstorm::solver::bench::query(5, i)).unwrap()).collect();
    let mut reset = Session::new(z3.clone(), Limits::default());
    let mut inc = Session::incremental(z3.clone(), Limits::default(), "(set-logic QF_LIA)");
    for s in &qs {
        let (a, n) = solver::session_text(s);
        let (b, m) = solver::incremental_text(s);
        assert!(!b.contains("set-logic") && n == m);
        assert_eq!(reset.query(&a, n).outcomes, inc.query(&b, m).outcomes);
    }
    assert_eq!(inc.starts, 1);
    // After a timeout the fresh process gets the prelude again and keeps answering.
    let limits = Limits { time: Duration::from_millis(300), grace: Duration::from_millis(200), ..Limits::default() };
    let mut inc = Session::incremental(z3, limits, "(set-logic ALL)");
    let hard = "(declare-const x Int)(declare-const y Int)(declare-const z Int)\n(assert (and (> x 1) (> y 1) (> z 1) (= (+ (* x x x) (* y y y)) (* z z z))))\n(check-sat)\n";
    assert!(matches!(inc.query(hard, 1).outcome(), Outcome::Unknown { .. } | Outcome::Timeout));
    let (b, m) = solver::incremental_text(&qs[0]);
    assert_eq!(inc.query(&b, m).outcomes, reset.query(&solver::session_text(&qs[0]).0, 1).outcomes);
    // A `:status` does not outlive its query: z3 keeps it across `(pop)`, and the next
    // satisfiable query would be "check annotation that says unsat".
    let unsat =
        smtlib::parse("(set-info :status unsat)\n(declare-const x Int)\n(assert (< x x))\n(check-sat)\n").unwrap();
    let sat = smtlib::parse("(set-info :status sat)\n(declare-const x Int)\n(assert (< x 1))\n(check-sat)\n").unwrap();
    let plain = smtlib::parse("(declare-const x Int)\n(assert (> x 1))\n(check-sat)\n").unwrap();
    let mut inc = Session::incremental(real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]), Limits::default(), "");
    for (s, want) in [(&unsat, Outcome::Unsat), (&plain, Outcome::Sat), (&sat, Outcome::Sat), (&unsat, Outcome::Unsat)]
    {
        let (t, n) = solver::incremental_text(s);
        assert_eq!(inc.query(&t, n).outcomes, vec![want], "{t}");
    }
}

/// The memory limit reaches the solver process (set with prlimit(2) on the child, which
/// keeps process creation on posix_spawn instead of fork), in one-shot runs and sessions.
#[test]
fn the_memory_limit_reaches_the_solver_process() {
    let limits = Limits { memory: Some(1 << 30), ..Limits::default() };
    let argv: Vec<String> = ["sh", "-c", "sleep 0.2; ulimit -v"].iter().map(|s| s.to_string()).collect();
    let r = solver::run_argv(&argv, &limits).unwrap();
    assert_eq!(r.stdout.trim(), "1048576", "{r:?}");
    // A session's solver process carries it too.
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let mut s = Session::new(z3, Limits { memory: Some(3 << 30), ..Limits::default() });
    assert_eq!(s.query("(check-sat)\n", 1).outcomes, vec![Outcome::Sat]);
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", s.pid().unwrap())).unwrap();
    let line = limits.lines().find(|l| l.starts_with("Max address space")).unwrap();
    assert!(line.contains(&(3u64 << 30).to_string()), "{line}");
}

/// Running out of memory is a limit hit, never a crash: each real solver under a tight
/// address-space limit on a formula it cannot fit (z3 answers `(error "out of memory")`
/// and exits 101; cvc5 aborts on `std::bad_alloc`; yices prints `Out of memory` and exits
/// 16) gives a `resource` outcome, in fresh processes and in sessions.
#[test]
fn memory_exhaustion_is_a_resource_outcome_for_every_family() {
    let dir = tempdir("resource");
    let f = dir.join("big.smt2");
    std::fs::write(
        &f,
        "(set-logic QF_NIA)\n(declare-const x Int)\n(declare-const y Int)\n(declare-const z Int)\n\
         (assert (= (* x x x y) (+ (* z z z z) 12345678901234567)))\n(assert (> x 1000))\n(assert (> y 10000))\n(check-sat)\n",
    )
    .unwrap();
    let mb = |m: u64| Limits { memory: Some(m << 20), time: Duration::from_secs(20), ..Limits::default() };
    let cases = [
        (real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]), 40),
        (real("z3-4.8.7/bin/z3", Family::Z3, &["-smt2"]), 40),
        (py_solver("cvc5", Family::Cvc5), 72),
        (real("yices/bin/yices-smt2", Family::Yices, &["--incremental"]), 16),
    ];
    let mut seen = 0;
    for (spec, m) in cases {
        let r = run_file(&spec, &f, 1, &mb(m));
        assert!(matches!(r.outcome(), Outcome::Resource { .. }), "{}: {r:?}", spec.name);
        assert!(r.crash.is_none(), "{}: {r:?}", spec.name);
        if spec.has_session() {
            let mut s = Session::new(spec.clone(), mb(m));
            let r = s.query(&std::fs::read_to_string(&f).unwrap(), 1);
            assert!(matches!(r.outcome(), Outcome::Resource { .. }), "{} session: {r:?}", spec.name);
        }
        seen += 1;
    }
    assert_eq!(seen, 4);
    // A non-zero exit with nothing that shows a crash is an error, and the OOM killer's
    // SIGKILL is a resource outcome (a fake process only injects the exit).
    for (sh, want) in [("echo boom >&2; exit 3", "error"), ("kill -KILL $$", "resource"), ("kill -SEGV $$", "crash")] {
        let spec = SolverSpec {
            name: "fake".into(),
            family: Family::Other,
            command: vec!["sh".into(), "-c".into(), sh.into()],
            version: None,
            restart_every: None,
            option_owners: Default::default(),
            allowed: Default::default(),
        };
        let r = run_file(&spec, &f, 1, &Limits::default());
        assert_eq!(r.outcome().name(), want, "{sh}: {r:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ties settled at the same time in one directory do not read each other's model files
/// (issue 21, item 4: one `tie-model.smt2` for all workers made a satisfiable script's
/// tie read an unsatisfiable script's file). Real z3 on both sides: for a satisfiable
/// script its model, pinned, is still `sat` (blame the `unsat` side); an unsatisfiable
/// one has no model (undecided).
#[test]
fn concurrent_tie_breaks_keep_their_own_files() {
    let dir = tempdir("ties");
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let sat = smtlib::parse("(declare-const x Int)\n(assert (> x 5))\n(check-sat)\n").unwrap();
    let unsat = smtlib::parse("(declare-const x Int)\n(assert (> x 5))\n(assert (< x 2))\n(check-sat)\n").unwrap();
    let limits = Limits::default();
    let mut settled = 0;
    for _ in 0..6 {
        std::thread::scope(|sc| {
            let hs: Vec<_> = (0..4)
                .map(|t| {
                    let (s, z3, dir, limits) = (if t % 2 == 0 { &sat } else { &unsat }, &z3, &dir, &limits);
                    sc.spawn(move || (t, smtstorm::oracle::resolve_tie(s, z3, z3, dir, limits)))
                })
                .collect();
            for h in hs {
                let (t, r) = h.join().unwrap();
                assert_eq!(r, if t % 2 == 0 { Some(false) } else { None }, "thread {t}");
                settled += 1;
            }
        });
    }
    assert_eq!(settled, 24);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "tie files are removed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A solver's name is the user's text: `bench-solvers`' scratch directory named after
/// it stays inside the temporary directory (issue 21, item 11: with `x/../../PATH` it
/// became `/PATH`, which was filled with queries and then removed whole).
#[test]
fn a_solver_name_cannot_move_scratch_files_out_of_their_directory() {
    let victim = tempdir("escape").join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::write(victim.join("keep"), "mine").unwrap();
    let mut z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    // From `$TMPDIR/smtstorm-bench-<pid>-x`, two levels up is `/` when $TMPDIR is /tmp.
    let rel = victim.strip_prefix("/").unwrap().display().to_string();
    z3.name = format!("x/../../{rel}");
    let b = solver::bench::bench(&z3, 2, 0, &Limits::default()).unwrap();
    assert_eq!(b.solver, z3.name);
    assert_eq!(std::fs::read_to_string(victim.join("keep")).unwrap(), "mine");
    assert_eq!(std::fs::read_dir(&victim).unwrap().count(), 1, "nothing written into it");
    let _ = std::fs::remove_dir_all(victim.parent().unwrap());
}

/// Issue 22, item 3: every shared seed without a logic, or with a solver's own name
/// (`QF_ALL`, `HO_ALL`, `QF_NRAT`), gets a standard logic inferred from its sorts for
/// yices and bitwuzla; yices and cvc5 then accept that logic on every such seed they
/// read. A rejection names the logic ("logic", "not supported in this logic", "not
/// allowed"); any other error is the seed's dialect and is counted apart.
#[test]
fn inferred_logics_are_accepted_by_yices_and_cvc5() {
    let files = shared_seed_files();
    let yices = real("yices/bin/yices-smt2", Family::Yices, &["--incremental"]);
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    let limits = Limits { time: Duration::from_millis(500), grace: Duration::from_millis(200), ..Limits::default() };
    let work = tempdir("inferred-logic");
    let (mut inferred, mut read, mut rejected, mut unsupported) = (0, [0usize; 2], vec![], 0);
    let mut logics = std::collections::BTreeMap::<String, usize>::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else { continue };
        let Ok(s) = smtlib::parse_bytes(&bytes) else { continue };
        let Some(logic) = Family::Yices.logic_for(&s) else { continue };
        inferred += 1;
        *logics.entry(logic.clone()).or_default() += 1;
        let own =
            Family::Yices.without_foreign_options(&s, &Default::default(), None).expect("a new logic is a change");
        assert_eq!(own.logic(), Some(logic.as_str()));
        // cvc5 gets the same logic in place of its own name (the script as yices gets it,
        // z3 extensions aside: cvc5 does not read those anyway).
        for (k, spec) in [&yices, &cvc5].into_iter().enumerate() {
            if spec.cannot_read(&own).is_some() {
                continue;
            }
            let file = work.join("q.smt2");
            std::fs::write(&file, smtlib::print(&own)).unwrap();
            let r = run_file(spec, &file, smtlib::checks(&own).max(1), &limits);
            let refused = r.outcomes.iter().find_map(|o| match o {
                Outcome::Error { message } => Some(message.clone()),
                _ => None,
            });
            match refused {
                // The solver has no such logic at all (yices: quantified logics, QF_BVLIA):
                // it cannot read the seed, whatever name it is given.
                Some(m)
                    if m.contains("is not supported")
                        || m.contains("unknown logic")
                        || m.contains("are not supported in logic") =>
                {
                    unsupported += 1
                }
                // The name is too small for the script, or sits in the wrong place.
                Some(m)
                    if m.contains("logic")
                        || m.contains("HO_")
                        || m.contains("not allowed")
                        || m.contains("set now") =>
                {
                    rejected.push(format!("{} {}: {logic}: {m}", spec.name, f.display()))
                }
                None if r.outcomes.iter().any(|o| o.is_definite()) => read[k] += 1,
                _ => {}
            }
        }
    }
    eprintln!(
        "{inferred} seeds got an inferred logic {logics:?}; answered by yices {}, cvc5 {}; logic unknown to the solver {unsupported}",
        read[0], read[1]
    );
    assert!(inferred > 0 && read[0] > 0 && read[1] > 0, "nothing exercised: {inferred} {read:?}");
    assert!(rejected.is_empty(), "{} refused: {:#?}", rejected.len(), rejected);
    let _ = std::fs::remove_dir_all(&work);
}

/// Issue 22, item 2: our model evaluator agrees with z3's own `model_validate` on 1,000
/// models z3 5.4.0 gives for the shared seeds: where we decide, a model z3 validates
/// holds and a model z3 rejects fails. How many we decide is printed (the rest go to the
/// cross-check that pins the model into the formula).
#[test]
fn the_model_evaluator_agrees_with_z3s_model_validation() {
    use smtstorm::oracle::eval::{check_model, ModelCheck};
    let files = shared_seed_files();
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let limits = Limits { time: Duration::from_millis(1000), grace: Duration::from_millis(200), ..Limits::default() };
    let work = tempdir("model-eval");
    let file = work.join("q.smt2");
    let (mut models, mut holds, mut fails, mut unknown, mut disagree) = (0, 0, 0, 0, vec![]);
    // Each seed, then one OpFuzz mutant of it (deterministic): the suite alone has fewer
    // than 1,000 single-query seeds z3 answers `sat` within a second.
    let mut queue = vec![];
    for (i, f) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let Ok(s) = smtlib::parse(&text) else { continue };
        let p = smtstorm::mutate::Prepared::new(smtstorm::mutate::Engine::OpFuzz, &s);
        let m = p.mutate(&mut smtstorm::mutate::choice::Rng::new(i as u64)).map(|(_, m)| m);
        queue.push((f.clone(), s.clone(), m));
    }
    for (f, s) in queue.into_iter().flat_map(|(f, s, m)| std::iter::once((f.clone(), s)).chain(m.map(|m| (f, m)))) {
        if models == 1000 {
            break;
        }
        let mut s = s;
        smtstorm::mutate::edit::strip_status(&mut s);
        let stacked = s.commands.iter().any(|c| {
            matches!(c.kind, smtstorm::smtlib::ast::CommandKind::Push(_) | smtstorm::smtlib::ast::CommandKind::Pop(_))
        });
        if smtlib::checks(&s) != 1 || stacked || Family::Z3.cannot_read(&s).is_some() {
            continue;
        }
        let body = smtstorm::oracle::around_check_sat(&s, "", "(get-model)\n");
        std::fs::write(&file, format!("(set-option :produce-models true)\n(set-option :model_validate true)\n{body}"))
            .unwrap();
        let r = run_file(&z3, &file, 1, &limits);
        if r.outcomes.first() != Some(&Outcome::Sat)
            && !matches!(r.outcomes.first(), Some(Outcome::InvalidModel { .. }))
        {
            continue;
        }
        let Some(m) = r.data.iter().find_map(|d| solver::model::parse_model(d).ok()) else { continue };
        models += 1;
        let valid = r.outcomes.first() == Some(&Outcome::Sat);
        match (check_model(&s, &m), valid) {
            (ModelCheck::Holds, true) => holds += 1,
            (ModelCheck::Fails(_), false) => fails += 1,
            (ModelCheck::Unknown, _) => unknown += 1,
            (verdict, _) => disagree.push(format!("{}: ours {verdict:?}, z3 valid {valid}", f.display())),
        }
    }
    eprintln!(
        "{models} models: {holds} hold, {fails} fail (as z3 says), {unknown} not decided here, {} disagree",
        disagree.len()
    );
    assert!(disagree.is_empty(), "{disagree:#?}");
    assert!(models >= 1000 || models == files.len(), "only {models} models");
    assert!(holds >= 200, "the evaluator decided only {holds} of {models}");
    let _ = std::fs::remove_dir_all(&work);
}

/// Issue 23: cvc5's and bitwuzla's options come from their own lists (their Python
/// packages), and every configuration mutant that sets them is read by the family whose
/// table lists them: on corpus/, no mutant is refused for its option text (a refusal the
/// same mutant without the options does not get). No other family sees the options.
#[test]
fn options_from_their_own_lists_are_read_by_their_family() {
    use smtstorm::mutate::choice::Rng;
    use smtstorm::mutate::{config, edit};
    use smtstorm::solver::options;
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    let bitwuzla = py_solver("bitwuzla", Family::Bitwuzla);
    let mut tables = vec![];
    for spec in [&cvc5, &bitwuzla] {
        let t0 = std::time::Instant::now();
        let o = options::extract(spec).unwrap();
        let values: usize = o.set_options.iter().map(|p| p.values.len()).sum();
        eprintln!(
            "{}: {} options, {values} values, in {:.1} s",
            spec.name,
            o.set_options.len(),
            t0.elapsed().as_secs_f64()
        );
        tables.push(o);
    }
    let names = |o: &options::Options| o.set_options.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
    assert!(tables[0].set_options.len() >= 40 && tables[0].tactics.is_empty(), "{:?}", names(&tables[0]));
    assert!(tables[1].set_options.len() >= 15 && tables[1].tactics.is_empty(), "{:?}", names(&tables[1]));
    for p in tables.iter().flat_map(|o| &o.set_options) {
        assert!(!p.name.contains(['.', '_']) && !p.values.is_empty(), "{p:?}");
        let never = ["global-declarations", "produce-models", "incremental", "check-models", "seed", "nthreads"];
        assert!(!never.contains(&p.name.as_str()) && !p.name.contains("limit"), "{p:?}");
    }
    // bitwuzla's modes are string literals; a name both list belongs to neither.
    assert!(tables[1].set_options.iter().any(|p| p.values.iter().any(|v| v.starts_with('"'))));
    let mut owners = smtstorm::solver::OptionOwners::default();
    tables[0].add_owners(Family::Cvc5, &mut owners);
    tables[1].add_owners(Family::Bitwuzla, &mut owners);
    assert_eq!(owners.owner(":bv-solver"), None);
    assert_eq!(owners.owner(":pp-flatten-and"), Some(Family::Bitwuzla));
    assert_eq!(owners.owner(":decision"), Some(Family::Cvc5));
    // The run's solvers are handed the tables' owners, as a campaign hands them.
    let with_owners = |s: &SolverSpec| SolverSpec { option_owners: owners.clone(), ..s.clone() };
    let (cvc5, bitwuzla) = (with_owners(&cvc5), with_owners(&bitwuzla));
    let limits = Limits { time: Duration::from_millis(2000), grace: Duration::from_millis(500), ..Limits::default() };
    let error = |r: &smtstorm::solver::QueryResult| {
        r.outcomes.iter().find_map(|o| match o {
            Outcome::Error { message } => Some(message.clone()),
            _ => None,
        })
    };
    let everyone = [
        cvc5.clone(),
        bitwuzla.clone(),
        with_owners(&real("yices/bin/yices-smt2", Family::Yices, &["--incremental"])),
        with_owners(&real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"])),
    ];
    for (spec, mut table) in [&cvc5, &bitwuzla].into_iter().zip(tables) {
        table.set_options.retain(|p| owners.owner(&format!(":{}", p.name)) == Some(spec.family));
        let mut session = Session::new(spec.clone(), limits);
        let (mut asked, mut with_options, mut caused) = (0, 0, vec![]);
        for (i, path) in corpus_files().iter().enumerate() {
            let s = smtlib::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
            let p = config::Prepared::new(&s, &table);
            if p.sites() == 0 || spec.cannot_read(&s).is_some() {
                continue;
            }
            for k in 0..6u64 {
                let Some((edits, m)) = config::mutate_prepared(&p, &mut Rng::new(k * 7919 + i as u64)) else {
                    continue;
                };
                let Some(edit::Edit::SetOptions { options: set }) = edits.last() else { continue };
                with_options += 1;
                for o in &everyone {
                    let text = smtlib::print(&o.own_script(&m));
                    let seen = set.iter().filter(|(n, _)| text.contains(&format!(":{n} "))).count();
                    let expected = if o.family == spec.family { set.len() } else { 0 };
                    assert_eq!(seen, expected, "{} gets {seen} of {set:?}: {text}", o.name);
                }
                let (q, checks) = solver::session_text(&spec.own_script(&m));
                let r = session.query(&q, checks);
                asked += 1;
                let Some(message) = error(&r) else { continue };
                let without = edit::apply_unchecked(&s, &edits[..edits.len() - 1]).unwrap();
                let (q, checks) = solver::session_text(&spec.own_script(&without));
                if error(&session.query(&q, checks)).is_none() {
                    caused.push(format!("{}: {set:?}: {message}", path.display()));
                }
            }
        }
        assert!(with_options >= 60, "{}: {with_options} mutants set options", spec.name);
        assert!(
            caused.is_empty(),
            "{}: {} of {asked} mutants refused for their options:\n{}",
            spec.name,
            caused.len(),
            caused.join("\n")
        );
        eprintln!("{}: {asked} mutants with options, 0 refused for them", spec.name);
    }
}

/// Issue 23: yices' command-line options come from its own help texts, and every value
/// of every option in the table makes a configured variant that reads what plain yices
/// reads: on corpus/, no seed gets an error from a variant that plain yices answers
/// without one. The campaign's variants are drawn from the same table.
#[test]
fn yices_configured_variants_read_what_yices_reads() {
    use smtstorm::mutate::{choice::Rng, config};
    use smtstorm::solver::options;
    let yices = real("yices/bin/yices-smt2", Family::Yices, &["--incremental"]);
    let t0 = std::time::Instant::now();
    let table = options::extract(&yices).unwrap().command_line;
    let values: usize = table.iter().map(|p| p.values.len()).sum();
    eprintln!("yices: {} options, {values} values, in {:.1} s", table.len(), t0.elapsed().as_secs_f64());
    let names: Vec<&str> = table.iter().map(|p| p.name.as_str()).collect();
    assert!(names.contains(&"mcsat") && table.len() >= 8, "{names:?}");
    // Output, resources and the session's mode; and the bounded MCSat search, under
    // which yices answers `unsat` when no model is within the bound.
    let never = [
        "help",
        "version",
        "timeout",
        "incremental",
        "interactive",
        "stats",
        "dimacs",
        "nthreads",
        "verbosity",
        "mcsat-nra-bound",
        "mcsat-nra-bound-max",
    ];
    for never in never {
        assert!(!names.contains(&never), "{never} is not used: {names:?}");
    }
    let limits = Limits { time: Duration::from_millis(2000), grace: Duration::from_millis(500), ..Limits::default() };
    let seeds: Vec<(String, smtlib::Script)> = corpus_files()
        .iter()
        .map(|p| (p.display().to_string(), smtlib::parse(&std::fs::read_to_string(p).unwrap()).unwrap()))
        .filter(|(_, s)| yices.cannot_read(s).is_none())
        .collect();
    let error = |r: &smtstorm::solver::QueryResult| {
        r.outcomes.iter().find_map(|o| match o {
            Outcome::Error { message } => Some(message.clone()),
            _ => None,
        })
    };
    let mut plain = Session::new(yices.clone(), limits);
    let plain_errors: Vec<bool> = seeds
        .iter()
        .map(|(_, s)| {
            let (q, checks) = solver::session_text(&yices.own_script(s));
            error(&plain.query(&q, checks)).is_some()
        })
        .collect();
    let (mut asked, mut caused) = (0, vec![]);
    for p in &table {
        for v in &p.values {
            let mut spec = yices.clone();
            spec.command.extend(options::command_line_args(&[(p.name.clone(), v.clone())]));
            let mut session = Session::new(spec.clone(), limits);
            for (k, (path, s)) in seeds.iter().enumerate() {
                if plain_errors[k] {
                    continue;
                }
                let (q, checks) = solver::session_text(&spec.own_script(s));
                asked += 1;
                if let Some(m) = error(&session.query(&q, checks)) {
                    caused.push(format!("{path}: {:?}: {m}", &spec.command[2..]));
                }
            }
        }
    }
    assert!(asked >= 500, "only {asked} queries");
    assert!(caused.is_empty(), "{} of {asked} refused:\n{}", caused.len(), caused.join("\n"));
    // The campaign's variants: deterministic from the seed, `--mcsat` first, named by
    // their flags, distinct.
    let a = config::command_line_variants(&yices, &table, &mut Rng::new(5));
    assert_eq!(a, config::command_line_variants(&yices, &table, &mut Rng::new(5)));
    assert_eq!(a.len(), config::VARIANTS);
    assert!(a[0].command.contains(&"--mcsat".to_string()) && a[0].name.starts_with(&format!("{}+mcsat", yices.name)));
    assert_ne!(a[0].name, a[1].name);
    eprintln!("yices: {asked} queries under {values} option values, 0 refused for them");
}

/// Issue 23: the configuration engine writes only what each solver reads. Every
/// installed z3 release is asked with mutants built from its own `(help-tactic)` table
/// on every corpus seed: no error may come from the tactic text (an error the mutant
/// gives and the same mutant without its `check-sat-using` does not). The other families
/// get a plain `check-sat` in its place, and read it.
#[test]
fn configuration_mutants_are_read_by_every_installed_solver() {
    use smtstorm::mutate::choice::Rng;
    use smtstorm::mutate::{config, edit};
    let registry = smtstorm::solver::resolve::default_registry().unwrap();
    let z3s: Vec<SolverSpec> = registry.solvers.iter().filter(|s| s.family == Family::Z3).cloned().collect();
    assert!(z3s.len() >= 2, "setup-solvers.sh installs several z3 releases");
    let limits = Limits { time: Duration::from_millis(1000), grace: Duration::from_millis(500), ..Limits::default() };
    let seeds: Vec<smtlib::Script> =
        corpus_files().iter().map(|p| smtlib::parse(&std::fs::read_to_string(p).unwrap()).unwrap()).collect();
    let error = |r: &smtstorm::solver::QueryResult| {
        r.outcomes.iter().find_map(|o| match o {
            Outcome::Error { message } => Some(message.clone()),
            _ => None,
        })
    };
    let (mut caused, mut internal) = (vec![], vec![]);
    let (mut asked, mut answered) = (0, 0);
    for spec in &z3s {
        let t0 = std::time::Instant::now();
        let options = smtstorm::solver::options::extract(spec).unwrap();
        eprintln!("{}: table extracted in {:.1} s", spec.name, t0.elapsed().as_secs_f64());
        let params: usize = options.tactics.iter().map(|t| t.params.len()).sum();
        assert!(
            options.tactics.len() >= 40 && params >= 100,
            "{}: {} tactics, {params} parameters",
            spec.name,
            options.tactics.len()
        );
        let mut session = Session::new(spec.clone(), limits);
        for (i, s) in seeds.iter().enumerate() {
            let p = config::Prepared::new(s, &options);
            if p.sites() == 0 || spec.cannot_read(s).is_some() {
                continue;
            }
            for k in 0..2u64 {
                let Some((edits, m)) = config::mutate_prepared(&p, &mut Rng::new(k * 1000 + i as u64)) else {
                    continue;
                };
                let (q, checks) = solver::session_text(&spec.own_script(&m));
                let r = session.query(&q, checks);
                asked += 1;
                answered += r.outcomes.iter().any(|o| o.is_definite()) as usize;
                let Some(message) = error(&r) else { continue };
                let formula_only = edit::apply_unchecked(s, &edits[..edits.len() - 1]).unwrap();
                let (q, checks) = solver::session_text(&spec.own_script(&formula_only));
                if error(&session.query(&q, checks)).is_none() {
                    let line = format!("{}: {:?}: {message}", spec.name, edits.last());
                    // The solver refusing the text, or a command after it finding no model
                    // or core, is ours; an internal failure of a tactic on a formula it
                    // was given is the solver's (printed, for its developers).
                    let ours = ["parameter", "invalid", "illegal", "unknown tactic", "not available", "unexpected"];
                    if ours.iter().any(|w| message.contains(w)) {
                        caused.push(line);
                    } else {
                        internal.push(line);
                    }
                }
            }
        }
    }
    assert!(
        caused.is_empty(),
        "{} of {asked} mutants: errors from the tactic text:\n{}",
        caused.len(),
        caused.join("\n")
    );
    assert!(asked >= 120 * z3s.len() && answered * 2 >= asked, "asked {asked}, answered definitely {answered}");
    eprintln!(
        "{asked} configuration mutants on {} z3 releases, {answered} answered sat or unsat, 0 errors from the text; \
         internal tactic failures:\n{}",
        z3s.len(),
        internal.join("\n")
    );
    // The other families read the mutants with a plain check-sat in its place.
    let o = smtstorm::solver::options::extract(&z3s[0]).unwrap();
    let s = seeds.iter().find(|s| s.logic() == Some("QF_LIA")).unwrap();
    let (_, mut m) = config::mutate_prepared(&config::Prepared::new(s, &o), &mut Rng::new(3)).unwrap();
    // As a campaign sends it: a mutant's answer may differ from the seed's `:status`.
    edit::strip_status(&mut m);
    for spec in [
        real("yices/bin/yices-smt2", Family::Yices, &["--incremental"]),
        py_solver("cvc5", Family::Cvc5),
        py_solver("bitwuzla", Family::Bitwuzla),
    ] {
        let own = spec.own_script(&m);
        let text = smtlib::print(&own);
        assert!(!text.contains("check-sat-using"), "{}: {text}", spec.name);
        assert_eq!(smtlib::checks(&own), smtlib::checks(&m));
        if spec.family != Family::Bitwuzla {
            let r = run_file(
                &spec,
                &{
                    let f = tempdir("config-others").join("q.smt2");
                    std::fs::write(&f, &text).unwrap();
                    f
                },
                smtlib::checks(&own),
                &limits,
            );
            assert!(error(&r).is_none(), "{}: {:?}", spec.name, r.outcomes);
        }
    }
    // Incremental framing (push, check, pop, assert again, check) is read by every
    // family: on every corpus seed a solver reads, no error the seed alone does not give,
    // and the two checks never contradict each other.
    let mut framed = 0;
    let mut contradictions = vec![];
    for spec in [
        real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]),
        real("yices/bin/yices-smt2", Family::Yices, &["--incremental"]),
        py_solver("cvc5", Family::Cvc5),
        py_solver("bitwuzla", Family::Bitwuzla),
    ] {
        let empty = smtstorm::solver::options::Options::default();
        let mut session = Session::new(spec.clone(), limits);
        for (i, s) in seeds.iter().enumerate() {
            let p = config::Prepared::new(s, &empty);
            let Some((edits, m)) = config::mutate_prepared(&p, &mut Rng::new(i as u64)) else { continue };
            if spec.cannot_read(s).is_some() || spec.cannot_read(&m).is_some() {
                continue;
            }
            assert!(matches!(edits.last(), Some(edit::Edit::PushSplit { .. })), "{edits:?}");
            let mut plain = m.clone();
            edit::strip_status(&mut plain);
            let (q, checks) = solver::session_text(&spec.own_script(&plain));
            let r = session.query(&q, checks);
            framed += 1;
            let formula_only = edit::apply_unchecked(s, &edits[..edits.len() - 1]).unwrap();
            let (q0, checks0) = solver::session_text(&spec.own_script(&formula_only));
            if let Some(message) = error(&r).filter(|_| error(&session.query(&q0, checks0)).is_none()) {
                caused.push(format!("{}: {edits:?}: {message}", spec.name));
            }
            if let Some(v) = smtstorm::oracle::self_contradiction(&r, &smtstorm::smtlib::framing::framing(&plain)) {
                contradictions.push(format!("{}: {}: {}", spec.name, v.signature, smtlib::print(&plain)));
            }
        }
    }
    assert!(framed >= 150, "{framed} framed mutants");
    assert!(caused.is_empty(), "errors from the framing:\n{}", caused.join("\n"));
    assert!(
        contradictions.is_empty(),
        "solvers contradicting themselves (check by hand):\n{}",
        contradictions.join("\n")
    );
    eprintln!("{framed} incrementally framed mutants over 4 families: 0 errors from the framing, 0 contradictions");
}

/// Issue 23, item 2: Semantic Fusion preserves satisfiability. The seeds are chosen by
/// content alone (issue 37: choosing those both solvers confirmed in time made the test
/// pass on one machine and fail on another): the first shared seeds by content hash that
/// fuse, that z3 and cvc5 both read, that are small (≤ 1500 bytes) and quantifier-free (so
/// most fusions are decided in milliseconds), and whose own
/// `(set-info :status …)` says `sat` or `unsat`. They are fused in pairs of the same
/// status (deterministic choices), and no definite answer of either solver may contradict
/// the status the fusion was built to have (a contradiction is a fusion that changes
/// satisfiability, unless the solver contradicts one of the two seeds' own status too: then
/// it is the seed's disagreement with that solver, printed). An `unknown`, a timeout or an
/// error is counted as undecided and changes nothing else.
#[test]
fn fusion_preserves_satisfiability_on_the_shared_seeds() {
    use smtstorm::mutate::choice::{Choices, Rng};
    use smtstorm::mutate::fusion::{fuse, Part};
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    let solvers = [&z3, &cvc5];
    let limits = Limits { time: Duration::from_millis(2000), grace: Duration::from_millis(300), ..Limits::default() };
    let work = tempdir("fusion");
    const WANT: usize = 60;
    let (mut sats, mut unsats) = (vec![], vec![]);
    for (f, s, sat, len) in fusable_shared_seeds() {
        let Some(sat) = sat else { continue };
        let pool = if sat { &mut sats } else { &mut unsats };
        let quantified = s.terms.iter().any(|t| matches!(t, smtstorm::smtlib::ast::Term::Quant(..)));
        if len <= 1500 && !quantified && pool.len() < WANT && solvers.iter().all(|x| x.cannot_read(&s).is_none()) {
            pool.push((f, s));
        }
    }
    eprintln!("{} sat and {} unsat seeds by content hash", sats.len(), unsats.len());
    assert!(sats.len() == WANT && unsats.len() == WANT, "{} sat, {} unsat", sats.len(), unsats.len());
    let mut rng = Rng::new(23);
    let (mut fused, mut decided, mut violations, mut disagreements) = (0, [0, 0], vec![], vec![]);
    let mut undecided: std::collections::BTreeMap<String, usize> = Default::default();
    while fused < 150 {
        let sat = fused % 2 == 0;
        let pool = if sat { &sats } else { &unsats };
        let (a, b) = (&pool[rng.below(pool.len()).unwrap()], &pool[rng.below(pool.len()).unwrap()]);
        let (Some(pa), Some(pb)) = (Part::new(&a.1), Part::new(&b.1)) else { continue };
        let Some((_, m)) = fuse(&pa, &pb, sat, &mut rng) else { continue };
        fused += 1;
        let want = if sat { Outcome::Sat } else { Outcome::Unsat };
        let answers = ask_all(&solvers, &m, &work, &limits);
        for (spec, answer) in solvers.iter().zip(&answers) {
            match answer {
                Some(x) if *x == want => decided[!sat as usize] += 1,
                Some(x) if x.is_definite() => {
                    // The solver against a seed itself: its disagreement, not the fusion's.
                    let seed_answer =
                        |s| ask_all(&[spec], s, &work, &Limits { time: Duration::from_secs(10), ..limits });
                    let blame = [a, b]
                        .into_iter()
                        .find(|(_, s)| seed_answer(s)[0].as_ref().is_some_and(|y| y.is_definite() && *y != want));
                    match blame {
                        Some((f, _)) => {
                            disagreements.push(format!("{}: {x:?} on {} (status {want:?})", spec.name, f.display()))
                        }
                        None => violations.push(format!(
                            "{}: {x:?} where {want:?} is built from {} and {}:\n{}",
                            spec.name,
                            a.0.display(),
                            b.0.display(),
                            smtlib::print(&m)
                        )),
                    }
                }
                _ => *undecided.entry(answer.as_ref().map_or("none", |x| x.name()).to_string()).or_insert(0) += 1,
            }
        }
    }
    eprintln!(
        "{fused} fusions: {} sat and {} unsat answers as built, {undecided:?} undecided, {} violations, {} seed disagreements{}",
        decided[0],
        decided[1],
        violations.len(),
        disagreements.len(),
        disagreements.iter().map(|d| format!("\n  {d}")).collect::<String>()
    );
    assert!(violations.is_empty(), "{violations:#?}");
    // Small seeds are decided in milliseconds; a floor far below what they give, so that
    // only a broken fusion or solver set-up (every answer an error) fails it.
    assert!(decided[0] >= 40 && decided[1] >= 40, "answers as built: {decided:?} of {fused} fusions");
    let _ = std::fs::remove_dir_all(&work);
}

/// Issue 23, item 1: a release's option table is cached beside it
/// (`.solvers/NAME/smtstorm-options.json`) and read back while the binary, its arguments
/// and the rules are the same; a cache that does not read, or whose key does not match,
/// is extracted again and rewritten; a command that is not an installed binary is asked
/// every time.
#[test]
fn option_tables_are_cached_beside_the_release() {
    use smtstorm::solver::options::extract_cached;
    // An install as setup-solvers.sh lays it out: solvers.toml, RELEASE/bin/z3.
    let work = tempdir("options-cache");
    std::fs::create_dir_all(work.join("z3-x/bin")).unwrap();
    std::fs::write(work.join("solvers.toml"), "").unwrap();
    let bin = work.join("z3-x/bin/z3");
    std::os::unix::fs::symlink(solver_bin("z3-5.4.0/bin/z3"), &bin).unwrap();
    let mut spec = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    spec.command[0] = bin.display().to_string();
    let cache = work.join("z3-x/smtstorm-options.json");
    let (first, cached) = extract_cached(&spec).unwrap();
    assert!(!cached && first.tactics.len() > 20, "{} tactics", first.tactics.len());
    assert!(cache.is_file());
    let (again, cached) = extract_cached(&spec).unwrap();
    assert!(cached, "the second read comes from the cache");
    assert_eq!(again, first);
    // Another argument list is another key.
    spec.command.push("-v:0".into());
    assert!(!extract_cached(&spec).unwrap().1);
    assert!(extract_cached(&spec).unwrap().1);
    // A cache that does not read is extracted again, never an error.
    std::fs::write(&cache, "{ not json").unwrap();
    let (o, cached) = extract_cached(&spec).unwrap();
    assert!(!cached && o == first);
    assert!(extract_cached(&spec).unwrap().1, "rewritten");
    // A command outside an install (here: a wrapper in /usr/bin) is never cached, and
    // nothing is written beside it.
    let mut wrapped = spec.clone();
    wrapped.command = vec!["/usr/bin/env".into(), bin.display().to_string(), "-smt2".into()];
    assert!(!extract_cached(&wrapped).unwrap().1 && !extract_cached(&wrapped).unwrap().1);
    assert!(!std::path::Path::new("/usr/smtstorm-options.json").exists());
    // The driver a Python interpreter runs (cvc5's) is cached beside its install.
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    let (o, _) = extract_cached(&cvc5).unwrap();
    assert!(!o.set_options.is_empty());
    assert!(extract_cached(&cvc5).unwrap().1, "cvc5's table comes from its cache the second time");
    let _ = std::fs::remove_dir_all(&work);
}

/// cvc5's `check-models` rejecting its own model aborts with an internal error: that is
/// an invalid model (oracle: the solver's validation), not a crash, in a fresh process
/// and in a session, and the message names the theories the model falsifies. Read as a
/// crash, every such failure shared the crash state `check_models.cpp:251` and unrelated
/// models were one cause (issue 39). The query is cvc5 1.4.2's Float32-indexed array
/// model at −0 (judge26a, C5); a right model of the same shape is no finding.
#[test]
fn a_cvc5_model_check_failure_is_an_invalid_model_not_a_crash() {
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    let query = |index: &str| {
        format!(
            "(set-option :produce-models true)\n(set-option :check-models true)\n(set-logic QF_AFP)\n\
             (declare-fun a () (Array Float32 Float32))\n(declare-fun b () (Array Float32 Float32))\n\
             (assert (not (= a b)))\n(assert (= (_ +zero 8 24) (select b {index})))\n(check-sat)\n"
        )
    };
    let dir = tempdir("cvc5-check-models");
    let file = dir.join("q.smt2");
    std::fs::write(&file, query("(_ -zero 8 24)")).unwrap();
    let r = run_file(&cvc5, &file, 1, &limits());
    assert!(r.crash.is_none(), "{:?}", r.crash);
    assert!(
        matches!(r.outcome(), Outcome::InvalidModel { message }
            if message == "check-models: model falsifies assertions of THEORY_FP THEORY_ARRAYS"),
        "{:?}",
        r.outcomes
    );
    let mut s = Session::new(cvc5.clone(), limits());
    let r = s.query(&query("(_ -zero 8 24)"), 1);
    assert!(matches!(r.outcome(), Outcome::InvalidModel { .. }), "session: {:?}", r.outcomes);
    let r = s.query(&query("(_ +zero 8 24)"), 1);
    assert_eq!(r.outcomes, vec![Outcome::Sat], "a right model (the next query restarts the process)");
    let _ = std::fs::remove_dir_all(dir);
}
