"""Nested calls of an operator whose parameters and LET definitions are used many times
(as DyadicRationals' Add in Huang) compile in linear time: each argument is generated once, not
once per reference (it was exponential in the nesting depth: minutes for 4 levels)."""

from __future__ import annotations

from pathlib import Path

import pytest

from specula.tla.checker import Limits, check_spec

SPEC = """---- MODULE Nest ----
EXTENDS Naturals
VARIABLE x
Mk(a, b) == [num |-> a, den |-> b]
Plus(p, q) == LET d == IF p.den > q.den THEN p.den ELSE q.den
                  pp == Mk(p.num * (d \\div p.den), d)
                  qq == Mk(q.num * (d \\div q.den), d)
              IN Mk(pp.num + qq.num, d)
One == Mk(1, 1)
Zero == Mk(0, 1)
Init == x = One
Next == x' = Mk(x.num, x.den * 2) /\\ x.den < 8
Inv == Plus(Plus(Plus(Plus(Plus(Plus(x, Zero), Zero), Zero), Zero), Zero), Zero) = x
====
"""


@pytest.mark.timeout(240)  # a hang guard: exponential compilation took hours at this depth, linear takes seconds
def test_nested_calls_compile(tmp_path: Path) -> None:
    (tmp_path / "Nest.tla").write_text(SPEC)
    (tmp_path / "Nest.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    r = check_spec(tmp_path / "Nest.tla", limits=Limits(check_deadlock=False, max_seconds=60))
    assert r.verdict == "ok" and r.distinct == 4  # TLC: 4 distinct states, no violation
