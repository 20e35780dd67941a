---- MODULE raft ----
\* A compact Raft (leader election and log replication, messages as a set), in the value space
\* of SysMoBench's etcd windows: per-node currentTerm, state, votedFor, commitIndex, log.
EXTENDS Naturals, Sequences, FiniteSets
CONSTANTS Nodes, None, MaxTerm, MaxLog
VARIABLES currentTerm, state, votedFor, log, commitIndex, votes, msgs

vars == <<currentTerm, state, votedFor, log, commitIndex, votes, msgs>>
States == {"StateFollower", "StateCandidate", "StateLeader"}
Entry == [term: 0..MaxTerm]
Quorum(S) == 2 * Cardinality(S) > Cardinality(Nodes)
LastTerm(l) == IF l = <<>> THEN 0 ELSE l[Len(l)].term

TypeOK ==
    /\ currentTerm \in [Nodes -> 0..MaxTerm]
    /\ state \in [Nodes -> States]
    /\ votedFor \in [Nodes -> Nodes \cup {None}]
    /\ commitIndex \in [Nodes -> 0..MaxLog]
    /\ votes \in [Nodes -> SUBSET Nodes]

Init ==
    /\ currentTerm = [n \in Nodes |-> 0]
    /\ state = [n \in Nodes |-> "StateFollower"]
    /\ votedFor = [n \in Nodes |-> None]
    /\ log = [n \in Nodes |-> <<>>]
    /\ commitIndex = [n \in Nodes |-> 0]
    /\ votes = [n \in Nodes |-> {}]
    /\ msgs = {}

ElectionTimeout(i) ==
    /\ state[i] # "StateLeader"
    /\ currentTerm[i] < MaxTerm
    /\ currentTerm' = [currentTerm EXCEPT ![i] = @ + 1]
    /\ state' = [state EXCEPT ![i] = "StateCandidate"]
    /\ votedFor' = [votedFor EXCEPT ![i] = i]
    /\ votes' = [votes EXCEPT ![i] = {i}]
    /\ msgs' = msgs \cup {[type |-> "MsgVote", from |-> i, to |-> j, term |-> currentTerm[i] + 1,
                           logIndex |-> Len(log[i]), logTerm |-> LastTerm(log[i])] : j \in Nodes \ {i}}
    /\ UNCHANGED <<log, commitIndex>>

HandleVoteRequest(i, m) ==
    /\ m.type = "MsgVote" /\ m.to = i
    /\ LET term == IF m.term > currentTerm[i] THEN m.term ELSE currentTerm[i]
           voted == IF m.term > currentTerm[i] THEN None ELSE votedFor[i]
           upToDate == \/ m.logTerm > LastTerm(log[i])
                       \/ m.logTerm = LastTerm(log[i]) /\ m.logIndex >= Len(log[i])
           grant == m.term = term /\ voted \in {None, m.from} /\ upToDate
       IN /\ currentTerm' = [currentTerm EXCEPT ![i] = term]
          /\ state' = IF m.term > currentTerm[i] THEN [state EXCEPT ![i] = "StateFollower"] ELSE state
          /\ votedFor' = [votedFor EXCEPT ![i] = IF grant THEN m.from ELSE voted]
          /\ msgs' = (msgs \ {m}) \cup {[type |-> "MsgVoteResp", from |-> i, to |-> m.from, term |-> term,
                                          granted |-> grant]}
    /\ UNCHANGED <<log, commitIndex, votes>>

HandleVoteResponse(i, m) ==
    /\ m.type = "MsgVoteResp" /\ m.to = i
    /\ IF m.term = currentTerm[i] /\ state[i] = "StateCandidate" /\ m.granted
       THEN votes' = [votes EXCEPT ![i] = @ \cup {m.from}]
       ELSE UNCHANGED votes
    /\ msgs' = msgs \ {m}
    /\ UNCHANGED <<currentTerm, state, votedFor, log, commitIndex>>

BecomeLeader(i) ==
    /\ state[i] = "StateCandidate"
    /\ Quorum(votes[i])
    /\ state' = [state EXCEPT ![i] = "StateLeader"]
    /\ UNCHANGED <<currentTerm, votedFor, log, commitIndex, votes, msgs>>

ClientProposal(i) ==
    /\ state[i] = "StateLeader"
    /\ Len(log[i]) < MaxLog
    /\ log' = [log EXCEPT ![i] = Append(@, [term |-> currentTerm[i]])]
    /\ msgs' = msgs \cup {[type |-> "MsgApp", from |-> i, to |-> j, term |-> currentTerm[i],
                           entries |-> log'[i], commit |-> commitIndex[i]] : j \in Nodes \ {i}}
    /\ UNCHANGED <<currentTerm, state, votedFor, commitIndex, votes>>

HandleAppendEntries(i, m) ==
    /\ m.type = "MsgApp" /\ m.to = i
    /\ m.term >= currentTerm[i]
    /\ currentTerm' = [currentTerm EXCEPT ![i] = m.term]
    /\ state' = [state EXCEPT ![i] = "StateFollower"]
    /\ log' = [log EXCEPT ![i] = m.entries]
    /\ commitIndex' = [commitIndex EXCEPT ![i] = IF m.commit > @ THEN m.commit ELSE @]
    /\ votedFor' = IF m.term > currentTerm[i] THEN [votedFor EXCEPT ![i] = None] ELSE votedFor
    /\ msgs' = msgs \ {m}
    /\ UNCHANGED votes

Next ==
    \/ \E i \in Nodes : ElectionTimeout(i) \/ BecomeLeader(i) \/ ClientProposal(i)
    \/ \E i \in Nodes : \E m \in msgs : HandleVoteRequest(i, m) \/ HandleVoteResponse(i, m) \/ HandleAppendEntries(i, m)

Spec == Init /\ [][Next]_vars
====
