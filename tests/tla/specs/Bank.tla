---- MODULE Bank ----
EXTENDS Naturals
CONSTANTS Accounts, Total
VARIABLE bal
Init == bal \in {f \in [Accounts -> 0..Total] : f["a"] + f["b"] + f["c"] = Total}
Transfer(from, to) == from /= to /\ bal[from] > 0
    /\ bal' = [bal EXCEPT ![from] = @ - 1, ![to] = @ + 1]
Next == \E f, t \in Accounts : Transfer(f, t)
Conserved == bal["a"] + bal["b"] + bal["c"] = Total
====
