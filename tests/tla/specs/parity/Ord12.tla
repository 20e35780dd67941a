---- MODULE Ord12 ----
EXTENDS Naturals
VARIABLE x
Init == x = <<1, 1>>
Next == x[1] < 3 /\ \E i, j \in {3, 4} : x' = <<i, j>>
Inv == x \notin {<<3, 4>>, <<4, 3>>}
====
