---- MODULE FairOp ----
\* Fairness through an operator with an argument under \A.
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
Up == x < 2 /\ x' = x + 1 /\ UNCHANGED y
Reset == x = 2 /\ x' = 0 /\ UNCHANGED y
Flip(b) == y # b /\ y' = b /\ UNCHANGED x
Next == Up \/ Reset \/ \E b \in {0, 1} : Flip(b)

Fair(b) == WF_vars(Flip(b))
Spec == Init /\ [][Next]_vars /\ WF_vars(Up) /\ WF_vars(Reset) /\ \A b \in {0, 1} : Fair(b)
Returns == []<>(x = 0)
Climbs == []<>(x = 2)
Flips == []<>(y = 1) /\ []<>(y = 0)
Visits == (x = 1) ~> (x = 0)
====
