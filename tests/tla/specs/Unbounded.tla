---- MODULE Unbounded ----
EXTENDS Integers
VARIABLES x, y
Init == x = 0 /\ y = 0
Next == \/ x' = x + 1 /\ y' = y
        \/ y' = y - 1 /\ x' = x
        \/ x' = x - y /\ y' = 0
Bound == x <= 4 /\ y >= -3
Inv == x >= 0
====
