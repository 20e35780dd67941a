---- MODULE Enabled ----
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\ y = 0
IncX == x < 3 /\ x' = x + 1 /\ UNCHANGED y
IncY == y < x /\ y' = y + 1 /\ UNCHANGED x
Next == IncX \/ IncY
Progress == ENABLED IncX \/ ENABLED IncY \/ (x = 3 /\ y = 3)
====
