"""Action splitting as TLC does it: every true disjunct and every witness of an existential in
an action position yields its own successors (counted in ``generated``), also under a
state-level ``\\A`` (a conjunction over the elements); a constant-level definition of arity 0
is evaluated once by TLC, so as an action conjunct it is one guard. Expected counts recorded
with TLC 2.18 (``-workers 1``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from specula.tla.checker import Limits, check_spec

SPLIT = """---- MODULE Split ----
EXTENDS Naturals
CONSTANT N
VARIABLES x, y
G == \\A i \\in {1, 2} : y < 5 \\/ \\E j \\in {1, 2, 3} : j > x
H == \\E j \\in 1..N : j > 0
Hp(a) == \\E j \\in 1..N : j > a
Init == x = 0 /\\ y = 0
ForallOr == /\\ x < 3
            /\\ G
            /\\ x' = x + 1
            /\\ y' = y
InfixOr == /\\ x < 3
           /\\ (x >= 0 \\/ y = 0)
           /\\ x' = x + 1
           /\\ y' = y
ConstDef == /\\ x < 3
            /\\ H
            /\\ x' = x + 1
            /\\ y' = y
ParamDef == /\\ x < 3
            /\\ Hp(0)
            /\\ x' = x + 1
            /\\ y' = y
InlineExists == /\\ x < 3
                /\\ \\E j \\in 1..N : j > 0
                /\\ x' = x + 1
                /\\ y' = y
====
"""

# next-state action -> (generated, distinct) reported by TLC
TLC = {
    "ForallOr": (30, 4),  # 1 + (1+3)^2 + (1+2)^2 + (1+1)^2
    "InfixOr": (7, 4),
    "ConstDef": (4, 4),
    "ParamDef": (7, 4),
    "InlineExists": (7, 4),
}


@pytest.mark.parametrize("action", sorted(TLC))
def test_generated_counts_match_tlc(tmp_path: Path, action: str) -> None:
    (tmp_path / "Split.tla").write_text(SPLIT)
    (tmp_path / "Split.cfg").write_text(f"CONSTANT N = 2\nINIT Init\nNEXT {action}\nCHECK_DEADLOCK FALSE\n")
    r = check_spec(tmp_path / "Split.tla", limits=Limits(check_deadlock=False))
    assert r.verdict == "ok"
    assert (r.generated, r.distinct) == TLC[action]
