---- MODULE ConstraintByValue ----
\* A CONSTRAINT whose conjuncts read one variable (v) or two (v, w) whose values recur as new
\* objects (rebuilt by every step); some of those values are outside the constraint.
EXTENDS Naturals
VARIABLES v, x, w
Init == v = <<0, 0>> /\ x = 0 /\ w = [a |-> 0]
Next == \/ \E i \in 0..3 :
              /\ x < 8
              /\ x' = x + 1
              /\ v' = <<v[2], i>>
              /\ w' = [a |-> (w.a + i) % 3]
        \/ /\ v' = <<v[2], v[1]>>
           /\ w' = [a |-> w.a]
           /\ UNCHANGED x
Constr == /\ v[1] + v[2] # 5
          /\ v # <<0, 3>>
          /\ w.a + v[2] # 4
====
