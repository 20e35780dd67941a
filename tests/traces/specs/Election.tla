---- MODULE Election ----
\* A ZooKeeper-style vote notification handler, as the code does it: received votes are a map
\* keyed by sender (a newer vote from the same peer replaces the old one), and a notification
\* with a higher epoch first bumps the logical clock (dropping old votes), then is processed.
EXTENDS Naturals, FiniteSets
CONSTANTS Nodes
VARIABLES clock, votes, msgs

Msg == [from: Nodes, to: Nodes, epoch: 0..3, vote: Nodes]
TypeOK ==
    /\ clock \in [Nodes -> 0..3]
    /\ votes \in [Nodes -> SUBSET [from: Nodes, vote: Nodes]]
    /\ msgs \subseteq Msg

Init ==
    /\ clock = [n \in Nodes |-> 0]
    /\ votes = [n \in Nodes |-> {}]
    /\ msgs = {}

Vote(m) == [from |-> m.from, vote |-> m.vote]

Handle(s, m) ==
    /\ m \in msgs
    /\ m.to = s
    /\ m.epoch >= clock[s]
    /\ clock' = [clock EXCEPT ![s] = m.epoch]
    /\ votes' = [votes EXCEPT ![s] =
                    IF m.epoch > clock[s] THEN {Vote(m)}
                    ELSE {v \in @ : v.from # m.from} \cup {Vote(m)}]
    /\ msgs' = msgs \ {m}

Send(s, t, v) ==
    /\ s # t
    /\ msgs' = msgs \cup {[from |-> s, to |-> t, epoch |-> clock[s], vote |-> v]}
    /\ UNCHANGED <<clock, votes>>

Next == \E s \in Nodes : (\E m \in msgs : Handle(s, m)) \/ (\E t, v \in Nodes : Send(s, t, v))
====
