---- MODULE LiveRefine ----
EXTENDS Naturals
VARIABLES n
Init == n = 0
Next == n' = (n + 1) % 6
Spec == Init /\ [][Next]_n /\ WF_n(Next)
Par == n % 2
Abs == INSTANCE LiveCycleAbs WITH b <- Par
Refines == Abs!Spec
====
