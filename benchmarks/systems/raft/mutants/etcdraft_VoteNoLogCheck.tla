----------------------------- MODULE etcdraft_VoteNoLogCheck -----------------------------
\* MUTANT (textbook slip: a vote (or pre-vote) is granted without checking that the candidate log is up to date. Fails HandleVoteRequest)
(***************************************************************************)
(* Raft as implemented by pyraft (etcd raft.go's shape): a node steps one *)
(* message at a time; messages from a higher term first make it a         *)
(* follower (pre-vote traffic excepted); pre-vote does not change terms;  *)
(* a new leader appends an empty entry; commit = the largest index a      *)
(* quorum of matchIndex reaches, if that entry is from the current term.  *)
(* Logs hold entry terms.  Messages in flight are a set.                  *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, TLC

CONSTANTS N, MaxTerm, MaxLogLen

Server == 1..N
Nil == 0
Quorum == N \div 2 + 1
Follower == "StateFollower"
PreCandidate == "StatePreCandidate"
Candidate == "StateCandidate"
Leader == "StateLeader"

VARIABLES currentTerm, state, votedFor, lead, log, commitIndex,
          votesGranted, votesRejected, matchIndex, nextIndex, msgs

vars == <<currentTerm, state, votedFor, lead, log, commitIndex,
          votesGranted, votesRejected, matchIndex, nextIndex, msgs>>

TypeOK ==
    /\ currentTerm \in [Server -> Nat]
    /\ state \in [Server -> {Follower, PreCandidate, Candidate, Leader}]
    /\ votedFor \in [Server -> Server \cup {Nil}]
    /\ lead \in [Server -> Server \cup {Nil}]
    /\ \A i \in Server : \A k \in DOMAIN log[i] : log[i][k].term \in Nat
    /\ commitIndex \in [Server -> Nat]
    /\ votesGranted \in [Server -> SUBSET Server]
    /\ votesRejected \in [Server -> SUBSET Server]
    /\ matchIndex \in [Server -> [Server -> Nat]]
    /\ nextIndex \in [Server -> [Server -> Nat]]

Msg(type, from, to, term, logTerm, index, entries, commit, reject, hint) ==
    [type |-> type, from |-> from, to |-> to, term |-> term, logTerm |-> logTerm,
     index |-> index, entries |-> entries, commit |-> commit, reject |-> reject,
     rejectHint |-> hint]
Resp(type, from, to, term, index, reject, hint) ==
    Msg(type, from, to, term, 0, index, <<>>, 0, reject, hint)

TermOf(lg, k) == IF k = 0 \/ k > Len(lg) THEN 0 ELSE lg[k].term
LastTerm(lg) == TermOf(lg, Len(lg))
UpToDate(i, lasti, t) ==
    t > LastTerm(log[i]) \/ (t = LastTerm(log[i]) /\ lasti >= Len(log[i]))

\* Progress after reset(): own match = last index, next = last index + 1 for all.
ResetMatch(i) == [p \in Server |-> IF p = i THEN Len(log[i]) ELSE 0]
ResetNext(i) == [p \in Server |-> Len(log[i]) + 1]

\* The largest index a quorum of match values reaches.
QuorumMatch(mf) ==
    LET ok(k) == Cardinality({p \in Server : mf[p] >= k}) >= Quorum
    IN CHOOSE k \in {mf[p] : p \in Server} \cup {0} :
           ok(k) /\ \A k2 \in {mf[p] : p \in Server} : ok(k2) => k2 <= k
\* Leader commit rule: only an entry of the current term is committed by counting.
NewCommit(i, mf, lg) ==
    LET mci == QuorumMatch(mf) IN
    IF mci > commitIndex[i] THEN (IF lg[mci].term = currentTerm[i] THEN mci ELSE commitIndex[i])
                            ELSE commitIndex[i]

AppMsg(i, p, lg, nf, commit) ==
    Msg("MsgApp", i, p, currentTerm[i], TermOf(lg, nf[p] - 1), nf[p] - 1,
        SubSeq(lg, nf[p], Len(lg)), commit, FALSE, 0)
BcastApp(i, lg, nf, commit) == {AppMsg(i, p, lg, nf, commit) : p \in Server \ {i}}

\* becomeFollower(term, ld) at node i, for the variables it resets.
BecomeFollower(i, term, ld) ==
    /\ currentTerm' = [currentTerm EXCEPT ![i] = term]
    /\ votedFor' = [votedFor EXCEPT ![i] = IF term # currentTerm[i] THEN Nil ELSE @]
    /\ lead' = [lead EXCEPT ![i] = ld]
    /\ state' = [state EXCEPT ![i] = Follower]
    /\ votesGranted' = [votesGranted EXCEPT ![i] = {}]
    /\ votesRejected' = [votesRejected EXCEPT ![i] = {}]
    /\ matchIndex' = [matchIndex EXCEPT ![i] = ResetMatch(i)]
    /\ nextIndex' = [nextIndex EXCEPT ![i] = ResetNext(i)]

Init ==
    /\ currentTerm = [i \in Server |-> 0]
    /\ state = [i \in Server |-> Follower]
    /\ votedFor = [i \in Server |-> Nil]
    /\ lead = [i \in Server |-> Nil]
    /\ log = [i \in Server |-> <<>>]
    /\ commitIndex = [i \in Server |-> 0]
    /\ votesGranted = [i \in Server |-> {}]
    /\ votesRejected = [i \in Server |-> {}]
    /\ matchIndex = [i \in Server |-> [p \in Server |-> 0]]
    /\ nextIndex = [i \in Server |-> [p \in Server |-> 1]]
    /\ msgs = {}

-----------------------------------------------------------------------------
\* tickElection reaches the randomized timeout: MsgHup -> campaign(pre-vote).
\* becomePreCandidate changes neither term nor vote; requests carry term + 1.
ElectionTimeout(i) ==
    /\ state[i] # Leader
    /\ currentTerm[i] < MaxTerm
    /\ state' = [state EXCEPT ![i] = PreCandidate]
    /\ lead' = [lead EXCEPT ![i] = Nil]
    /\ votesGranted' = [votesGranted EXCEPT ![i] = {i}]
    /\ votesRejected' = [votesRejected EXCEPT ![i] = {}]
    /\ msgs' = msgs \cup {Msg("MsgPreVote", i, j, currentTerm[i] + 1, LastTerm(log[i]),
                              Len(log[i]), <<>>, 0, FALSE, 0) : j \in Server \ {i}}
    /\ UNCHANGED <<currentTerm, votedFor, log, commitIndex, matchIndex, nextIndex>>

\* MsgVote / MsgPreVote.
HandleVoteRequest(i, m) ==
    /\ m \in msgs
    /\ m.to = i
    /\ m.type \in {"MsgVote", "MsgPreVote"}
    /\ LET rest     == msgs \ {m}
           respType == IF m.type = "MsgVote" THEN "MsgVoteResp" ELSE "MsgPreVoteResp"
           bump     == m.term > currentTerm[i] /\ m.type = "MsgVote"
           t1       == IF bump THEN m.term ELSE currentTerm[i]
           v1       == IF bump THEN Nil ELSE votedFor[i]
           l1       == IF bump THEN Nil ELSE lead[i]
           canVote  == \/ v1 = m.from
                       \/ v1 = Nil /\ l1 = Nil
                       \/ m.type = "MsgPreVote" /\ m.term > t1
           grant    == canVote   \* MUTANT: no log up-to-date check
       IN IF m.term < currentTerm[i]
          THEN /\ msgs' = IF m.type = "MsgPreVote"
                          THEN rest \cup {Resp(respType, i, m.from, currentTerm[i], 0, TRUE, 0)}
                          ELSE rest
               /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex,
                              votesGranted, votesRejected, matchIndex, nextIndex>>
          ELSE \* a MsgVote from a higher term: becomeFollower(m.term, None) first
               /\ currentTerm' = [currentTerm EXCEPT ![i] = t1]
               /\ votedFor' = [votedFor EXCEPT ![i] = IF grant /\ m.type = "MsgVote"
                                                      THEN m.from ELSE v1]
               /\ lead' = [lead EXCEPT ![i] = l1]
               /\ state' = IF bump THEN [state EXCEPT ![i] = Follower] ELSE state
               /\ votesGranted' = IF bump THEN [votesGranted EXCEPT ![i] = {}] ELSE votesGranted
               /\ votesRejected' = IF bump THEN [votesRejected EXCEPT ![i] = {}]
                                           ELSE votesRejected
               /\ matchIndex' = IF bump THEN [matchIndex EXCEPT ![i] = ResetMatch(i)]
                                        ELSE matchIndex
               /\ nextIndex' = IF bump THEN [nextIndex EXCEPT ![i] = ResetNext(i)] ELSE nextIndex
               /\ msgs' = rest \cup {IF grant THEN Resp(respType, i, m.from, m.term, 0, FALSE, 0)
                                              ELSE Resp(respType, i, m.from, t1, 0, TRUE, 0)}
               /\ UNCHANGED <<log, commitIndex>>

