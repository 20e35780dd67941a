---- MODULE Philosophers ----
EXTENDS Naturals
CONSTANT N
VARIABLES fork, st
P == 0..(N - 1)
Left(p) == p
Right(p) == (p + 1) % N
Init == fork = [f \in P |-> N] /\ st = [p \in P |-> "think"]
TakeLeft(p) == st[p] = "think" /\ fork[Left(p)] = N
               /\ fork' = [fork EXCEPT ![Left(p)] = p] /\ st' = [st EXCEPT ![p] = "left"]
TakeRight(p) == st[p] = "left" /\ fork[Right(p)] = N
               /\ fork' = [fork EXCEPT ![Right(p)] = p] /\ st' = [st EXCEPT ![p] = "eat"]
Put(p) == st[p] = "eat" /\ fork' = [fork EXCEPT ![Left(p)] = N, ![Right(p)] = N]
          /\ st' = [st EXCEPT ![p] = "think"]
Next == \E p \in P : TakeLeft(p) \/ TakeRight(p) \/ Put(p)
====
