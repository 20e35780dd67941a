---- MODULE JugsPrecedence ----
EXTENDS Naturals
VARIABLES a, b
Init == a = 0 /\ b = 0
Next == \/ a' = 4 /\ b' = b
        \/ b' = 6 /\ a' = a
        \/ a' = 0 /\ b' = b
        \/ b' = 0 /\ a' = a
        \/ \E m \in 0..a : m = IF a < 6 - b THEN a ELSE 6 - b /\ a' = a - m /\ b' = b + m
        \/ \E m \in 0..b : m = IF b < 4 - a THEN b ELSE 4 - a /\ b' = b - m /\ a' = a + m
Even == a % 2 = 0 /\ b % 2 = 0
====
