---- MODULE Bounded ----
\* An unbounded counter cut by a CONSTRAINT: the last state's successor lies outside the model.
EXTENDS Naturals
VARIABLE x
Init == x = 0
Inc == x' = x + 1
Spec == Init /\ [][Inc]_x /\ WF_x(Inc)
InModel == x < 3
ReachTwo == <>(x = 2)
NeverTwo == []<>(x = 0)
StopsAtTwo == <>[](x = 2)
====
