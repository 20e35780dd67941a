---- MODULE TryLockBlocks ----
(***************************************************************************)
(* MUTANT of model of benchmarks/systems/mutex (src/Mutex.java): a lock    *)
(* flag and a FIFO wait queue of thread ids.                               *)
(*  - try_lock: one CAS from "idle"; when the lock is held it fails and   *)
(*    changes nothing (it never blocks).                                   *)
(*  - lock: fast-path CAS from "idle"; otherwise the thread enqueues at    *)
(*    the tail ("waiting") and retries; a queued or woken thread takes the *)
(*    lock with a CAS and leaves the queue. Newcomers may barge.           *)
(*  - unlock: clears the flag and pops the head of the queue; the popped   *)
(*    thread stays "waiting" (it must retry, and re-enqueues if it loses). *)
(***************************************************************************)
EXTENDS Naturals, Sequences, TLC

\* MUTANT TryLockBlocks: try_lock modeled as blocking: when the lock is held the
\* thread joins the wait queue, but the real try_lock() just fails. Fails TryAcquireLock.

CONSTANT Threads

VARIABLES lock, pc, queue

vars == <<lock, pc, queue>>

InQueue(t) == \E i \in 1..Len(queue) : queue[i] = t

Remove(s, t) == SelectSeq(s, LAMBDA x : x # t)

TypeOK ==
    /\ lock \in BOOLEAN
    /\ pc \in [Threads -> {"idle", "waiting", "locked"}]
    /\ queue \in Seq(Threads)

Init ==
    /\ lock = FALSE
    /\ pc = [t \in Threads |-> "idle"]
    /\ queue = <<>>

\* lock(): a successful CAS, on the fast path ("idle") or after waiting.
AcquireLock(t) ==
    /\ pc[t] \in {"idle", "waiting"}
    /\ lock = FALSE
    /\ lock' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "locked"]
    /\ queue' = Remove(queue, t)

\* try_lock(): succeeds iff the lock is free; never waits.
TryAcquireLock(t) ==
    /\ pc[t] = "idle"
    /\ IF lock = FALSE
       THEN /\ lock' = TRUE
            /\ pc' = [pc EXCEPT ![t] = "locked"]
       ELSE /\ pc' = [pc EXCEPT ![t] = "waiting"]
            /\ UNCHANGED lock
    /\ queue' = IF lock = FALSE THEN queue ELSE Append(queue, t)

\* lock() slow path: join the tail of the wait queue (the flag is re-checked after).
Enqueue(t) ==
    /\ pc[t] \in {"idle", "waiting"}
    /\ ~InQueue(t)
    /\ queue' = Append(queue, t)
    /\ pc' = [pc EXCEPT ![t] = "waiting"]
    /\ UNCHANGED lock

\* unlock(): clear the flag and wake (pop) the first waiter, if any.
ReleaseLock(t) ==
    /\ pc[t] = "locked"
    /\ lock' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]
    /\ queue' = IF queue = <<>> THEN <<>> ELSE Tail(queue)

Next == \E t \in Threads :
            \/ AcquireLock(t)
            \/ TryAcquireLock(t)
            \/ Enqueue(t)
            \/ ReleaseLock(t)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
=============================================================================
