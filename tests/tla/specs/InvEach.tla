---- MODULE InvEach ----
\* Invariant conjuncts \A m \in msgs : P(m) whose body reads no variable: the checker remembers
\* the elements P held for (issue 19); the violation comes from an element added late.
EXTENDS Naturals
VARIABLES msgs, k
Msg == [v : 0..9, t : {"a", "b"}]
Init == msgs = {} /\ k = 0
Next == \/ /\ k < 5
           /\ k' = k + 1
           /\ msgs' = msgs \cup {[v |-> k, t |-> "a"]}
        \/ /\ k < 5
           /\ k' = k + 1
           /\ msgs' = msgs \cup {[v |-> 2 * k, t |-> "b"]}
TypeOK == /\ \A m \in msgs : m \in Msg
          /\ k \in 0..5
Small == \A m \in msgs : m.v < 8 \/ m.t = "a"
====
