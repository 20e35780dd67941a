---- MODULE LiveStarve ----
CONSTANT Procs
VARIABLES owner
vars == <<owner>>
None == "none"
Init == owner = None
Acquire(p) == owner = None /\ owner' = p
Release(p) == owner = p /\ owner' = None
Next == \E p \in Procs : Acquire(p) \/ Release(p)
Fair == \A p \in Procs : WF_vars(Acquire(p)) /\ WF_vars(Release(p))
Spec == Init /\ [][Next]_vars /\ Fair
EachGets == \A p \in Procs : []<>(owner = p)
====
