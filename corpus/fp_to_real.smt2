(set-logic QF_FPLRA)
(declare-const x Float32)
(declare-const r Real)
; fp.to_real is unspecified on NaN and infinities (SMT-LIB FloatingPoint theory);
; 1.5 is exact in Float32.
(assert (= x ((_ to_fp 8 24) RNE 1.5)))
(assert (= r (fp.to_real x)))
(assert (not (= r 1.5)))
(set-info :status unsat)
(check-sat)
