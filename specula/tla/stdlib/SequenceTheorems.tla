---- MODULE SequenceTheorems ----
(* specula's stub of the TLAPS library module SequenceTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS Sequences, Integers
====
