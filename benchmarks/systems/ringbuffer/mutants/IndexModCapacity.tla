---- MODULE IndexModCapacity ----
(***************************************************************************)
(* MUTANT of model of benchmarks/systems/ringbuffer (ringbuffer.py): a     *)
(* single-producer/single-consumer ring of Capacity slots (a power of two) *)
(* with free-running head/tail counters that wrap at Wrap (a multiple of   *)
(* Capacity), not at Capacity. Slot of counter c: (c % Capacity) + 1.      *)
(* Full iff tail - head = Capacity (mod Wrap): no slot is wasted. A pop    *)
(* does not clear its slot. 0 is the initial slot content.                 *)
(***************************************************************************)
EXTENDS Naturals, Sequences, TLC

\* MUTANT IndexModCapacity: the consumer index kept modulo the capacity (head is a slot
\* index), but the real counters run freely and wrap only at 2^bits. Fails Pop.

CONSTANTS Capacity, Wrap, Values

VARIABLES head, tail, slots

vars == <<head, tail, slots>>

Count == (tail + Wrap - head) % Wrap

Slot(c) == (c % Capacity) + 1

TypeOK ==
    /\ head \in 0..(Wrap - 1)
    /\ tail \in 0..(Wrap - 1)
    /\ slots \in [1..Capacity -> Values \cup {0}]
    /\ Count <= Capacity

Init ==
    /\ head = 0
    /\ tail = 0
    /\ slots = [i \in 1..Capacity |-> 0]

\* Producer: write the slot at tail, then publish it by advancing tail.
Push(v) ==
    /\ Count < Capacity
    /\ slots' = [slots EXCEPT ![Slot(tail)] = v]
    /\ tail' = (tail + 1) % Wrap
    /\ UNCHANGED head

\* Consumer: read the slot at head (the value v), then free it by advancing head.
Pop(v) ==
    /\ Count > 0
    /\ v = slots[Slot(head)]
    /\ head' = (head + 1) % Capacity
    /\ UNCHANGED <<tail, slots>>

Next == \/ \E v \in Values : Push(v)
        \/ \E v \in Values : Pop(v)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
=============================================================================
