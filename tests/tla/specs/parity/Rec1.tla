---- MODULE Rec1 ----
VARIABLE s
Init == s \in {[v |-> 2, c |-> 1], [v |-> 1, c |-> 2]}
Next == UNCHANGED s
Inv == s \in {[c |-> 0, v |-> 0]}
====
