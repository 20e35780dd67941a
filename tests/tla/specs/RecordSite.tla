----------------------------- MODULE RecordSite -----------------------------
(* One record constructor met with field values that Python finds equal but    *)
(* that are different TLA+ values (1 and TRUE, {1} and {TRUE}, <<0>> and        *)
(* <<FALSE>>): each record must keep its own value (the per-site record memo).  *)
EXTENDS Naturals, Sequences, TLC
VARIABLE i
V == <<1, TRUE, {1}, {TRUE}, <<0>>, <<FALSE>>, 0, FALSE, [x |-> 1], [x |-> TRUE]>>
Init == i = 1
Next == i < Len(V) /\ i' = i + 1
Inv == \A j \in 1 .. i : ToString([a |-> V[j], b |-> i].a) = ToString(V[j])
=============================================================================
