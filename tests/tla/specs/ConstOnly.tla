---- MODULE ConstOnly ----
EXTENDS Naturals, FiniteSets, Sequences
CONSTANTS S, K
ASSUME Cardinality(S) = 3
ASSUME \A x \in S : x \in 1..K
ASSUME Len(<<1, 2, 3>> \o <<4>>) = 4
ASSUME {x * 2 : x \in S} = {2, 4, 6}
====