\* MsgPreVoteResp / MsgVoteResp at a (pre-)candidate: poll; win -> next phase; lose -> follower.
HandleVoteResponse(i, m) ==
    /\ m \in msgs
    /\ m.to = i
    /\ m.type \in {"MsgVoteResp", "MsgPreVoteResp"}
    /\ LET rest == msgs \ {m}
           mine == \/ state[i] = PreCandidate /\ m.type = "MsgPreVoteResp"
                   \/ state[i] = Candidate /\ m.type = "MsgVoteResp"
           g    == IF m.from \in votesGranted[i] \cup votesRejected[i] \/ m.reject
                   THEN votesGranted[i] ELSE votesGranted[i] \cup {m.from}
           r    == IF m.from \in votesGranted[i] \cup votesRejected[i] \/ ~m.reject
                   THEN votesRejected[i] ELSE votesRejected[i] \cup {m.from}
           won  == Cardinality(g) >= Quorum
           lost == ~won /\ Cardinality(r) >= Quorum
           t    == currentTerm[i] + 1
           nlog == Append(log[i], [term |-> currentTerm[i]])
           lm   == [p \in Server |-> IF p = i THEN Len(nlog) ELSE 0]
           ln   == [p \in Server |-> IF p = i THEN Len(nlog) + 1 ELSE Len(log[i]) + 1]
       IN
       IF m.term > currentTerm[i] /\ ~(m.type = "MsgPreVoteResp" /\ ~m.reject)
       THEN /\ BecomeFollower(i, m.term, Nil)
            /\ msgs' = rest
            /\ UNCHANGED <<log, commitIndex>>
       ELSE IF m.term < currentTerm[i] \/ ~mine
       THEN /\ msgs' = rest
            /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex,
                           votesGranted, votesRejected, matchIndex, nextIndex>>
       ELSE IF won /\ state[i] = PreCandidate
       THEN \* campaign(election): becomeCandidate, vote for self, request votes
            /\ currentTerm' = [currentTerm EXCEPT ![i] = t]
            /\ votedFor' = [votedFor EXCEPT ![i] = i]
            /\ state' = [state EXCEPT ![i] = Candidate]
            /\ lead' = [lead EXCEPT ![i] = Nil]
            /\ votesGranted' = [votesGranted EXCEPT ![i] = {i}]
            /\ votesRejected' = [votesRejected EXCEPT ![i] = {}]
            /\ matchIndex' = [matchIndex EXCEPT ![i] = ResetMatch(i)]
            /\ nextIndex' = [nextIndex EXCEPT ![i] = ResetNext(i)]
            /\ msgs' = rest \cup {Msg("MsgVote", i, j, t, LastTerm(log[i]), Len(log[i]), <<>>,
                                      0, FALSE, 0) : j \in Server \ {i}}
            /\ UNCHANGED <<log, commitIndex>>
       ELSE IF won
       THEN \* becomeLeader: empty entry of the new term, then bcastAppend
            /\ state' = [state EXCEPT ![i] = Leader]
            /\ lead' = [lead EXCEPT ![i] = i]
            /\ log' = [log EXCEPT ![i] = nlog]
            /\ votesGranted' = [votesGranted EXCEPT ![i] = {}]
            /\ votesRejected' = [votesRejected EXCEPT ![i] = {}]
            /\ matchIndex' = [matchIndex EXCEPT ![i] = lm]
            /\ nextIndex' = [nextIndex EXCEPT ![i] = ln]
            /\ commitIndex' = [commitIndex EXCEPT ![i] = NewCommit(i, lm, nlog)]
            /\ msgs' = rest \cup BcastApp(i, nlog, ln, NewCommit(i, lm, nlog))
            /\ UNCHANGED <<currentTerm, votedFor>>
       ELSE IF lost
       THEN /\ BecomeFollower(i, currentTerm[i], Nil)
            /\ msgs' = rest
            /\ UNCHANGED <<log, commitIndex>>
       ELSE /\ votesGranted' = [votesGranted EXCEPT ![i] = g]
            /\ votesRejected' = [votesRejected EXCEPT ![i] = r]
            /\ msgs' = rest
            /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex,
                           matchIndex, nextIndex>>

