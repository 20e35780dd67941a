---- MODULE Ord9 ----
EXTENDS Naturals
VARIABLE x
Init == x \in (SUBSET {1, 2}) \X {"b", "a"}
Next == UNCHANGED x
Inv == x \notin {<<{1}, "a">>, <<{}, "b">>}
====
