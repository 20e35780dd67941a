"""The periodic liveness check on the growing graph runs at fixed numbers of explored states
(``Limits.live_first``, then LIVE_GROWTH-fold), never on a clock: a violation found there ends the
search with the other properties not checked, so a clock would make a run's verdicts depend on the
machine's load (a test of ClockNF's verdicts failed once that way under load)."""

from __future__ import annotations

from pathlib import Path

from specula.tla.checker import LIVE_GROWTH, Limits, Progress, build_model, check

UP = """---- MODULE Up ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = x + 1
Spec == Init /\\ [][Next]_x
Holds == []<>(x >= 0)
Eventually == <>(x = 5)
====
"""


def _model(tmp_path: Path, prop: str):
    (tmp_path / "Up.tla").write_text(UP)
    (tmp_path / "Up.cfg").write_text(f"SPECIFICATION Spec\nPROPERTY {prop}\n")
    return build_model(tmp_path / "Up.tla", tmp_path / "Up.cfg")


def test_checks_run_at_counts_of_explored_states(tmp_path: Path) -> None:
    """An unbounded chain and a property the partial graphs cannot violate: checks at 1,000 and
    4,000 explored states, then once more on the part explored when --max-states stops it."""
    model, cfg = _model(tmp_path, "Holds")
    notes: list[str] = []

    def on_progress(p: Progress) -> None:
        if p.note:
            notes.append(p.note)

    res = check(model, Limits(max_states=5_000, live_first=1_000, max_seconds=120), on_progress=on_progress,
                cfg=cfg)
    assert res.verdict == "limit" and res.stopped == "max_states"
    assert LIVE_GROWTH == 4
    explored = [int(n.split(" of ")[1].split()[0]) for n in notes]
    assert explored == [1_000, 4_000, 4_999]
    assert [p.status for p in res.properties] == ["not checked"]


def test_a_violation_ends_an_unbounded_search(tmp_path: Path) -> None:
    """Without fairness, <>(x = 5) is violated by stuttering before x = 5; the state space is
    infinite, so only a periodic check can find it. TLC 2.18's counter-example: x = 0, 1, 2, 3, 4,
    then "Stuttering"."""
    model, cfg = _model(tmp_path, "Eventually")
    res = check(model, Limits(live_first=100, max_seconds=120), cfg=cfg)
    assert res.verdict == "liveness"
    assert res.stopped is None
    assert [p.status for p in res.properties] == ["violated"]
    assert res.stuttering and [s for _, s in res.counterexample] == [(0,), (1,), (2,), (3,), (4,)]


def test_the_default_schedule_is_deterministic(tmp_path: Path) -> None:
    """The default first check is at 10,000 explored states, whatever the speed of the machine."""
    assert Limits().live_first == 10_000
    model, cfg = _model(tmp_path, "Eventually")
    res = check(model, Limits(max_seconds=120), cfg=cfg)
    assert res.verdict == "liveness" and res.distinct < 10_100
