---- MODULE NaturalsInduction ----
(* specula's stub of the TLAPS library module NaturalsInduction: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS Integers
====
