---- MODULE SymmetricPairs ----
\* Two symmetry sets whose values end up paired (a process holding a value), in records, sets of
\* sets, sequences and functions keyed by model values: states whose orbit representatives need
\* more than one permutation to be told apart. TLC's counts are in expected.json.
EXTENDS Naturals, Sequences, TLC
CONSTANTS Procs, Vals, NoVal
VARIABLES pick, sent, log, groups

Init == /\ pick = [p \in Procs |-> NoVal]
        /\ sent = {}
        /\ log = <<>>
        /\ groups = {}

Choose(p, v) == /\ pick[p] = NoVal
                /\ pick' = [pick EXCEPT ![p] = v]
                /\ sent' = sent \cup {[from |-> p, val |-> v]}
                /\ UNCHANGED <<log, groups>>

Ack(p) == \E m \in sent : /\ m.from /= p
                          /\ Len(log) < 2
                          /\ log' = Append(log, <<p, m.val>>)
                          /\ UNCHANGED <<pick, sent, groups>>

Join(p, q) == /\ p /= q
              /\ {p, q} \notin groups
              /\ pick[p] = pick[q]
              /\ groups' = groups \cup {{p, q}}
              /\ UNCHANGED <<pick, sent, log>>

Next == \/ \E p \in Procs, v \in Vals : Choose(p, v)
        \/ \E p \in Procs : Ack(p)
        \/ \E p, q \in Procs : Join(p, q)

Sym == Permutations(Procs) \cup Permutations(Vals)
====
