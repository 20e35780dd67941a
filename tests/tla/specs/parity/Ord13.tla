---- MODULE Ord13 ----
EXTENDS Naturals
VARIABLE x
Init == x = CHOOSE p \in (SUBSET {1, 2}) \X {"b", "a"} : p[2] = "b" /\ p[1] # {}
Next == UNCHANGED x
Inv == x = <<{}, "a">>
====
