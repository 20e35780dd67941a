-------------------------------- MODULE Graphs -------------------------------
(* specula's text of the community module Graphs: a directed graph is a      *)
(* record [node |-> N, edge |-> E] with E \subseteq N \X N.  EXTENDS what the *)
(* community module EXTENDS.  Connectivity and simple paths are native (a     *)
(* reachability search); the definitions below are finite equivalents of the *)
(* community module's (whose Path(G) is an infinite set).                     *)
EXTENDS Naturals, Sequences, FiniteSets, SequencesExt, Relation

IsDirectedGraph(G) ==
  /\ G = [node |-> G.node, edge |-> G.edge]
  /\ G.edge \subseteq (G.node \X G.node)
DirectedSubgraph(G) ==
  { H \in [node : SUBSET G.node, edge : SUBSET (G.node \X G.node)] :
      IsDirectedGraph(H) /\ H.edge \subseteq G.edge }
Transpose(G) == [node |-> G.node, edge |-> { <<e[2], e[1]>> : e \in G.edge }]

IsUndirectedGraph(G) == IsDirectedGraph(G) /\ \A e \in G.edge : <<e[2], e[1]>> \in G.edge
UndirectedSubgraph(G) == { H \in DirectedSubgraph(G) : IsUndirectedGraph(H) }

\* non-empty sequences of nodes, each step along an edge
Path(G) == { p \in Seq(G.node) : p # << >> /\ \A i \in 1 .. (Len(p) - 1) : <<p[i], p[i + 1]>> \in G.edge }
SimplePath(G) ==
  { p \in UNION { [1 .. n -> G.node] : n \in 1 .. Cardinality(G.node) } :
      /\ \A i, j \in DOMAIN p : p[i] = p[j] => i = j
      /\ \A i \in 1 .. (Len(p) - 1) : <<p[i], p[i + 1]>> \in G.edge }

\* the nodes reachable from the nodes of S (S included)
RECURSIVE Reach(_, _)
LOCAL Reach(G, S) ==
  LET T == S \cup { n \in G.node : \E m \in S : <<m, n>> \in G.edge }
  IN IF T = S THEN S ELSE Reach(G, T)

AreConnectedIn(m, n, G) == m \in G.node /\ n \in Reach(G, {m})
IsStronglyConnected(G) == \A m, n \in G.node : AreConnectedIn(m, n, G)

\* ConnectionsIn(G)[m, n]: n is reachable from m (or m = n)
ConnectionsIn(G) == [m, n \in G.node |-> n \in Reach(G, {m})]

IsTreeWithRoot(G, r) ==
  /\ IsDirectedGraph(G)
  /\ r \in G.node
  /\ \A e \in G.edge : e[1] # r /\ \A f \in G.edge : (e[1] = f[1]) => (e = f)
  /\ \A n \in G.node : AreConnectedIn(n, r, G)

GraphUnion(G, H) == [node |-> G.node \cup H.node, edge |-> G.edge \cup H.edge]
IsBipartiteWithPartitions(G, U, V) ==
  /\ U \cap V = {}
  /\ G.node \subseteq (U \cup V)
  /\ \A e \in G.edge : (e[1] \in U /\ e[2] \in V) \/ (e[2] \in U /\ e[1] \in V)
HasCycle(G) ==
  \/ \E n \in G.node : <<n, n>> \in G.edge
  \/ \E m, n \in G.node : m # n /\ ConnectionsIn(G)[m, n] /\ ConnectionsIn(G)[n, m]
IsDag(G) == IsDirectedGraph(G) /\ ~HasCycle(G)

Successors(G, n) == { m \in G.node : <<n, m>> \in G.edge }
AllSuccessors(G, S) == UNION { Successors(G, n) : n \in S }
Predecessors(G, n) == { m \in G.node : <<m, n>> \in G.edge }
AllPredecessors(G, S) == UNION { Predecessors(G, n) : n \in S }
\* the nodes with a non-empty path to (from) n
Ancestors(G, n) == { m \in G.node : n \in Reach(G, Successors(G, m)) }
Descendants(G, n) == Reach(G, Successors(G, n))
InDegree(G, n) == Cardinality(Predecessors(G, n))
OutDegree(G, n) == Cardinality(Successors(G, n))
Roots(G) == { n \in G.node : Predecessors(G, n) = {} }
Leaves(G) == { n \in G.node : Successors(G, n) = {} }

EmptyGraph == [node |-> {}, edge |-> {}]
Graphs(S) == [node : {S}, edge : SUBSET (S \X S)]
=============================================================================
