---- MODULE Recursion ----
EXTENDS Naturals, Sequences
RECURSIVE SumSeq(_)
SumSeq(s) == IF s = <<>> THEN 0 ELSE Head(s) + SumSeq(Tail(s))
Fact[n \in 0..6] == IF n = 0 THEN 1 ELSE n * Fact[n - 1]
VARIABLES s, k
Init == s = <<>> /\ k = 0
Push == Len(s) < 3 /\ \E v \in 1..2 : s' = Append(s, v) /\ k' = Fact[Len(s)]
Pop == s /= <<>> /\ s' = Tail(s) /\ k' = SumSeq(s)
Next == Push \/ Pop
Inv == SumSeq(s) <= 6 /\ k <= 6
====
