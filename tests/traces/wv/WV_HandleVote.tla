---- MODULE WV_HandleVote ----
\* A window-validation module in SysMoBench's style (written for specula's tests).
EXTENDS Naturals, Sequences, TLC, Json, IOUtils
CONSTANTS Nodes, None
VARIABLES term, votedFor, log, msgs, timer
VARIABLES step

S == INSTANCE Vote

AllWindows == ndJsonDeserialize("windows_HandleVote.ndjson")
w == AllWindows[atoi(IOEnv.WINDOW_INDEX)]

Entry(t) == [term |-> t, cmd |-> "x"]
\* the last entry carries the window's last term, the others term 0
MakeLog(len, last) == [i \in 1..len |-> Entry(IF i = len THEN last ELSE 0)]

\* the window names the fields src/dst/lastLogTerm; the spec reads from/to/lastTerm
Trigger == [kind |-> "vote", from |-> w.input.src, to |-> w.input.dst,
            term |-> w.input.term, lastTerm |-> w.input.lastLogTerm]

vars == <<term, votedFor, log, msgs, timer, step>>

Init ==
    /\ term = w.pre.term
    /\ votedFor = w.pre.votedFor
    /\ log = [n \in Nodes |-> MakeLog(w.pre.logLen[n], w.pre.logLastTerm[n])]
    /\ msgs = {Trigger}
    /\ timer = [n \in Nodes |-> 0]
    /\ step = 0

Next ==
    /\ step = 0
    /\ \E m \in msgs : S!HandleVote(m)
    /\ step' = 1

PostReached ==
    /\ step = 1
    /\ term = w.post.term
    /\ votedFor = w.post.votedFor
    /\ \A n \in Nodes : Len(log[n]) = w.post.logLen[n]

NeverPost == ~PostReached

Spec == Init /\ [][Next]_vars
====
