---- MODULE SubsetNext ----
EXTENDS Naturals, FiniteSets
VARIABLE s
Init == s = {}
Next == s' \in SUBSET (1..3) /\ Cardinality(s') = Cardinality(s) + 1
Inv == Cardinality(s) <= 3
====
