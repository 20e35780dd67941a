---- MODULE ActionConstraint ----
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\ y = 0
Next == \/ x < 4 /\ x' = x + 1 /\ UNCHANGED y
        \/ y < 4 /\ y' = y + 1 /\ UNCHANGED x
        \/ x > 0 /\ x' = x - 1 /\ y' = 0
NoReset == ~(y > 2 /\ y' = 0)
====
