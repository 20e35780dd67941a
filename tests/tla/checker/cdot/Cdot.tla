---- MODULE Cdot ----
\* Action composition (A \cdot B), as TLC runs it with -Dtlc2.tool.impl.Tool.cdot=true.
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\ y = 0
Inc == x < 3 /\ x' = x + 1 /\ y' = y
Dbl == y' \in {y, y + x} /\ x' = x
Norm == x' = x % 2 /\ UNCHANGED y
Next == \/ Inc
        \/ Inc \cdot Dbl
        \/ (Inc \cdot Inc) \cdot Norm
        \/ y < 2 /\ Dbl \cdot Inc
Inv == y < 20
====
