---- MODULE Ord3 ----
EXTENDS Naturals
VARIABLE s
Init == s \in {[zz |-> 2, qq |-> 1], [zz |-> 1, qq |-> 2], [zz |-> 1, qq |-> 3]}
Next == UNCHANGED s
Inv == s \in {[zz |-> 0, qq |-> 0]}
====
