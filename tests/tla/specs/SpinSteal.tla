---- MODULE SpinSteal ----
\* (issue 19) the fused schedule skips an action whose first test compares pc[t] with a string
\* another action of the loop body found pc[t] equal to (ReleaseLock after StartLock), and an
\* action skipped that way is not one whose test a later action (Steal) may reuse.
\* spinlock.c: one atomic flag; lock() spins on a CAS; try_lock() makes one attempt.
EXTENDS TLC

CONSTANT Threads

VARIABLES lock, pc

vars == <<lock, pc>>

TypeOK == lock \in BOOLEAN /\ pc \in [Threads -> {"idle", "spinning", "locked"}]

Init == lock = FALSE /\ pc = [t \in Threads |-> "idle"]

StartLock(t) ==
    /\ pc[t] = "idle"
    /\ pc' = [pc EXCEPT ![t] = "spinning"]
    /\ UNCHANGED lock

AcquireLock(t) ==
    /\ pc[t] \in {"idle", "spinning"}
    /\ lock = FALSE
    /\ lock' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "locked"]

ReleaseLock(t) ==
    /\ pc[t] = "locked"
    /\ lock' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]

Steal(t) ==
    /\ pc[t] = "idle"
    /\ lock = TRUE
    /\ pc' = [pc EXCEPT ![t] = "locked"]
    /\ UNCHANGED lock

Next == \E t \in Threads : StartLock(t) \/ AcquireLock(t) \/ ReleaseLock(t) \/ Steal(t)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
====
