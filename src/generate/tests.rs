use super::acceptance::combinations;
use super::*;
use crate::smtlib::{check, parse};
use std::collections::BTreeSet;

/// Nesting depth of an assertion's term (a leaf is 0), counting only applications and
/// binders, as the generator does.
fn depth(text: &str) -> usize {
    let (mut d, mut max, mut in_str) = (0usize, 0usize, false);
    let mut prev_underscore = false;
    let mut skip = 0usize;
    for (i, ch) in text.char_indices() {
        if in_str {
            in_str = ch != '"';
            continue;
        }
        match ch {
            '"' => in_str = true,
            '(' => {
                // `(_ ...)` heads, `(as const ...)` heads and binder lists are not levels.
                let rest = &text[i + 1..];
                if rest.starts_with("_ ") || rest.starts_with("as const") || rest.starts_with("(as const") {
                    skip += 1;
                    prev_underscore = true;
                    d += 1;
                    continue;
                }
                d += 1;
                max = max.max(d - skip);
            }
            ')' => {
                d -= 1;
                if prev_underscore && skip > 0 {
                    skip -= 1;
                    prev_underscore = false;
                }
            }
            _ => {}
        }
    }
    max
}

#[test]
fn ten_thousand_scripts_per_combination_sort_check() {
    for combo in combinations() {
        let g = Grammar::new(combo.config.clone()).unwrap();
        let mut ops_seen: BTreeSet<String> = BTreeSet::new();
        let mut n = 0;
        for (seed, text) in scripts(&g, 0, 10_000) {
            n += 1;
            let s = parse(&text).unwrap_or_else(|e| panic!("{} seed {seed}: {e}\n{text}", combo.name));
            let c = check::check(&s);
            assert!(c.is_clean(), "{} seed {seed}: {:?}\n{text}", combo.name, c.diagnostics.first());
            assert_eq!(s.logic(), Some(g.logic.as_str()));
            for t in &s.terms {
                if let crate::smtlib::ast::Term::App(q, args) = t {
                    if !args.is_empty() {
                        ops_seen.insert(s.str(q.ident.sym).to_string());
                    }
                }
            }
        }
        assert_eq!(n, 10_000, "{}: the generator never gives up with an Rng", combo.name);
        // Every operator of the grammar shows up (testers print as `_ is`, quantifiers are
        // binders, not applications).
        let missing: Vec<&String> = g
            .ops
            .iter()
            .filter(|o| !ops_seen.contains(*o) && !["is", "forall", "exists"].contains(&o.as_str()))
            .collect();
        assert!(missing.is_empty(), "{}: never generated {missing:?}", combo.name);
    }
}

#[test]
fn generation_is_deterministic_from_the_seed() {
    for combo in combinations() {
        let g = Grammar::new(combo.config.clone()).unwrap();
        let a: Vec<_> = scripts(&g, 42, 50).collect();
        let b: Vec<_> = scripts(&g, 42, 50).collect();
        assert_eq!(a, b);
        let c: Vec<_> = scripts(&g, 1042, 50).collect();
        assert_ne!(a, c, "{}: other seeds give other scripts", combo.name);
    }
}

#[test]
fn trees_are_full_to_the_requested_depth() {
    for d in 1..=5 {
        let config = Config { features: parse_features("ints,bv").unwrap(), depth: d, asserts: 1, ..Config::default() };
        let g = Grammar::new(config).unwrap();
        for (seed, text) in scripts(&g, 0, 200) {
            let a = text.lines().find(|l| l.starts_with("(assert ")).unwrap();
            let inner = &a["(assert ".len()..a.len() - 1];
            assert_eq!(depth(inner), d, "seed {seed} depth {d}: {inner}");
        }
    }
}

#[test]
fn linear_mode_writes_linear_logics_and_terms() {
    let config = Config { features: parse_features("mixed").unwrap(), linear: true, ..Config::default() };
    let g = Grammar::new(config).unwrap();
    assert_eq!(g.logic, "QF_LIRA");
    for (_, text) in scripts(&g, 0, 2000) {
        let s = parse(&text).unwrap();
        for t in &s.terms {
            if let crate::smtlib::ast::Term::App(q, args) = *t {
                let op = s.str(q.ident.sym);
                if ["*", "/", "div", "mod"].contains(&op) {
                    let lits =
                        s.term_list(args)[1..].iter().all(|&a| matches!(s.term(a), crate::smtlib::ast::Term::Lit(..)));
                    assert!(lits, "non-literal divisor or factor in {text}");
                }
            }
        }
    }
    let nl = Grammar::new(Config { features: parse_features("ints").unwrap(), ..Config::default() }).unwrap();
    assert_eq!(nl.logic, "QF_NIA");
}

#[test]
fn rooted_terms_start_with_the_construct_and_have_the_sort() {
    let config = Config { features: parse_features("all").unwrap(), widths: vec![4, 8], ..Config::default() };
    let g = Grammar::new(config).unwrap();
    let mut rng = Rng::new(1);
    for op in g.ops.clone() {
        for want in g.results_of(&op) {
            let t = g.rooted(&op, Some(want), 2, 0, &mut rng).unwrap_or_else(|| panic!("{op}"));
            let head = if op == "is" { "(_ is".to_string() } else { format!("({op}") };
            assert!(t.starts_with(&head) || t.starts_with(&format!("((_ {op}")), "{op}: {t}");
            // Sort-check inside a script: `(= t t)` with the grammar's declarations.
            let script = g.assemble(&[format!("(= {t} {t})")]);
            let s = parse(&script).unwrap();
            let c = check::check(&s);
            assert!(c.is_clean(), "{op}: {:?}\n{script}", c.diagnostics);
        }
        assert!(g.rooted(&op, Some(SortRef::UNKNOWN), 2, 0, &mut rng).is_none());
    }
}

#[test]
fn bad_configurations_are_typed_errors() {
    let bad = |f: fn(&mut Config)| {
        let mut c = Config::default();
        f(&mut c);
        Grammar::new(c).err()
    };
    assert_eq!(bad(|c| c.widths = vec![0]), Some(GenError::Width(0)));
    assert_eq!(bad(|c| c.widths = vec![65]), Some(GenError::Width(65)));
    assert_eq!(bad(|c| c.formats = vec![(1, 5)]), Some(GenError::Format(1, 5)));
    assert_eq!(bad(|c| c.asserts = 0), Some(GenError::Zero("asserts")));
    assert!(parse_features("ints,foo")
        .unwrap_err()
        .to_string()
        .contains("unknown theory \"foo\": available: core, ints,"));
    assert_eq!(parse_features("LIA, bv").unwrap(), [Feature::Ints, Feature::Bv].into());
}
