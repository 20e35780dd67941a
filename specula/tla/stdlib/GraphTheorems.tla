---- MODULE GraphTheorems ----
(* specula's stub of the TLAPS library module GraphTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS Graphs, Sequences
====
