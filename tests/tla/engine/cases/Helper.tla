---- MODULE Helper ----
EXTENDS Naturals
Double(v) == v + v
====
