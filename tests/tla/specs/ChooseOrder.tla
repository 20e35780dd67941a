---- MODULE ChooseOrder ----
\* CHOOSE over records where several satisfy the condition (TLC's first in its order), and where
\* an element after the first that satisfies it would fail (TLC stops at the first).
EXTENDS Integers
VARIABLE i
S == {[a |-> 3, b |-> "p", t |-> i], [a |-> 1, b |-> "p", t |-> i], [a |-> 2, b |-> "q", t |-> i],
      [a |-> 5, b |-> "p", t |-> i], [a |-> 4, b |-> "r", t |-> i], [a |-> 6, b |-> "p", t |-> i]}
Pick == CHOOSE r \in S : r.b = "p"
Pick2 == CHOOSE r \in S : r.b = "p" /\ r.a > 1
Guarded == CHOOSE r \in S : r.a = 1 \/ 10 \div (r.a - 2) > 100
Init == i = 0
Next == (i < 3 /\ i' = i + 1) \/ (i = 3 /\ UNCHANGED i)
Inv == Pick.a = 1 /\ Pick2.a = 3 /\ Guarded.a = 1 /\ Pick.t = i
====
