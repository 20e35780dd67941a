---- MODULE LiveFairProp ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
IncX == x' = (x + 1) % 3 /\ UNCHANGED y
IncY == y' = (y + 1) % 3 /\ UNCHANGED x
Next == IncX \/ IncY
Spec == Init /\ [][Next]_vars /\ WF_vars(IncX) /\ WF_vars(IncY)
FairX == WF_vars(IncX)
FairBoth == WF_vars(IncX) /\ SF_vars(IncY)
====
