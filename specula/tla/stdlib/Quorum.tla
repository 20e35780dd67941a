-------------------------------- MODULE Quorum --------------------------------
(* specula's text of the community module Quorum.                            *)

\* the quorum systems over S: non-empty collections of subsets of S any two of
\* which intersect, and that hold every superset (within S) of a member
QuorumSystem(S) ==
    { QS \in SUBSET (SUBSET S) :
        /\ QS # {}
        /\ \A Q1, Q2 \in QS : Q1 \cap Q2 # {}
        /\ \A Q \in QS : \A R \in SUBSET S : Q \subseteq R => R \in QS }
===============================================================================
