-------------------------------- MODULE TLAPS -------------------------------
(* specula's stub of the TLA+ proof system's TLAPS module: the backend     *)
(* pragmas are names only (proofs are parsed and ignored by specula).      *)
SMT == TRUE
SMTT(X) == TRUE
CVC3 == TRUE
CVC3T(X) == TRUE
Yices == TRUE
YicesT(X) == TRUE
veriT == TRUE
veriTT(X) == TRUE
Z3 == TRUE
Z3T(X) == TRUE
Spass == TRUE
SpassT(X) == TRUE
LS4 == TRUE
PTL == TRUE
Zenon == TRUE
ZenonT(X) == TRUE
Isa == TRUE
IsaT(X) == TRUE
IsaM(X) == TRUE
IsaMT(X, Y) == TRUE
Auto == TRUE
Force == TRUE
Blast == TRUE
SimplifyAndSolve == TRUE
Simplification == TRUE
AutoBlast == TRUE
SlowInduct == TRUE
Induct == TRUE
SetExtensionality == TRUE
NoSetContainsEverything == TRUE
IsaWithSetExtensionality == TRUE
ExpandENABLED == TRUE
ExpandCdot == TRUE
AutoUSE == TRUE
Lambdify == TRUE
ENABLEDaxioms == TRUE
ENABLEDrewrites == TRUE
ENABLEDrules == TRUE
LevelComparison == TRUE
Trivial == TRUE
=============================================================================
