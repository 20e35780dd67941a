---- MODULE Mutex ----
CONSTANT Procs
VARIABLES pc, lock
Init == pc = [p \in Procs |-> "idle"] /\ lock = FALSE
Acquire(p) == pc[p] = "idle" /\ ~lock /\ lock' = TRUE /\ pc' = [pc EXCEPT ![p] = "cs"]
Release(p) == pc[p] = "cs" /\ lock' = FALSE /\ pc' = [pc EXCEPT ![p] = "idle"]
Next == \E p \in Procs : Acquire(p) \/ Release(p)
MutualExclusion == \A p, q \in Procs : p /= q => ~(pc[p] = "cs" /\ pc[q] = "cs")
TypeOK == pc \in [Procs -> {"idle", "cs"}] /\ lock \in BOOLEAN
====
