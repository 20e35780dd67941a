"""Rewrites of generated code that must keep its meaning (issue 19, ninth round): the fused
schedule's dropped type tests of integer loop values and its skipped repeats of a shared guard,
the tuple setters of EXCEPT, and the order of a set from its elements' ranks. The specs with
TLC's counts are tests/tla/specs/GuardSkip and LoopHoist (test_specs)."""

from __future__ import annotations

import random

from specula.tla.compile.gen import _tuple_setters
from specula.tla.compile.schedule import Loop, _known_ints, _norm, _positive_ints, _skippable
from specula.tla.values import SiteOrder, fn_of_items, quick_order


def test_known_ints_rewrites_only_the_given_loop_values() -> None:
    src = ("(_s1[_e18 - 1] if _s1.__class__ is tuple and _e18.__class__ is int and 0 < _e18 <= len(_s1) else x) "
           "(_e7.__class__ is int and 0 < _e7 <= len(_t)) (_e18.__class__ is int) & (_e7.__class__ is int)")
    out = _known_ints(src, {18})
    assert "_e18 <= len(_s1)" in out and "_e18.__class__" not in out
    assert "_e7.__class__ is int and 0 < _e7 <= len(_t)" in out and "(_e7.__class__ is int)" in out
    assert "True & (_e7.__class__ is int)" in out


def test_positive_ints_needs_every_value_an_int_of_at_least_one() -> None:
    assert _positive_ints(Loop(1, (1, 2, 3), None, ()))
    assert not _positive_ints(Loop(1, (0, 1), None, ()))
    assert not _positive_ints(Loop(1, (True, 2), None, ()))
    assert not _positive_ints(Loop(1, ("a",), None, ()))
    assert _positive_ints(Loop(2, None, None, (), table={1: (2, 3), 2: (1, 3)}, key=1))
    assert not _positive_ints(Loop(2, None, lambda s, n, e: (), ()))


def test_norm_equates_a_guard_and_the_action_test_it_repeats() -> None:
    guard = "_t5 != () if (_t5 := (_m4 if _m4 is not _U else (_m4 := s[3][e[20] - 1]))).__class__ is tuple else _op8(_t5, ())"
    action = "_t9 != () if (_t9 := (_m4 := _s3[_e20 - 1])).__class__ is tuple else _op8(_t9, ())"
    assert _norm(guard) == _norm(action)
    assert _norm(action) != _norm(action.replace("_e20", "_e21"))


def test_skippable_refuses_a_test_whose_bindings_the_action_reads() -> None:
    first = "        if (_t1 == 0 if (_t1 := (_m4 := x)).__class__ is int else _op1(_t1, 0)):"
    assert _skippable([first, "            y = _m4"], {"_m4"})
    assert not _skippable([first, "            y = _m4"], set())  # (_m4 not computed by the guard)
    assert not _skippable([first, "            y = _t1"], {"_m4"})
    assert not _skippable(["        if (_l3 := x) > 0:", "            y = 1"], set())


def test_tuple_setters_equal_slicing() -> None:
    for n in (1, 2, 3, 7, 64, 65, 70):
        t = tuple(range(100, 100 + n))
        for k in range(1, n + 1):
            assert _tuple_setters[n][k](t, "v") == t[:k - 1] + ("v",) + t[k:]


def test_site_order_ranks_agree_with_quick_order() -> None:
    rng = random.Random(7)
    recs = [fn_of_items((("a", rng.randrange(5)), ("b", rng.choice("xyz")), ("c", i))) for i in range(40)]
    site = SiteOrder()
    for _ in range(200):
        s = frozenset(rng.sample(recs, rng.randrange(2, 15)))
        assert site.order(s) == list(quick_order(s))
