----------------------------- MODULE locksvc_PeekGrant -----------------------------
\* MUTANT (textbook: the client tests for a grant in the channel without consuming it. Fails ClientCriticalSection)
(***************************************************************************)
(* Lock service over a message network (lockservice): clients send lock   *)
(* and unlock requests; the server keeps a FIFO queue whose head holds the *)
(* lock, grants on a request when the queue was empty and hands the lock  *)
(* to the next waiter on unlock.  Messages in flight are a set (each       *)
(* client has at most one outstanding message) delivered in any order.    *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, TLC

CONSTANTS Clients, Server

Nodes == Clients \cup {Server}

VARIABLES queue, pc, network

vars == <<queue, pc, network>>

Msg(t, f, d) == [type |-> t, from |-> f, to |-> d]

TypeOK ==
    /\ queue \in Seq(Clients)
    /\ pc \in [Clients -> {"idle", "waiting", "cs"}]
    /\ \A m \in network : m.type \in {"lock", "unlock", "grant"}

Init ==
    /\ queue = <<>>
    /\ pc = [c \in Clients |-> "idle"]
    /\ network = {}

ClientLockRequest(c) ==
    /\ pc[c] = "idle"
    /\ network' = network \cup {Msg("lock", c, Server)}
    /\ pc' = [pc EXCEPT ![c] = "waiting"]
    /\ UNCHANGED queue

\* The server serves one pending request (lock or unlock).
ServerGrantLock(m) ==
    /\ m \in network
    /\ m.to = Server
    /\ LET rest == network \ {m} IN
       IF m.type = "lock"
       THEN /\ queue' = Append(queue, m.from)
            /\ network' = IF queue = <<>> THEN rest \cup {Msg("grant", Server, m.from)} ELSE rest
       ELSE /\ m.type = "unlock"
            /\ queue' = Tail(queue)
            /\ network' = IF Tail(queue) # <<>>
                          THEN rest \cup {Msg("grant", Server, Head(Tail(queue)))}
                          ELSE rest
    /\ UNCHANGED pc

ClientCriticalSection(c, m) ==
    /\ pc[c] = "waiting"
    /\ m \in network
    /\ m = Msg("grant", Server, c)
    /\ UNCHANGED network   \* MUTANT: the grant is read like shared state, never received
    /\ pc' = [pc EXCEPT ![c] = "cs"]
    /\ UNCHANGED queue

ClientUnlockRequest(c) ==
    /\ pc[c] = "cs"
    /\ network' = network \cup {Msg("unlock", c, Server)}
    /\ pc' = [pc EXCEPT ![c] = "idle"]
    /\ UNCHANGED queue

Next ==
    \/ \E c \in Clients : ClientLockRequest(c)
    \/ \E m \in network : ServerGrantLock(m)
    \/ \E c \in Clients, m \in network : ClientCriticalSection(c, m)
    \/ \E c \in Clients : ClientUnlockRequest(c)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
=============================================================================
