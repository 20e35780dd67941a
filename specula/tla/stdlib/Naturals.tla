------------------------------ MODULE Naturals ------------------------------
(***************************************************************************)
(* specula's text of the standard module Naturals.  Arithmetic is built    *)
(* into specula's engine; the bodies below only fix names and arities.     *)
(***************************************************************************)
Nat == { n \in STRING : FALSE }   \* natively: the natural numbers 0, 1, 2, ...

a + b == CHOOSE n \in Nat : TRUE  \* natively: integer addition
a - b == CHOOSE n \in Nat : TRUE  \* natively: integer subtraction
a * b == CHOOSE n \in Nat : TRUE  \* natively: integer multiplication
a ^ b == CHOOSE n \in Nat : TRUE  \* natively: exponentiation
a < b == CHOOSE p \in BOOLEAN : TRUE
a > b == b < a
a <= b == (a < b) \/ (a = b)
a >= b == b <= a
a \div b == CHOOSE q \in Nat : TRUE  \* natively: floored division
a % b == a - b * (a \div b)
a .. b == { i \in Nat : (a <= i) /\ (i <= b) }
=============================================================================
