---- MODULE TlcOps ----
EXTENDS Naturals, TLC
VARIABLE f
Init == f = (1 :> "a") @@ (2 :> "b")
Grow == \E k \in 3..4 : k \notin DOMAIN f /\ f' = f @@ (k :> "c")
Shrink == \E k \in DOMAIN f : k > 2 /\ f' = [i \in DOMAIN f \ {k} |-> f[i]]
Next == Grow \/ Shrink
Inv == f[1] = "a" /\ DOMAIN f \subseteq 1..4
====
