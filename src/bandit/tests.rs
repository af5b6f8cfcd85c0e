use super::*;
use crate::generate::{parse_features, scripts};
use crate::mutate::edit;
use crate::smtlib::ast::Term;
use crate::smtlib::check;
use crate::smtlib::parse;

#[test]
fn inserted_constructs_keep_sorts_and_depth() {
    for theories in ["bv", "ints,reals,mixed", "all"] {
        let config = generate::Config {
            features: parse_features(theories).unwrap(),
            widths: vec![4, 8],
            depth: 3,
            ..generate::Config::default()
        };
        let g = Grammar::new(config).unwrap();
        let mut rng = Rng::new(5);
        let mut inserted = 0;
        for (_, text) in scripts(&g, 0, 40) {
            let s = sites(&g, &text).unwrap();
            assert!(!s.nodes.is_empty());
            for op in g.ops.clone() {
                let Some((e, m)) = insert(&g, &text, &s, &op, &mut rng) else { continue };
                inserted += 1;
                let Edit::InsertConstruct { construct, with, .. } = &e else { panic!("{e:?}") };
                assert_eq!(construct, &op);
                assert!(m.contains(with.as_str()));
                let p = parse(&m).unwrap();
                let c = check::check(&p);
                assert!(c.is_clean(), "{op}: {:?}\n{m}", c.diagnostics.first());
                // Depth stays within the grammar's: every node's path is at most depth + 2 long.
                let w = edit::walk(&p);
                let deepest = (0..w.nodes.len()).map(|i| w.depth(i)).max().unwrap();
                assert!(deepest <= g.config.depth + 2, "{op}: {deepest}\n{m}"); // + binder lists
            }
        }
        assert!(inserted > 200, "{theories}: only {inserted} insertions");
    }
}

#[test]
fn literal_only_positions_stay_literals() {
    // Linear arithmetic: a divisor or factor never becomes a term (cvc5: "non-linear fact").
    let config =
        generate::Config { features: parse_features("ints").unwrap(), linear: true, ..generate::Config::default() };
    let g = Grammar::new(config).unwrap();
    let text = g.assemble(&["(> (div i0 3) (* i1 2))".to_string()]);
    let s = sites(&g, &text).unwrap();
    let mut rng = Rng::new(1);
    // What the loop exercised: a run that inserted nothing, or never met a factor or a
    // divisor, would pass without testing anything.
    let (mut inserted, mut guarded) = (0, 0);
    for _ in 0..300 {
        for op in ["+", "-", "ite", "div", "*"] {
            if let Some((_, m)) = insert(&g, &text, &s, op, &mut rng) {
                inserted += 1;
                let p = parse(&m).unwrap();
                for t in &p.terms {
                    if let Term::App(q, args) = *t {
                        if ["*", "div", "mod"].contains(&p.str(q.ident.sym)) {
                            guarded += 1;
                            assert!(matches!(p.term(p.term_list(args)[1]), Term::Lit(..)), "{m}");
                        }
                    }
                }
            }
        }
    }
    assert!(inserted > 100 && guarded > inserted, "only {inserted} insertions, {guarded} factors or divisors checked");
}

#[test]
fn par2_counts_unsolved_twice_the_timeout() {
    let t = |outcome, cpu| Timing { sha: String::new(), solver: "s".into(), limit: 1.0, cpu, outcome };
    assert_eq!(t(Outcome::Sat, 0.25).par2(1.0), 0.25);
    assert_eq!(t(Outcome::Unsat, 0.5).par2(1.0), 0.5);
    assert_eq!(t(Outcome::Timeout, 1.1).par2(1.0), 2.0);
    assert_eq!(t(Outcome::Unknown { reason: "x".into() }, 0.1).par2(1.0), 2.0);
    assert_eq!(t(Outcome::Error { message: "x".into() }, 0.1).par2(1.0), 2.0);
    assert_eq!(t(Outcome::Sat, 1.5).par2(1.0), 2.0, "over the limit by CPU time");
}

#[test]
fn cactus_plot_draws_one_curve_per_solver() {
    let mut s = std::collections::BTreeMap::new();
    s.insert("z3-4.8.7".to_string(), vec![0.1, 0.2, 0.9]);
    s.insert("z3-5.4.0".to_string(), vec![0.01, 0.02]);
    let svg = plot::cactus(&s, 1.0);
    assert_eq!(svg.matches("<polyline").count(), 2);
    assert!(svg.contains("z3-4.8.7 (3 solved)") && svg.contains("z3-5.4.0 (2 solved)"));
}

#[test]
fn cactus_series_count_references_answered_under_a_dynamic_limit() {
    let t =
        |solver: &str, limit, cpu, outcome| Timing { sha: String::new(), solver: solver.into(), limit, cpu, outcome };
    let meta = |timings| PerfMeta {
        id: String::new(),
        iteration: 0,
        found_at: 0.0,
        strategy: Strategy::Bandit,
        logic: "QF_BV".into(),
        bytes: 0,
        margin: 0.0,
        timings,
        final_cpu: vec![],
        final_par2: vec![],
        final_margin: None,
        timeout: 2.0,
        made_by: "sample".into(),
    };
    let perf = vec![
        // The reference answered within the dynamic limit 0.2 s: solved.
        meta(vec![t("target", 2.0, 0.6, Outcome::Sat), t("ref", 0.2, 0.15, Outcome::Sat)]),
        // The dynamic limit cut the reference off: its time is unknown, left out.
        meta(vec![t("target", 2.0, 0.3, Outcome::Sat), t("ref", 0.1, 0.1, Outcome::Timeout)]),
        // The target timed out: unsolved.
        meta(vec![t("target", 2.0, 2.0, Outcome::Timeout), t("ref", 2.0, 0.1, Outcome::Unsat)]),
    ];
    let s = plot::series(&perf);
    assert_eq!(s["target"], vec![0.3, 0.6]);
    assert_eq!(s["ref"], vec![0.1, 0.15]);
}
