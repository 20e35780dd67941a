---- MODULE SeqOps ----
EXTENDS Naturals, Sequences
VARIABLE s
IsEven(x) == x % 2 = 0
Init == s = <<1, 2, 3>>
Rot == s' = Tail(s) \o <<Head(s)>>
Cut == Len(s) > 1 /\ s' = SubSeq(s, 2, Len(s))
Evens == s' = SelectSeq(s, IsEven) \o <<4>>
Rev == s' = [i \in 1..Len(s) |-> s[Len(s) - i + 1]]
Next == (s /= <<>> /\ (Rot \/ Cut)) \/ (Len(s) < 4 /\ Evens) \/ Rev
Inv == Len(s) <= 5
====
