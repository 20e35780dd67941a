---- MODULE FiniteSetsExtTheorems ----
(* specula's stub of the TLAPS library module FiniteSetsExtTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS FiniteSetsExt, FiniteSets, Integers
====
