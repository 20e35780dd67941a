------------------------------- MODULE CupOne -------------------------------
(* S \cup {e} and {e} \cup S where e may already be in S (the result is S),   *)
(* where S is a lazy set (an interval), and its enumeration afterwards.        *)
EXTENDS Naturals, FiniteSets
VARIABLES msgs, tags, n
Init == /\ msgs = {}
        /\ tags = {"a"}
        /\ n = 0
Send(k) == /\ n < 4
           /\ msgs' = msgs \cup {[k |-> k, p |-> n % 2]}
           /\ tags' = {IF k = 1 THEN "a" ELSE "b"} \cup tags
           /\ n' = n + 1
Drop == /\ \E m \in msgs : m.k = 2 /\ msgs' = msgs \ {m}
        /\ UNCHANGED <<tags, n>>
Next == (\E k \in 1 .. 2 : Send(k)) \/ Drop
Inv == /\ Cardinality(msgs) <= 4
       /\ tags \subseteq {"a", "b"}
       /\ (1 .. n) \cup {n + 1} = 1 .. (n + 1)
       /\ {0} \cup (1 .. n) = 0 .. n
       /\ Cardinality(msgs \cup {[k |-> 1, p |-> 0]}) >= Cardinality(msgs)
=============================================================================
