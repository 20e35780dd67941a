"""``Def!n`` (the n-th conjunct/disjunct of a definition) used as an action or initial
predicate, as in trace-validation specs (``/\\ Init!1``): it may assign variables. An unbounded
CHOOSE gives a located error, not a crash. Expected counts recorded with TLC 2.18."""

from __future__ import annotations

from pathlib import Path

from specula.errors import SpeculaError
from specula.tla.checker import Limits, check_spec

SPEC = """---- MODULE Sub ----
EXTENDS Naturals
VARIABLES x, y
Init == /\\ x = 0
        /\\ y \\in {1, 2}
Step == \\/ x' = x + 1 /\\ y' = y
        \\/ x' = x + 2 /\\ y' = y
Init2 == /\\ Init!1
         /\\ Init!2
Next == /\\ x < 4
        /\\ Step!2
====
"""


def test_positional_subexpressions_as_init_and_action(tmp_path: Path) -> None:
    (tmp_path / "Sub.tla").write_text(SPEC)
    (tmp_path / "Sub.cfg").write_text("INIT Init2\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    r = check_spec(tmp_path / "Sub.tla", limits=Limits(check_deadlock=False))
    assert r.verdict == "ok"
    assert (r.generated, r.distinct) == (6, 6)  # TLC: x in {0, 2, 4}, y in {1, 2}


def test_unbounded_choose_is_a_located_error(tmp_path: Path) -> None:
    spec = SPEC.replace("Init2 ==", "Any == CHOOSE v : TRUE\nInit2 == x = Any /\\ y = 1\nUnused ==")
    (tmp_path / "Sub.tla").write_text(spec)
    (tmp_path / "Sub.cfg").write_text("INIT Init2\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    try:
        r = check_spec(tmp_path / "Sub.tla", limits=Limits(check_deadlock=False))
    except SpeculaError as exc:
        assert "unbounded" in str(exc)
    else:
        assert r.verdict == "error" and "unbounded" in r.message
