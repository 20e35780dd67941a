------------------------------- MODULE Toolbox -------------------------------
(* specula's text of TLC's Toolbox module (trace exploration): _TETrace is   *)
(* the trace being explored and _TEPosition the position in it.               *)
LOCAL INSTANCE Naturals
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE TLC

_TETrace == CHOOSE f \in [(Nat \ {0}) -> STRING] : TRUE
LOCAL _TETraceLength == Cardinality(DOMAIN _TETrace)
_TEPosition ==
  IF TLCGet("level") >= _TETraceLength THEN _TETraceLength
  ELSE IF TLCGet("level") = 0 THEN 1 ELSE TLCGet("level")
=============================================================================
