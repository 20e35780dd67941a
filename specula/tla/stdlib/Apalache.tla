------------------------------- MODULE Apalache -----------------------------
(* specula's text of the Apalache model checker's module: names and       *)
(* arities for specs with Apalache annotations; explicit-state semantics.  *)
LOCAL INSTANCE Integers
LOCAL INSTANCE Sequences
LOCAL INSTANCE TLC

x := e == x = e
Gen(size) == CHOOSE v : TRUE
Guess(S) == CHOOSE x \in S : TRUE
Skolem(e) == e
Expand(S) == S
ConstCardinality(cardExpr) == cardExpr
MkSeq(N, F(_)) == [i \in 1 .. N |-> F(i)]
FunAsSeq(fn, len, capacity) == [i \in 1 .. len |-> fn[i]]
Repeat(F(_, _), N, x) ==
  LET R[i \in 0 .. N] == IF i = 0 THEN x ELSE F(R[i - 1], i) IN R[N]
SetAsFun(S) ==
  LET Dom == { p[1] : p \in S } IN [k \in Dom |-> CHOOSE v : <<k, v>> \in S]
ApaFoldSet(Op(_, _), v, S) ==
  LET F[T \in SUBSET S] == IF T = {} THEN v ELSE LET x == CHOOSE y \in T : TRUE IN Op(F[T \ {x}], x)
  IN F[S]
ApaFoldSeqLeft(Op(_, _), v, seq) ==
  LET F[i \in 0 .. Len(seq)] == IF i = 0 THEN v ELSE Op(F[i - 1], seq[i]) IN F[Len(seq)]
Something(e) == e
=============================================================================
