---- MODULE Queue ----
EXTENDS Naturals, Sequences
CONSTANTS Msgs, Cap
VARIABLES q, got
Init == q = <<>> /\ got = <<>>
Send(m) == Len(q) < Cap /\ q' = Append(q, m) /\ UNCHANGED got
Recv == /\ q /= <<>>
        /\ got' = IF Len(got) < 2 THEN got \o <<Head(q)>> ELSE Tail(got) \o <<Head(q)>>
        /\ q' = Tail(q)
Next == (\E m \in Msgs : Send(m)) \/ Recv
TypeOK == q \in Seq(Msgs) /\ Len(q) <= Cap /\ Len(got) <= 2
====
