"""Model.compile_expression: one compilation, evaluated under many bindings (PGo replay's
mapping macros evaluate the same bodies with thousands of different values)."""

from __future__ import annotations

from pathlib import Path

from specula.tla import Model, load, parse_cfg

SPEC = """---- MODULE CE ----
EXTENDS Naturals, Sequences
VARIABLE x
Init == x = 3
Next == x' = x
Double(v) == 2 * v
====
"""


def _model(tmp_path: Path) -> Model:
    p = tmp_path / "CE.tla"
    p.write_text(SPEC, encoding="utf-8")
    return Model(load(str(p)), parse_cfg("INIT Init\nNEXT Next\n", "CE.cfg"))


def test_bound_names_take_each_call_s_values_and_the_state_is_read(tmp_path):
    m = _model(tmp_path)
    f = m.compile_expression("LET d == Double(a) IN d + b + x", ["a", "b"])
    s = next(iter(m.init_states()))
    assert f(s, 1, 10) == 2 + 10 + 3
    assert f(s, 5, 0) == 10 + 0 + 3  # the LET's value is not kept from the previous call
    g = m.compile_expression("Append(q, a)", ["q", "a"])
    assert g(s, (1, 2), 7) == (1, 2, 7)
