---- MODULE Vote ----
\* A small vote handler in the style of the SysMoBench etcd specs (written for specula's tests).
EXTENDS Naturals, Sequences
CONSTANTS Nodes, None
VARIABLES term, votedFor, log, msgs, timer

Init == /\ term = [n \in Nodes |-> 0]
        /\ votedFor = [n \in Nodes |-> None]
        /\ log = [n \in Nodes |-> <<>>]
        /\ msgs = {}
        /\ timer = [n \in Nodes |-> 0]

LastTerm(n) == IF log[n] = <<>> THEN 0 ELSE log[n][Len(log[n])].term

HandleVote(m) ==
    /\ m.kind = "vote"
    /\ LET n == m.to IN
       /\ m.term >= term[n]
       /\ m.lastTerm >= LastTerm(n)
       /\ (votedFor[n] \in {None, m.from}) \/ (m.term > term[n])
       /\ term' = [term EXCEPT ![n] = m.term]
       /\ votedFor' = [votedFor EXCEPT ![n] = m.from]
       /\ msgs' = msgs \ {m}
       /\ UNCHANGED <<log, timer>>

Tick(n) == /\ timer' = [timer EXCEPT ![n] = @ + 1]
           /\ UNCHANGED <<term, votedFor, log, msgs>>

Next == \/ \E m \in msgs : HandleVote(m)
        \/ \E n \in Nodes : Tick(n)

TypeOK == /\ term \in [Nodes -> Nat]
          /\ timer \in [Nodes -> Nat]
====
