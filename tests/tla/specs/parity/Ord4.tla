---- MODULE Ord4 ----
EXTENDS Naturals
VARIABLE x
Init == x = <<1, 0>>
A(t) == t = 2 /\ x' = [x EXCEPT ![2] = 1]
B(t) == t = 1 /\ x' = [x EXCEPT ![1] = 2]
Next == \E t \in {1, 2} : A(t) \/ B(t)
Inv == x = <<1, 0>>
====
