------------------------------- MODULE Reals --------------------------------
(* specula's text of the standard module Reals: parsed, not evaluated.    *)
EXTENDS Integers

Real == Int  \* natively unsupported: the real numbers
a / b == CHOOSE r \in Real : TRUE
Infinity == CHOOSE r \in Real : TRUE
=============================================================================
