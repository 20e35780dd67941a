---- MODULE Rec2 ----
EXTENDS TLC, Naturals
VARIABLE r
aa == 1
bb == 2
Init == r = [bb |-> 1, aa |-> 2, type |-> 3, v |-> 4]
Next == UNCHANGED r
Inv == r = [aa |-> 0, bb |-> 0, type |-> 0, v |-> 0]
====
