------------------------------- MODULE ShiViz --------------------------------
(* specula's text of the community module ShiViz: Host and Clock of a state  *)
(* of a PlusCal trace (variable pc) as ShiViz reads them: the process whose   *)
(* pc changed, and a vector clock counting each process's steps.              *)
LOCAL INSTANCE Integers
LOCAL INSTANCE Json
LOCAL INSTANCE TLC
INSTANCE Toolbox

\* the process that moved into state i (the previous one's when pc is unchanged)
LOCAL Movers ==
  LET h[i \in DOMAIN _TETrace] ==
        IF i = 1 THEN "--"
        ELSE IF _TETrace[i - 1].pc = _TETrace[i].pc THEN h[i - 1]
        ELSE CHOOSE p \in DOMAIN _TETrace[i - 1].pc : _TETrace[i - 1].pc[p] # _TETrace[i].pc[p]
  IN TLCEval(h)

Host == Movers[_TEPosition]

LOCAL Tick(i) ==
  [p \in DOMAIN _TETrace[i].pc |-> IF i > 1 /\ p = Movers[i] THEN 1 ELSE 0]

LOCAL Clocks ==
  LET c[i \in DOMAIN _TETrace] ==
        IF i = 1 THEN Tick(1)
        ELSE LET prev == TLCEval(c[i - 1]) IN [p \in DOMAIN prev |-> prev[p] + Tick(i)[p]]
  IN TLCEval(c)

Clock == ToJsonObject(Clocks[_TEPosition])
=============================================================================
