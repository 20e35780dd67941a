---- MODULE SequencesExtTheorems ----
(* specula's stub of the TLAPS library module SequencesExtTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS SequencesExt, Sequences, Integers, SequenceTheorems
====
