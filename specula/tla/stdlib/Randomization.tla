---------------------------- MODULE Randomization ---------------------------
(* specula's text of Randomization; the engine picks randomly (seeded).   *)
LOCAL INSTANCE Naturals
LOCAL INSTANCE FiniteSets

RandomSubset(k, S) == CHOOSE T \in SUBSET S : Cardinality(T) = k
RandomSetOfSubsets(k, n, S) == CHOOSE T \in SUBSET SUBSET S : Cardinality(T) <= k
RandomSubsetSet(k, n, S) == RandomSetOfSubsets(k, n, S)
TestRandomSetOfSubsets(k, n, S) == { Cardinality(RandomSetOfSubsets(k, n, S)) : i \in 1 .. 100 }
=============================================================================
