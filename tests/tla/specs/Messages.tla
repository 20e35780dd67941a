---- MODULE Messages ----
EXTENDS Naturals
CONSTANT Nodes
VARIABLES msgs, recv
Init == msgs = {} /\ recv = [n \in Nodes |-> {}]
Send(n, m) == [from |-> n, to |-> m] \notin msgs /\ n /= m
              /\ msgs' = msgs \cup {[from |-> n, to |-> m]} /\ UNCHANGED recv
Deliver(msg) == msgs' = msgs \ {msg} /\ recv' = [recv EXCEPT ![msg.to] = @ \cup {msg.from}]
Next == (\E n, m \in Nodes : Send(n, m)) \/ (\E msg \in msgs : Deliver(msg))
TypeOK == \A n \in Nodes : recv[n] \subseteq Nodes \ {n}
====
