---- MODULE LiveOscillate ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == \/ x = 0 /\ x' = 1
        \/ x = 1 /\ x' = 0
        \/ x = 1 /\ x' = 2
        \/ x = 2 /\ x' = 2
Spec == Init /\ [][Next]_x /\ WF_x(Next)
Settles == <>[](x = 2)
NotStuck == []<>(x = 0)
====
