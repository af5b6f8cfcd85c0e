//! Front-end behaviour as (text → printed text) and (term → sort) cases, one per construct,
//! plus depth, error-position and dialect guarantees.

use smtstorm::smtlib::{self, ast::CommandKind, check};

/// Parses, prints, and checks that printing is exactly `want` and that the printed text
/// parses back to the same AST.
fn prints(src: &str, want: &str) {
    let s = smtlib::parse(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    let out = smtlib::print(&s);
    assert_eq!(out.trim_end(), want, "printing {src}");
    assert!(smtlib::parse(&out).unwrap() == s, "round trip of {src}");
}

#[test]
fn every_construct_prints_back() {
    let cases = [
        ("(set-logic QF_BV)", "(set-logic QF_BV)"),
        ("(set-option :produce-models true)", "(set-option :produce-models true)"),
        ("(set-info :source |multi\nline|)", "(set-info :source |multi\nline|)"),
        ("(set-info :smt-lib-version 2.6)", "(set-info :smt-lib-version 2.6)"),
        ("(declare-sort U 0)", "(declare-sort U 0)"),
        ("(declare-sort U)", "(declare-sort U)"),
        ("(define-sort M (I E) (Array I E))", "(define-sort M (I E) (Array I E))"),
        ("(declare-fun f ( Int  (_ BitVec 8)) Bool)", "(declare-fun f (Int (_ BitVec 8)) Bool)"),
        ("(declare-const c (Array Int (Array Int Real)))", "(declare-const c (Array Int (Array Int Real)))"),
        ("(define-fun g ((x Int) (y Int)) Int (+ x y))", "(define-fun g ((x Int) (y Int)) Int (+ x y))"),
        ("(define-fun-rec h ((n Int)) Int (h n))", "(define-fun-rec h ((n Int)) Int (h n))"),
        (
            "(define-funs-rec ((a ((n Int)) Bool) (b ((n Int)) Bool)) ((b n) (a n)))",
            "(define-funs-rec ((a ((n Int)) Bool) (b ((n Int)) Bool)) ((b n) (a n)))",
        ),
        ("(define-const k Int 5)", "(define-const k Int 5)"),
        ("(declare-datatype L ((nil) (cons (hd Int) (tl L))))", "(declare-datatype L ((nil) (cons (hd Int) (tl L))))"),
        (
            "(declare-datatypes ((P 1)) ((par (T) ((mk (fst T) (snd T))))))",
            "(declare-datatypes ((P 1)) ((par (T) ((mk (fst T) (snd T))))))",
        ),
        (
            "(declare-datatypes () ((C red green) (T leaf (node (l T) (c C)))))",
            "(declare-datatypes () ((C red green) (T leaf (node (l T) (c C)))))",
        ),
        (
            "(declare-codatatypes ((S 0)) (((sc (h Int) (t S)))))",
            "(declare-codatatypes ((S 0)) (((sc (h Int) (t S)))))",
        ),
        ("(assert (let ((x 1) (y 2)) (< x y)))", "(assert (let ((x 1) (y 2)) (< x y)))"),
        ("(assert (forall ((x Int) (y Real)) (> y x)))", "(assert (forall ((x Int) (y Real)) (> y x)))"),
        ("(assert (exists ((b Bool)) b))", "(assert (exists ((b Bool)) b))"),
        ("(assert (= f (lambda ((x Int)) x)))", "(assert (= f (lambda ((x Int)) x)))"),
        ("(assert (match l ((nil 0) ((cons h t) h) (x 1))))", "(assert (match l ((nil 0) ((cons h t) h) (x 1))))"),
        (
            "(assert (! (forall ((x Int)) (! (p x) :pattern ((f x) (g x)) :qid q1)) :named a1))",
            "(assert (! (forall ((x Int)) (! (p x) :pattern ((f x) (g x)) :qid q1)) :named a1))",
        ),
        ("(assert (! p :no-pattern (f x) :weight 3))", "(assert (! p :no-pattern (f x) :weight 3))"),
        ("(assert (= ((as const (Array Int Int)) 0) a))", "(assert (= ((as const (Array Int Int)) 0) a))"),
        ("(assert (= (as nil (L Int)) x))", "(assert (= (as nil (L Int)) x))"),
        (
            "(assert (= ((_ extract 7 0) x) ((_ zero_extend 4) y)))",
            "(assert (= ((_ extract 7 0) x) ((_ zero_extend 4) y)))",
        ),
        ("(assert ((_ is cons) l))", "(assert ((_ is cons) l))"),
        ("(assert (= s (_ char #x41)))", "(assert (= s (_ char #x41)))"),
        ("(assert (= x (_ bv5 8) #b00000101 #x05))", "(assert (= x (_ bv5 8) #b00000101 #x05))"),
        ("(assert (= r 0.050 007 1/3))", "(assert (= r 0.050 007 1/3))"),
        (r#"(assert (= s "a""b\u{48}"))"#, r#"(assert (= s "a""b\u{48}"))"#),
        ("(assert (= |x y| |x y|))", "(assert (= |x y| |x y|))"),
        (
            "(assert (set.member 1 (set.comprehension ((z Int)) (> z 0) z)))",
            "(assert (set.member 1 (set.comprehension ((z Int)) (> z 0) z)))",
        ),
        ("(check-sat)", "(check-sat)"),
        ("(check-sat-assuming (a (not b)))", "(check-sat-assuming (a (not b)))"),
        ("(get-value (x (+ x 1)))", "(get-value (x (+ x 1)))"),
        ("(push 2) (pop 1) (push) (pop)", "(push 2)\n(pop 1)\n(push)\n(pop)"),
        ("(get-model) (get-unsat-core) (get-proof) (exit)", "(get-model)\n(get-unsat-core)\n(get-proof)\n(exit)"),
        ("(get-info :reason-unknown) (get-option :timeout)", "(get-info :reason-unknown)\n(get-option :timeout)"),
        ("(echo \"done\")", "(echo \"done\")"),
        ("(reset) (reset-assertions)", "(reset)\n(reset-assertions)"),
        ("(assert-soft (> x 0) :weight 2 :id g)", "(assert-soft (> x 0) :weight 2 :id g)"),
        ("(minimize (+ x y)) (maximize x)", "(minimize (+ x y))\n(maximize x)"),
        ("(simplify (+ 1 2) :som true) (eval x)", "(simplify (+ 1 2) :som true)\n(eval x)"),
        // Unknown and dialect-only commands are kept verbatim.
        ("(check-sat-using (then simplify smt))", "(check-sat-using (then simplify smt))"),
        ("(declare-heap (Int Int))", "(declare-heap (Int Int))"),
        ("(get-abduct A (> x 0))", "(get-abduct A (> x 0))"),
        ("(block-model :literals)", "(block-model :literals)"),
        ("(declare-rel R (Int)) (rule (R 1)) (query R)", "(declare-rel R (Int))\n(rule (R 1))\n(query R)"),
        ("(check-sat a b)", "(check-sat a b)"),
    ];
    for (src, want) in cases {
        prints(src, want);
    }
}

#[test]
fn unknown_commands_stay_other_and_typed_ones_are_typed() {
    for name in smtlib::parser::TYPED_COMMANDS {
        let src = match *name {
            "assert" => "(assert true)".to_string(),
            "check-sat-assuming" | "get-value" => format!("({name} (true))"),
            "declare-const" => "(declare-const x Int)".into(),
            "declare-fun" => "(declare-fun f () Int)".into(),
            "declare-sort" => "(declare-sort S 0)".into(),
            "define-const" => "(define-const x Int 1)".into(),
            "define-fun" | "define-fun-rec" => format!("({name} f () Int 1)"),
            "define-funs-rec" => "(define-funs-rec ((f () Int)) (1))".into(),
            "define-sort" => "(define-sort S () Int)".into(),
            "declare-datatype" => "(declare-datatype D ((c)))".into(),
            "declare-datatypes" | "declare-codatatypes" => format!("({name} ((D 0)) (((c))))"),
            "echo" => "(echo \"x\")".into(),
            "get-info" | "get-option" => format!("({name} :x)"),
            "push" | "pop" => format!("({name} 1)"),
            "set-info" | "set-option" => format!("({name} :x 1)"),
            "set-logic" => "(set-logic ALL)".into(),
            other => panic!("add a case for {other}"),
        };
        let s = smtlib::parse(&src).unwrap();
        assert!(!matches!(s.commands[0].kind, CommandKind::Other { .. }), "{name} parsed as Other");
    }
}

/// Checks `decls` + `(assert (= TERM TERM))` and returns the sort of TERM.
fn sort_of(decls: &str, term: &str) -> String {
    let src = format!("{decls}\n(get-value ({term}))");
    let s = smtlib::parse(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
    let c = check::check(&s);
    assert!(c.is_clean(), "{src}: {:?}", c.diagnostics);
    let CommandKind::GetValue(l) = s.commands.last().unwrap().kind else { unreachable!() };
    c.sorts.display(c.sort_of(s.term_list(l)[0]))
}

#[test]
fn every_theory_gives_terms_their_sorts() {
    let bv = "(declare-const x (_ BitVec 8)) (declare-const y (_ BitVec 4))";
    let fp = "(declare-const f Float32) (declare-const h (_ FloatingPoint 5 11)) (declare-const r RoundingMode)";
    let dt = "(declare-datatypes ((L 1)) ((par (T) ((nil) (cons (hd T) (tl (L T)))))))
              (declare-const l (L Int))";
    let cases: &[(&str, &str, &str)] = &[
        ("", "(and true false (not true))", "Bool"),
        ("", "(=> true false true)", "Bool"),
        ("", "(ite true 1 2)", "Int"),
        ("", "(ite true 1 2.5)", "Real"),
        ("", "(+ 1 2 3)", "Int"),
        ("", "(+ 1 2.0)", "Real"),
        ("", "(- 3)", "Int"),
        ("", "(div 7 2)", "Int"),
        ("", "(/ 1 3)", "Real"),
        ("", "(< 1 2 3)", "Bool"),
        ("", "(to_real 1)", "Real"),
        ("", "(to_int 1.5)", "Int"),
        ("", "((_ divisible 3) 9)", "Bool"),
        ("", "1/3", "Real"),
        (bv, "(bvadd x x x)", "(_ BitVec 8)"),
        (bv, "(concat x y)", "(_ BitVec 12)"),
        (bv, "(concat x y y)", "(_ BitVec 16)"),
        (bv, "((_ extract 6 2) x)", "(_ BitVec 5)"),
        (bv, "((_ repeat 3) y)", "(_ BitVec 12)"),
        (bv, "((_ zero_extend 8) x)", "(_ BitVec 16)"),
        (bv, "((_ rotate_left 3) x)", "(_ BitVec 8)"),
        (bv, "(bvcomp x x)", "(_ BitVec 1)"),
        (bv, "(bvult x x)", "Bool"),
        (bv, "(bvsaddo x x)", "Bool"),
        (bv, "#xABC", "(_ BitVec 12)"),
        (bv, "#b101", "(_ BitVec 3)"),
        (bv, "(_ bv7 32)", "(_ BitVec 32)"),
        (bv, "(bv2nat x)", "Int"),
        (bv, "((_ int2bv 5) 3)", "(_ BitVec 5)"),
        (fp, "(fp.add r f f)", "(_ FloatingPoint 8 24)"),
        (fp, "(fp #b0 #b10000 #b0000000000)", "(_ FloatingPoint 5 11)"),
        (fp, "(_ +oo 11 53)", "(_ FloatingPoint 11 53)"),
        (fp, "((_ to_fp 11 53) r f)", "(_ FloatingPoint 11 53)"),
        (fp, "((_ to_fp 8 24) #x3f800000)", "(_ FloatingPoint 8 24)"),
        (fp, "((_ to_fp 8 24) RNE 0.5)", "(_ FloatingPoint 8 24)"),
        (fp, "((_ fp.to_sbv 16) RTZ h)", "(_ BitVec 16)"),
        (fp, "(fp.to_real h)", "Real"),
        (fp, "(fp.isNaN h)", "Bool"),
        (fp, "roundTowardZero", "RoundingMode"),
        ("", "(str.++ \"a\" \"b\" \"c\")", "String"),
        ("", "(str.len \"ab\")", "Int"),
        ("", "(str.in_re \"a\" (re.* (str.to_re \"a\")))", "Bool"),
        ("", "((_ re.loop 1 3) re.allchar)", "RegLan"),
        ("", "(str.to.int \"1\")", "Int"),
        ("", "(str.in.re \"a\" re.all)", "Bool"),
        ("(declare-const a (Array Int Bool))", "(select (store a 1 true) 2)", "Bool"),
        ("", "((as const (Array Int Real)) 0.0)", "(Array Int Real)"),
        ("(declare-const s (Seq Int))", "(seq.nth (seq.++ s (seq.unit 1)) 0)", "Int"),
        (dt, "(cons 1 l)", "(L Int)"),
        (dt, "(hd l)", "Int"),
        (dt, "((_ is cons) l)", "Bool"),
        (dt, "(as nil (L Int))", "(L Int)"),
        (dt, "(match l ((nil 0) ((cons h t) h)))", "Int"),
        ("(declare-datatypes () ((C red green)))", "(is-red red)", "Bool"),
        ("(define-sort W () (_ BitVec 32)) (declare-const w W)", "w", "(_ BitVec 32)"),
        ("(define-sort M (I) (Array I I)) (declare-const m (M Int))", "(select m 0)", "Int"),
        ("(declare-sort U 0) (declare-fun f (U) U) (declare-const u U)", "(f (f u))", "U"),
        ("", "(let ((x 1) (y true)) (ite y x 2))", "Int"),
        ("", "(forall ((x Int)) (exists ((y Real)) (< x y)))", "Bool"),
        ("", "(lambda ((x Int)) (+ x 1))", "(-> Int Int)"),
        ("", "(! (> 1 0) :named nm)", "Bool"),
        ("(declare-const t (Tuple Int Bool))", "((_ tuple.select 1) t)", "Bool"),
        ("(declare-const s (Set Int))", "(set.member 1 (set.union s (set.singleton 2)))", "Bool"),
    ];
    for (decls, term, want) in cases {
        assert_eq!(sort_of(decls, term), *want, "sort of {term}");
    }
}

#[test]
fn checker_reports_unknown_symbols_and_ill_sorted_terms() {
    let s = smtlib::parse("(declare-const x Int) (assert (foo x)) (assert (bvadd x x)) (assert (distinct x))").unwrap();
    let c = check::check(&s);
    assert_eq!(c.unknown_symbols, vec!["foo".to_string()]);
    let msgs: Vec<String> = c.diagnostics.iter().map(|d| d.to_string()).collect();
    assert!(msgs.iter().any(|m| m.starts_with("command 3: no signature of bvadd accepts (Int Int)")), "{msgs:?}");
    assert!(
        msgs.iter().any(|m| m.starts_with("command 4: no signature of distinct")),
        "1-argument distinct is not SMT-LIB: {msgs:?}"
    );
}

#[test]
fn scopes_follow_push_pop_and_binders() {
    let s = smtlib::parse("(push 1) (declare-const x Int) (pop 1) (assert (> x 0))").unwrap();
    assert_eq!(check::check(&s).unknown_symbols, vec!["x".to_string()]);
    let s =
        smtlib::parse("(set-option :global-declarations true) (push 1) (declare-const x Int) (pop 1) (assert (> x 0))")
            .unwrap();
    assert!(check::check(&s).is_clean());
    let s = smtlib::parse("(assert (forall ((x Int)) (> x 0))) (assert (> x 0))").unwrap();
    assert_eq!(check::check(&s).unknown_symbols, vec!["x".to_string()]);
    let s = smtlib::parse("(declare-const x Bool) (assert (let ((x 1)) (> x 0))) (assert x)").unwrap();
    assert!(check::check(&s).is_clean());
}

/// Builds `depth` nested applications of `op` around `leaf`.
fn nested(op: &str, leaf: &str, depth: usize) -> String {
    let mut s = String::with_capacity(depth * (op.len() + 3));
    for _ in 0..depth {
        s.push('(');
        s.push_str(op);
        s.push(' ');
    }
    s.push_str(leaf);
    for _ in 0..depth {
        s.push(')');
    }
    s
}

#[test]
fn hundred_thousand_deep_terms_parse_print_and_check_on_a_small_stack() {
    // Run on a 256 KiB stack: recursion of any depth proportional to the input would die.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let depth = 100_000;
            let mut lets = String::new();
            for i in 0..depth {
                lets.push_str(&format!("(let ((x{i} true)) "));
            }
            lets.push_str("x0");
            lets.push_str(&")".repeat(depth));
            for body in [nested("not", "true", depth), lets, nested("!", "true :named n", 1)] {
                let src = format!("(assert {body})\n(check-sat)");
                let s = smtlib::parse(&src).unwrap();
                let printed = smtlib::print(&s);
                assert!(smtlib::parse(&printed).unwrap() == s);
                let c = check::check(&s);
                assert!(c.is_clean(), "{:?}", &c.diagnostics[..1]);
            }
            let deep_sort = format!("(declare-const a {})", nested("Array Int", "Int", depth));
            let s = smtlib::parse(&deep_sort).unwrap();
            assert!(smtlib::parse(&smtlib::print(&s)).unwrap() == s);
            // Sorts deeper than MAX_SORT_DEPTH are reported, not followed.
            assert!(!check::check(&s).is_clean());
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn syntax_errors_name_line_column_and_expectation() {
    let cases = [
        ("(assert (and x)\n(check-sat", 2, 1, "expected ')', found '('"),
        ("(check-sat", 1, 11, "expected ')', found end of input"),
        ("(declare-fun f Int)", 1, 16, "expected '(', found 'Int'"),
        ("(assert \"abc", 1, 9, "unterminated string literal"),
        ("(assert (let ((x)) x))", 1, 17, "expected a term, found ')'"),
        ("x", 1, 1, "expected '(' to start a command, found 'x'"),
        ("(assert (_ bv1))", 1, 15, "expected an index (numeral or symbol), found ')'"),
        ("(assert #x)", 1, 9, "malformed hexadecimal literal"),
    ];
    for (src, line, col, msg) in cases {
        let e = smtlib::parse_strict(src).unwrap_err();
        assert_eq!((e.line, e.column, e.message.as_str()), (line, col, msg), "{src}");
    }
    let e = smtlib::parse_bytes(b"(assert \xff)").unwrap_err();
    assert_eq!((e.line, e.column, e.message.as_str()), (1, 9, "invalid UTF-8"));
    let err = smtlib::parse("(assert").unwrap_err().in_file(std::path::Path::new("a/b.smt2"));
    assert_eq!(err.to_string(), "a/b.smt2:1:8: expected a term, found end of input");
}

/// Issue 22, item 4: forms z3 accepts outside the standard's grammar are read, kept
/// verbatim and printed back as they came; the rest of the script stays typed; the
/// strict parser still names the first failure; unbalanced input stays an error.
#[test]
fn solver_forms_outside_the_grammar_are_kept_verbatim() {
    let cases = [
        ("(declare-const a Int)\n(assert (let ((x a))))\n(check-sat)\n", 1),
        ("(declare-const f (Float64))\n(assert (fp.isNaN f))\n(check-sat)\n", 0),
        ("(declare-const a (Array Int Int))\n(assert (= a ((_ map (+ (Int Int) Int)) a a)))\n(check-sat)\n", 1),
        ("(declare-fun f Int)\n(assert (_ bv1))\n(declare-const y Int)\n(assert (> y 0))\n(check-sat)\n", 0),
    ];
    for (src, verbatim_at) in cases {
        assert!(smtlib::parse_strict(src).is_err(), "{src}");
        let s = smtlib::parse(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(smtlib::print(&s), src, "printed back as it came");
        assert!(!s.verbatim.is_empty());
        assert!(
            matches!(s.commands[verbatim_at].kind, smtstorm::smtlib::ast::CommandKind::Other { .. }),
            "{src}: command {verbatim_at} is verbatim"
        );
        // Typed commands around it stay typed, and the check-sat is one.
        assert_eq!(smtlib::checks(&s), 1);
        assert!(s.commands.iter().any(|c| !matches!(c.kind, smtstorm::smtlib::ast::CommandKind::Other { .. })));
    }
    let s = smtlib::parse(cases[3].0).unwrap();
    assert!(matches!(s.commands[3].kind, smtstorm::smtlib::ast::CommandKind::Assert(_)));
    assert!(s.verbatim[0].1.starts_with("1:16: expected '('"), "{:?}", s.verbatim);
    for bad in ["(assert (and x)\n(check-sat", "(assert #x)", "x", "(assert \"abc"] {
        assert!(smtlib::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn legacy_quote_escapes_only_when_2_6_rules_fail() {
    // 2.6: `"\"` is a complete string holding a backslash.
    let s = smtlib::parse("(assert (= s \"\\\"))").unwrap();
    assert_eq!(smtlib::print(&s).trim_end(), "(assert (= s \"\\\"))");
    // SMT-LIB 2.0 files escape quotes as \" (cvc5 still reads them).
    let src = "(set-info :source \"a \\\"quoted\\\" word\")\n(check-sat)";
    let s = smtlib::parse(src).unwrap();
    assert_eq!(s.commands.len(), 2);
    assert!(smtlib::parse(&smtlib::print(&s)).unwrap() == s);
}
