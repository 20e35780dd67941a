------------------------------- MODULE GraphViz ------------------------------
(* specula's text of the community module GraphViz.  DotDiGraph is native:   *)
(* the graph [node, edge] in the DOT language, nodes labelled by VL and edges *)
(* by EL.                                                                     *)
DotDiGraph(G, VL(_), EL(_)) == "digraph MyGraph {}"
=============================================================================
