---------------------------- MODULE CupOneError ----------------------------
(* S \cup {e} applied to a value that is not a set: TLC's error.             *)
EXTENDS Naturals, FiniteSets
VARIABLE x
Init == x = {0}
Next == x' = (IF 2 \in x THEN 7 ELSE x) \cup {Cardinality(x)}
=============================================================================
