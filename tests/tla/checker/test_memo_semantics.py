"""Remembered results must never change verdicts: recursive operators that read no variable are
memoised by argument (a parameter named like a variable of the extending module does not count as reading it), ones that
read a variable are not; invariant conjuncts are cached by the identity of the variables they
read, so a changed value is always checked again."""

from __future__ import annotations

from pathlib import Path

from specula.tla.checker import Limits, build_model, check


LIB = """---- MODULE Lib ----
EXTENDS Naturals
RECURSIVE Pure(_)
Pure(x) == IF x = 0 THEN 0 ELSE 1 + Pure(x - 1)
====
"""


def _model(tmp_path: Path, body: str, cfg: str):
    (tmp_path / "Lib.tla").write_text(LIB, encoding="utf-8")
    p = tmp_path / "M.tla"
    p.write_text(f"---- MODULE M ----\nEXTENDS Naturals, Lib\n{body}\n====\n", encoding="utf-8")
    (tmp_path / "M.cfg").write_text(cfg, encoding="utf-8")
    return build_model(p, tmp_path / "M.cfg")


REC = """VARIABLES x, y
RECURSIVE Cnt(_)
Cnt(n) == IF n = 0 THEN x ELSE Cnt(n - 1)
Init == x = 0 /\\ y = 0
Next == \\/ x < 3 /\\ x' = x + 1 /\\ y' = y
        \\/ y < 2 /\\ y' = y + 1 /\\ x' = x
Inv == Cnt(2) = x /\\ Pure(x) = x
Small == x + y < 5 /\\ y < 3
"""


def test_recursive_memo_only_for_operators_that_read_no_variable(tmp_path):
    model, cfg = _model(tmp_path, REC, "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    r = check(model, Limits(), cfg=cfg)
    assert r.verdict == "ok" and (r.distinct, r.generated) == (12, 18)
    memo = {ck[0].name: "memo" in ent for ck, ent in model.compiler.rec_cache.items()}
    assert memo == {"Cnt": False, "Pure": True}


def test_cached_invariant_conjuncts_still_catch_a_changed_value(tmp_path):
    model, cfg = _model(tmp_path, REC, "INIT Init\nNEXT Next\nINVARIANT Small\n")
    r = check(model, Limits(), cfg=cfg)
    assert r.verdict == "invariant"
    last = dict(zip(model.variables, r.counterexample[-1][1]))
    assert last["x"] + last["y"] == 5


def test_let_recursive_operator_reading_the_enclosing_parameter_is_not_memoised(tmp_path):
    """A LET-defined RECURSIVE operator also reads its enclosing bindings (TransitiveClosure's
    TC4 reads R): the same argument must give different results for different R."""
    body = """VARIABLE x
Outer(k) == LET RECURSIVE F(_)
                F(n) == IF n = 0 THEN k ELSE F(n - 1)
            IN F(2)
ASSUME \\A k \\in {1, 5, 1} : Outer(k) = k
Init == x = 0
Next == x' = x"""
    model, cfg = _model(tmp_path, body, "INIT Init\nNEXT Next\n")
    r = check(model, Limits(), cfg=cfg)
    assert r.verdict == "ok", r.message
