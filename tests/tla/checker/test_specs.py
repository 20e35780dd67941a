"""Our own specs (tests/tla/specs) against the verdicts and state counts TLC recorded.

expected.json was produced by ``tests/tla/specs/record_tlc.py`` with real TLC (1 worker).
For a passing model distinct/generated/depth must be equal; for a violation the verdict, the
violated name and the length of the (shortest) error trace must be equal.
The ``tlc`` test reruns TLC live on a few specs and compares (needs SPECULA_TLA2TOOLS).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from specula.tla.checker import Limits, check_spec

SPECS = Path(__file__).resolve().parents[1] / "specs"
EXPECTED: dict[str, dict] = json.loads((SPECS / "expected.json").read_text())


def _check(name: str):
    return check_spec(SPECS / f"{name}.tla", SPECS / f"{name}.cfg", Limits(max_seconds=60))


def _compare(name: str, exp: dict, res) -> None:
    assert res.verdict == exp["verdict"], f"{name}: {res.verdict} ({res.message}) != TLC {exp['verdict']}"
    if exp["verdict"] == "ok":
        got = (res.distinct, res.generated, res.depth)
        assert got == (exp["distinct"], exp["generated"], exp["depth"]), f"{name}: {got} != TLC"
    elif exp["verdict"] in ("invariant", "action-property"):
        assert res.violated == exp["violated"]
    if exp["verdict"] in ("invariant", "deadlock", "action-property") and exp.get("trace_len"):
        assert len(res.counterexample) == exp["trace_len"], f"{name}: trace of {len(res.counterexample)} states"


def test_at_least_forty_specs() -> None:
    assert len(EXPECTED) >= 40
    for name in EXPECTED:
        assert (SPECS / f"{name}.tla").is_file() and (SPECS / f"{name}.cfg").is_file()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_spec_matches_tlc(name: str) -> None:
    _compare(name, EXPECTED[name], _check(name))


@pytest.mark.tlc
@pytest.mark.parametrize("name", ["Jugs", "TwoPhase", "Symmetric", "ActionPropFail", "Unbounded", "ViewSpec"])
def test_differential_live_tlc(name: str, tlc_jar: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks" / "perf"))
    from checker_tlc import run_tlc

    tlc = run_tlc(SPECS / f"{name}.tla", SPECS / f"{name}.cfg", timeout=120)
    _compare(name, tlc.to_dict(), _check(name))
