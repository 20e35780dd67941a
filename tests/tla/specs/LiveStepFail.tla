---- MODULE LiveStepFail ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
IncX == x' = (x + 1) % 3 /\ UNCHANGED y
IncY == y' = (y + 1) % 3 /\ UNCHANGED x
Next == IncX \/ IncY
Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
YMoves == []<><<IncY>>_vars
====
