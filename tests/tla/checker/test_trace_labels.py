"""Error-trace steps of unnamed disjuncts of Next carry TLC's label with the disjunct's span
(``<Next line 5, col 12 to line 5, col 30 of module U>``, as TLC 2.18 prints it); named actions
keep their name."""

from __future__ import annotations

from specula.tla.checker import check_spec

SPEC = """---- MODULE U ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == \\/ x < 2 /\\ x' = x + 1
        \\/ x = 2 /\\ x' = 5
Inv == x < 5
====
"""


def test_unnamed_disjuncts_are_labelled_by_their_span(tmp_path):
    (tmp_path / "U.tla").write_text(SPEC)
    (tmp_path / "U.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    r = check_spec(tmp_path / "U.tla")
    assert r.verdict == "invariant"
    assert [lab for lab, _ in r.counterexample] == [
        None,
        "Next line 5, col 12 to line 5, col 30 of module U",
        "Next line 5, col 12 to line 5, col 30 of module U",
        "Next line 6, col 12 to line 6, col 26 of module U",
    ]
