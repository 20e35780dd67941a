-------------------------------- MODULE Folds -------------------------------
(* specula's text of the community module Folds. *)
LOCAL INSTANCE Naturals

MapThenFoldSet(op(_, _), base, f(_), choose(_), S) ==
  LET iter[T \in SUBSET S] ==
        IF T = {} THEN base
        ELSE LET x == choose(T) IN op(f(x), iter[T \ {x}])
  IN iter[S]
=============================================================================
