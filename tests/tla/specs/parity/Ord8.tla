---- MODULE Ord8 ----
EXTENDS Naturals
VARIABLE x
Init == x = <<0, 0>>
Next == \E i, j \in {1, 2} : x' = <<i, j>>
Inv == x \in {<<0, 0>>, <<1, 1>>}
====
