---- MODULE spin ----
\* A spin lock in SysMoBench's "spin" value space: lock() marks the thread "trying" and spins,
\* a successful CAS takes the lock from "trying" or (try_lock) straight from "idle".
EXTENDS Naturals
CONSTANTS Threads
VARIABLES lockState, pc

TypeOK ==
    /\ lockState \in {"unlocked", "locked"}
    /\ pc \in [Threads -> {"idle", "trying", "locked"}]

Init ==
    /\ lockState = "unlocked"
    /\ pc = [t \in Threads |-> "idle"]

TryAcquireBlocking(t) ==
    /\ pc[t] = "idle"
    /\ pc' = [pc EXCEPT ![t] = "trying"]
    /\ UNCHANGED lockState

AcquireLock(t) ==
    /\ pc[t] \in {"idle", "trying"}
    /\ lockState = "unlocked"
    /\ lockState' = "locked"
    /\ pc' = [pc EXCEPT ![t] = "locked"]

ReleaseLock(t) ==
    /\ pc[t] = "locked"
    /\ lockState' = "unlocked"
    /\ pc' = [pc EXCEPT ![t] = "idle"]

Next == \E t \in Threads : TryAcquireBlocking(t) \/ AcquireLock(t) \/ ReleaseLock(t)
====
