---- MODULE LiveTerminate ----
EXTENDS Naturals
CONSTANT N
VARIABLES pc, count
Procs == 1..N
vars == <<pc, count>>
Init == pc = [p \in Procs |-> "run"] /\ count = 0
Finish(p) == pc[p] = "run" /\ pc' = [pc EXCEPT ![p] = "done"] /\ count' = count + 1
Next == \E p \in Procs : Finish(p)
Spec == Init /\ [][Next]_vars /\ \A p \in Procs : WF_vars(Finish(p))
AllDone == <>(\A p \in Procs : pc[p] = "done")
CountUp == \A k \in 0..N-1 : (count = k) ~> (count > k)
====
