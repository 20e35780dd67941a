"""The liveness checker's fast paths give the verdicts and counterexamples of the plain ones.

Fast paths: ``<<A>>_v`` steps read off the graph when v is every variable (``whole``), ENABLED
through A's generated successor code (``Model.action_successors``), one-node components of the
tableau product decided without building their edges, and (periodic checks) states whose
successors are not known yet left out of every cycle. expected.json (TLC's verdicts) covers the
fast paths through test_liveness_verdicts.py; here each spec is also checked with the fast paths
turned off, and the two runs must agree exactly.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from specula.tla import liveness_product
from specula.tla.checker import Limits, build_model, check

HERE = Path(__file__).resolve().parent
SPECS = HERE / "specs"
EXPECTED: dict[str, dict] = json.loads((HERE / "expected.json").read_text())


def _run(name: str, prop: str | None = None):
    model, cfg = build_model(SPECS / f"{name}.tla", SPECS / f"{name}.cfg")
    if prop is not None:
        cfg = copy.copy(cfg)
        cfg.properties = [prop]
    res = check(model, Limits(max_seconds=60), cfg=cfg)
    return ([(p.name, p.status) for p in res.properties], res.verdict, res.counterexample, res.loop_to,
            res.stuttering)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fast_paths_agree_with_plain_evaluation(name: str, monkeypatch) -> None:
    fast = {prop: _run(name, prop) for prop in EXPECTED[name]}
    monkeypatch.setattr(liveness_product, "whole_state", lambda comp, sub, env: False)
    from specula.tla import model as model_mod

    monkeypatch.setattr(model_mod, "_action_successors", lambda model, node, env: None)
    for prop in EXPECTED[name]:
        assert _run(name, prop) == fast[prop], prop


def test_fast_paths_are_taken() -> None:
    """The specs above exercise the fast paths (else the comparison would prove nothing)."""
    from specula.tla.liveness import liveness_plan

    whole = generated = 0
    for name in sorted(EXPECTED):
        model, cfg = build_model(SPECS / f"{name}.tla", SPECS / f"{name}.cfg")
        _, fairness, _ = liveness_plan(model, cfg, list(EXPECTED[name]))
        whole += sum(bool(f.whole) for f in fairness)
        generated += sum(f.succ is not None and f.succ.__qualname__.startswith("_action_successors")
                         for f in fairness)
    assert whole > 0 and generated > 0


COUNT = """---- MODULE Count ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x < 3 /\\ x' = x + 1
Spec == Init /\\ [][Next]_x /\\ WF_x(Next)
Prop == <>(x = 3) \\/ [](x = 0)
====
"""


def test_partial_graph_leaves_unexplored_states_out_of_cycles(tmp_path) -> None:
    """A periodic check on the growing graph: state x = 2 is known but not explored yet. It may
    not stutter forever there (its successor is unknown), so the tableau product finds no lasso;
    the complete graph has none either."""
    from specula.tla.liveness import Graph, check_liveness, liveness_plan

    (tmp_path / "Count.tla").write_text(COUNT)
    (tmp_path / "Count.cfg").write_text("SPECIFICATION Spec\nPROPERTY Prop\n")
    model, cfg = build_model(tmp_path / "Count.tla", tmp_path / "Count.cfg")
    obligations, fairness, unsupported = liveness_plan(model, cfg, ["Prop"])
    assert obligations and obligations[0].kind == "LTL" and not unsupported
    from array import array

    states = [(0,), (1,), (2,), (3,)]
    labels = [a.name for a in model.actions]
    g = Graph(states, [0], array("i", [0, 1, 2]), array("i", [1, 2, 3]), array("i", [0, 0, 0]), labels,
              model=model)
    assert not any(r.violated for r in check_liveness(g, obligations, fairness))
    g2 = Graph(states, [0], array("i", [0, 1]), array("i", [1, 2]), array("i", [0, 0]), labels, model=model,
               explored=2)
    assert not any(r.violated for r in check_liveness(g2, obligations, fairness))
    # with x = 2 taken as explored (a dead end), stuttering there violates Prop: the check is real
    g3 = Graph(states[:3], [0], array("i", [0, 1]), array("i", [1, 2]), array("i", [0, 0]), labels, model=model)
    assert any(r.violated for r in check_liveness(g3, obligations, fairness))
