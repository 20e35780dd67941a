-------------------------------- MODULE TLC ---------------------------------
(* specula's text of the standard module TLC; the engine implements the   *)
(* side effects (printing, assertions, TLCGet/TLCSet) natively.           *)
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences
LOCAL INSTANCE FiniteSets

Print(out, val) == val
PrintT(out) == TRUE
Assert(val, out) == IF val = TRUE THEN TRUE ELSE CHOOSE v \in {} : TRUE
JavaTime == CHOOSE n \in Nat : TRUE
TLCGet(i) == CHOOSE n : TRUE
TLCSet(i, v) == TRUE

d :> e == [x \in {d} |-> e]
f @@ g == [x \in (DOMAIN f) \cup (DOMAIN g) |-> IF x \in DOMAIN f THEN f[x] ELSE g[x]]

Permutations(S) == { f \in [S -> S] : \A w \in S : \E v \in S : f[v] = w }

SortSeq(s, Op(_, _)) ==
  LET Perm == CHOOSE p \in Permutations(1 .. Len(s)) :
                \A i, j \in 1 .. Len(s) : (i < j) => Op(s[p[i]], s[p[j]]) \/ (s[p[i]] = s[p[j]])
  IN [i \in 1 .. Len(s) |-> s[Perm[i]]]

RandomElement(s) == CHOOSE x \in s : TRUE
Any == CHOOSE x : TRUE
ToString(v) == CHOOSE str \in STRING : TRUE
TLCEval(v) == v
=============================================================================