\* MsgProp at the leader: append, maybe commit, bcastAppend.
ClientProposal(i) ==
    /\ state[i] = Leader
    /\ Len(log[i]) < MaxLogLen
    /\ LET nlog == Append(log[i], [term |-> currentTerm[i]])
           mf   == [matchIndex[i] EXCEPT ![i] = Len(nlog)]
           nf   == [nextIndex[i] EXCEPT ![i] = IF @ > Len(nlog) THEN @ ELSE Len(nlog) + 1]
           c    == NewCommit(i, mf, nlog)
       IN /\ log' = [log EXCEPT ![i] = nlog]
          /\ matchIndex' = [matchIndex EXCEPT ![i] = mf]
          /\ nextIndex' = [nextIndex EXCEPT ![i] = nf]
          /\ commitIndex' = [commitIndex EXCEPT ![i] = c]
          /\ msgs' = msgs \cup BcastApp(i, nlog, nf, c)
    /\ UNCHANGED <<currentTerm, state, votedFor, lead, votesGranted, votesRejected>>

\* Terms of MsgApp / MsgHeartbeat: stale -> answer with our term; higher, or we are a
\* (pre-)candidate -> becomeFollower(m.term, m.from); a follower just learns the leader.
FollowLeader(i, m) ==
    IF m.term > currentTerm[i] \/ state[i] \in {PreCandidate, Candidate}
    THEN BecomeFollower(i, m.term, m.from)
    ELSE /\ lead' = [lead EXCEPT ![i] = m.from]
         /\ UNCHANGED <<currentTerm, votedFor, state, votesGranted, votesRejected,
                        matchIndex, nextIndex>>

