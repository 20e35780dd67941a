---- MODULE Broken ----
EXTENDS Naturals
VARIABLES x

Init == x = 0

Good == x' = x + 1

Bad == x' = Missing(x, 2)

Next == Good \/ Bad

Spec == Init /\ [][Next]_x
====
