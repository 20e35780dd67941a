----------------------------- MODULE FiniteSets -----------------------------
(* specula's text of the standard module FiniteSets. *)
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences

IsFiniteSet(S) == \E seq \in Seq(S) : \A s \in S : \E n \in 1 .. Len(seq) : seq[n] = s

Cardinality(S) ==
  LET Cs[T \in SUBSET S] == IF T = {} THEN 0 ELSE 1 + Cs[T \ {CHOOSE x \in T : TRUE}]
  IN Cs[S]
=============================================================================
