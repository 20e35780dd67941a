---------------------------- MODULE LeaderElection ----------------------------
(* A Raft-style leader election among N servers, written for issue 19's      *)
(* benchmark: benchmarks/perf/hand_bfs.py explores the same model with a     *)
(* hand-written Python BFS. A server times out, becomes a candidate of the   *)
(* next term (terms are bounded by MaxTerm) and asks every other server for  *)
(* its vote; a candidate with a majority of votes becomes leader. Messages   *)
(* live in a set and are never removed: a request or a reply may be handled  *)
(* more than once, and a newer term met in any message makes a server a     *)
(* follower of that term.                                                    *)
EXTENDS Naturals, FiniteSets

CONSTANTS N, MaxTerm

Server == 1..N
Nil == 0

VARIABLES term, role, votedFor, votes, msgs

vars == <<term, role, votedFor, votes, msgs>>

Quorum(S) == Cardinality(S) * 2 > N

Init ==
    /\ term = [s \in Server |-> 0]
    /\ role = [s \in Server |-> "F"]
    /\ votedFor = [s \in Server |-> Nil]
    /\ votes = [s \in Server |-> {}]
    /\ msgs = {}

\* s times out: it starts an election in the next term, votes for itself and asks the others
Timeout(s) ==
    /\ role[s] /= "L"
    /\ term[s] < MaxTerm
    /\ term' = [term EXCEPT ![s] = @ + 1]
    /\ role' = [role EXCEPT ![s] = "C"]
    /\ votedFor' = [votedFor EXCEPT ![s] = s]
    /\ votes' = [votes EXCEPT ![s] = {s}]
    /\ msgs' = msgs \cup {[type |-> "req", term |-> term[s] + 1, src |-> s, dst |-> t] : t \in Server \ {s}}

\* t answers a vote request of s, first moving to the request's term if it is newer
HandleRequest(m) ==
    /\ m.type = "req"
    /\ LET t == m.dst
           s == m.src
           newer == m.term > term[t]
           now == IF newer THEN m.term ELSE term[t]
           vote == IF newer THEN Nil ELSE votedFor[t]
           grant == m.term = now /\ vote \in {Nil, s}
       IN /\ term' = [term EXCEPT ![t] = now]
          /\ role' = IF newer THEN [role EXCEPT ![t] = "F"] ELSE role
          /\ votedFor' = [votedFor EXCEPT ![t] = IF grant THEN s ELSE vote]
          /\ votes' = IF newer THEN [votes EXCEPT ![t] = {}] ELSE votes
          /\ msgs' = msgs \cup {[type |-> "resp", term |-> now, granted |-> grant, src |-> t, dst |-> s]}

\* s handles t's answer: a newer term makes it a follower, a vote of its term counts
HandleResponse(m) ==
    /\ m.type = "resp"
    /\ LET s == m.dst
       IN IF m.term > term[s]
             THEN /\ term' = [term EXCEPT ![s] = m.term]
                  /\ role' = [role EXCEPT ![s] = "F"]
                  /\ votedFor' = [votedFor EXCEPT ![s] = Nil]
                  /\ votes' = [votes EXCEPT ![s] = {}]
                  /\ UNCHANGED msgs
             ELSE /\ m.term = term[s]
                  /\ role[s] = "C"
                  /\ m.granted
                  /\ votes' = [votes EXCEPT ![s] = @ \cup {m.src}]
                  /\ UNCHANGED <<term, role, votedFor, msgs>>

\* a candidate with a majority of votes becomes leader
BecomeLeader(s) ==
    /\ role[s] = "C"
    /\ Quorum(votes[s])
    /\ role' = [role EXCEPT ![s] = "L"]
    /\ UNCHANGED <<term, votedFor, votes, msgs>>

Next ==
    \/ \E s \in Server : Timeout(s) \/ BecomeLeader(s)
    \/ \E m \in msgs : HandleRequest(m) \/ HandleResponse(m)

Spec == Init /\ [][Next]_vars

\* at most one leader per term
OneLeaderPerTerm ==
    \A s, t \in Server : role[s] = "L" /\ role[t] = "L" /\ term[s] = term[t] => s = t
=============================================================================
