---- MODULE WV_Acquire ----
\* Window validator for Acquire (SysMoBench's style): WINDOW_INDEX selects the window; the
\* unobserved budget is free within 0..2 (Retry's TypeOK only says Nat).
EXTENDS Naturals, FiniteSets, TLC, Json, IOUtils

CONSTANTS Threads

VARIABLES held, pc, budget, step

vars == <<held, pc, budget, step>>

S == INSTANCE Retry

AllWindows == ndJsonDeserialize("windows_Acquire.ndjson")
w == AllWindows[atoi(IOEnv.WINDOW_INDEX)]

Init ==
    /\ held = w.pre.held
    /\ pc = w.pre.pc
    /\ budget \in 0..2
    /\ step = 0

Next ==
    /\ step = 0
    /\ \E t \in Threads : S!Acquire(t)
    /\ step' = 1

PostReached ==
    /\ step = 1
    /\ held = w.post.held
    /\ pc = w.post.pc

NeverPost == ~PostReached

Spec == Init /\ [][Next]_vars
====
