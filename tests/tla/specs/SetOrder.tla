------------------------------ MODULE SetOrder ------------------------------
(* Sets of composite values enumerated and printed in TLC's order: records of  *)
(* one shape and of two, sequences, sets, records of sets, of sequences and of *)
(* records. The sets grow one element per step (S \cup {e}), as a message set. *)
EXTENDS Naturals, Sequences, TLC
VARIABLE i, msgs
Recs == <<[type |-> "resp", term |-> 2, granted |-> TRUE, src |-> 1, dst |-> 2],
          [type |-> "req", term |-> 10, src |-> 2, dst |-> 1],
          [type |-> "resp", term |-> 2, granted |-> FALSE, src |-> 1, dst |-> 2],
          [type |-> "req", term |-> 1, src |-> 2, dst |-> 3],
          [type |-> "req", term |-> 1, src |-> 3, dst |-> 1],
          [type |-> "resp", term |-> 1, granted |-> TRUE, src |-> 3, dst |-> 2]>>
Tups == {<<1, 2>>, <<1>>, <<2, 1>>, <<>>, <<1, 1, 1>>, <<0, 5>>}
Sets == {{1, 2}, {3}, {}, {1}, {2, 3}, {0, 1, 2}}
RecSets == {[a |-> {1}], [a |-> {}], [a |-> {0, 2}], [a |-> {3}]}
RecSeqs == {[b |-> <<1, "x">>], [b |-> <<1, "a">>], [b |-> <<>>], [b |-> <<2>>]}
Nested == {[k |-> [v |-> 2], w |-> 1], [k |-> [v |-> 1], w |-> 5], [k |-> [v |-> 1], w |-> 0]}
Init == i = 1 /\ msgs = {}
Next == i <= Len(Recs) /\ i' = i + 1 /\ msgs' = msgs \cup {Recs[i]}
Inv == /\ PrintT(msgs)
       /\ i = 7 => PrintT(<<CHOOSE m \in msgs : TRUE, Tups, Sets, RecSets, RecSeqs, Nested>>)
=============================================================================
