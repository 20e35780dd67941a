---- MODULE HaltNF ----
\* Counts to 3 and stops (a deadlock, checked with CHECK_DEADLOCK FALSE): the behavior then
\* stutters forever.
EXTENDS Naturals
VARIABLE x
Init == x = 0
Inc == x < 3 /\ x' = x + 1
Spec == Init /\ [][Inc]_x /\ WF_x(Inc)
SpecNF == Init /\ [][Inc]_x
Done == <>(x = 3)
StaysDone == <>[](x = 3)
Quiet == <>[](~ENABLED Inc)
Busy == []<>(ENABLED Inc)
Progress == \A k \in 0..2 : (x = k) ~> (x = k + 1)
StepsUp == [][x' > x]_x
====
