---- MODULE SpecForm ----
EXTENDS Naturals
CONSTANT Max
VARIABLES a, b
vars == <<a, b>>
Init == a \in 0..1 /\ b \in {"x", "y"}
Step == a < Max /\ a' = a + 1 /\ UNCHANGED b
Toggle == b' = (IF b = "x" THEN "y" ELSE "x") /\ UNCHANGED a
Next == Step \/ Toggle
Spec == Init /\ [][Next]_vars
TypeOK == a \in 0..Max /\ b \in {"x", "y"}
====
