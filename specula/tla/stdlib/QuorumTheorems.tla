---- MODULE QuorumTheorems ----
(* specula's stub of the TLAPS library module QuorumTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS Quorum, Integers, FiniteSets
====
