---------------------------- MODULE Combinatorics ----------------------------
(* specula's text of the community module Combinatorics (native in TLC).     *)
EXTENDS Naturals

factorial[n \in Nat] == IF n = 0 THEN 1 ELSE n * factorial[n - 1]

\* the binomial coefficient n over k
choose(n, k) == factorial[n] \div (factorial[k] * factorial[n - k])
=============================================================================
