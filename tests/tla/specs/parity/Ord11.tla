---- MODULE Ord11 ----
EXTENDS Naturals
VARIABLE x
Init == \E i \in {1, 2}, j \in {"b", "a"} : x = <<i, j>>
Next == UNCHANGED x
Inv == x \notin {<<2, "a">>, <<1, "b">>}
====
