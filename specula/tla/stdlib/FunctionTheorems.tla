---- MODULE FunctionTheorems ----
(* specula's stub of the TLAPS library module FunctionTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS Functions
====
