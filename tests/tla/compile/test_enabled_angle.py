"""``ENABLED <<A>>_v`` and ``ENABLED [A]_v`` in state predicates: the angle action is A followed
by the guard that v changes (it used to read v' before A had assigned it)."""

from __future__ import annotations

from specula.tla.checker import check_spec

SPEC = """---- MODULE EA ----
EXTENDS Naturals
VARIABLES x, y
A == x < 2 /\\ x' = x + 1 /\\ y' = y
Stay == x' = x /\\ y' = y
Init == x = 0 /\\ y = 0
Next == A \\/ (x = 2 /\\ x' = 0 /\\ y' = y)
Inv == /\\ (x < 2) <=> ENABLED <<A>>_x
       /\\ ENABLED [A]_<<x, y>>
       /\\ ~ENABLED <<Stay>>_<<x, y>>
Bad == (x = 2) => ENABLED <<A>>_x
====
"""


def test_enabled_of_angle_and_box_actions(tmp_path):
    (tmp_path / "EA.tla").write_text(SPEC)
    (tmp_path / "EA.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    r = check_spec(tmp_path / "EA.tla")
    assert r.verdict == "ok", r.message
    assert (r.distinct, r.generated) == (3, 4)
    (tmp_path / "EA.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Bad\n")
    r = check_spec(tmp_path / "EA.tla")
    assert r.verdict == "invariant" and len(r.counterexample) == 3
