---- MODULE FoldsTheorems ----
(* specula's stub of the TLAPS library module FoldsTheorems: its theorems only matter to
   proofs, which specula parses and ignores; it keeps the EXTENDS chain. *)
EXTENDS Folds, FiniteSets
====
