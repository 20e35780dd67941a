---- MODULE TraceQueue ----
EXTENDS Naturals, TLC
CONSTANT Stop
VARIABLE l
Init == l = 1
Next == l < Stop /\ l' = l + 1
Matched == [](l <= 5 => [](TLCGet("queue") = 1 \/ l > 5))
====
