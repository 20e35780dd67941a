---------------------------- MODULE FiniteSetsExt ---------------------------
(* specula's text of the community module FiniteSetsExt. *)
LOCAL INSTANCE Naturals
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE Functions
LOCAL INSTANCE Folds

FoldSet(op(_, _), base, set) ==
  MapThenFoldSet(op, base, LAMBDA x : x, LAMBDA s : CHOOSE x \in s : TRUE, set)
SumSet(set) == FoldSet(LAMBDA a, b : a + b, 0, set)
ProductSet(set) == FoldSet(LAMBDA a, b : a * b, 1, set)
ReduceSet(op(_, _), set, acc) == FoldSet(op, acc, set)
FlattenSet(S) == UNION S
SymDiff(A, B) == (A \ B) \cup (B \ A)
Quantify(S, P(_)) == Cardinality({ s \in S : P(s) })
kSubset(k, S) == { T \in SUBSET S : Cardinality(T) = k }
Max(S) == CHOOSE x \in S : \A y \in S : x >= y
Min(S) == CHOOSE x \in S : \A y \in S : x <= y
Choices(Sets) == { f \in [Sets -> UNION Sets] : \A S \in Sets : f[S] \in S }
ChooseUnique(S, P(_)) == CHOOSE x \in S : P(x) /\ \A y \in S : P(y) => y = x
=============================================================================
