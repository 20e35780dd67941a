------------------------- MODULE LocalMemoError --------------------------
(* LocalMemo with an error after the remembered values are read: net[q][p][2] out of its *)
(* domain when a channel holds one "b" message (TLC: the error, its counts).             *)
EXTENDS Naturals, Sequences
VARIABLES net, seen, cnt, tag
P == 1 .. 3
Names == {"x", "y", "z"}
Msg(k) == [kind |-> IF k % 2 = 0 THEN "a" ELSE "b", k |-> k]

Init == /\ net = [p \in P |-> [q \in P |-> << >>]]
        /\ seen = [p \in P |-> 0]
        /\ cnt = 0
        /\ tag = [x \in Names |-> 0]

Send(p, q) == /\ cnt < 3
              /\ Len(net[p][q]) < 2
              /\ net' = [net EXCEPT ![p][q] = Append(@, Msg(cnt))]
              /\ cnt' = cnt + 1
              /\ UNCHANGED <<seen, tag>>

RecvA(p, q) == /\ net[q][p] # << >>
               /\ LET m == Head(net[q][p]) IN
                    /\ m.kind = "a"
                    /\ seen' = [seen EXCEPT ![p] = IF m.k > seen[p] THEN m.k ELSE @ + 1]
                    /\ net' = [net EXCEPT ![q][p] = Tail(@)]
                    /\ UNCHANGED <<cnt, tag>>

RecvB(p, q) == /\ net[q][p] # << >>
               /\ LET m == Head(net[q][p]) IN
                    /\ m.kind = "b"
                    /\ net[q][p][2].k >= 0
                    /\ \E i \in 1 .. Len(net[q][p]) :
                         LET w == net[q][p][i] IN
                           /\ w.k >= m.k
                           /\ seen' = [seen EXCEPT ![p] = w.k + seen[q] + i]
                    /\ net' = [net EXCEPT ![q][p] = Tail(@)]
                    /\ UNCHANGED <<cnt, tag>>

TagUp(a, b) == /\ tag[a] < 1
               /\ tag[b] = tag[a] \/ cnt = 2
               /\ tag' = [tag EXCEPT ![a] = tag[a] + 1]
               /\ UNCHANGED <<net, seen, cnt>>

TagDown(a, b) == /\ tag[a] > tag[b]
                 /\ tag' = [tag EXCEPT ![a] = tag[b]]
                 /\ UNCHANGED <<net, seen, cnt>>

Next == \/ \E p \in P : \E q \in P \ {p} : Send(p, q) \/ RecvA(p, q) \/ RecvB(p, q)
        \/ \E a \in Names : \E b \in Names \ {a} : TagUp(a, b) \/ TagDown(a, b)

Spec == Init /\ [][Next]_<<net, seen, cnt, tag>>

Inv == \A p \in P : seen[p] <= 20
=============================================================================
