---- MODULE TokenRing ----
EXTENDS Naturals
CONSTANT N
VARIABLES token, count
Nodes == 0..N-1
Init == token = 0 /\ count = [n \in Nodes |-> 0]
Pass == token' = (token + 1) % N /\ count' = [count EXCEPT ![token] = (@ + 1) % 3]
Keep == count[token] = 2 /\ count' = [count EXCEPT ![token] = 0] /\ UNCHANGED token
Next == Pass \/ Keep
Inv == \A n \in Nodes : count[n] < 3
====
