"""Periodic checks of the growing graph share what they learnt (``LiveMemo``) with the next one.

The search checks the temporal properties on the graph explored so far, then again on a larger
one and at the end. The fairness facts (ENABLED, ``<<A>>_v`` steps) and the values of the state
predicates at the states explored are carried from one check to the next; every check must give
exactly what a check starting from nothing gives on the same graph: same verdicts, same lassos.
Here each spec of this folder (TLC's verdicts in expected.json) is checked on three growing
prefixes of its graph, as the search records them (the same state list, grown; the edges of the
explored states), with one memo and with a new one for each check.
"""

from __future__ import annotations

import copy
import json
from array import array
from pathlib import Path

import pytest

from specula.tla import checker
from specula.tla.checker import Limits, build_model, check
from specula.tla.liveness import Graph, LiveMemo, check_liveness

HERE = Path(__file__).resolve().parent
SPECS = HERE / "specs"
EXPECTED: dict[str, dict] = json.loads((HERE / "expected.json").read_text())


def _graph_of(name: str, prop: str, monkeypatch) -> tuple:
    """The complete graph, obligations and fairness the search hands to its final check."""
    return _final_check_inputs(SPECS / f"{name}.tla", SPECS / f"{name}.cfg", monkeypatch, prop)


def _final_check_inputs(tla, cfg_path, monkeypatch, prop: str | None = None) -> tuple:
    """The check's result and what the search hands to its final liveness check."""
    model, cfg = build_model(tla, cfg_path)
    if prop is not None:
        cfg = copy.copy(cfg)
        cfg.properties = [prop]
    seen: dict = {}
    real = checker.check_liveness

    def spy(g, obligations, fairness, *args, **kw):
        seen.update(g=g, obligations=obligations, fairness=fairness)
        return real(g, obligations, fairness, *args, **kw)

    monkeypatch.setattr(checker, "check_liveness", spy)
    res = check(model, Limits(max_seconds=60, live_first=None), cfg=cfg)
    monkeypatch.setattr(checker, "check_liveness", real)
    return res, seen


def _summary(results: list) -> list:
    return [(r.prop, r.violated, r.stopped, r.text, r.prefix, r.loop_to, r.loop_label, r.stuttering) for r in results]


def _prefix_graph(g: Graph, states: list, explored: int) -> Graph:
    """The graph as the search holds it after exploring its first ``explored`` states."""
    off = g.out_edges().off
    m = off[explored]
    known = max([len(g.inits)] + [g.dst[e] + 1 for e in range(m)])
    states.extend(g.states[len(states):known])
    return Graph(states, g.inits, g.src[:m], g.dst[:m], g.act[:m], g.labels, key=g.key, model=g.model,
                 explored=explored, queue_at=g.queue_at, tlc_stats=g.tlc_stats)


CASES = [(n, p) for n in sorted(EXPECTED) for p in EXPECTED[n]]


@pytest.mark.parametrize(("name", "prop"), CASES)
def test_checks_sharing_a_memo_equal_fresh_checks(name: str, prop: str, monkeypatch) -> None:
    res, seen = _graph_of(name, prop, monkeypatch)
    if "g" not in seen:  # no temporal obligation reached the graph (e.g. a safety violation first)
        return
    g, obligations, fairness = seen["g"], seen["obligations"], seen["fairness"]
    n = len(g.states)
    assert isinstance(g.src, array) and hasattr(g.out_edges(), "off")
    memo = LiveMemo()
    shared: list = []
    for explored in sorted({max(1, n // 3), max(1, 2 * n // 3)}):
        part = _prefix_graph(g, shared, explored)
        fresh = check_liveness(Graph(list(part.states), part.inits, part.src, part.dst, part.act, part.labels,
                                     key=part.key, model=part.model, explored=explored, queue_at=part.queue_at,
                                     tlc_stats=part.tlc_stats), obligations, fairness)
        assert _summary(check_liveness(part, obligations, fairness, memo=memo)) == _summary(fresh)
    shared.extend(g.states[len(shared):])
    whole = Graph(shared, g.inits, g.src, g.dst, g.act, g.labels, key=g.key, model=g.model,
                  queue_at=g.queue_at, tlc_stats=g.tlc_stats)
    got = check_liveness(whole, obligations, fairness, memo=memo)
    assert _summary(got) == _summary(check_liveness(g, obligations, fairness))
    # and the verdict is TLC's (where TLC decides the form)
    tlc = EXPECTED[name][prop]["verdict"]
    if tlc in ("ok", "violated") and (name, prop) != ("Clock", "Impl"):  # Impl: test_liveness_verdicts.TLC_WRONG
        assert any(r.violated for r in got) == (tlc == "violated"), (name, prop)


def test_memo_forgets_a_graph_that_did_not_grow_from_it(monkeypatch) -> None:
    """A memo handed another state list (a new search) starts again instead of reusing facts."""
    _, seen = _graph_of("Clock", "SettleOne", monkeypatch)
    g, obligations, fairness = seen["g"], seen["obligations"], seen["fairness"]
    memo = LiveMemo()
    first = _summary(check_liveness(g, obligations, fairness, memo=memo))
    other = Graph(list(g.states), g.inits, g.src, g.dst, g.act, g.labels, key=g.key, model=g.model)
    assert _summary(check_liveness(other, obligations, fairness, memo=memo)) == first
    assert memo.states is other.states


WHEELS = """---- MODULE Wheels ----
EXTENDS Naturals
VARIABLE c
Init == c = [i \\in 1..2 |-> 0]
Turn(i) == c' = [c EXCEPT ![i] = (@ + 1) % 6]
Next == \\E i \\in 1..2 : Turn(i)
Spec == Init /\\ [][Next]_c /\\ \\A i \\in 1..2 : WF_c(Turn(i))
Cycles == \\A i \\in 1..2 : []<>(c[i] = 0)
====
"""


def test_a_later_check_does_not_run_the_actions_again(tmp_path, monkeypatch) -> None:
    """WF_c(Turn(i)) with a parameter: ENABLED runs Turn(i) per state. A check of the first half,
    then the final check with its memo, run Turn(i) once at most per state and condition: the
    final check runs it less often than alone."""
    (tmp_path / "Wheels.tla").write_text(WHEELS)
    (tmp_path / "Wheels.cfg").write_text("SPECIFICATION Spec\nPROPERTY Cycles\n")
    res, seen = _final_check_inputs(tmp_path / "Wheels.tla", tmp_path / "Wheels.cfg", monkeypatch)
    assert res.verdict == "ok" and res.distinct == 36
    g, obligations, fairness = seen["g"], seen["obligations"], seen["fairness"]
    assert len(fairness) == 2 and all(f.labels is None and f.succ is not None for f in fairness)
    memo = LiveMemo()
    shared: list = []
    half = _prefix_graph(g, shared, 18)
    check_liveness(half, obligations, fairness, memo=memo)
    before = memo.fair.fills
    assert 0 < before <= 2 * 18
    shared.extend(g.states[len(shared):])
    whole = Graph(shared, g.inits, g.src, g.dst, g.act, g.labels, key=g.key, model=g.model)
    assert not any(r.violated for r in check_liveness(whole, obligations, fairness, memo=memo))
    fresh = LiveMemo()
    check_liveness(g, obligations, fairness, memo=fresh)
    assert memo.fair.fills - before < fresh.fair.fills
    known = sum(1 for k in range(2) for s in range(36) if memo.fair._en[k][s])
    assert memo.fair.fills == known  # each fill a different (condition, state)
