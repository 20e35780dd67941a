---- MODULE CrossProduct ----
EXTENDS Naturals
VARIABLE p
Init == p \in {1, 2} \X {"a", "b"}
Next == \E q \in {1, 2, 3} \X {"a", "b"} : q[1] = p[1] + 1 /\ p' = q
Inv == p[1] \in 1..3 /\ p[2] \in {"a", "b"}
====
