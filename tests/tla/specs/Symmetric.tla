---- MODULE Symmetric ----
EXTENDS Naturals, TLC
CONSTANT Procs
VARIABLES st, count
Init == st = [p \in Procs |-> "a"] /\ count = 0
Go(p) == st[p] = "a" /\ st' = [st EXCEPT ![p] = "b"] /\ count' = (count + 1) % 2
Back(p) == st[p] = "b" /\ st' = [st EXCEPT ![p] = "c"] /\ UNCHANGED count
Reset(p) == st[p] = "c" /\ st' = [st EXCEPT ![p] = "a"] /\ UNCHANGED count
Next == \E p \in Procs : Go(p) \/ Back(p) \/ Reset(p)
Sym == Permutations(Procs)
====
