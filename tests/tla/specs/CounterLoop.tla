---- MODULE CounterLoop ----
EXTENDS Naturals
CONSTANT N
VARIABLE x
Init == x = 0
Next == \/ x < N /\ x' = x + 1
        \/ x = N /\ x' = 0
====
