---- MODULE DisjInside ----
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\ y = 0
Next == /\ x < 3
        /\ \/ x' = x + 1
           \/ x' = x + 2
        /\ IF x = 1 THEN y' = y + 1 ELSE \/ y' = y
                                          \/ y' = 1 - y
Inv == y \in {0, 1, 2}
====
