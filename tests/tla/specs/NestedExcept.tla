---- MODULE NestedExcept ----
EXTENDS Naturals
VARIABLE m
Init == m = [i \in 1..2 |-> [j \in 1..2 |-> 0]]
Bump(i, j) == m[i][j] < 2 /\ m' = [m EXCEPT ![i][j] = @ + 1]
Swap == m' = [m EXCEPT ![1] = m[2], ![2] = m[1]]
Next == (\E i, j \in 1..2 : Bump(i, j)) \/ Swap
Sum == m[1][1] + m[1][2] + m[2][1] + m[2][2]
Bounded == Sum <= 8
====
