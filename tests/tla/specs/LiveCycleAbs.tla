---- MODULE LiveCycleAbs ----
EXTENDS Naturals
VARIABLE b
Init == b = 0
Next == b' = 1 - b
Spec == Init /\ [][Next]_b /\ WF_b(Next)
====
