---- MODULE Quantifiers ----
EXTENDS Naturals, FiniteSets
CONSTANT S
VARIABLE f
Init == f \in [S -> 0..1]
Next == \E s \in S : /\ f[s] = 0
                     /\ \A t \in S : t < s => f[t] = 1
                     /\ f' = [f EXCEPT ![s] = 1]
Reset == \A s \in S : f[s] = 1
Next2 == Next \/ (Reset /\ f' = [s \in S |-> 0])
Inv == \E s \in S : \A t \in S : f[t] = 1 \/ t >= s
Card == Cardinality({s \in S : f[s] = 1}) <= Cardinality(S)
====
