---- MODULE PooledInvariant ----
\* An invariant whose conjuncts read one variable each (a value, its rows, its parts) on new
\* successors inside the CONSTRAINT (stored) and outside it (checked, not stored); values
\* recur as new objects in other states' company.
EXTENDS Naturals
VARIABLES net, s, x
Init == net = <<<<0, 0>>, <<0, 0>>>> /\ s = {} /\ x = 0
Next == \/ \E p \in 1..2, m \in 0..2 :
              /\ x' = x + 1
              /\ net' = [net EXCEPT ![p] = <<net[p][2], m>>]
              /\ UNCHANGED s
        \/ \E e \in 0..3 :
              /\ s' = s \cup {e}
              /\ x' = (x + e) % 5
              /\ UNCHANGED net
Constr == x < 6 /\ \A p \in 1..2 : net[p][2] # 2
Inv == /\ net \in [1..2 -> [1..2 -> 0..2]]
       /\ \A p \in 1..2 : net[p][1] + net[p][2] < 4
       /\ s \subseteq 0..3
       /\ x < 9
====
