---- MODULE ClockNF ----
\* A three-position clock; Spec is weakly fair, SpecNF has no fairness.
EXTENDS Naturals
VARIABLE x
Init == x = 0
Tick == x' = (x + 1) % 3
Spec == Init /\ [][Tick]_x /\ WF_x(Tick)
SpecNF == Init /\ [][Tick]_x

AlwaysZero == []<>(x = 0)
ReachTwo == <>(x = 2)
SettleOne == <>[](x = 1)
LeadsZero == (x = 1) ~> (x = 0)
Disj == []<>(x = 0) \/ <>[](x = 1)
DisjBox == <>[](x = 1) \/ [](x < 2)
Impl == (<>(x = 2)) => []<>(x = 1)
Nested == <>(x = 1 /\ <>(x = 2 /\ <>(x = 0)))
Steps == [][x' = (x + 1) % 3]_x
TakesOne == []<><<x' = 1>>_x
TicksForever == []<><<Tick>>_x
FairTick == WF_x(Tick)
Bounded == [](x < 3)
NotAlwaysOne == ~<>[](x = 1)
Mixed == ([]<>(x = 0) /\ []<>(x = 2)) \/ <>[](x = 1)
====
