---- MODULE ActionPropOk ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
Next == \/ x < 3 /\ x' = x + 1 /\ UNCHANGED y
        \/ y < x /\ y' = y + 1 /\ UNCHANGED x
Spec == Init /\ [][Next]_vars
Monotone == [][x' >= x /\ y' >= y]_vars
YBelow == [](y <= x)
====
