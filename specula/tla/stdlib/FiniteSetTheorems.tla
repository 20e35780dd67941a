---- MODULE FiniteSetTheorems ----
(* specula's stub of the TLAPS library module FiniteSetTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS Naturals, FiniteSets, Functions, WellFoundedInduction
====
