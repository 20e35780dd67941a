---------------------------- MODULE FiniteSetsExt ---------------------------
(* specula's text of the community module FiniteSetsExt.  Like the community *)
(* module it EXTENDS (so re-exports) Integers, FiniteSets, Folds and          *)
(* Functions.  FoldSet, Quantify, kSubset, Max, Min and SumSet are native.    *)
EXTENDS Integers, FiniteSets, Folds, Functions

\* op folded over the elements of set, starting from base
FoldSet(op(_, _), base, set) ==
  MapThenFoldSet(op, base, LAMBDA x : x, LAMBDA s : CHOOSE x \in s : TRUE, set)

SumSet(set) == FoldSet(LAMBDA a, b : a + b, 0, set)
ProductSet(set) == FoldSet(LAMBDA a, b : a * b, 1, set)
ReduceSet(op(_, _), set, acc) == FoldSet(op, acc, set)
MapThenSumSet(op(_), set) ==
  MapThenFoldSet(LAMBDA a, b : a + b, 0, op, LAMBDA s : CHOOSE x \in s : TRUE, set)
FlattenSet(S) == UNION S
SymDiff(A, B) == (A \ B) \cup (B \ A)

\* how many elements of S satisfy P
Quantify(S, P(_)) == Cardinality({ s \in S : P(s) })

\* the subsets of S with k elements
kSubset(k, S) == { T \in SUBSET S : Cardinality(T) = k }

Max(S) == CHOOSE x \in S : \A y \in S : x >= y
Min(S) == CHOOSE x \in S : \A y \in S : x <= y

\* the sets that pick one element of every set in Sets
Choices(Sets) ==
  LET Pickers == { f \in [Sets -> UNION Sets] : \A T \in Sets : f[T] \in T }
  IN { Range(f) : f \in Pickers }

\* the one element of S satisfying P
ChooseUnique(S, P(_)) == CHOOSE x \in S : P(x) /\ \A y \in S : P(y) => y = x
=============================================================================
