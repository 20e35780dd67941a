-------------------------------- MODULE Folds -------------------------------
(* specula's text of the community module Folds: op(f(x1), op(f(x2), ...     *)
(* op(f(xn), base))) where x1 = choose(S), x2 = choose(S \ {x1}), ...         *)
LOCAL INSTANCE Naturals

MapThenFoldSet(op(_, _), base, f(_), choose(_), S) ==
  LET iter[T \in SUBSET S] ==
        IF T = {} THEN base
        ELSE LET x == choose(T) IN op(f(x), iter[T \ {x}])
  IN iter[S]
=============================================================================
