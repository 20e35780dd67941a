---- MODULE Strings ----
EXTENDS Naturals, Sequences
VARIABLE log
Init == log = <<>>
Next == Len(log) < 3 /\ \E w \in {"ping", "pong"} : log' = Append(log, w)
NoDoublePong == \A i \in 1..Len(log) - 1 : ~(log[i] = "pong" /\ log[i + 1] = "pong")
====
