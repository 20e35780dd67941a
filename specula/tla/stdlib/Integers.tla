------------------------------ MODULE Integers ------------------------------
(* specula's text of the standard module Integers (arithmetic is native). *)
EXTENDS Naturals

Int == Nat \cup { CHOOSE n \in Nat : TRUE }  \* natively: all integers
-. a == 0 - a
=============================================================================
