------------------------------ MODULE Statistics -----------------------------
(* specula's text of the community module Statistics.  ChiSquare is native:  *)
(* Pearson's chi-square goodness-of-fit test; TRUE when the hypothesis that   *)
(* actual follows expected is NOT rejected at significance level alpha (a     *)
(* string such as "0.05").                                                    *)
EXTENDS Naturals

ChiSquare(expected, actual, alpha) == TRUE
=============================================================================
