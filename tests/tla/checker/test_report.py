"""TLC-like rendering and JSON of checker/simulation results (toy models)."""

from __future__ import annotations

import json

from checker_toy import Cfg, counter

from specula.tla.checker import Limits, check
from specula.tla.report import check_to_json, render_check, render_simulation, render_trace, simulation_to_json
from specula.tla.simulate import simulate


def test_invariant_report_text_and_json_agree() -> None:
    m = counter(5, preds={"Small": lambda s: s[0] < 2}, cfg=Cfg(invariants=["Small"]))
    r = check(m, Limits())
    text = render_check(r, "M.tla", "M.cfg", markup=False)
    assert "Error: Invariant Small is violated." in text
    assert "State 1: <Initial predicate>" in text
    assert "State 3: <Inc>" in text
    assert "*/\\ x = 2" in text  # changed variable marked
    assert " /\\ y = FALSE" in text  # unchanged one not marked
    assert "states generated" in text and "Coverage" in text
    data = check_to_json(r, "M.tla", "M.cfg")
    json.dumps(data)
    assert data["schema"] == "specula.check/1"
    assert data["verdict"] == "invariant" and data["violated"] == "Small"
    assert [s["action"] for s in data["counterexample"]] == [None, "Inc", "Inc"]
    assert data["counterexample"][-1]["state"] == {"x": 2, "y": False}
    assert data["distinct"] == r.distinct


def test_ok_report_and_markup_escapes_brackets() -> None:
    r = check(counter(2), Limits(check_deadlock=False))
    text = render_check(r)
    assert "No error has been found" in text
    lines = render_trace([(None, ("[a |-> 1]",))], ("x",), markup=True)
    assert "\\[a |-> 1]" in lines[1]


def test_simulation_render() -> None:
    s = simulate(counter(2), num=5, depth=10, seed=4)
    text = render_simulation(s, "M.tla", markup=False)
    assert "Deadlock" in text and "seed 4" in text
    data = simulation_to_json(s)
    assert data["verdict"] == "deadlock" and data["seed"] == 4 and data["errors"][0]["trace"]
