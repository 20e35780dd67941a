---- MODULE Faulty ----
EXTENDS Naturals
VARIABLES x, f

Init == x = 0 /\ f = [i \in 0..2 |-> i]

Step == x < 2 /\ x' = x + 1 /\ UNCHANGED f

Lookup == x = 2 /\ f' = [f EXCEPT ![0] = f[x + 5]] /\ UNCHANGED x

Never == x > 10 /\ x' = 0 /\ UNCHANGED f

Next == Step \/ Lookup \/ Never

Spec == Init /\ [][Next]_<<x, f>>
====
