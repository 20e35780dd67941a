---- MODULE SubsetWalk ----
EXTENDS Naturals, FiniteSets
CONSTANT S
VARIABLE X
Init == X = {}
Add == \E e \in S \ X : X' = X \cup {e}
Remove == \E e \in X : X' = X \ {e}
Next == Add \/ Remove
Inv == X \subseteq S /\ Cardinality(X) <= Cardinality(S)
====
