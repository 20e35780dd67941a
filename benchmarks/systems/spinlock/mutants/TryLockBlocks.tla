-------------------------------- MODULE TryLockBlocks --------------------------------
(***************************************************************************)
(* MUTANT of model of benchmarks/systems/spinlock (spinlock.c): one atomic *)
(* flag; lock() announces itself (pc = "spinning") and spins until its CAS *)
(* succeeds; try_lock() makes one CAS attempt from "idle" and never spins  *)
(* (a failed attempt changes nothing); unlock() clears the flag and wakes  *)
(* nobody: spinners simply see the flag clear and race for it.             *)
(***************************************************************************)
EXTENDS TLC

\* MUTANT (TryLockBlocks): try_lock modeled as blocking: every acquisition must go through lock()'s spin loop, so an
\* acquisition straight from "idle" (a successful try_lock) is impossible. Fails AcquireLock.

CONSTANT Threads

VARIABLES lock, pc

vars == <<lock, pc>>

TypeOK ==
    /\ lock \in BOOLEAN
    /\ pc \in [Threads -> {"idle", "spinning", "locked"}]

Init ==
    /\ lock = FALSE
    /\ pc = [t \in Threads |-> "idle"]

\* lock() entry: the thread starts spinning (its first CAS comes after).
StartLock(t) ==
    /\ pc[t] = "idle"
    /\ pc' = [pc EXCEPT ![t] = "spinning"]
    /\ UNCHANGED lock

\* A successful CAS false -> true: by a spinning lock() or by try_lock() from idle.
AcquireLock(t) ==
    /\ pc[t] = "spinning"
    /\ lock = FALSE
    /\ lock' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "locked"]

\* unlock(): a release store of false; spinning threads are not handed the lock.
ReleaseLock(t) ==
    /\ pc[t] = "locked"
    /\ lock' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]

Next == \E t \in Threads : StartLock(t) \/ AcquireLock(t) \/ ReleaseLock(t)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
=============================================================================
