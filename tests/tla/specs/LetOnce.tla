---- MODULE LetOnce ----
(* LET definitions used under conditions and again after them: a definition is computed    *)
(* only where TLC evaluates it (d fails at x = 0), once per evaluation of the action; w[i]  *)
(* with i a LET value is remembered until the LET is entered again (Again's \E j).        *)
EXTENDS Naturals
VARIABLES x, y, z, w
vars == <<x, y, z, w>>
Init == x = 0 /\ y = 0 /\ z = {} /\ w = <<0, 0>>
Step(m) ==
    LET d == 3 \div x
        a == x + m
        c == IF x > 0 THEN d ELSE a
        f == z \cup {a}
    IN /\ x < 4
       /\ UNCHANGED w
       /\ \/ /\ x' = a
             /\ y' = IF x = 0 THEN a ELSE (c + d + a) % 5
             /\ z' = IF x > 1 /\ d > 0 THEN f ELSE z
          \/ /\ x > 0
             /\ d > 0 /\ c >= d
             /\ x' = (a + d) % 4
             /\ y' = c
             /\ z' = f \cup {c}
Again ==
    /\ x < 4
    /\ \E j \in {1, 2} :
        LET i == (x % 2) + 1
        IN /\ w[i] < 2
           /\ w' = [w EXCEPT ![i] = w[i] + 1]
           /\ y' = IF w[i] > 0 THEN (w[i] + j) % 5 ELSE y
           /\ UNCHANGED <<x, z>>
Next == (\E m \in {1, 2} : Step(m)) \/ Again
Spec == Init /\ [][Next]_vars
Inv == y < 5
====
