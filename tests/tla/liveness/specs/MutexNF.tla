---- MODULE MutexNF ----
\* Two processes share a lock. Enter(p) is enabled only while the lock is free, so weak
\* fairness does not prevent starvation but strong fairness does.
EXTENDS Naturals
CONSTANT Proc
VARIABLES pc, lock
vars == <<pc, lock>>
Init == pc = [p \in Proc |-> "idle"] /\ lock = FALSE
Try(p) == pc[p] = "idle" /\ pc' = [pc EXCEPT ![p] = "wait"] /\ UNCHANGED lock
Enter(p) == pc[p] = "wait" /\ ~lock /\ pc' = [pc EXCEPT ![p] = "cs"] /\ lock' = TRUE
Leave(p) == pc[p] = "cs" /\ pc' = [pc EXCEPT ![p] = "idle"] /\ lock' = FALSE
Next == \E p \in Proc : Try(p) \/ Enter(p) \/ Leave(p)
SpecNF == Init /\ [][Next]_vars
SpecWF == SpecNF /\ \A p \in Proc : WF_vars(Enter(p)) /\ WF_vars(Leave(p)) /\ WF_vars(Try(p))
SpecSF == SpecNF /\ \A p \in Proc : SF_vars(Enter(p)) /\ WF_vars(Leave(p)) /\ WF_vars(Try(p))

Served == \A p \in Proc : (pc[p] = "wait") ~> (pc[p] = "cs")
SomeoneServed == (\E p \in Proc : pc[p] = "wait") ~> (\E p \in Proc : pc[p] = "cs")
Released == \A p \in Proc : []<>(pc[p] # "cs")
WFEnter == \A p \in Proc : WF_vars(Enter(p))
SFEnter == \A p \in Proc : SF_vars(Enter(p))
LockFree == []<>(~lock)
EitherWay == \A p \in Proc : <>[](pc[p] = "idle") \/ []<>(pc[p] = "cs")
====
