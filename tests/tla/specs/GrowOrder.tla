------------------------------ MODULE GrowOrder ------------------------------
(* \E m \in msgs over a message set grown one record per step (S \cup {e}): the *)
(* first violating successor, hence the error trace, follows TLC's order of the  *)
(* set's elements, which is not the order they were added in.                   *)
EXTENDS Naturals, FiniteSets
VARIABLES msgs, last
Init == msgs = {} /\ last = [k |-> 0, p |-> 0]
Send(i) == msgs' = msgs \cup {[k |-> 4 - i, p |-> i % 2]} /\ UNCHANGED last
Recv == \E m \in msgs : last' = m /\ UNCHANGED msgs
Next == (\E i \in 1 .. 3 : Send(i)) \/ Recv
Inv == Cardinality(msgs) < 3 \/ last.k = 0 \/ last.p = 0
=============================================================================
