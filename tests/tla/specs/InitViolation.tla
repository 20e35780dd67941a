---- MODULE InitViolation ----
EXTENDS Naturals
VARIABLE x
Init == x \in 0..5
Next == x' = x
Inv == x # 3
====
