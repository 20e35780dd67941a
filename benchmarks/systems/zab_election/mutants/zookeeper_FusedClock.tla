---------------------------- MODULE zookeeper_FusedClock ----------------------------
\* MUTANT (textbook: clock bump fused into the guard m.epoch <= logicalclock[i]; the notification that bumps the clock is not counted. Fails HandleNotification)
(***************************************************************************)
(* Fast leader election as implemented by zabfle (FastLeaderElection's     *)
(* lookForLeader loop).  Received votes are kept per sender; a higher      *)
(* election epoch moves the logical clock up before the notification is    *)
(* processed; a peer's own notification reaches it through the network.   *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets, TLC

CONSTANTS N, MaxZxid

Server == 1..N
PeerStates == {"LOOKING", "FOLLOWING", "LEADING"}
Quorum == N \div 2 + 1

VARIABLES state, electing, logicalclock, proposedLeader, proposedZxid, zxid,
          recvset, outofelection, msgs

vars == <<state, electing, logicalclock, proposedLeader, proposedZxid, zxid,
          recvset, outofelection, msgs>>

Msg(from, to, st, l, z, e) ==
    [from |-> from, to |-> to, state |-> st, leader |-> l, zxid |-> z, epoch |-> e]
VoteRec(from, l, z, e, st) ==
    [from |-> from, leader |-> l, zxid |-> z, epoch |-> e, state |-> st]

TypeOK ==
    /\ state \in [Server -> PeerStates]
    /\ electing \in [Server -> BOOLEAN]
    /\ logicalclock \in [Server -> Nat]
    /\ proposedLeader \in [Server -> Server]
    /\ proposedZxid \in [Server -> Nat]
    /\ zxid \in [Server -> Nat]
    /\ \A i \in Server : \A v \in recvset[i] \cup outofelection[i] :
          v.from \in Server /\ v.leader \in Server /\ v.state \in PeerStates
    /\ \A m \in msgs : m.from \in Server /\ m.to \in Server /\ m.state \in PeerStates

Init ==
    /\ state = [i \in Server |-> "LOOKING"]
    /\ electing = [i \in Server |-> FALSE]
    /\ logicalclock = [i \in Server |-> 0]
    /\ zxid \in [Server -> 0..MaxZxid]
    /\ proposedLeader = [i \in Server |-> i]
    /\ proposedZxid = zxid
    /\ recvset = [i \in Server |-> {}]
    /\ outofelection = [i \in Server |-> {}]
    /\ msgs = {}

\* Is vote (newId, newZxid) better than (curId, curZxid)?
TotalOrder(newId, newZxid, curId, curZxid) ==
    \/ newZxid > curZxid
    \/ newZxid = curZxid /\ newId > curId

\* Notifications to every voter, ourselves included.
Broadcast(i, l, z, e) == {Msg(i, j, "LOOKING", l, z, e) : j \in Server}

\* The vote map is keyed by sender: a newer vote replaces the sender's older one.
Put(votes, v) == {w \in votes : w.from # v.from} \cup {v}

TermPredicate(votes, l, z, e) ==
    Cardinality({w.from : w \in {x \in votes : x.leader = l /\ x.zxid = z /\ x.epoch = e}})
        >= Quorum

CheckLeader(i, votes, l, e) ==
    IF l # i THEN \E w \in votes : w.from = l /\ w.state = "LEADING"
             ELSE logicalclock[i] = e

-----------------------------------------------------------------------------
\* lookForLeader entry (new round), or a poll timeout with an empty queue (resend).
Notification(i) ==
    /\ state[i] = "LOOKING"
    /\ \/ /\ ~electing[i]
          /\ electing' = [electing EXCEPT ![i] = TRUE]
          /\ logicalclock' = [logicalclock EXCEPT ![i] = @ + 1]
          /\ proposedLeader' = [proposedLeader EXCEPT ![i] = i]
          /\ proposedZxid' = [proposedZxid EXCEPT ![i] = zxid[i]]
          /\ recvset' = [recvset EXCEPT ![i] = {}]
          /\ outofelection' = [outofelection EXCEPT ![i] = {}]
          /\ msgs' = msgs \cup Broadcast(i, i, zxid[i], logicalclock[i] + 1)
       \/ /\ electing[i]
          /\ ~\E m \in msgs : m.to = i
          /\ msgs' = msgs \cup Broadcast(i, proposedLeader[i], proposedZxid[i], logicalclock[i])
          /\ UNCHANGED <<electing, logicalclock, proposedLeader, proposedZxid, recvset,
                         outofelection>>
    /\ UNCHANGED <<state, zxid>>

\* A LOOKING peer processes a LOOKING notification.
HandleLooking(i, m, rest) ==
    IF m.epoch < logicalclock[i]
    THEN \* stale round: answer with our own notification
         /\ msgs' = rest \cup {Msg(i, m.from, "LOOKING", proposedLeader[i], proposedZxid[i],
                                   logicalclock[i])}
         /\ UNCHANGED <<state, electing, logicalclock, proposedLeader, proposedZxid, zxid,
                        recvset, outofelection>>
    ELSE LET bump   == m.epoch > logicalclock[i]
             base   == IF bump THEN {} ELSE recvset[i]
             switch == IF bump THEN TotalOrder(m.leader, m.zxid, i, zxid[i])
                               ELSE TotalOrder(m.leader, m.zxid, proposedLeader[i], proposedZxid[i])
             pl     == IF switch THEN m.leader ELSE IF bump THEN i ELSE proposedLeader[i]
             pz     == IF switch THEN m.zxid ELSE IF bump THEN zxid[i] ELSE proposedZxid[i]
             \* MUTANT: the vote is processed only under the guard m.epoch <= logicalclock[i];
             \* a newer round just moves the clock (the bump is fused into the guard).
             votes  == IF bump THEN {}
                       ELSE Put(base, VoteRec(m.from, m.leader, m.zxid, m.epoch, "LOOKING"))
             follow == TermPredicate(votes, pl, pz, m.epoch) /\ pl # i
         IN /\ logicalclock' = [logicalclock EXCEPT ![i] = m.epoch]
            /\ proposedLeader' = [proposedLeader EXCEPT ![i] = pl]
            /\ proposedZxid' = [proposedZxid EXCEPT ![i] = pz]
            /\ recvset' = [recvset EXCEPT ![i] = votes]
            /\ msgs' = IF bump \/ switch THEN rest \cup Broadcast(i, pl, pz, m.epoch) ELSE rest
            /\ state' = IF follow THEN [state EXCEPT ![i] = "FOLLOWING"] ELSE state
            /\ electing' = IF follow THEN [electing EXCEPT ![i] = FALSE] ELSE electing
            /\ UNCHANGED <<zxid, outofelection>>

\* A LOOKING peer hears from a peer that already decided (FOLLOWING or LEADING).
HandleDecided(i, m, rest) ==
    LET v    == VoteRec(m.from, m.leader, m.zxid, m.epoch, m.state)
        same == m.epoch = logicalclock[i]
        rv   == IF same THEN Put(recvset[i], v) ELSE recvset[i]
        dec1 == same /\ TermPredicate(rv, m.leader, m.zxid, m.epoch)
                     /\ CheckLeader(i, rv, m.leader, m.epoch)
        ov   == Put(outofelection[i], v)
        dec2 == ~dec1 /\ TermPredicate(ov, m.leader, m.zxid, m.epoch)
                      /\ CheckLeader(i, ov, m.leader, m.epoch)
        dec  == dec1 \/ dec2
        role == IF m.leader = i THEN "LEADING" ELSE "FOLLOWING"
    IN /\ recvset' = [recvset EXCEPT ![i] = rv]
       /\ outofelection' = IF dec1 THEN outofelection
                                   ELSE [outofelection EXCEPT ![i] = ov]
       /\ logicalclock' = IF dec2 THEN [logicalclock EXCEPT ![i] = m.epoch] ELSE logicalclock
       /\ proposedLeader' = IF dec THEN [proposedLeader EXCEPT ![i] = m.leader] ELSE proposedLeader
       /\ proposedZxid' = IF dec THEN [proposedZxid EXCEPT ![i] = m.zxid] ELSE proposedZxid
       /\ state' = IF dec THEN [state EXCEPT ![i] = role] ELSE state
       /\ electing' = IF dec THEN [electing EXCEPT ![i] = FALSE] ELSE electing
       /\ msgs' = rest
       /\ UNCHANGED zxid

HandleNotification(i, m) ==
    /\ m \in msgs
    /\ m.to = i
    /\ electing[i] \/ state[i] # "LOOKING"
    /\ LET rest == msgs \ {m} IN
       IF state[i] # "LOOKING"
       THEN \* not electing: tell a LOOKING peer whom we follow
            /\ msgs' = IF m.state = "LOOKING"
                       THEN rest \cup {Msg(i, m.from, state[i], proposedLeader[i],
                                           proposedZxid[i], logicalclock[i])}
                       ELSE rest
            /\ UNCHANGED <<state, electing, logicalclock, proposedLeader, proposedZxid, zxid,
                           recvset, outofelection>>
       ELSE IF m.state = "LOOKING" THEN HandleLooking(i, m, rest)
                                   ELSE HandleDecided(i, m, rest)

\* End of the finalize wait: a quorum agrees with us and no better notification is pending.
BecomeLeader(i) ==
    /\ state[i] = "LOOKING"
    /\ electing[i]
    /\ proposedLeader[i] = i
    /\ TermPredicate(recvset[i], i, proposedZxid[i], logicalclock[i])
    /\ ~\E m \in msgs : m.to = i /\ TotalOrder(m.leader, m.zxid, proposedLeader[i], proposedZxid[i])
    /\ state' = [state EXCEPT ![i] = "LEADING"]
    /\ electing' = [electing EXCEPT ![i] = FALSE]
    /\ UNCHANGED <<logicalclock, proposedLeader, proposedZxid, zxid, recvset, outofelection, msgs>>

Next ==
    \E i \in Server :
        \/ Notification(i)
        \/ \E m \in msgs : HandleNotification(i, m)
        \/ BecomeLeader(i)

\* Every peer keeps taking its steps and every link keeps delivering (the network reorders,
\* but a link with notifications in flight eventually delivers one of them).
Fairness ==
    \A i \in Server :
        /\ WF_vars(Notification(i))
        /\ WF_vars(BecomeLeader(i))
        /\ \A j \in Server : WF_vars(\E m \in msgs : m.from = j /\ HandleNotification(i, m))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
