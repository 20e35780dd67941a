------------------------------ MODULE PrimeFirst ------------------------------
(* An action whose first conjunct reads x' before any conjunct assigns it, run  *)
(* after an action that assigned x' for the same i: TLC's error (each action    *)
(* starts from unassigned next values).                                         *)
EXTENDS Naturals
VARIABLE x
A(i) == x < 2 /\ x' = x + i
B(i) == x' > 5 /\ x' = i
Next == \E i \in 1 .. 2 : A(i) \/ B(i)
Init == x = 0
=============================================================================
