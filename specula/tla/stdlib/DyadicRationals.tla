--------------------------- MODULE DyadicRationals ---------------------------
(* specula's text of the community module DyadicRationals: a dyadic rational *)
(* is a record [num |-> n, den |-> 2^k], kept reduced.                        *)
LOCAL INSTANCE Integers
LOCAL INSTANCE TLC

LOCAL Rational(num, den) == [num |-> num, den |-> den]
\* the greatest common divisor (by Euclid's algorithm)
RECURSIVE Gcd(_, _)
LOCAL Gcd(a, b) == IF b = 0 THEN a ELSE Gcd(b, a % b)
LOCAL Reduce(p) ==
  LET g == Gcd(p.num, p.den) IN IF g <= 1 THEN p ELSE Rational(p.num \div g, p.den \div g)

IsDyadicRational(r) == \E i \in 0 .. r.den : 2 ^ i = r.den
Zero == Rational(0, 1)
One == Rational(1, 1)

Add(p, q) ==
  IF p = Zero THEN q
  ELSE LET d == IF p.den >= q.den THEN p.den ELSE q.den
       IN Reduce(Rational(p.num * (d \div p.den) + q.num * (d \div q.den), d))

Half(p) == Reduce(Rational(p.num, 2 * p.den))

PrettyPrint(p) ==
  IF p = Zero THEN "0" ELSE IF p = One THEN "1" ELSE ToString(p.num) \o "/" \o ToString(p.den)
=============================================================================
