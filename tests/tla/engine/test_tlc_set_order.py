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
