"""Sets of composite values in TLC's order (tlc_key, ordered): the sets PrintT shows for
tests/tla/specs/SetOrder.tla, as TLC 2.18 printed them (whitespace aside). The message set grows by
one record per step (S \\cup {e}): the enumeration order of each grown set is the printed one."""

from __future__ import annotations

import re
from pathlib import Path

from specula.cli import main

SPEC = Path(__file__).resolve().parents[1] / "specs" / "SetOrder.tla"

# TLC 2.18: java tlc2.TLC -workers 1 SetOrder.tla (each PrintT, in the order printed)
TLC_PRINTED = [
    '{}',
    '{[type |-> "resp", term |-> 2, granted |-> TRUE, src |-> 1, dst |-> 2]}',
    '{ [type |-> "req", term |-> 10, src |-> 2, dst |-> 1], '
    '[type |-> "resp", term |-> 2, granted |-> TRUE, src |-> 1, dst |-> 2] }',
    '{ [type |-> "req", term |-> 10, src |-> 2, dst |-> 1], '
    '[type |-> "resp", term |-> 2, granted |-> FALSE, src |-> 1, dst |-> 2], '
    '[type |-> "resp", term |-> 2, granted |-> TRUE, src |-> 1, dst |-> 2] }',
    '{ [type |-> "req", term |-> 1, src |-> 2, dst |-> 3], '
    '[type |-> "req", term |-> 10, src |-> 2, dst |-> 1], '
    '[type |-> "resp", term |-> 2, granted |-> FALSE, src |-> 1, dst |-> 2], '
    '[type |-> "resp", term |-> 2, granted |-> TRUE, src |-> 1, dst |-> 2] }',
    '{ [type |-> "req", term |-> 1, src |-> 2, dst |-> 3], '
    '[type |-> "req", term |-> 1, src |-> 3, dst |-> 1], '
    '[type |-> "req", term |-> 10, src |-> 2, dst |-> 1], '
    '[type |-> "resp", term |-> 2, granted |-> FALSE, src |-> 1, dst |-> 2], '
    '[type |-> "resp", term |-> 2, granted |-> TRUE, src |-> 1, dst |-> 2] }',
    '{ [type |-> "req", term |-> 1, src |-> 2, dst |-> 3], '
    '[type |-> "req", term |-> 1, src |-> 3, dst |-> 1], '
    '[type |-> "req", term |-> 10, src |-> 2, dst |-> 1], '
    '[type |-> "resp", term |-> 1, granted |-> TRUE, src |-> 3, dst |-> 2], '
    '[type |-> "resp", term |-> 2, granted |-> FALSE, src |-> 1, dst |-> 2], '
    '[type |-> "resp", term |-> 2, granted |-> TRUE, src |-> 1, dst |-> 2] }',
    '<< [type |-> "req", term |-> 1, src |-> 2, dst |-> 3], '
    '{<<>>, <<1>>, <<0, 5>>, <<1, 2>>, <<2, 1>>, <<1, 1, 1>>}, '
    '{{}, {1}, {3}, {1, 2}, {2, 3}, {0, 1, 2}}, '
    '{[a |-> {}], [a |-> {1}], [a |-> {3}], [a |-> {0, 2}]}, '
    '{[b |-> <<>>], [b |-> <<2>>], [b |-> <<1, "a">>], [b |-> <<1, "x">>]}, '
    '{ [k |-> [v |-> 1], w |-> 0], [k |-> [v |-> 1], w |-> 5], [k |-> [v |-> 2], w |-> 1] } >>',
]


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_printed_sets_are_in_tlc_order(capsys) -> None:
    assert main(["check", str(SPEC)]) == 0
    out = capsys.readouterr().out
    printed = [ln for ln in out.splitlines() if ln.startswith(("{", "<<"))]
    assert [_norm(p) for p in printed] == [_norm(p) for p in TLC_PRINTED]


GROW = Path(__file__).resolve().parents[1] / "specs" / "GrowOrder.tla"


def test_enumeration_of_a_grown_set_follows_tlc_order() -> None:
    """``\\E m \\in msgs`` over sets grown by S \\cup {e} (ordered from ranks by identity,
    SiteOrder): TLC 2.18 reports the violation after 47 generated / 18 distinct states, the
    last state's ``last`` the first message in its order, not the last one added."""
    from specula.tla.checker import Limits, check_spec
    from specula.tla.values import make_record

    res = check_spec(GROW, GROW.with_suffix(".cfg"), Limits(max_seconds=60))
    assert (res.verdict, res.generated, res.distinct) == ("invariant", 47, 18)
    assert len(res.counterexample) == 5
    assert res.counterexample[-1][1][1] == make_record([("k", 1), ("p", 1)])


def test_site_order_equals_quick_order() -> None:
    """Ranks by identity give the order of a fresh sort, for sets met in any order (records of
    two shapes, tuples, sets, mixed with equal copies that are other objects)."""
    from specula.tla.compile.gen import _rec
    from specula.tla.values import SiteOrder, StringOrder, quick_order, tlc_string_order

    recs = [_rec(("type", "term", "src", "dst"), ("req", t, s, d)) for t in (1, 2, 10) for s in (1, 2) for d in (2, 3)]
    recs += [_rec(("type", "term", "granted"), ("resp", t, g)) for t in (1, 2) for g in (True, False)]
    copies = [_rec(("type", "term", "granted"), ("resp", 2, False))]  # equal to one above, another object
    tups = [(), (1,), (1, 2), (2, 1), (0, 5), (1, 1, 1)]
    sets = [frozenset(), frozenset({1}), frozenset({3}), frozenset({1, 2}), frozenset({0, 1, 2})]
    with tlc_string_order(StringOrder(["type", "term", "src", "dst", "granted", "req", "resp"])):
        for pool in (copies + recs[::-1] + copies, tups[::-1], sets):
            site = SiteOrder()
            for i in range(len(pool)):
                for j in range(i + 2, len(pool) + 1):
                    s = frozenset(pool[i:j])
                    assert list(site.order(s)) == list(quick_order(s))
