---- MODULE MultiExcept ----
\* EXCEPTs with several clauses: on fields of one record, nested paths below one key, @ in
\* later clauses, keys that may be equal at run time (later clauses see the earlier ones),
\* a key outside the domain, a clause on a prefix of another's path.
EXTENDS Naturals
VARIABLES node, t, g, k
R == {"a", "b"}
V0 == [b |-> 0, c |-> 0]
Init == /\ node = [r \in R |-> [x |-> 0, y |-> 0, ins |-> <<[st |-> 0, v |-> V0], [st |-> 0, v |-> V0]>>]]
        /\ t = <<0, 0, 0>>
        /\ g = [i \in 1..2 |-> 0]
        /\ k = 0
A(r, s) == node' = [node EXCEPT ![r].x = ((@ + 1) % 3), ![r].ins[s].st = ((@ + s) % 3), ![r].y = ((node[r].x + @) % 3),
                                ![r].ins[s].v.b = ((@ + 1) % 3), ![r].ins[s].v.c = node[r].ins[s].st]
B(p, q) == node' = [node EXCEPT ![p].x = 1, ![q] = node[p], ![p].y = ((@ + 2) % 3)]
C(i, j) == t' = [t EXCEPT ![i] = ((@ + 1) % 3), ![j] = ((@ * 2 + 1) % 3), ![3] = ((@ + i) % 3)]
D(i) == g' = [g EXCEPT ![i] = ((@ + 1) % 3), ![i + 5] = 7, ![1] = ((@ + 2) % 3)]
E(r) == node' = [node EXCEPT ![r].ins[1].v = [b |-> 1, c |-> 2], ![r].ins[1].v.b = ((@ + 1) % 3)]
F(r) == node' = [node EXCEPT ![r].x = 2, ![r].x = ((@ + 2) % 3), ![r]["ins"][2]["st"] = 1]
G(i) == t' = [t EXCEPT ![1] = i, ![2] = ((t[1] + i) % 3), ![3] = @]
Next == /\ k < 3
        /\ k' = k + 1
        /\ \/ \E r \in R, s \in 1..2 : A(r, s) /\ UNCHANGED <<t, g>>
           \/ \E p, q \in R : B(p, q) /\ UNCHANGED <<t, g>>
           \/ \E i, j \in 1..2 : C(i, j) /\ UNCHANGED <<node, g>>
           \/ \E i \in 1..2 : D(i) /\ UNCHANGED <<node, t>>
           \/ \E r \in R : E(r) /\ UNCHANGED <<t, g>>
           \/ \E r \in R : F(r) /\ UNCHANGED <<t, g>>
           \/ \E i \in 1..2 : G(i) /\ UNCHANGED <<node, g>>
TypeOK == /\ node[ "a"].x \in 0..2 /\ t[3] \in 0..2
Spec == Init /\ [][Next]_<<node, t, g, k>>
====
