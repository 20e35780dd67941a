"""The time limit also stops the generation of initial states (a model whose states are nearly
all initial, as the Examples' CoffeeCan1000Beans, would otherwise run past it) and the
evaluation of the ASSUMEs."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from specula.tla.checker import Limits, check_spec
from specula.tla.timelimit import TimeUp, time_limit


def test_time_limit_during_initial_states(tmp_path: Path) -> None:
    (tmp_path / "ManyInit.tla").write_text(
        "---- MODULE ManyInit ----\nEXTENDS Naturals\nVARIABLE x\n"
        "Init == x \\in 1..1000000\nNext == UNCHANGED x\nInv == \\A i \\in 1..300 : x + i > 0\n====\n")
    (tmp_path / "ManyInit.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    t = time.monotonic()
    r = check_spec(tmp_path / "ManyInit.tla", tmp_path / "ManyInit.cfg", Limits(max_seconds=1.0))
    assert r.verdict == "limit" and r.stopped == "max_seconds"
    assert time.monotonic() - t < 60
    assert 0 < r.distinct < 1_000_000


SLOW_ASSUME = ("---- MODULE SlowAssume ----\nEXTENDS Naturals, FiniteSets\n"
               "ASSUME \\A S \\in SUBSET (1..40) : Cardinality(S) >= 0\n====\n")


def test_time_limit_during_assumes(tmp_path: Path) -> None:
    """A constant-only model (ASSUMEs only, as the Examples' MCReachabilityTestAllGraphs): the
    time limit stops the evaluation of its ASSUMEs (2^40 subsets) with a time-limit outcome."""
    (tmp_path / "SlowAssume.tla").write_text(SLOW_ASSUME)
    (tmp_path / "SlowAssume.cfg").write_text("\n")
    t = time.monotonic()
    r = check_spec(tmp_path / "SlowAssume.tla", tmp_path / "SlowAssume.cfg", Limits(max_seconds=1.0))
    assert time.monotonic() - t < 60
    assert r.verdict == "limit" and r.stopped == "max_seconds"
    assert "time limit" in r.message and "ASSUME" in r.message


def test_time_limit_block() -> None:
    """``time_limit`` raises TimeUp inside its block when the time passes, never after it."""
    with pytest.raises(TimeUp):
        with time_limit(0.2):
            while True:
                pass
    with time_limit(0.05):
        x = sum(range(10))
    time.sleep(0.2)  # a TimeUp set as the block ended would be raised by now
    assert x == 45
