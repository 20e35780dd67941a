----------------------------- MODULE VectorClocks ----------------------------
(* specula's text of the community module VectorClocks (EXTENDS Naturals,    *)
(* Sequences and Functions, as the community module does).  CausalOrder is    *)
(* native (a topological sort of the log by its vector clocks).               *)
EXTENDS Naturals, Sequences, Functions

LOCAL Concurrent(v1, v2) == \E i, j \in DOMAIN v1 : i # j /\ v1[i] < v2[i] /\ v1[j] > v2[j]
LOCAL Before(v1, v2) ==
  /\ \A i \in DOMAIN v1 : v1[i] <= v2[i]
  /\ \E i \in DOMAIN v1 : v1[i] < v2[i]

\* no entry of log comes after an entry it happened before (clocks padded with 0)
IsCausalOrder(log, clock(_)) ==
  \A i \in 1 .. Len(log) : \A j \in 1 .. (i - 1) :
    LET D == DOMAIN clock(log[i]) \cup DOMAIN clock(log[j])
        Pad(c) == [d \in D |-> IF d \in DOMAIN c THEN c[d] ELSE 0]
    IN Before(Pad(clock(log[j])), Pad(clock(log[i]))) \/ Concurrent(Pad(clock(log[j])), Pad(clock(log[i])))

\* log reordered into a causal order
CausalOrder(log, clock(_), node(_), domain(_)) ==
  CHOOSE l \in { f \in [1 .. Len(log) -> Range(log)] : Range(f) = Range(log) } : IsCausalOrder(l, clock)
=============================================================================
