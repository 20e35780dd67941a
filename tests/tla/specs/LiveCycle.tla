---- MODULE LiveCycle ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = (x + 1) % 4
Spec == Init /\ [][Next]_x /\ WF_x(Next)
InfOften == []<>(x = 0)
Reach == <>(x = 3)
Leads == (x = 1) ~> (x = 2)
Steps == []<><<Next>>_x
====
