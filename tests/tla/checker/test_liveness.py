"""Liveness: verdicts per property, lasso counterexamples that are real fair behaviors."""

from __future__ import annotations

from pathlib import Path

import pytest

from specula.tla.checker import Limits, build_model, check, check_spec

SPECS = Path(__file__).resolve().parents[1] / "specs"


def _run(name: str):
    model, cfg = build_model(SPECS / f"{name}.tla", SPECS / f"{name}.cfg")
    return model, check(model, Limits(max_seconds=60), cfg=cfg)


def _assert_real_lasso(model, res) -> None:
    """Every step of the lasso is a transition of the model (or stuttering at the end)."""
    states = [s for _, s in res.counterexample]
    assert states and states[0] in set(model.init_states())
    for a, b in zip(states, states[1:]):
        assert b in {t for _, t in model.next_states(a)}, f"{a} -> {b} is not a step"
    if res.loop_to is not None:
        back = states[res.loop_to - 1]
        assert back in {t for _, t in model.next_states(states[-1])}
        assert not res.stuttering
    else:
        assert res.stuttering


@pytest.mark.parametrize(
    ("name", "prop"),
    [
        ("LiveNoFair", "Reach"),
        ("LiveStableNoFair", "Settles"),
        ("LiveOscillate", "Settles"),
        ("LiveOscillate2", "NotStuck"),
        ("LiveStarve", "EachGets"),
        ("LiveLeadsFail", "Served"),
        ("LiveStepFail", "YMoves"),
        ("LiveFairPropFail", "FairY"),
        ("LiveTerminateFail", "AllDone"),
    ],
)
def test_violations_have_real_lassos(name: str, prop: str) -> None:
    model, res = _run(name)
    assert res.verdict == "liveness" and res.violated == prop
    assert {p.name: p.status for p in res.properties}[prop] == "violated"
    _assert_real_lasso(model, res)


def test_starvation_lasso_is_fair_cycle() -> None:
    model, res = _run("LiveStarve")
    # WF on Release forbids stuttering while a process holds the lock: the lasso must loop
    assert res.loop_to is not None and not res.stuttering


def test_no_fairness_means_stuttering() -> None:
    model, res = _run("LiveNoFair")
    assert res.stuttering and res.counterexample[-1][1] != res.counterexample[0][1]


@pytest.mark.parametrize(
    ("name", "props"),
    [
        ("LiveCycle", ["InfOften", "Reach", "Leads", "Steps"]),
        ("LiveStable", ["Settles", "Done"]),
        ("LiveStrong", ["EachGets"]),
        ("LiveLeadsOk", ["Served", "AlwaysServed"]),
        ("LiveFairProp", ["FairX", "FairBoth"]),
        ("LiveTerminate", ["AllDone", "CountUp"]),
        ("LiveRefine", ["Refines"]),
    ],
)
def test_properties_hold(name: str, props: list[str]) -> None:
    _, res = _run(name)
    assert res.verdict == "ok"
    assert {p.name: p.status for p in res.properties} == {p: "ok" for p in props}


def test_unsupported_form_is_not_checked(tmp_path) -> None:
    spec = tmp_path / "Odd.tla"
    spec.write_text(
        "---- MODULE Odd ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = (x + 1) % 2\n"
        "Spec == Init /\\ [][Next]_x\nOdd == \\EE y : <>(x = 1)\n====\n"
    )
    (tmp_path / "Odd.cfg").write_text("SPECIFICATION Spec\nPROPERTY Odd\n")
    res = check_spec(spec)
    assert res.verdict == "ok"
    assert [(p.name, p.status) for p in res.properties] == [("Odd", "not checked")]
