---- MODULE StateMemoDefs ----
\* Definitions of the state alone used unprimed and primed: in an action while the successor is
\* being built (Sq'), in an action property on complete steps (Tok', Sq'), in an invariant.
EXTENDS Integers
VARIABLES x, y, msgs
vars == <<x, y, msgs>>
Sq == [i \in {x} |-> i * i]
Tok == CHOOSE m \in msgs : m.k = "tok"
Init == /\ x = 0
        /\ y = [i \in {0} |-> 0]
        /\ msgs = {[k |-> "tok", v |-> 0], [k |-> "pl", v |-> 0]}
Step == /\ x < 5 /\ Tok.v < 7
        /\ x' = x + 1
        /\ y' = Sq'
        /\ msgs' = {[k |-> "tok", v |-> Tok.v + 1], [k |-> "pl", v |-> x' % 2]}
Back == /\ x > 0 /\ Tok.v < 7
        /\ x' = x - 1
        /\ y' = Sq'
        /\ msgs' = {[k |-> "tok", v |-> Tok.v + 1], [k |-> "pl", v |-> 1]}
Stay == /\ Tok.v < 7
        /\ msgs' = {[k |-> "tok", v |-> Tok.v + 1]} \cup {m \in msgs : m.k = "pl"}
        /\ UNCHANGED <<x, y>>
Done == Tok.v = 7 /\ UNCHANGED vars
Next == Step \/ Back \/ Stay \/ Done
Spec == Init /\ [][Next]_vars
Inv == y = Sq /\ Tok.v >= 0 /\ y = [i \in {x} |-> i * i]
TokGrows == [][Tok'.v = Tok.v + 1 /\ Sq' = [i \in {x'} |-> i * i]]_vars
TokBound == [][Tok'.v < 6 \/ Sq'[x'] > 1]_vars
====
