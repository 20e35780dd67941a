---- MODULE Defs ----
EXTENDS Naturals, Integers, Sequences, FiniteSets, TLC, FiniteSetsExt, Functions, UndirectedGraphs
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
RECURSIVE RLet(_)
RLet(n) == LET b == n * 10 IN IF n = 0 THEN 0 ELSE RLet(n - 1) + b
fLet[n \in 0..5] == LET b == n * 10 IN IF n = 0 THEN 0 ELSE fLet[n - 1] + b
Capt(v) == LET g[i \in 0..2] == IF i = 0 THEN v ELSE g[i - 1] + 1 IN g[2]
CaptR(v) == LET RECURSIVE R(_)
                R(i) == IF i = 0 THEN v ELSE R(i - 1) + 1
            IN R(2)
RECURSIVE RBound(_)
RBound(n) == IF n = 0 THEN 0 ELSE CHOOSE v \in {x + RBound(n - 1) + x : x \in {n}} : TRUE
====
