---- MODULE SequencesExtTheorems ----
(* specula's stub of the TLAPS library module SequencesExtTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain and the definitions the
   theorems are stated with. *)
EXTENDS SequencesExt, Sequences, Functions, Integers, WellFoundedInduction, SequenceTheorems

\* Def(g, seq) depends on g only through g's values at the strict prefixes of seq
StrictPrefixesDetermineDef(S, Def(_, _)) ==
    \A g, h : \A seq \in Seq(S) :
        (\A p \in Seq(S) : IsStrictPrefix(p, seq) => g[p] = h[p]) => Def(g, seq) = Def(h, seq)

\* Def(g, seq) depends on g only through g's values at the strict suffixes of seq
StrictSuffixesDetermineDef(S, Def(_, _)) ==
    \A g, h : \A seq \in Seq(S) :
        (\A p \in Seq(S) : IsStrictSuffix(p, seq) => g[p] = h[p]) => Def(g, seq) = Def(h, seq)

\* f is defined over Seq(S) by recursion on the tail: f0 at <<>>, Def(f[Tail(s)], s) elsewhere
TailInductiveDefHypothesis(f, S, f0, Def(_, _)) ==
    f = CHOOSE g : g = [s \in Seq(S) |-> IF s = << >> THEN f0 ELSE Def(g[Tail(s)], s)]

TailInductiveDefConclusion(f, S, f0, Def(_, _)) ==
    f = [s \in Seq(S) |-> IF s = << >> THEN f0 ELSE Def(f[Tail(s)], s)]

\* the same by recursion on the front (all elements but the last)
FrontInductiveDefHypothesis(f, S, f0, Def(_, _)) ==
    f = CHOOSE g : g = [s \in Seq(S) |-> IF s = << >> THEN f0 ELSE Def(g[Front(s)], s)]

FrontInductiveDefConclusion(f, S, f0, Def(_, _)) ==
    f = [s \in Seq(S) |-> IF s = << >> THEN f0 ELSE Def(f[Front(s)], s)]
====
