---- MODULE Ord10 ----
EXTENDS Naturals
VARIABLE x
Init == x = <<"c", <<1, 1>>>>
Next == \E p \in {"b", "a"} \X [{1, 2} -> {0, 1}] : x' = p
Inv == x \notin {<<"b", <<0, 0>>>>, <<"a", <<1, 0>>>>}
====