\* The follower side of log matching (maybeAppend), from the message's point of view.
Conflicts(i, m) == {k \in 1..Len(m.entries) : TermOf(log[i], m.index + k) # m.entries[k].term}
Merged(i, m) ==
    IF Conflicts(i, m) = {} THEN log[i]
    ELSE LET ci == CHOOSE k \in Conflicts(i, m) : \A k2 \in Conflicts(i, m) : k <= k2
         IN SubSeq(log[i], 1, m.index + ci - 1) \o SubSeq(m.entries, ci, Len(m.entries))
Max(a, b) == IF a > b THEN a ELSE b
Min(a, b) == IF a < b THEN a ELSE b

HandleAppendEntries(i, m) ==
    /\ m \in msgs
    /\ m.to = i
    /\ m.type = "MsgApp"
    /\ LET rest == msgs \ {m}
           lastnew == m.index + Len(m.entries)
       IN IF m.term < currentTerm[i]
          THEN /\ msgs' = rest \cup {Resp("MsgAppResp", i, m.from, currentTerm[i], 0, FALSE, 0)}
               /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex,
                              votesGranted, votesRejected, matchIndex, nextIndex>>
          ELSE /\ state[i] # Leader \/ m.term > currentTerm[i]
               /\ FollowLeader(i, m)
               /\ IF m.index < commitIndex[i]
                  THEN /\ msgs' = rest \cup {Resp("MsgAppResp", i, m.from, m.term,
                                                  commitIndex[i], FALSE, 0)}
                       /\ UNCHANGED <<log, commitIndex>>
                  ELSE IF TermOf(log[i], m.index) = m.logTerm /\ m.index <= Len(log[i])
                  THEN /\ log' = [log EXCEPT ![i] = Merged(i, m)]
                       /\ commitIndex' = [commitIndex EXCEPT ![i] =
                                             Max(@, Min(m.commit, lastnew))]
                       /\ msgs' = rest \cup {Resp("MsgAppResp", i, m.from, m.term, lastnew,
                                                  FALSE, 0)}
                  ELSE /\ msgs' = rest \cup {Resp("MsgAppResp", i, m.from, m.term, m.index,
                                                  TRUE, Len(log[i]))}
                       /\ UNCHANGED <<log, commitIndex>>

HandleHeartbeat(i, m) ==
    /\ m \in msgs
    /\ m.to = i
    /\ m.type = "MsgHeartbeat"
    /\ LET rest == msgs \ {m} IN
       IF m.term < currentTerm[i]
       THEN /\ msgs' = rest \cup {Resp("MsgAppResp", i, m.from, currentTerm[i], 0, FALSE, 0)}
            /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex,
                           votesGranted, votesRejected, matchIndex, nextIndex>>
       ELSE /\ state[i] # Leader \/ m.term > currentTerm[i]
            /\ FollowLeader(i, m)
            /\ commitIndex' = [commitIndex EXCEPT ![i] = Max(@, m.commit)]
            /\ msgs' = rest \cup {Resp("MsgHeartbeatResp", i, m.from, m.term, 0, FALSE, 0)}
            /\ UNCHANGED log

