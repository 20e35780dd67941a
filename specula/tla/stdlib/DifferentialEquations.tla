------------------------ MODULE DifferentialEquations ------------------------
(* specula's text of the community module DifferentialEquations.  It is      *)
(* about the reals, which specula parses but does not evaluate (as TLC).      *)
LOCAL INSTANCE Reals
LOCAL INSTANCE Sequences

LOCAL PosReal == { r \in Real : r > 0 }
LOCAL Between(a, b) == { s \in Real : a < s /\ s < b }
LOCAL Around(r, e) == Between(r - e, r + e)

\* df is the derivative of f
LOCAL IsFirstDeriv(df, f) ==
  /\ df \in [DOMAIN f -> Real]
  /\ \A r \in DOMAIN f : \A e \in PosReal : \E d \in PosReal :
       \A s \in Around(r, d) \ {r} : (f[s] - f[r]) / (s - r) \in Around(df[r], e)

\* df is the n-th derivative of f
LOCAL IsDeriv(n, df, f) ==
  LET D[k \in 0 .. n, g \in [DOMAIN f -> Real]] ==
        IF k = 0 THEN g = f
        ELSE \E gg \in [DOMAIN f -> Real] : IsFirstDeriv(g, gg) /\ D[k - 1, gg]
  IN D[n, df]

\* the values at b of the solution on [a, b] of D[<<t, f, f', ...>>] = 0 with
\* f(a), f'(a), ... = InitVals
Integrate(D, a, b, InitVals) ==
  LET n == Len(InitVals)
      sol == CHOOSE g : \E e \in PosReal :
               /\ g \in [0 .. n -> [Between(a - e, b + e) -> Real]]
               /\ \A i \in 1 .. n : IsDeriv(i, g[i], g[0]) /\ g[i - 1][a] = InitVals[i]
               /\ \A r \in Between(a - e, b + e) : D[<<r>> \o [i \in 1 .. (n + 1) |-> g[i - 1][r]]] = 0
  IN [i \in 1 .. n |-> sol[i - 1][b]]
=============================================================================
