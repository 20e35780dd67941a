"""The BFS checker against hand-written Python models: counts, verdicts, traces, limits."""

from __future__ import annotations

import pytest

from specula.tla.checker import Limits, check
from checker_toy import Cfg, ToyModel, counter, error_model


def test_deadlock_by_default_and_counts() -> None:
    r = check(counter(3), Limits())
    # states: x in 0..3, y in {F,T}: 8 distinct; x=3 has no successor -> deadlock
    assert r.verdict == "deadlock"
    assert r.counterexample[0] == (None, (0, False))
    assert r.counterexample[-1][1][0] == 3
    assert len(r.counterexample) == 4  # shortest path: three Inc


def test_no_deadlock_explores_everything() -> None:
    r = check(counter(3), Limits(check_deadlock=False))
    assert r.verdict == "ok"
    assert r.distinct == 8
    # generated = 1 initial + 2 successors for each of the 6 states with x < 3
    assert r.generated == 1 + 12
    assert r.depth == 5  # (0,F) -> ... (3,?) at most 4 steps: levels 1..5
    cov = {c.name: (c.distinct, c.generated) for c in r.coverage}
    assert cov == {"Inc": (4, 6), "Flip": (3, 6)}  # worked out level by level


def test_cfg_check_deadlock_false_is_honoured() -> None:
    r = check(counter(3, cfg=Cfg(check_deadlock=False)), Limits())
    assert r.verdict == "ok"


def test_invariant_violation_shortest_trace_with_labels() -> None:
    m = counter(5, preds={"Small": lambda s: not (s[0] == 2 and s[1])}, cfg=Cfg(invariants=["Small"]))
    r = check(m, Limits())
    assert r.verdict == "invariant" and r.violated == "Small"
    states = [s for _, s in r.counterexample]
    assert states[-1] == (2, True)
    assert len(states) == 4
    assert r.counterexample[0][0] is None
    assert {lbl for lbl, _ in r.counterexample[1:]} <= {"Inc", "Flip"}


def test_initial_state_violation() -> None:
    m = counter(5, preds={"Pos": lambda s: s[0] > 0}, cfg=Cfg(invariants=["Pos"]))
    r = check(m, Limits())
    assert r.verdict == "invariant" and r.counterexample == [(None, (0, False))]


def test_constraint_state_checked_but_not_explored() -> None:
    preds = {"Bound": lambda s: s[0] <= 2, "NotFour": lambda s: s[0] != 4}
    m = counter(10, preds=preds, cfg=Cfg(constraints=["Bound"], invariants=["NotFour"]))
    r = check(m, Limits())
    # x=3 states are generated (invariants checked) but not stored: no deadlock, no x=4
    assert r.verdict == "ok"
    assert r.distinct == 6
    m2 = counter(10, preds={"Bound": preds["Bound"], "Not3": lambda s: s[0] != 3}, cfg=Cfg(constraints=["Bound"], invariants=["Not3"]))
    r2 = check(m2, Limits())
    assert r2.verdict == "invariant"
    assert r2.counterexample[-1][1][0] == 3


def test_deadlock_judged_before_constraint() -> None:
    m = counter(3, preds={"Bound": lambda s: s[0] <= 2}, cfg=Cfg(constraints=["Bound"]))
    assert check(m, Limits()).verdict == "ok"


def test_action_constraint() -> None:
    preds = {"NoFlipBack": lambda s, t: not (s[1] and not t[1])}  # never called with s = None
    m = counter(3, preds=preds, cfg=Cfg(action_constraints=["NoFlipBack"], check_deadlock=False))
    r = check(m, Limits())
    assert r.verdict == "ok" and r.distinct == 8


def test_action_property() -> None:
    preds = {"Mono": ("action", lambda s, t: t[0] >= s[0] and not (s[1] and not t[1]))}
    m = counter(3, preds=preds, cfg=Cfg(properties=["Mono"], check_deadlock=False))
    r = check(m, Limits())
    assert r.verdict == "action-property" and r.violated == "Mono"
    assert r.counterexample[-2][1][1] is True and r.counterexample[-1][1][1] is False
    assert r.counterexample[-1][0] == "Flip"
    assert [p.status for p in r.properties] == ["violated"]


def test_temporal_property_not_checked_never_passed() -> None:
    m = counter(3, cfg=Cfg(properties=["Live"], check_deadlock=False))
    m.classify_property = lambda name: None  # type: ignore[attr-defined]
    r = check(m, Limits())
    assert r.verdict == "ok"
    assert [(p.name, p.status) for p in r.properties] == [("Live", "not checked")]


def test_assumption() -> None:
    r = check(counter(3, assumes=["ASSUME N > 0 is false"]), Limits())
    assert r.verdict == "assumption" and r.distinct == 0


def test_constant_only_model() -> None:
    r = check(counter(3, cfg=Cfg(init=None, next=None)), Limits())
    assert r.verdict == "ok" and r.distinct == 0


def test_eval_error_is_reported_with_trace() -> None:
    r = check(error_model(), Limits())
    assert r.verdict == "error"
    assert "DOMAIN" in r.message
    assert [s for _, s in r.counterexample] == [(0,), (1,), (2,)]


def test_max_states_and_depth() -> None:
    r = check(counter(1000), Limits(max_states=50))
    assert r.verdict == "limit" and r.stopped == "max_states" and 50 <= r.distinct < 60
    r = check(counter(1000), Limits(max_depth=4))
    assert r.verdict == "limit" and r.stopped == "max_depth" and r.depth == 4


def test_max_seconds() -> None:
    big = ToyModel(("x",), [(0,)], {"Inc": lambda s: [(s[0] + 1,)]})
    r = check(big, Limits(max_seconds=0.2))
    assert r.verdict == "limit" and r.stopped == "max_seconds" and r.distinct > 100


def test_keyboard_interrupt_gives_partial_stats() -> None:
    def step(s: tuple) -> list[tuple]:
        if s[0] == 500:
            raise KeyboardInterrupt
        return [(s[0] + 1,)]

    r = check(ToyModel(("x",), [(0,)], {"Inc": step}), Limits())
    assert r.verdict == "limit" and r.stopped == "interrupted"
    assert r.distinct == 501 and r.generated == 501


def test_symmetry_reduces_states() -> None:
    # a set of names that can each be added: 4 states, 3 up to swapping the names a and b
    from specula.tla.values import ModelValue, make_fn

    a, b = ModelValue("a"), ModelValue("b")
    steps = {
        "AddA": lambda s: [(s[0] | {a},)] if a not in s[0] else [],
        "AddB": lambda s: [(s[0] | {b},)] if b not in s[0] else [],
    }
    swap = make_fn({a: b, b: a})
    m = ToyModel(("S",), [(frozenset(),)], steps, cfg=Cfg(check_deadlock=False), symmetry=[make_fn({a: a, b: b}), swap])
    r = check(m, Limits())
    assert r.distinct == 3 and r.generated == 4  # {a,b} reached once from the representative {a}


def test_view_merges_states() -> None:
    m = counter(3, cfg=Cfg(check_deadlock=False), view=lambda s: s[0])
    r = check(m, Limits())
    assert r.distinct == 4


def test_progress_callback() -> None:
    seen = []
    check(counter(3), Limits(check_deadlock=False), on_progress=seen.append)
    assert seen and seen[-1].distinct == 8
