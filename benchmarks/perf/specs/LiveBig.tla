---- MODULE LiveBig ----
EXTENDS Naturals
CONSTANTS N, K
VARIABLE x
P == 1..N
vars == <<x>>
Init == x = [p \in P |-> 0]
Step(p) == x' = [x EXCEPT ![p] = (@ + 1) % K]
Next == \E p \in P : Step(p)
Spec == Init /\ [][Next]_vars /\ \A p \in P : WF_vars(Step(p))
Cycles == \A p \in P : []<>(x[p] = 0)
====
