---- MODULE MemoPart ----
\* Definitions that read some of the variables, remembered by those variables' values
\* (unprimed and primed forms share the memo): successors that change only other variables
\* reuse the value, those that change one of them do not.
EXTENDS Naturals, FiniteSets
VARIABLES x, y, z
Evens == {i \in x : i % 2 = 0}
Big == {<<i, j>> \in x \X y : i + j > 3}
Init == x = {1} /\ y = {0} /\ z = 0
Next == \/ /\ Cardinality(Evens) < 2
           /\ \E i \in 1..5 : x' = x \cup {i}
           /\ UNCHANGED <<y, z>>
        \/ /\ \E j \in 0..3 : y' = y \cup {j}
           /\ z' = Cardinality(Big)
           /\ UNCHANGED x
        \/ /\ z < 3
           /\ x' = IF Cardinality(Evens) > 0 THEN x \ {2} ELSE x
           /\ UNCHANGED y
           /\ z' = z + Cardinality(Evens') + Cardinality(Big')
Small == z < 6
Inv == z >= 0 /\ Cardinality(Big) <= 25
====
