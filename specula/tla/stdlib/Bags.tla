-------------------------------- MODULE Bags --------------------------------
(* specula's text of the standard module Bags: a bag is a function from   *)
(* its elements to positive counts.                                        *)
EXTENDS TLC
LOCAL INSTANCE Naturals

IsABag(B) == B \in [DOMAIN B -> { n \in Nat : n > 0 }]
BagToSet(B) == DOMAIN B
SetToBag(S) == [e \in S |-> 1]
BagIn(e, B) == e \in BagToSet(B)
EmptyBag == SetToBag({})
CopiesIn(e, B) == IF BagIn(e, B) THEN B[e] ELSE 0

B1 (+) B2 == [e \in (DOMAIN B1) \cup (DOMAIN B2) |-> CopiesIn(e, B1) + CopiesIn(e, B2)]

B1 (-) B2 ==
  LET Keep == { e \in DOMAIN B1 : CopiesIn(e, B1) > CopiesIn(e, B2) }
  IN [e \in Keep |-> B1[e] - CopiesIn(e, B2)]

LOCAL SumOf(f) ==
  LET S[D \in SUBSET DOMAIN f] ==
        IF D = {} THEN EmptyBag
        ELSE LET x == CHOOSE y \in D : TRUE IN f[x] (+) S[D \ {x}]
  IN S[DOMAIN f]

BagUnion(S) == SumOf([b \in S |-> b])

B1 \sqsubseteq B2 == \A e \in DOMAIN B1 : CopiesIn(e, B1) <= CopiesIn(e, B2)

SubBag(B) == { SB \in UNION { [D -> 1 .. 1000] : D \in SUBSET DOMAIN B } : SB \sqsubseteq B }

BagOfAll(F(_), B) ==
  [y \in { F(x) : x \in DOMAIN B } |->
     LET Pre == { x \in DOMAIN B : F(x) = y }
         Cnt[D \in SUBSET Pre] == IF D = {} THEN 0
                                   ELSE LET x == CHOOSE z \in D : TRUE IN B[x] + Cnt[D \ {x}]
     IN Cnt[Pre]]

BagCardinality(B) ==
  LET Cnt[D \in SUBSET DOMAIN B] == IF D = {} THEN 0
                                     ELSE LET x == CHOOSE z \in D : TRUE IN B[x] + Cnt[D \ {x}]
  IN Cnt[DOMAIN B]
=============================================================================
