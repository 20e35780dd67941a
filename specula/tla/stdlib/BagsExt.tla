------------------------------- MODULE BagsExt -------------------------------
(* specula's text of the community module BagsExt (bags as in Bags: functions *)
(* from elements to positive counts).  FoldBag and the operators built on it  *)
(* are native.                                                                *)
LOCAL INSTANCE Bags
LOCAL INSTANCE Integers
LOCAL INSTANCE Folds

\* B with one more copy of x
BagAdd(B, x) ==
  [e \in DOMAIN B \cup {x} |-> IF e = x THEN CopiesIn(e, B) + 1 ELSE B[e]]

\* B with one copy of x fewer (B itself when x is not in B)
BagRemove(B, x) ==
  IF x \notin DOMAIN B THEN B
  ELSE IF B[x] = 1 THEN [e \in DOMAIN B \ {x} |-> B[e]]
  ELSE [e \in DOMAIN B |-> IF e = x THEN B[e] - 1 ELSE B[e]]

\* B without any copy of x
BagRemoveAll(B, x) == [e \in DOMAIN B \ {x} |-> B[e]]

\* fold op over every copy of every element of B (mapped by f), base first
MapThenFoldBag(op(_, _), base, f(_), choose(_), B) ==
  LET AllCopies(x) ==
        LET It[k \in 1 .. B[x]] == op(IF k = 1 THEN base ELSE It[k - 1], f(x)) IN It[B[x]]
  IN MapThenFoldSet(op, base, AllCopies, choose, DOMAIN B)

FoldBag(op(_, _), base, B) ==
  MapThenFoldBag(op, base, LAMBDA x : x, LAMBDA S : CHOOSE x \in S : TRUE, B)

SumBag(B) == FoldBag(LAMBDA a, b : a + b, 0, B)

ProductBag(B) == FoldBag(LAMBDA a, b : a * b, 1, B)
=============================================================================
