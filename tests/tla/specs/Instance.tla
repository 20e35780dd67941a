---- MODULE Instance ----
EXTENDS Naturals
VARIABLE n
C == INSTANCE Counter WITH x <- n, N <- 4
Init == C!Init
Next == C!Inc \/ (n = 4 /\ n' = 0)
Inv == C!TypeOK
====
