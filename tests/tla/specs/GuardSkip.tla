---- MODULE GuardSkip ----
(* Actions under one \E whose first conjunct is the same guard (ch[q][p] # << >>): the fused *)
(* schedule tests it once per (p, q), and an action under it whose first conjunct is that     *)
(* guard skips its own test when the guard was TRUE (compile/schedule.py). The actions read   *)
(* values the guard computed (Head(ch[q][p])), a LET after it, and one action's first         *)
(* conjunct is another test. The binders are integers >= 1 (their type tests are dropped);   *)
(* Fire's \A and \E over P \ {p} are remembered per value of p (gen_action.DomainTable).      *)
EXTENDS Naturals, Sequences
VARIABLES ch, cnt
vars == <<ch, cnt>>
P == 1..3
Init == ch = [p \in P |-> [q \in P |-> <<>>]] /\ cnt = [p \in P |-> 0]

Send(p, q) ==
    /\ cnt[p] < 2
    /\ Len(ch[p][q]) < 2
    /\ ch' = [ch EXCEPT ![p][q] = Append(@, IF cnt[p] = 0 THEN "a" ELSE "b")]
    /\ cnt' = [cnt EXCEPT ![p] = @ + 1]

RecvA(p, q) ==
    /\ ch[q][p] # << >>
    /\ Head(ch[q][p]) = "a"
    /\ ch' = [ch EXCEPT ![q][p] = Tail(@)]
    /\ UNCHANGED cnt

RecvB(p, q) ==
    /\ ch[q][p] # << >>
    /\ LET m == Head(ch[q][p]) IN m = "b" /\ cnt[p] < 2
    /\ ch' = [ch EXCEPT ![q][p] = Tail(@), ![p][q] = Append(@, "a")]
    /\ cnt' = [cnt EXCEPT ![p] = @ + 1]

Drop(p, q) ==
    /\ ch[q][p] # << >>
    /\ Len(ch[q][p]) > 1
    /\ ch' = [ch EXCEPT ![q][p] = << >>]
    /\ UNCHANGED cnt

Fire(p) ==
    /\ cnt[p] = 2
    /\ \A q \in P \ {p} : ch[p][q] = << >> \/ Len(ch[q][p]) < 2
    /\ \E r \in P \ {p} : cnt[r] < 2
    /\ cnt' = [cnt EXCEPT ![p] = 3]
    /\ UNCHANGED ch

Next == \/ \E p \in P : \E q \in P \ {p} : Send(p, q)
        \/ \E p \in P : Fire(p)
        \/ \E p \in P : \E q \in P \ {p} : RecvA(p, q) \/ RecvB(p, q) \/ Drop(p, q)
Spec == Init /\ [][Next]_vars
Inv == \A p, q \in P : Len(ch[p][q]) <= 2
====
