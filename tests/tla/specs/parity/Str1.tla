---- MODULE Str1 ----
EXTENDS TLC, Naturals
VARIABLE r
Init == r \in {"type", "bb", "v"}
Next == UNCHANGED r
Inv == r = "type"
bb == 1
====
