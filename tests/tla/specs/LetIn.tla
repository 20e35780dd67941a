---- MODULE LetIn ----
EXTENDS Naturals
VARIABLES a, b
Init == a = 1 /\ b = 1
Next == LET s == a + b
            Cap(v) == IF v > 20 THEN v - 20 ELSE v
        IN /\ a' = Cap(b)
           /\ b' = Cap(s)
Inv == LET m == 20 IN a <= m /\ b <= m
====
