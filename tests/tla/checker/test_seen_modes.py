"""The search's store of keys: a set when only membership is asked (safety), a dict key -> index
when the state graph is recorded (temporal properties). Both must give TLC's counts on a model
with duplicate successors, successors equal to their parent and several initial states."""

from __future__ import annotations

from pathlib import Path

import pytest

from specula.tla.checker import Limits, check_spec

SPEC = """---- MODULE Seen ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x \\in {0, 1, 2} /\\ y = 0
Next == \\/ x' = (x + 1) % 3 /\\ UNCHANGED y
        \\/ y < 2 /\\ y' = y + 1 /\\ UNCHANGED x
        \\/ UNCHANGED vars
Spec == Init /\\ [][Next]_vars /\\ WF_vars(Next)
Bounded == y \\in 0..2
Prop == <>[](y \\in 0..2)
Reach == <>(y = 2)
====
"""


@pytest.mark.parametrize(
    ("props", "verdict", "loop_to"),
    [
        ("", "ok", None),  # TLC 2.18: 27 generated, 9 distinct, depth 3, no error
        ("PROPERTY Prop\n", "ok", None),  # the same, temporal properties hold
        ("PROPERTY Reach\n", "liveness", 2),  # TLC: 4 states, "Back to state 2"
    ],
)
def test_counts_with_and_without_the_graph(tmp_path: Path, props: str, verdict: str, loop_to: int | None) -> None:
    (tmp_path / "Seen.tla").write_text(SPEC)
    (tmp_path / "Seen.cfg").write_text("SPECIFICATION Spec\nINVARIANT Bounded\n" + props)
    res = check_spec(tmp_path / "Seen.tla", tmp_path / "Seen.cfg", Limits(max_seconds=60))
    assert res.verdict == verdict
    assert (res.generated, res.distinct, res.depth) == (27, 9, 3)
    if loop_to is not None:
        assert len(res.counterexample) == 4 and res.loop_to == loop_to
