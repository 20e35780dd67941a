"""A LET-defined function that is only ever applied (``f[e]``) is evaluated at the points applied,
as TLC's FcnLambdaValue, not on its whole domain: Util's ``ReduceSet`` (``iter[s \\in SUBSET S]``)
and ``PermSeqs`` stay linear instead of building every subset, and a point that fails but is
never applied is no error. Used otherwise (DOMAIN, =), the function is evaluated on its domain
and fails there, as in TLC. Expected verdicts and counts: TLC 2.18 on the same modules."""

from __future__ import annotations

from pathlib import Path

from specula.tla.checker import Limits, check_spec

LAZY_LET = """---- MODULE LazyLet ----
EXTENDS Naturals, FiniteSets
VARIABLE x
Red(S) == LET g[T \\in SUBSET S] == IF T = {} THEN 0 ELSE LET y == CHOOSE y \\in T : TRUE IN y + g[T \\ {y}]
          IN g[S]
ASSUME Red(1..20) = 210
Bad(S) == LET h[T \\in SUBSET S] == IF Cardinality(T) = 1 THEN CHOOSE y \\in {} : TRUE ELSE Cardinality(T)
          IN h[S]
ASSUME Bad({1, 2, 3}) = 3
Init == x \\in {3, 4}
Next == x' = x
Inv == Bad({1, 2, x}) = 3 /\\ Red({x, 1}) = x + 1
====
"""

LAZY_ESCAPES = """---- MODULE LazyEsc ----
EXTENDS Naturals
ASSUME LET g[n \\in 0..1] == IF n = 1 THEN CHOOSE y \\in {} : TRUE ELSE 0 IN DOMAIN g = {0, 1} /\\ g = g
====
"""


def _run(tmp_path: Path, name: str, text: str, cfg: str):
    (tmp_path / f"{name}.tla").write_text(text, encoding="utf-8")
    (tmp_path / f"{name}.cfg").write_text(cfg, encoding="utf-8")
    return check_spec(tmp_path / f"{name}.tla", tmp_path / f"{name}.cfg", Limits(max_seconds=120))


def test_only_applied_let_functions_are_evaluated_where_applied(tmp_path):
    r = _run(tmp_path, "LazyLet", LAZY_LET, "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    assert r.verdict == "ok", r.message
    assert (r.distinct, r.generated, r.depth) == (2, 4, 1)


def test_a_let_function_used_as_a_value_is_evaluated_on_its_domain(tmp_path):
    r = _run(tmp_path, "LazyEsc", LAZY_ESCAPES, "\n")
    assert r.verdict == "assumption"
    assert "CHOOSE" in r.message
