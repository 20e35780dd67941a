---- MODULE PrimedParam ----
\* A parameter primed in the operator's body is the argument primed: Op(x + 0) asks
\* (x + 0)' = (x + 0) + 1; so does a LET definition primed, and in a property.
EXTENDS Naturals
VARIABLE x
Op(a) == a' = a + 1
Init == x = 0
Next == \/ x < 3 /\ x' = x + 1 /\ (LET b == x + 0 IN b' = b + 1) /\ Op(x + 0)
        \/ x = 3 /\ x' = 0
Prop == [][x < 3 => Op(x * 1)]_x
====
