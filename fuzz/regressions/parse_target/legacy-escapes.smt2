(set-info :source "a \"b\" \\ c")
(assert (= x "\"\""))
