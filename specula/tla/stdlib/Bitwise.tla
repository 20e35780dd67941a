------------------------------- MODULE Bitwise -------------------------------
(* specula's text of the community module Bitwise: bit operations on natural *)
(* numbers.  Every operator is native; the definitions below say the same by  *)
(* recursion over the binary digits.                                           *)
LOCAL INSTANCE Integers

\* digit by digit from the lowest: AND, OR and XOR of the two digits
RECURSIVE AndBits(_, _)
LOCAL AndBits(x, y) == IF x = 0 \/ y = 0 THEN 0 ELSE ((x % 2) * (y % 2)) + (2 * AndBits(x \div 2, y \div 2))
RECURSIVE OrBits(_, _)
LOCAL OrBits(x, y) ==
  IF x = 0 THEN y ELSE IF y = 0 THEN x
  ELSE (IF (x % 2) + (y % 2) > 0 THEN 1 ELSE 0) + (2 * OrBits(x \div 2, y \div 2))
RECURSIVE XorBits(_, _)
LOCAL XorBits(x, y) ==
  IF x = 0 THEN y ELSE IF y = 0 THEN x ELSE ((x + y) % 2) + (2 * XorBits(x \div 2, y \div 2))

x & y == AndBits(x, y)
x | y == OrBits(x, y)
x ^^ y == XorBits(x, y)

\* the complement of a's digits up to a's highest 1 digit (Not(0) = 0)
RECURSIVE Not(_)
Not(a) == IF a = 0 THEN 0 ELSE (1 - (a % 2)) + (2 * Not(a \div 2))

\* logical shift right by pos digits
shiftR(n, pos) == n \div (2 ^ pos)
=============================================================================
