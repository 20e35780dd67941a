---- MODULE SetMapFilter ----
EXTENDS Naturals
VARIABLE s
Init == s = {1}
Double == s' = {x * 2 : x \in s} \cap 1..12
AddOne == s' = s \cup {x + 1 : x \in {y \in s : y < 6}}
Odd == s' = {x \in s : x % 2 = 1}
Next == Double \/ AddOne \/ Odd
Inv == s \subseteq 1..12
====
