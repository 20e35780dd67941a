---- MODULE LoopHoist ----
(* Loop functions (quantifiers, set maps and filters, function constructors) compute a      *)
(* subexpression that reads none of their bound names once per evaluation of the loop       *)
(* (Generator._hoisted). Beside such parts: parts reading the bound name, a LET inside the   *)
(* loop, an operator applied to the bound name, an operator with a loop applied to two       *)
(* arguments, a LET outside read by two loops, primed values in a loop, a nested quantifier, *)
(* and x[4], which fails if it is ever evaluated (it never is).                               *)
EXTENDS Naturals, FiniteSets
VARIABLES x, y, k
vars == <<x, y, k>>
D == 1..3
Init == x = [i \in D |-> 0] /\ y = {} /\ k = 1

Bump(i) == x[i] + x[k]
AtLeast(a) == Cardinality({i \in D : x[i] >= a})

Inc(p) ==
    /\ x[p] < 2
    /\ \A q \in D : q = p \/ x[q] <= x[p] + 1 \/ x[k] = 2
    /\ x' = [x EXCEPT ![p] = @ + 1]
    /\ y' = {Bump(i) : i \in D}
    /\ k' = IF \E j \in D : x'[j] > x[k] + 1 THEN (k % 3) + 1 ELSE k

Mix ==
    LET m == x[k] + Cardinality(y)
    IN /\ \E i \in D : i + m > 3 /\ x[i] # m
       /\ x' = [i \in D |-> LET d == x[i] + m IN IF d > 2 THEN 0 ELSE d]
       /\ y' = {i \in D : x[i] >= m} \cup {AtLeast(1) + 3 * AtLeast(2)}
       /\ k' = CHOOSE i \in D : \A j \in D : x[j] <= x[i]

Names ==
    /\ k = 3
    /\ LET v == x[k] + 1
       IN /\ \A i \in D : x[i] # v + 5
          /\ y' = {j \in D : Cardinality(y) > 5 \/ x[j] < v}
                \cup {[s \in {"a", "b"} |-> IF s = "a" THEN x[j] ELSE v]["b"] : j \in D}
    /\ UNCHANGED <<x, k>>

Next == (\E p \in D : Inc(p)) \/ Mix \/ Names
Spec == Init /\ [][Next]_vars

Inv == /\ \A i \in D : (i > 3 => x[4] = 0) /\ x[i] <= 2
       /\ \A i \in D : \E j \in D : x[j] >= x[i] /\ x[k] >= 0
       /\ Cardinality(y) <= 4
====
