---- MODULE LiveLeadsFail ----
VARIABLES req, grant
vars == <<req, grant>>
Init == req = FALSE /\ grant = FALSE
Request == ~req /\ req' = TRUE /\ UNCHANGED grant
Grant == req /\ ~grant /\ grant' = TRUE /\ UNCHANGED req
Reset == grant /\ req' = FALSE /\ grant' = FALSE
Next == Request \/ Grant \/ Reset
Spec == Init /\ [][Next]_vars /\ WF_vars(Request) /\ WF_vars(Reset)
Served == req ~> grant
====
