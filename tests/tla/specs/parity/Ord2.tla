---- MODULE Ord2 ----
EXTENDS Naturals
VARIABLE s
Init == s \in {"zz", "mm", "aa", "qq"}
Next == UNCHANGED s
Inv == s \in {"nothing"}
====
