"""Expression evaluation: cases/expressions.txt (expression ==> value as TLC prints it, or
``error: message`` where TLC stops with an error), in both evaluation modes."""

from __future__ import annotations

from pathlib import Path

import pytest

from specula.errors import EvalError
from specula.tla import Model, load
from specula.tla.cfg import parse_cfg
from specula.tla.values import format_value

CASES = Path(__file__).parent / "cases"


def _cases() -> list[tuple[str, str]]:
    out = []
    for line in (CASES / "expressions.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        expr, expected = line.split(" ==> ")
        out.append((expr.strip(), expected.strip()))
    return out


@pytest.fixture(scope="module", params=["codegen", "closures"])
def model(request: pytest.FixtureRequest) -> Model:
    """The same cases through generated code (default) and through the closure compiler only."""
    spec = load(CASES / "Defs.tla")
    return Model(spec, parse_cfg("CONSTANTS m1 = m1  m2 = m2\n", "Defs.cfg"), codegen=request.param == "codegen")


def test_enough_cases() -> None:
    assert len(_cases()) >= 90


def _outcome(model: Model, expr: str) -> str:
    try:
        return format_value(model.evaluate(expr, {"st": 1}))
    except EvalError as exc:
        return f"error: {exc}"


@pytest.mark.parametrize("expr,expected", _cases())
def test_expression(model: Model, expr: str, expected: str) -> None:
    assert _outcome(model, expr) == expected


def test_enough_ill_typed_cases() -> None:
    """Every family of operators has rows applying it to values of the wrong type."""
    bad = [e for e, x in _cases() if x.startswith("error: ")]
    assert len(bad) >= 70
    for op in ("+", "-", "*", "\\div", "%", "^", "..", "<", "<=", ">", ">=", "\\cup", "\\cap", "\\subseteq",
               "\\in", "SUBSET", "UNION", "\\X", "Len", "Head", "Tail", "Append", "\\o", "SubSeq", "Seq",
               "DOMAIN", "EXCEPT", "@@", ".a", "[1]", "~", "/\\", "=>", "IF", "->"):
        assert any(op in e for e in bad), op


@pytest.fixture(scope="module")
def both() -> tuple[Model, Model]:
    spec = load(CASES / "Defs.tla")
    cfg = parse_cfg("CONSTANTS m1 = m1  m2 = m2\n", "Defs.cfg")
    return Model(spec, cfg, codegen=True), Model(spec, cfg, codegen=False)


@pytest.mark.parametrize("expr", [e for e, _ in _cases()])
def test_modes_agree(both: tuple[Model, Model], expr: str) -> None:
    """Generated code and closures give the same value or the same error message (the place may
    differ: generated code reports the span of the generated subtree that contains the fault)."""
    fast, slow = both
    outcomes = []
    for m in (fast, slow):
        try:
            outcomes.append(("value", format_value(m.evaluate(expr, {"st": 1}))))
        except EvalError as exc:
            outcomes.append(("error", str(exc)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize(
    "expr,message",
    [
        ("<<1, 2>>[3]", "out of the domain"),
        ("[a |-> 1].b", "no field 'b'"),
        ("CHOOSE y \\in {1, 2} : y > 5", "CHOOSE"),
        ("1 + \"a\"", "cannot"),
        ("Head(<<>>)", "empty sequence"),
        ("1 \\div 0", "division by zero"),
        ("CASE 1 > 2 -> 1", "no CASE arm"),
        ("\\E n \\in Nat : n > 2", "infinite"),
        ("Assert(1 > 2, \"boom\")", "Assert"),
        ("{y \\in Nat : y < 3} = {0, 1, 2}", "infinite"),
    ],
)
def test_eval_errors_have_span(model: Model, expr: str, message: str) -> None:
    with pytest.raises(EvalError, match=message) as info:
        model.evaluate(expr, {"st": 1})
    assert info.value.span is not None and info.value.span.line >= 1


def test_constant_folding_evaluates_once(model: Model) -> None:
    # a constant expression inside a state-dependent one is folded at compile time
    f = model.compile_state_predicate("st \\in {n \\in 1..1000 : n % 7 = 0} \\/ st = 1")
    assert f((1,)) is True and f((14,)) is True and f((15,)) is False
