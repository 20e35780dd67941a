---- MODULE ChooseCase ----
EXTENDS Naturals
VARIABLES x, mode
Init == x = (CHOOSE v \in 1..10 : v * v > 20) /\ mode = "up"
Next == CASE mode = "up" /\ x < 9 -> x' = x + 2 /\ UNCHANGED mode
          [] mode = "up" -> x' = x /\ mode' = "down"
          [] mode = "down" /\ x > 1 -> x' = x - 3 /\ UNCHANGED mode
          [] OTHER -> x' = (CHOOSE y \in {4, 2, 7} : TRUE) /\ mode' = "up"
Inv == x \in 0..12
====
