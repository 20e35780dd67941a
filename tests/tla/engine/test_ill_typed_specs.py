"""Ill-typed specs stop with the same error in both evaluation modes (TLC 2.18 stops on each of
them after the initial state: "The second argument of < should be an integer, ...")."""

from __future__ import annotations

from pathlib import Path

import pytest

from specula.tla import Model, check, load
from specula.tla.cfg import parse_cfg

SPECS = {
    # the generated code used Python's + and <, which accept booleans and strings
    "Plus": ("Init == x = 0", "Next == x < 3 /\\ x' = x + TRUE", "cannot apply + to integer 0 and boolean TRUE"),
    "Lt": ("Init == x = 0", "Next == (x + 1) < TRUE /\\ x' = x + 1", "cannot apply < to integer 1 and boolean TRUE"),
    "Str": ("Init == x = \"a\"", "Next == x < \"b\" /\\ x' = \"b\"", "cannot apply < to string \"a\" and string \"b\""),
    "Neg": ("Init == x = 0", "Next == x' = -(x = 0)", "cannot apply - to boolean TRUE"),
    "Cup": ("Init == x = {1}", "Next == x' = x \\cup 2", "cannot apply \\cup to set {1} and integer 2"),
}


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_ill_typed_next_is_an_error(tmp_path: Path, name: str, codegen: bool) -> None:
    init, nxt, message = SPECS[name]
    tla = tmp_path / f"{name}.tla"
    tla.write_text(f"---- MODULE {name} ----\nEXTENDS Integers\nVARIABLE x\n{init}\n{nxt}\n====\n")
    model = Model(load(tla), parse_cfg("INIT Init\nNEXT Next\n", f"{name}.cfg"), codegen=codegen)
    result = check(model)
    assert (result.verdict, result.distinct, result.message) == ("error", 1, message)


# TLC 2.18's verdicts on a typed model value (a name "x_str" has type x) compared with a value
# that is not a model value; an untyped model value compares as unequal to everything
TYPED = [
    ("t = 1", "Attempted to check equality of typed model value T_a and non-model value\n1"),
    ("1 = t", "Attempted to check equality of the typed model value T_a and the non-model value\n1"),
    ("t # \"s\"", "Attempted to check equality of typed model value T_a and non-model value\n\"s\""),
    ("TLCModelValue(\"T_c\") = <<1>>",
     "Attempted to check equality of typed model value T_c and non-model value\n<<1>>"),
    ("u = 1", None),
    ("t = u", None),
    ("TLCModelValue(\"c\") = \"s\"", None),
]


@pytest.mark.parametrize("expr,message", TYPED, ids=[e for e, _ in TYPED])
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_a_typed_model_value_compared_with_another_kind_is_tlcs_error(tmp_path: Path, expr: str,
                                                                      message: str | None, codegen: bool) -> None:
    tla = tmp_path / "Typed.tla"
    tla.write_text("---- MODULE Typed ----\nEXTENDS Integers, TLCExt\nCONSTANTS t, u\nVARIABLE x\n"
                   f"Init == x = 0\nNext == UNCHANGED x\nInv == ({expr}) \\/ TRUE\n====\n")
    cfg = parse_cfg("CONSTANTS t = T_a\n u = u\nINIT Init\nNEXT Next\nINVARIANT Inv\n", "Typed.cfg")
    result = check(Model(load(tla), cfg, codegen=codegen))
    if message is None:
        assert result.verdict == "ok", result.message
    else:
        assert (result.verdict, result.message) == ("error", message)
