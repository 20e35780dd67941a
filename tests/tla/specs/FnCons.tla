------------------------------- MODULE FnCons -------------------------------
(* Function constructors over constant domains: 1..N (a sequence, built as a tuple), a   *)
(* set of integers that is not 1..n, an interval not starting at 1, the empty set, and a *)
(* domain computed per state; used as sequences, compared with tuples, and as domains.   *)
EXTENDS Naturals, Sequences
VARIABLES f, g, h, k
N == 3
Init == /\ f = [i \in 1 .. N |-> 0]
        /\ g = [i \in {1, 3} |-> 0]
        /\ h = [i \in 2 .. 3 |-> << >>]
        /\ k = [i \in {} |-> 1]

Bump(j) == /\ f[j] < 2
           /\ f' = [i \in 1 .. N |-> IF i = j THEN f[i] + 1 ELSE f[i]]
           /\ UNCHANGED <<g, h, k>>

Grow == /\ Len(k) < 2
        /\ k' = Append(k, Len(k))
        /\ h' = [i \in 2 .. 3 |-> Append(h[i], Len(k))]
        /\ UNCHANGED <<f, g>>

Flip == /\ g' = [i \in {1, 3} |-> 1 - g[i]]
        /\ UNCHANGED <<f, h, k>>

Next == \/ \E j \in 1 .. N : Bump(j)
        \/ Grow
        \/ Flip

Spec == Init /\ [][Next]_<<f, g, h, k>>

Inv == /\ f \in [1 .. N -> 0 .. 2]
       /\ Len(f) = N
       /\ f = <<f[1], f[2], f[3]>>
       /\ Append(f, 9)[4] = 9
       /\ DOMAIN g = {1, 3}
       /\ DOMAIN h = 2 .. 3
       /\ [i \in 1 .. 1 |-> k] = <<k>>
       /\ k = [i \in 1 .. Len(k) |-> k[i]]
       /\ f[1] + f[2] + f[3] < 6
=============================================================================
