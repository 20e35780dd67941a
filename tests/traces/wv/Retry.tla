---- MODULE Retry ----
\* A lock with a retry budget (written for tests/traces/test_wv.py in SysMoBench's style).
EXTENDS Naturals

CONSTANTS Threads

VARIABLES held, pc, budget

vars == <<held, pc, budget>>

TypeOK ==
  /\ held \in BOOLEAN
  /\ pc \in [Threads -> {"idle", "trying", "locked"}]
  /\ budget \in Nat

Init ==
  /\ held = FALSE
  /\ pc = [t \in Threads |-> "idle"]
  /\ budget = 2

Request(t) ==
  /\ pc[t] = "idle"
  /\ pc' = [pc EXCEPT ![t] = "trying"]
  /\ UNCHANGED <<held, budget>>

Acquire(t) ==
  /\ pc[t] = "trying"
  /\ held = FALSE
  /\ budget > 0
  /\ held' = TRUE
  /\ pc' = [pc EXCEPT ![t] = "locked"]
  /\ budget' = budget - 1

Release(t) ==
  /\ pc[t] = "locked"
  /\ held' = FALSE
  /\ pc' = [pc EXCEPT ![t] = "idle"]
  /\ budget' = budget + 1

Next == \E t \in Threads : Request(t) \/ Acquire(t) \/ Release(t)

Spec == Init /\ [][Next]_vars
====
