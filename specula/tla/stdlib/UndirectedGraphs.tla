-------------------------- MODULE UndirectedGraphs ---------------------------
(* specula's text of the community module UndirectedGraphs: a graph is a record   *)
(* [node |-> N, edge |-> E] whose edges are sets of one or two nodes.             *)
(* Connectivity is computed as a reachability fixpoint (no path enumeration).     *)
LOCAL INSTANCE Naturals
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE Sequences

IsUndirectedGraph(G) ==
    /\ G = [node |-> G.node, edge |-> G.edge]
    /\ \A e \in G.edge : e \subseteq G.node /\ Cardinality(e) \in {1, 2}

IsLoopFreeUndirectedGraph(G) ==
    /\ IsUndirectedGraph(G)
    /\ \A e \in G.edge : Cardinality(e) = 2

UndirectedSubgraph(G) ==
    {H \in [node : SUBSET G.node, edge : SUBSET G.edge] : IsUndirectedGraph(H)}

Path(G) ==
    {p \in Seq(G.node) : p # << >> /\ \A i \in 1 .. (Len(p) - 1) : {p[i], p[i + 1]} \in G.edge}

SimplePath(G) ==
    {p \in UNION {[1 .. n -> G.node] : n \in 1 .. Cardinality(G.node)} :
        /\ \A i, j \in DOMAIN p : i # j => p[i] # p[j]
        /\ \A i \in 1 .. (Len(p) - 1) : {p[i], p[i + 1]} \in G.edge}

\* the nodes reachable from the nodes in S
RECURSIVE ReachableFrom(_, _)
LOCAL ReachableFrom(G, S) ==
    LET T == S \cup {n \in G.node : \E m \in S : {m, n} \in G.edge}
    IN  IF T = S THEN S ELSE ReachableFrom(G, T)

AreConnectedIn(m, n, G) == m \in G.node /\ n \in ReachableFrom(G, {m})

ConnectedComponents(G) == {ReachableFrom(G, {n}) : n \in G.node}

IsStronglyConnected(G) == ConnectedComponents(G) = {G.node}

\* every undirected graph whose node set is S
UndirectedGraphs(S) == [node : {S}, edge : SUBSET { {s, t} : <<s, t>> \in S \X S }]
=============================================================================
