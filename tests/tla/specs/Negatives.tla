---- MODULE Negatives ----
EXTENDS Integers
VARIABLE x
Init == x \in -2..2
Next == \/ x > -5 /\ x' = x - 2
        \/ x' = -x
        \/ x' = x \div 2
        \/ x < 0 /\ x' = x % 3
Inv == x \in -6..6
====
