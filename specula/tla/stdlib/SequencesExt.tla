----------------------------- MODULE SequencesExt ---------------------------
(* specula's text of the community module SequencesExt. *)
LOCAL INSTANCE Sequences
LOCAL INSTANCE Naturals
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE Functions
LOCAL INSTANCE Folds
LOCAL INSTANCE TLC

LOCAL Max(S) == CHOOSE x \in S : \A y \in S : x >= y
LOCAL Min(S) == CHOOSE x \in S : \A y \in S : x <= y

ToSet(s) == { s[i] : i \in DOMAIN s }
SetToSeq(S) == CHOOSE f \in [1 .. Cardinality(S) -> S] : IsInjective(f)
SetToSeqs(S) == { f \in [1 .. Cardinality(S) -> S] : IsInjective(f) }
SetToSortSeq(S, op(_, _)) == SortSeq(SetToSeq(S), op)
SetToAllKPermutations(S) == UNION { SetToSeqs(T) : T \in SUBSET S }
TupleOf(set, n) == [1 .. n -> set]
SeqOf(set, n) == UNION { [1 .. m -> set] : m \in 0 .. n }
BoundedSeq(S, n) == SeqOf(S, n)
Contains(s, e) == \E i \in 1 .. Len(s) : s[i] = e
Reverse(s) == [i \in 1 .. Len(s) |-> s[(Len(s) - i) + 1]]
Remove(s, e) == SelectSeq(s, LAMBDA t : t # e)
ReplaceAll(s, old, new) == [i \in 1 .. Len(s) |-> IF s[i] = old THEN new ELSE s[i]]
SelectInSubSeq(seq, from, to, Test(_)) ==
  LET I == { i \in from .. to : Test(seq[i]) } IN IF I = {} THEN 0 ELSE Min(I)
SelectInSeq(seq, Test(_)) == SelectInSubSeq(seq, 1, Len(seq), Test)
SelectLastInSubSeq(seq, from, to, Test(_)) ==
  LET I == { i \in from .. to : Test(seq[i]) } IN IF I = {} THEN 0 ELSE Max(I)
SelectLastInSeq(seq, Test(_)) == SelectLastInSubSeq(seq, 1, Len(seq), Test)
InsertAt(s, i, e) == SubSeq(s, 1, i - 1) \o <<e>> \o SubSeq(s, i, Len(s))
ReplaceAt(s, i, e) == [s EXCEPT ![i] = e]
RemoveAt(s, i) == SubSeq(s, 1, i - 1) \o SubSeq(s, i + 1, Len(s))
Cons(elt, seq) == <<elt>> \o seq
Front(s) == SubSeq(s, 1, Len(s) - 1)
Last(s) == s[Len(s)]
IsPrefix(s, t) == Len(s) <= Len(t) /\ SubSeq(s, 1, Len(s)) = SubSeq(t, 1, Len(s))
IsStrictPrefix(s, t) == IsPrefix(s, t) /\ s # t
IsSuffix(s, t) == IsPrefix(Reverse(s), Reverse(t))
IsStrictSuffix(s, t) == IsSuffix(s, t) /\ s # t
Prefixes(s) == { SubSeq(s, 1, l) : l \in 0 .. Len(s) }
CommonPrefixes(S) == LET P == UNION { Prefixes(s) : s \in S } IN { p \in P : \A t \in S : IsPrefix(p, t) }
LongestCommonPrefix(S) == CHOOSE p \in CommonPrefixes(S) : \A q \in CommonPrefixes(S) : Len(q) <= Len(p)
SeqMod(a, b) == IF a % b = 0 THEN b ELSE a % b
FoldLeft(op(_, _), base, seq) ==
  LET F[i \in 0 .. Len(seq)] == IF i = 0 THEN base ELSE op(F[i - 1], seq[i]) IN F[Len(seq)]
FoldRight(op(_, _), seq, base) ==
  LET F[i \in 0 .. Len(seq)] == IF i = 0 THEN base ELSE op(seq[(Len(seq) - i) + 1], F[i - 1]) IN F[Len(seq)]
FoldSeq(op(_, _), base, seq) == FoldRight(op, seq, base)
FoldLeftDomain(op(_, _), base, seq) ==
  LET F[i \in 0 .. Len(seq)] == IF i = 0 THEN base ELSE op(F[i - 1], i) IN F[Len(seq)]
FoldRightDomain(op(_, _), seq, base) ==
  LET F[i \in 0 .. Len(seq)] == IF i = 0 THEN base ELSE op((Len(seq) - i) + 1, F[i - 1]) IN F[Len(seq)]
FlattenSeq(seqs) == FoldLeft(LAMBDA a, b : a \o b, << >>, seqs)
Zip(s, t) == [i \in 1 .. Len(s) |-> <<s[i], t[i]>>]
Interleave(s, t) == CHOOSE u \in Seq(ToSet(s) \cup ToSet(t)) : Len(u) = Len(s) + Len(t)
SubSeqs(s) == { SubSeq(s, i + 1, j) : i, j \in 0 .. Len(s) }
IndexFirstSubSeq(s, t) ==
  LET last == CHOOSE i \in 0 .. Len(t) : /\ s = SubSeq(t, i - (Len(s) - 1), i)
                                          /\ \A j \in 0 .. i - 1 : s # SubSeq(t, j - (Len(s) - 1), j)
  IN last - (Len(s) - 1)
ReplaceSubSeqAt(i, r, s, t) == SubSeq(t, 1, i - 1) \o r \o SubSeq(t, i + Len(s), Len(t))
ReplaceFirstSubSeq(r, s, t) ==
  IF s \in SubSeqs(t) THEN ReplaceSubSeqAt(IndexFirstSubSeq(s, t), r, s, t) ELSE t
ReplaceAllSubSeqs(r, s, t) == t
=============================================================================
