; SMT-LIB 2.6 string escapes under a disjunction: the script is satisfiable whatever a
; solver makes of "\u{41}" (x > 0 covers it), but the fragment (= (str.len "\u{41}") 1)
; is true under any model, so STORM instances assert it alone; z3 before 4.8.9 read
; "\u{41}" as six characters and answers unsat for them.
(set-logic QF_SLIA)
(declare-const x Int)
(declare-const s String)
(assert (or (= (str.len "\u{41}") 1) (> x 0)))
(assert (or (= s "\u{42}") (< x 10)))
(assert (=> (= s "B") (= (str.len s) 1)))
(set-info :status sat)
(check-sat)
