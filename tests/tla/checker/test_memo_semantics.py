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


# Applications of non-recursive operators whose body is worth it (quantifiers, set and function
# constructors, CHOOSE, other operators) and reads no variable are remembered by the values of
# their arguments and of the LET / INSTANCE bindings the body reads. Expected values follow from
# the definitions (and TLC 2.18 gives the same: the invariant fails at x = 4, 4 states).
MEMO_INNER = """---- MODULE Inner ----
EXTENDS Naturals
CONSTANT C
Big(n) == \\E i \\in 1..n : i = C
====
"""

MEMO_OPS = """VARIABLE x
P(c) == INSTANCE Inner WITH C <- c
Val(k) == \\E i \\in 1..k : i = x
Outer(k) == LET G(n) == \\E i \\in 1..n : i = k IN G(3)
Ignore(a, b) == \\E i \\in 1..3 : i = b
Card(S) == {s \\in S : s > 1}
Step(a) == \\E i \\in {a} : i + 1 = x'
ASSUME \\A c \\in {1, 5, 2, 7} : P(c)!Big(3) = (c <= 3)
ASSUME \\A k \\in {1, 5, 2, 7} : Outer(k) = (k <= 3)
ASSUME Ignore(CHOOSE y \\in {} : TRUE, 2)
ASSUME Card({1, 2, 3}) = {2, 3} /\\ Card({0, 1}) = {} /\\ Card({5, 1, 2}) = {2, 5}
Init == x = 1
Next == x < 6 /\\ x' = x + 1 /\\ Step(x)
Inv == Val(3)
"""


def test_remembered_applications_keep_every_verdict(tmp_path):
    """The same argument gives different values when the instance's substitution (c) or the
    enclosing LET's parameter (k) differ; an operator reading x is evaluated in every state;
    an argument that fails is not evaluated when the body does not use it (TLC's arguments are
    lazy); a primed argument in an action is not remembered."""
    (tmp_path / "Inner.tla").write_text(MEMO_INNER, encoding="utf-8")
    model, cfg = _model(tmp_path, MEMO_OPS, "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    r = check(model, Limits(), cfg=cfg)
    assert r.verdict == "invariant", r.message
    assert (r.distinct, r.generated, r.depth) == (4, 4, 4)
    assert [dict(zip(model.variables, st))["x"] for _, st in r.counterexample] == [1, 2, 3, 4]


def test_remembered_applications_across_states(tmp_path):
    """An invariant through an operator of the state's values: states that repeat the argument
    reuse the value, states that change it are checked again: the first violation is x + y = 7
    with x # y (3 and 4), seven steps from the initial state."""
    body = """VARIABLES x, y
Sum(S) == LET T == {s \\in S : s > 0} IN \\A a \\in T : \\A b \\in T : a # b => a + b < 7
Init == x = 0 /\\ y = 0
Next == \\/ x < 4 /\\ x' = x + 1 /\\ y' = y
        \\/ y < 4 /\\ y' = y + 1 /\\ x' = x
Inv == Sum({x, y})"""
    model, cfg = _model(tmp_path, body, "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    r = check(model, Limits(), cfg=cfg)
    assert r.verdict == "invariant", r.message
    last = dict(zip(model.variables, r.counterexample[-1][1]))
    assert last["x"] + last["y"] == 7 and len(r.counterexample) == 8
