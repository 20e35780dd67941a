---- MODULE ViewSpec ----
EXTENDS Naturals
VARIABLES x, steps
Init == x = 0 /\ steps = 0
Next == /\ steps < 10
        /\ steps' = steps + 1
        /\ \/ x' = (x + 1) % 3
           \/ x' = (x + 2) % 3
Abs == x
====
