"""The code map's PageRank: the numpy path (extra ``fast``) and the pure-Python path give the
same ranks, so installing numpy changes speed only."""

from __future__ import annotations

import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from specula.code.rank import RankWeights, _pagerank_numpy, _pagerank_python

graphs = st.integers(min_value=1, max_value=30).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.lists(st.tuples(st.integers(0, n - 1), st.floats(0.01, 5.0)), max_size=6), min_size=n, max_size=n),
        st.lists(st.floats(0.0, 3.0), min_size=n, max_size=n),
    )
)


def _normalise(raw: list[list[tuple[int, float]]], leak_weight: float) -> tuple[list[list[tuple[int, float]]], list[float]]:
    edges, leak = [], []
    for es in raw:
        merged: dict[int, float] = {}
        for t, v in es:
            merged[t] = merged.get(t, 0.0) + v
        tot = sum(merged.values()) + leak_weight
        edges.append([(t, v / tot) for t, v in merged.items()])
        leak.append(leak_weight / tot)
    return edges, leak


@settings(max_examples=60, deadline=None)
@given(graphs)
def test_numpy_and_python_pagerank_agree(g: tuple[int, list, list]) -> None:
    n, raw, rel = g
    w = RankWeights()
    edges, leak = _normalise(raw, w.edge_leak)
    pers = [r + 0.1 for r in rel]
    z = sum(pers)
    pers = [p / z for p in pers]
    a = _pagerank_python(edges, leak, pers, w)
    b = _pagerank_numpy(numpy, edges, leak, pers, w)
    assert len(a) == len(b) == n
    for x, y in zip(a, b):
        assert abs(x - y) < 1e-9, (a, b)
    assert abs(sum(a) - 1.0) < 1e-6  # a distribution: nothing leaks out of the graph


def test_a_hub_outranks_its_callers() -> None:
    # 0, 1, 2 all point at 3: with uniform personalisation 3 ranks first on both paths
    w = RankWeights()
    edges, leak = _normalise([[(3, 1.0)], [(3, 1.0)], [(3, 1.0)], []], w.edge_leak)
    pers = [0.25] * 4
    for ranks in (_pagerank_python(edges, leak, pers, w), _pagerank_numpy(numpy, edges, leak, pers, w)):
        assert max(range(4), key=ranks.__getitem__) == 3
