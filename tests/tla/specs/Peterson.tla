---- MODULE Peterson ----
EXTENDS Naturals
VARIABLES flag, turn, pc
Other(p) == 1 - p
Init == flag = <<FALSE, FALSE>> /\ turn = 0 /\ pc = <<"a0", "a0">>
\* processes are 0 and 1; sequences are indexed from 1
F(p) == flag[p + 1]
P(p) == pc[p + 1]
SetPc(p, l) == pc' = [pc EXCEPT ![p + 1] = l]
A0(p) == P(p) = "a0" /\ flag' = [flag EXCEPT ![p + 1] = TRUE] /\ SetPc(p, "a1") /\ UNCHANGED turn
A1(p) == P(p) = "a1" /\ turn' = Other(p) /\ SetPc(p, "a2") /\ UNCHANGED flag
A2(p) == P(p) = "a2" /\ (~F(Other(p)) \/ turn = p) /\ SetPc(p, "cs") /\ UNCHANGED <<flag, turn>>
CS(p) == P(p) = "cs" /\ flag' = [flag EXCEPT ![p + 1] = FALSE] /\ SetPc(p, "a0") /\ UNCHANGED turn
Next == \E p \in {0, 1} : A0(p) \/ A1(p) \/ A2(p) \/ CS(p)
MutualExclusion == ~(pc[1] = "cs" /\ pc[2] = "cs")
====