\* Leader: tickHeartbeat -> bcastHeartbeat (commit capped by what each peer has).
SendHeartbeat(i) ==
    /\ state[i] = Leader
    /\ msgs' = msgs \cup {Msg("MsgHeartbeat", i, p, currentTerm[i], 0, 0, <<>>,
                              Min(matchIndex[i][p], commitIndex[i]), FALSE, 0) : p \in Server \ {i}}
    /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex, votesGranted,
                   votesRejected, matchIndex, nextIndex>>

\* Leader: MsgAppResp updates progress; commit by quorum of matchIndex.
HandleAppendResponse(i, m) ==
    /\ m \in msgs
    /\ m.to = i
    /\ m.type = "MsgAppResp"
    /\ LET rest == msgs \ {m}
           j    == m.from
           mf   == [matchIndex[i] EXCEPT ![j] = m.index]
           nf   == [nextIndex[i] EXCEPT ![j] = Max(@, m.index + 1)]
           c    == NewCommit(i, mf, log[i])
           back == [nextIndex[i] EXCEPT ![j] = Max(Min(m.index, m.rejectHint + 1),
                                                    matchIndex[i][j] + 1)]
       IN
       IF m.term > currentTerm[i]
       THEN /\ BecomeFollower(i, m.term, Nil)
            /\ msgs' = rest
            /\ UNCHANGED <<log, commitIndex>>
       ELSE IF m.term = currentTerm[i] /\ state[i] = Leader /\ m.reject
               /\ m.index = nextIndex[i][j] - 1
       THEN /\ nextIndex' = [nextIndex EXCEPT ![i] = back]
            /\ msgs' = rest \cup {AppMsg(i, j, log[i], back, commitIndex[i])}
            /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex,
                           votesGranted, votesRejected, matchIndex>>
       ELSE IF m.term = currentTerm[i] /\ state[i] = Leader /\ ~m.reject
               /\ m.index > matchIndex[i][j]
       THEN /\ matchIndex' = [matchIndex EXCEPT ![i] = mf]
            /\ nextIndex' = [nextIndex EXCEPT ![i] = nf]
            /\ commitIndex' = [commitIndex EXCEPT ![i] = c]
            /\ msgs' = IF c > commitIndex[i] THEN rest \cup BcastApp(i, log[i], nf, c)
                       ELSE IF nf[j] <= Len(log[i]) THEN rest \cup {AppMsg(i, j, log[i], nf, c)}
                       ELSE rest
            /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, votesGranted, votesRejected>>
       ELSE /\ msgs' = rest
            /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex,
                           votesGranted, votesRejected, matchIndex, nextIndex>>

\* Leader: MsgHeartbeatResp from a peer that lags -> sendAppend.
HandleHeartbeatResponse(i, m) ==
    /\ m \in msgs
    /\ m.to = i
    /\ m.type = "MsgHeartbeatResp"
    /\ LET rest == msgs \ {m} IN
       IF m.term > currentTerm[i]
       THEN /\ BecomeFollower(i, m.term, Nil)
            /\ msgs' = rest
            /\ UNCHANGED <<log, commitIndex>>
       ELSE /\ msgs' = IF m.term = currentTerm[i] /\ state[i] = Leader
                          /\ matchIndex[i][m.from] < Len(log[i])
                       THEN rest \cup {AppMsg(i, m.from, log[i], nextIndex[i], commitIndex[i])}
                       ELSE rest
            /\ UNCHANGED <<currentTerm, state, votedFor, lead, log, commitIndex,
                           votesGranted, votesRejected, matchIndex, nextIndex>>

Next ==
    \/ \E i \in Server : ElectionTimeout(i)
    \/ \E i \in Server, m \in msgs : HandleVoteRequest(i, m)
    \/ \E i \in Server : ClientProposal(i)
    \/ \E i \in Server, m \in msgs : HandleAppendEntries(i, m)
    \/ \E i \in Server, m \in msgs : HandleHeartbeat(i, m)
    \/ \E i \in Server, m \in msgs : HandleVoteResponse(i, m)
    \/ \E i \in Server, m \in msgs : HandleAppendResponse(i, m)
    \/ \E i \in Server : SendHeartbeat(i)
    \/ \E i \in Server, m \in msgs : HandleHeartbeatResponse(i, m)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next) /\ \A i \in Server : WF_vars(SendHeartbeat(i))
=============================================================================
