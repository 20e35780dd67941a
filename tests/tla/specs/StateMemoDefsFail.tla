---- MODULE StateMemoDefsFail ----
\* StateMemoDefs with an action property violated (TLC's counts and trace at the violation).
EXTENDS StateMemoDefs
====
