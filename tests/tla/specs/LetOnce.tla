---- MODULE LetOnce ----
(* LET definitions used under conditions and again after them: a definition is computed    *)
(* only where TLC evaluates it (d fails at x = 0), once per evaluation of the action.       *)
EXTENDS Naturals
VARIABLES x, y, z
vars == <<x, y, z>>
Init == x = 0 /\ y = 0 /\ z = {}
Step(m) ==
    LET d == 3 \div x
        a == x + m
        c == IF x > 0 THEN d ELSE a
        f == z \cup {a}
    IN /\ x < 4
       /\ \/ /\ x' = a
             /\ y' = IF x = 0 THEN a ELSE (c + d + a) % 5
             /\ z' = IF x > 1 /\ d > 0 THEN f ELSE z
          \/ /\ x > 0
             /\ d > 0 /\ c >= d
             /\ x' = (a + d) % 4
             /\ y' = c
             /\ z' = f \cup {c}
Next == \E m \in {1, 2} : Step(m)
Spec == Init /\ [][Next]_vars
Inv == y < 5
====
