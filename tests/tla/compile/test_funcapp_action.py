"""``f[a]`` in an action position, ``f`` a function defined by ``f[x \\in S] == body`` (top level
or in a LET, recursive or not): TLC takes ``body`` with ``x = a`` as the action, so its
disjuncts and existential witnesses each yield successors, also through recursive applications
in action position. Expected counts recorded with TLC 2.18 (``-workers 1``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from specula.tla.checker import Limits, check_spec

SPEC = """---- MODULE FnAct ----
EXTENDS Integers
VARIABLES x
R[i \\in 0..3] == \\/ i = 0
                 \\/ i > 0 /\\ \\E q \\in {1, 2} : R[i-1]
L(b) == LET F[i \\in 0..3] == \\/ i <= b
                             \\/ i > 0 /\\ F[i-1]
        IN F[b]
R2[i \\in 0..3] == \\/ i = 0
                  \\/ \\E q \\in {i, i + 1} : i > 0 /\\ R2[i-1] /\\ q = i
Plain[i \\in 0..3] == i >= 0
Init == x = 0
Rec == /\\ x < 3
       /\\ R[x]
       /\\ x' = x + 1
LetRec == /\\ x < 3
          /\\ L(x)
          /\\ x' = x + 1
RecRest == /\\ x < 3
           /\\ R2[x]
           /\\ x' = x + 1
Guard == /\\ x < 3
         /\\ Plain[x]
         /\\ x' = x + 1
====
"""

# next-state action -> (generated, distinct) reported by TLC
TLC = {
    "Rec": (8, 4),  # 1 + 1 + 2 + 4: two witnesses per level of recursion
    "LetRec": (7, 4),  # 1 + 1 + 2 + 3
    "RecRest": (4, 4),  # the rest of the outer body sees its own i and q again
    "Guard": (4, 4),
}


@pytest.mark.parametrize("action", sorted(TLC))
def test_generated_counts_match_tlc(tmp_path: Path, action: str) -> None:
    (tmp_path / "FnAct.tla").write_text(SPEC)
    (tmp_path / "FnAct.cfg").write_text(f"INIT Init\nNEXT {action}\nCHECK_DEADLOCK FALSE\n")
    r = check_spec(tmp_path / "FnAct.tla", limits=Limits(check_deadlock=False))
    assert r.verdict == "ok"
    assert (r.generated, r.distinct) == TLC[action]


def test_out_of_domain_application_in_action_is_an_error(tmp_path: Path) -> None:
    # TLC: "the first argument is: -1 which is not in its domain" (the second disjunct is tried)
    spec = SPEC.replace("\\/ i > 0 /\\ \\E q \\in {1, 2} : R[i-1]", "\\/ \\E q \\in {1, 2} : R[i-1]")
    (tmp_path / "FnAct.tla").write_text(spec)
    (tmp_path / "FnAct.cfg").write_text("INIT Init\nNEXT Rec\nCHECK_DEADLOCK FALSE\n")
    r = check_spec(tmp_path / "FnAct.tla", limits=Limits(check_deadlock=False))
    assert r.verdict == "error"
    assert "-1 is not in the domain" in r.message
