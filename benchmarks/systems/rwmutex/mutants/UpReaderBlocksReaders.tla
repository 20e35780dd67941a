---- MODULE UpReaderBlocksReaders ----
(***************************************************************************)
(* MUTANT of model of benchmarks/systems/rwmutex (rwmutex.py): the lock   *)
(* word's fields (writer bit, upgradeable-reader bit, being-upgraded bit,  *)
(* reader count) and what each thread holds.                               *)
(*  - readers share the lock with each other AND with the upgradeable      *)
(*    reader; they are refused while a writer holds it or an upgrade is    *)
(*    in progress;                                                         *)
(*  - a writer needs the whole word clear;                                 *)
(*  - the upgradeable reader excludes writers and other upgradeable        *)
(*    readers only;                                                        *)
(*  - upgrading first sets being-upgraded (no new readers), then waits     *)
(*    for the readers to drain and swaps to the writer bit.                *)
(* Failed try-variants and waiting change nothing observable.             *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets, TLC

\* MUTANT UpReaderBlocksReaders: readers refused while an upgradeable reader holds the lock
\* (the upgradeable read treated as exclusive), but the real try_read() only refuses a writer or an
\* upgrade in progress. Fails AcquireReadLock.

CONSTANT Threads

VARIABLES writer, upreader, upgrading, readers, pc

vars == <<writer, upreader, upgrading, readers, pc>>

TypeOK ==
    /\ writer \in BOOLEAN
    /\ upreader \in BOOLEAN
    /\ upgrading \in BOOLEAN
    /\ readers \in 0..Cardinality(Threads)
    /\ pc \in [Threads -> {"idle", "read", "write", "upread", "upgrading"}]

Init ==
    /\ writer = FALSE
    /\ upreader = FALSE
    /\ upgrading = FALSE
    /\ readers = 0
    /\ pc = [t \in Threads |-> "idle"]

AcquireReadLock(t) ==
    /\ pc[t] = "idle"
    /\ ~writer
    /\ ~upreader
    /\ ~upgrading
    /\ readers' = readers + 1
    /\ pc' = [pc EXCEPT ![t] = "read"]
    /\ UNCHANGED <<writer, upreader, upgrading>>

AcquireWriteLock(t) ==
    /\ pc[t] = "idle"
    /\ ~writer
    /\ ~upreader
    /\ ~upgrading
    /\ readers = 0
    /\ writer' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "write"]
    /\ UNCHANGED <<upreader, upgrading, readers>>

AcquireUpReadLock(t) ==
    /\ pc[t] = "idle"
    /\ ~writer
    /\ ~upreader
    /\ upreader' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "upread"]
    /\ UNCHANGED <<writer, upgrading, readers>>

StartUpgrade(t) ==
    /\ pc[t] = "upread"
    /\ upgrading' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "upgrading"]
    /\ UNCHANGED <<writer, upreader, readers>>

Upgrade(t) ==
    /\ pc[t] = "upgrading"
    /\ readers = 0
    /\ writer' = TRUE
    /\ upreader' = FALSE
    /\ upgrading' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "write"]
    /\ UNCHANGED readers

\* Dropping any guard: a read guard decrements the count, the others clear their bit.
ReleaseLock(t) ==
    /\ pc[t] \in {"read", "write", "upread"}
    /\ pc' = [pc EXCEPT ![t] = "idle"]
    /\ CASE pc[t] = "read"   -> readers' = readers - 1 /\ UNCHANGED <<writer, upreader, upgrading>>
         [] pc[t] = "write"  -> writer' = FALSE /\ UNCHANGED <<upreader, upgrading, readers>>
         [] pc[t] = "upread" -> upreader' = FALSE /\ UNCHANGED <<writer, upgrading, readers>>

Next == \E t \in Threads :
            \/ AcquireReadLock(t)
            \/ AcquireWriteLock(t)
            \/ AcquireUpReadLock(t)
            \/ StartUpgrade(t)
            \/ Upgrade(t)
            \/ ReleaseLock(t)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
=============================================================================
