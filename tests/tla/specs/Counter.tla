---- MODULE Counter ----
EXTENDS Naturals
CONSTANT N
VARIABLE x
Init == x = 0
Inc == x < N /\ x' = x + 1
Next == Inc
TypeOK == x \in 0..N
====
