---- MODULE LiveTerminateFail ----
EXTENDS Naturals
CONSTANT N
VARIABLES pc
Procs == 1..N
vars == <<pc>>
Init == pc = [p \in Procs |-> "run"]
Finish(p) == pc[p] = "run" /\ pc' = [pc EXCEPT ![p] = "done"]
Next == \E p \in Procs : Finish(p)
Spec == Init /\ [][Next]_vars /\ WF_vars(Finish(1))
AllDone == <>(\A p \in Procs : pc[p] = "done")
====
