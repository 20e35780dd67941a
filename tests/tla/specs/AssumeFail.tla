---- MODULE AssumeFail ----
EXTENDS Naturals
CONSTANT N
ASSUME N \in Nat
ASSUME N > 5
VARIABLE x
Init == x = N
Next == x' = x
====
