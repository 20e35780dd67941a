---- MODULE Jugs ----
EXTENDS Naturals
VARIABLES small, big
Min(a, b) == IF a < b THEN a ELSE b
Init == small = 0 /\ big = 0
FillSmall == small' = 3 /\ big' = big
FillBig == big' = 5 /\ small' = small
EmptySmall == small' = 0 /\ UNCHANGED big
EmptyBig == big' = 0 /\ UNCHANGED small
SmallToBig == LET m == Min(small, 5 - big) IN small' = small - m /\ big' = big + m
BigToSmall == LET m == Min(big, 3 - small) IN big' = big - m /\ small' = small + m
Next == FillSmall \/ FillBig \/ EmptySmall \/ EmptyBig \/ SmallToBig \/ BigToSmall
NotFour == big /= 4
====
