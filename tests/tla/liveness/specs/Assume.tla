---- MODULE Assume ----
\* The SPECIFICATION assumes a temporal formula that is not WF/SF (x returns to 0 infinitely
\* often), and fairness under \A.
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
Up == x < 2 /\ x' = x + 1 /\ UNCHANGED y
Reset == x = 2 /\ x' = 0 /\ UNCHANGED y
Flip(b) == y # b /\ y' = b /\ UNCHANGED x
Next == Up \/ Reset \/ \E b \in {0, 1} : Flip(b)

Spec == Init /\ [][Next]_vars /\ []<>(x = 0) /\ \A b \in {0, 1} : WF_vars(Flip(b))
Returns == []<>(x = 0)
Climbs == []<>(x = 2)
Flips == []<>(y = 1) /\ []<>(y = 0)
Visits == (x = 1) ~> (x = 0)
====
