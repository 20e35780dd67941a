---- MODULE Ord1 ----
EXTENDS Naturals, Sequences
VARIABLE s
Init == s \in {<<1>>} \cup [1..2 -> {1, 2}]
Next == UNCHANGED s
Inv == Len(s) # 2
====
