---- MODULE Arith ----
EXTENDS Naturals
VARIABLES x, n
Init == x = 1 /\ n = 0
Next == n < 12 /\ n' = n + 1 /\ x' = (x * 3 + 2 ^ n) % 17
Inv == x < 17
====
