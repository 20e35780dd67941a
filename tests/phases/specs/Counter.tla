---- MODULE Counter ----
EXTENDS Naturals
CONSTANT Max
VARIABLES x, y

TypeOK == x \in 0..Max /\ y \in 0..Max

Init == x = 0 /\ y = 0

IncX == x < Max /\ x' = x + 1 /\ UNCHANGED y

IncY == y < x /\ y' = y + 1 /\ UNCHANGED x

Reset == x = Max /\ y = Max /\ x' = 0 /\ y' = 0

Next == IncX \/ IncY \/ Reset

Spec == Init /\ [][Next]_<<x, y>>
====
