---- MODULE BrokenParse ----
EXTENDS Naturals
VARIABLES x

Init == x = 0

Good == x' = x + 1

Bad == x' = (x + 1

Next == Good \/ Bad

Spec == Init /\ [][Next]_x
====
