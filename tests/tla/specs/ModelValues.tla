---- MODULE ModelValues ----
CONSTANTS Vals, None
VARIABLE slot
Init == slot = None
Put(v) == slot = None /\ slot' = v
Take == slot /= None /\ slot' = None
Next == (\E v \in Vals : Put(v)) \/ Take
Inv == slot \in Vals \cup {None}
====
