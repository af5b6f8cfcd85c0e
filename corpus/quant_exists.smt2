(set-logic LIA)
(assert (exists ((x Int) (y Int)) (and (> x y) (< (- x y) 2) (= (+ x y) 7))))
(set-info :status sat)
(check-sat)
