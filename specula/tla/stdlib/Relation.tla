------------------------------- MODULE Relation ------------------------------
(* specula's text of the community module Relation: a relation R over S is a *)
(* Boolean function on S \X S (R[x, y]).  EXTENDS Naturals and FiniteSets, as *)
(* the community module does.  TransitiveClosure is native.                   *)
EXTENDS Naturals, FiniteSets

\* R as the Boolean function of op over S \X S
LOCAL AsRel(op(_, _), S) == [p \in S \X S |-> op(p[1], p[2])]

IsReflexive(R, S) == \A x \in S : R[x, x]
IsReflexiveUnder(op(_, _), S) == IsReflexive(AsRel(op, S), S)
IsIrreflexive(R, S) == \A x \in S : ~R[x, x]
IsIrreflexiveUnder(op(_, _), S) == IsIrreflexive(AsRel(op, S), S)
IsSymmetric(R, S) == \A x, y \in S : R[x, y] <=> R[y, x]
IsSymmetricUnder(op(_, _), S) == IsSymmetric(AsRel(op, S), S)
IsAntiSymmetric(R, S) == \A x, y \in S : R[x, y] /\ R[y, x] => x = y
IsAntiSymmetricUnder(op(_, _), S) == IsAntiSymmetric(AsRel(op, S), S)
IsAsymmetric(R, S) == \A x, y \in S : ~(R[x, y] /\ R[y, x])
IsAsymmetricUnder(op(_, _), S) == IsAsymmetric(AsRel(op, S), S)
IsTransitive(R, S) == \A x, y, z \in S : R[x, y] /\ R[y, z] => R[x, z]
IsTransitiveUnder(op(_, _), S) == IsTransitive(AsRel(op, S), S)
IsStrictlyPartiallyOrdered(R, S) ==
  IsIrreflexive(R, S) /\ IsAntiSymmetric(R, S) /\ IsTransitive(R, S)
IsStrictlyPartiallyOrderedUnder(op(_, _), S) == IsStrictlyPartiallyOrdered(AsRel(op, S), S)
IsPartiallyOrdered(R, S) == IsReflexive(R, S) /\ IsAntiSymmetric(R, S) /\ IsTransitive(R, S)
IsPartiallyOrderedUnder(op(_, _), S) == IsPartiallyOrdered(AsRel(op, S), S)
IsStrictlyTotallyOrdered(R, S) ==
  IsStrictlyPartiallyOrdered(R, S) /\ \A x, y \in S : x # y => R[x, y] \/ R[y, x]
IsStrictlyTotallyOrderedUnder(op(_, _), S) == IsStrictlyTotallyOrdered(AsRel(op, S), S)
IsTotallyOrdered(R, S) == IsPartiallyOrdered(R, S) /\ \A x, y \in S : R[x, y] \/ R[y, x]
IsTotallyOrderedUnder(op(_, _), S) == IsTotallyOrdered(AsRel(op, S), S)

\* R[x, y] for some chain x = z0, z1, ..., zk = y (k >= 1) of elements of S
TransitiveClosure(R, S) ==
  LET Step[n \in Nat] ==
        [x, y \in S |-> IF n = 0 THEN R[x, y]
                        ELSE Step[n - 1][x, y] \/ \E z \in S : Step[n - 1][x, z] /\ Step[n - 1][z, y]]
  IN Step[Cardinality(S)]
ReflexiveTransitiveClosure(R, S) ==
  LET T == TransitiveClosure(R, S) IN [x, y \in S |-> x = y \/ T[x, y]]
IsConnected(R, S) == LET T == ReflexiveTransitiveClosure(R, S) IN \A x, y \in S : T[x, y]
=============================================================================
