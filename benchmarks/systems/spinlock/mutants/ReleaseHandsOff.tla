-------------------------------- MODULE ReleaseHandsOff --------------------------------
(***************************************************************************)
(* MUTANT of model of benchmarks/systems/spinlock (spinlock.c): one atomic *)
(* flag; lock() announces itself (pc = "spinning") and spins until its CAS *)
(* succeeds; try_lock() makes one CAS attempt from "idle" and never spins  *)
(* (a failed attempt changes nothing); unlock() clears the flag and wakes  *)
(* nobody: spinners simply see the flag clear and race for it.             *)
(***************************************************************************)
EXTENDS TLC

\* MUTANT (ReleaseHandsOff): release modeled as a hand-off (a fair lock): the lock passes straight to a
\* spinning thread, but the real unlock() only clears the flag. Fails ReleaseLock.

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
    /\ pc[t] \in {"idle", "spinning"}
    /\ lock = FALSE
    /\ lock' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "locked"]

\* unlock(): a release store of false; spinning threads are not handed the lock.
ReleaseLock(t) ==
    /\ pc[t] = "locked"
    /\ IF \E s \in Threads : pc[s] = "spinning"
       THEN \E s \in Threads :
              /\ pc[s] = "spinning"
              /\ pc' = [pc EXCEPT ![t] = "idle", ![s] = "locked"]
              /\ UNCHANGED lock
       ELSE /\ lock' = FALSE
            /\ pc' = [pc EXCEPT ![t] = "idle"]

Next == \E t \in Threads : StartLock(t) \/ AcquireLock(t) \/ ReleaseLock(t)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
=============================================================================
