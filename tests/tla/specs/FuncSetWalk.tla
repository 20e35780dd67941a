---- MODULE FuncSetWalk ----
EXTENDS Naturals
VARIABLE f
Init == f = [i \in 1..2 |-> 0]
Next == f' \in {g \in [1..2 -> 0..2] : g[1] >= f[1] /\ g /= f}
Inv == f[1] <= 2
====
