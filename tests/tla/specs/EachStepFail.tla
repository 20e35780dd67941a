---- MODULE EachStepFail ----
\* Invariant conjuncts \A x \in S : P(x) (P reads no variable) with S a variable (a set that
\* grows and shrinks) and S an expression of a sequence variable (Range), on successors that
\* change S's variables and successors that leave them as they are; the second fails when 4
\* enters the log (a state whose set of messages had it).
EXTENDS Naturals, Sequences
VARIABLES msgs, log, y
Init == msgs = {} /\ log = <<>> /\ y = 0
Next == \/ \E m \in 0..4 : msgs' = msgs \cup {[v |-> m]} /\ UNCHANGED <<log, y>>
        \/ \E m \in msgs : /\ msgs' = msgs \ {m}
                           /\ log' = IF Len(log) < 3 THEN Append(log, m.v) ELSE log
                           /\ UNCHANGED y
        \/ y' = (y + 1) % 3 /\ UNCHANGED <<msgs, log>>
Range(s) == {s[i] : i \in DOMAIN s}
Inv == /\ \A m \in msgs : m.v < 5
       /\ \A e \in Range(log) : e < 4
       /\ y < 3
====
