---- MODULE EvalError ----
EXTENDS Naturals, Sequences
VARIABLE s
Init == s = <<1, 2>>
Next == s' = Tail(s)
====
