"""The fused schedule makes an inlined action's list of next values once its first guard holds
(schedule._guarded), never for an action whose first conjunct reads a next value: in
tests/tla/specs/PrimeFirst.tla, B(i) reads x' after A(i) assigned it for the same i. TLC 2.18
reports the error at the initial state (a trace of 1 state); taking A's next values, B would
find x' = 1 or 2, not fail, and the error would come one step later."""

from __future__ import annotations

from pathlib import Path

from specula.tla.checker import Limits, check_spec

SPECS = Path(__file__).resolve().parents[1] / "specs"


def test_first_conjunct_reading_a_next_value_fails_at_once() -> None:
    res = check_spec(SPECS / "PrimeFirst.tla", SPECS / "PrimeFirst.cfg", Limits(max_seconds=60))
    assert res.verdict == "error"
    assert "x'" in res.message
    assert len(res.counterexample) == 1  # TLC: State 1, the initial state
