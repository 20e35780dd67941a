"""The time limit also stops the generation of initial states (a model whose states are nearly
all initial, as the Examples' CoffeeCan1000Beans, would otherwise run past it)."""

from __future__ import annotations

import time
from pathlib import Path

from specula.tla.checker import Limits, check_spec


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
