---- MODULE Defs ----
EXTENDS Naturals, Integers, Sequences, FiniteSets, TLC, FiniteSetsExt, Functions
CONSTANTS m1, m2
VARIABLE st
f == <<1, 2>>
RECURSIVE Fact(_)
Fact(n) == IF n = 0 THEN 1 ELSE n * Fact(n - 1)
fact[n \in Nat] == IF n = 0 THEN 1 ELSE n * fact[n - 1]
RECURSIVE SumR(_)
SumR(s) == IF s = <<>> THEN 0 ELSE Head(s) + SumR(Tail(s))
SeqSum(s) == SumR(s)
Twice(F(_), v) == F(F(v))
Inc(v) == v + 1
Double(v) == 2 * v
Apply(F(_), v) == F(v)
I == INSTANCE Helper
====
