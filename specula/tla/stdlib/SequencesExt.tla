----------------------------- MODULE SequencesExt ---------------------------
(* specula's text of the community module SequencesExt.  As the community    *)
(* module, it EXTENDS (re-exports) Sequences, Naturals, FiniteSets,           *)
(* FiniteSetsExt, Folds, Functions, Bags and TLC.  Most operators are native; *)
(* the definitions below give their meaning.                                  *)
EXTENDS Sequences, Naturals, FiniteSets, FiniteSetsExt, Folds, Functions, Bags, TLC

ToSet(s) == { s[i] : i \in DOMAIN s }
\* the bag of s's elements (how often each occurs)
ToBag(s) == [x \in Range(s) |-> Cardinality({ i \in DOMAIN s : s[i] = x })]
\* a sequence holding every element of S once
SetToSeq(S) == CHOOSE f \in [1 .. Cardinality(S) -> S] : IsInjective(f)
\* every sequence holding every element of S once
SetToSeqs(S) ==
  LET D == 1 .. Cardinality(S) IN { f \in [D -> S] : \A i, j \in D : i # j => f[i] # f[j] }
SetToSortSeq(S, op(_, _)) == SortSeq(SetToSeq(S), op)
SetToAllKPermutations(S) == UNION { SetToSeqs(T) : T \in SUBSET S }
TupleOf(set, n) == [1 .. n -> set]
SeqOf(set, n) == UNION { [1 .. m -> set] : m \in 0 .. n }
BoundedSeq(S, n) == SeqOf(S, n)

Contains(s, e) == \E i \in 1 .. Len(s) : s[i] = e
IsSorted(s, op(_, _)) == \A i, j \in 1 .. Len(s) : i < j => op(s[i], s[j])
Reverse(s) == [i \in 1 .. Len(s) |-> s[(Len(s) - i) + 1]]
Remove(s, e) == SelectSeq(s, LAMBDA t : t # e)
ReplaceAll(s, old, new) == [i \in 1 .. Len(s) |-> IF s[i] = old THEN new ELSE s[i]]

\* the first (last) index in from .. to whose element satisfies Test, 0 if none
\* (an index of seq, as TLC's implementation returns)
SelectInSubSeq(seq, from, to, Test(_)) ==
  LET I == { i \in from .. to : Test(seq[i]) } IN IF I = {} THEN 0 ELSE Min(I)
SelectInSeq(seq, Test(_)) == SelectInSubSeq(seq, 1, Len(seq), Test)
SelectLastInSubSeq(seq, from, to, Test(_)) ==
  LET I == { i \in from .. to : Test(seq[i]) } IN IF I = {} THEN 0 ELSE Max(I)
SelectLastInSeq(seq, Test(_)) == SelectLastInSubSeq(seq, 1, Len(seq), Test)

InsertAt(s, i, e) == SubSeq(s, 1, i - 1) \o <<e>> \o SubSeq(s, i, Len(s))
ReplaceAt(s, i, e) == [s EXCEPT ![i] = e]
RemoveAt(s, i) == SubSeq(s, 1, i - 1) \o SubSeq(s, i + 1, Len(s))
RemoveFirst(s, e) ==
  IF Contains(s, e) THEN RemoveAt(s, SelectInSeq(s, LAMBDA v : v = e)) ELSE s
RemoveFirstMatch(s, Test(_)) ==
  IF \E i \in 1 .. Len(s) : Test(s[i]) THEN RemoveAt(s, SelectInSeq(s, Test)) ELSE s

Cons(elt, seq) == <<elt>> \o seq
Snoc(elt, seq) == Append(seq, elt)
Front(s) == SubSeq(s, 1, Len(s) - 1)
Last(s) == s[Len(s)]

IsPrefix(s, t) == Len(s) <= Len(t) /\ SubSeq(s, 1, Len(s)) = SubSeq(t, 1, Len(s))
IsStrictPrefix(s, t) == IsPrefix(s, t) /\ s # t
IsSuffix(s, t) == IsPrefix(Reverse(s), Reverse(t))
IsStrictSuffix(s, t) == IsSuffix(s, t) /\ s # t
Prefixes(s) == { SubSeq(s, 1, l) : l \in 0 .. Len(s) }
CommonPrefixes(S) ==
  LET P == UNION { Prefixes(s) : s \in S } IN { p \in P : \A t \in S : IsPrefix(p, t) }
LongestCommonPrefix(S) ==
  CHOOSE p \in CommonPrefixes(S) : \A q \in CommonPrefixes(S) : Len(q) <= Len(p)
Suffixes(s) == { SubSeq(s, l, Len(s)) : l \in 1 .. Len(s) } \cup { << >> }

\* a mod b in 1 .. b (for indexing sequences)
SeqMod(a, b) == IF a % b = 0 THEN b ELSE a % b

FoldSeq(op(_, _), base, seq) == FoldFunction(op, base, seq)
\* op(...op(op(base, seq[1]), seq[2])..., seq[n])
FoldLeft(op(_, _), base, seq) ==
  MapThenFoldSet(LAMBDA x, y : op(y, x), base, LAMBDA i : seq[i], LAMBDA S : Max(S), DOMAIN seq)
\* op(seq[1], op(seq[2], ... op(seq[n], base)))
FoldRight(op(_, _), seq, base) ==
  MapThenFoldSet(op, base, LAMBDA i : seq[i], LAMBDA S : Min(S), DOMAIN seq)
FoldLeftDomain(op(_, _), base, seq) == FoldLeft(op, base, [i \in DOMAIN seq |-> i])
FoldRightDomain(op(_, _), seq, base) == FoldRight(op, [i \in DOMAIN seq |-> i], base)

\* the concatenation of the sequences in seqs (seqs itself when empty)
FlattenSeq(seqs) ==
  IF Len(seqs) = 0 THEN seqs
  ELSE LET F[i \in 1 .. Len(seqs)] == IF i = 1 THEN seqs[1] ELSE F[i - 1] \o seqs[i]
       IN F[Len(seqs)]
\* pairs of same-position elements, as long as the shorter sequence
Zip(s, t) ==
  LET n == IF Len(s) <= Len(t) THEN Len(s) ELSE Len(t) IN [i \in 1 .. n |-> <<s[i], t[i]>>]
\* << <<s[1]>>, <<t[1]>>, <<s[2]>>, <<t[2]>>, ... >> for sequences of one length
Interleave(s, t) ==
  CASE Len(s) = Len(t) /\ Len(s) > 0 ->
         [i \in 1 .. 2 * Len(s) |-> IF i % 2 = 1 THEN <<s[(i + 1) \div 2]>> ELSE <<t[i \div 2]>>]
    [] Len(s) = Len(t) /\ Len(s) = 0 -> << << >>, << >> >>
\* the contiguous subsequences of s
SubSeqs(s) == { SubSeq(s, i + 1, j) : i, j \in 0 .. Len(s) }
\* every subsequence of s, elements removed anywhere
AllSubSeqs(s) ==
  { [i \in 1 .. Cardinality(D) |-> s[CHOOSE k \in D : Cardinality({ m \in D : m <= k }) = i]] :
      D \in SUBSET DOMAIN s }
\* where s first occurs contiguously in t
IndexFirstSubSeq(s, t) ==
  LET last == CHOOSE i \in 0 .. Len(t) :
                /\ s \in SubSeqs(SubSeq(t, 1, i))
                /\ \A j \in 0 .. i - 1 : s \notin SubSeqs(SubSeq(t, 1, j))
  IN last - (Len(s) - 1)
ReplaceSubSeqAt(i, r, s, t) == SubSeq(t, 1, i - 1) \o r \o SubSeq(t, i + Len(s), Len(t))
ReplaceFirstSubSeq(r, s, t) ==
  IF s \in SubSeqs(t) THEN ReplaceSubSeqAt(IndexFirstSubSeq(s, t), r, s, t) ELSE t
\* every occurrence of s in t (leftmost first, not overlapping) replaced by r;
\* an empty s puts r before every element of t
RECURSIVE ReplaceAllSubSeqs(_, _, _)
ReplaceAllSubSeqs(r, s, t) ==
  IF s = t THEN r
  ELSE IF Len(s) = 0 THEN FlattenSeq([i \in 1 .. Len(t) |-> r \o <<t[i]>>])
  ELSE IF s \notin SubSeqs(t) THEN t
  ELSE LET i == IndexFirstSubSeq(s, t)
       IN SubSeq(t, 1, i - 1) \o r \o ReplaceAllSubSeqs(r, s, SubSeq(t, i + Len(s), Len(t)))
=============================================================================
