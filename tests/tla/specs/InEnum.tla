------------------------------- MODULE InEnum -------------------------------
(* x \in {a, b, ...} and x \notin {...} with elements computed per state:      *)
(* integers, records, sets, sequences, strings.                                *)
EXTENDS Naturals, TLC
VARIABLE x
Init == x = 0
Next == x < 6 /\ x' = x + 1
R(i) == [a |-> i % 2]
Inv == /\ (x \in {1, 3, 5}) = (x % 2 = 1)
       /\ (x \notin {0, 2, 4, 6}) = (x % 2 = 1)
       /\ (x \in {x - 1, x + 1}) = FALSE
       /\ R(x) \in {[a |-> 0], [a |-> 1]}
       /\ R(x) \notin {[a |-> 2]}
       /\ {x} \in {{0}, {1}, {2}, {3}, {4}, {5}, {6}}
       /\ <<x>> \notin {<<7>>, <<x + 1>>}
       /\ "s" \in {"s", ToString(x)}
       /\ ToString(x) \in {"t", ToString(x)}
=============================================================================
