---- MODULE Records ----
EXTENDS Naturals
VARIABLE acct
Init == acct = [bal |-> 3, log |-> 0, open |-> TRUE]
Deposit == acct.open /\ acct.bal < 5 /\ acct' = [acct EXCEPT !.bal = @ + 1, !.log = (@ + 1) % 3]
Withdraw == acct.open /\ acct.bal > 0 /\ acct' = [acct EXCEPT !.bal = @ - 1]
Close == acct.open /\ acct.bal = 0 /\ acct' = [acct EXCEPT !.open = FALSE]
Reopen == ~acct.open /\ acct' = [bal |-> 0, log |-> acct.log, open |-> TRUE]
Next == Deposit \/ Withdraw \/ Close \/ Reopen
TypeOK == acct \in [bal : 0..5, log : 0..2, open : BOOLEAN]
====
