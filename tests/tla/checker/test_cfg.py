"""Tests for specula.tla.cfg: every TLC keyword, values, comments and errors with line/field."""

from __future__ import annotations

import pytest

from specula.errors import ConfigError
from specula.tla.cfg import CfgModelValue, load_cfg, parse_cfg

FULL = r"""
\* a line comment
(* a block (* nested *) comment
   over lines *)
CONSTANTS
  N = 3
  Neg = -2
  Name = "a \"q\""
  Flag = TRUE
  NoLeader = NoLeader
  Procs = {p1, p2, p3}
  Nested = {{1, 2}, {}}
  Tup = <<1, "x", m>>
  Max <- MaxDef
  Op(_, _) <- OpImpl
  Bound <-[Inner] BoundDef
  NoHash = [Nano]NoHashVal
CONSTANT Single = 1
INIT Init
NEXT Next
INVARIANT TypeOK
INVARIANTS Safe, Other
PROPERTY Live
PROPERTIES
CONSTRAINT Bounded
CONSTRAINTS Small
ACTION_CONSTRAINT Mono
ACTION_CONSTRAINTS Mono2
SYMMETRY Sym
VIEW V
ALIAS A
POSTCONDITION Post
CHECK_DEADLOCK FALSE
"""


def test_full_config() -> None:
    c = parse_cfg(FULL, "M.cfg")
    assert c.constants["N"] == 3 and c.constants["Neg"] == -2
    assert c.constants["Name"] == 'a "q"'
    assert c.constants["Flag"] is True
    assert c.constants["NoLeader"] == CfgModelValue("NoLeader")
    assert c.constants["Procs"] == frozenset({CfgModelValue("p1"), CfgModelValue("p2"), CfgModelValue("p3")})
    assert c.constants["Nested"] == frozenset({frozenset({1, 2}), frozenset()})
    assert c.constants["Tup"] == (1, "x", CfgModelValue("m"))
    assert c.constants["Single"] == 1
    assert c.substitutions == {"Max": "MaxDef", "Op": "OpImpl"}
    assert c.module_substitutions == {("Inner", "Bound"): "BoundDef"}
    assert c.module_constants == {("Nano", "NoHash"): CfgModelValue("NoHashVal")}
    assert (c.init, c.next, c.specification) == ("Init", "Next", None)
    assert c.invariants == ["TypeOK", "Safe", "Other"]
    assert c.properties == ["Live"]
    assert c.constraints == ["Bounded", "Small"]
    assert c.action_constraints == ["Mono", "Mono2"]
    assert (c.symmetry, c.view, c.alias, c.postcondition) == ("Sym", "V", "A", "Post")
    assert c.check_deadlock is False
    assert c.lines["constants.N"] == 6
    assert c.lines["init"] == 19
    assert c.lines["invariants.Safe"] == 22
    assert c.to_dict()["constants"]["Procs"] == {"set": [{"model_value": "p1"}, {"model_value": "p2"}, {"model_value": "p3"}]}


def test_specification_and_defaults() -> None:
    c = parse_cfg("SPECIFICATION Spec INVARIANT Inv")
    assert c.specification == "Spec" and c.invariants == ["Inv"]
    assert c.check_deadlock is True and c.init is None


def test_several_assignments_on_one_line() -> None:
    c = parse_cfg("CONSTANTS N = 2 M = 3 P <- Q\nINIT I NEXT N2")
    assert c.constants == {"N": 2, "M": 3} and c.substitutions == {"P": "Q"}
    assert c.next == "N2"


@pytest.mark.parametrize(
    ("text", "line", "field"),
    [
        ("CONSTANT\n  N = \n", 3, "constants.N"),
        ("CONSTANT\n N 3", 2, "constants.N"),
        ("INIT\n", 2, "init"),
        ("INIT Init\nINIT Other", 2, "init"),
        ("CHECK_DEADLOCK maybe", 1, "check_deadlock"),
        ("CONSTANT S = {1, 2", 1, "constants.S"),
        ("CONSTANT N = 1\nN = 2", 2, "constants.N"),
        ("Init", 1, None),
        ("(* open", 1, None),
        ("CONSTANT X <-[M Def", 1, "constants.X"),
        ("INIT Init\n\n  $", 3, None),
    ],
)
def test_errors_carry_line_and_field(text: str, line: int, field: str | None) -> None:
    with pytest.raises(ConfigError) as ei:
        parse_cfg(text, "bad.cfg")
    assert ei.value.line == line
    assert ei.value.field == field
    assert ei.value.path == "bad.cfg"


def test_load_missing_file(tmp_path) -> None:
    with pytest.raises(ConfigError):
        load_cfg(tmp_path / "nope.cfg")


def test_load_file(tmp_path) -> None:
    p = tmp_path / "M.cfg"
    p.write_text("INIT Init NEXT Next\n")
    c = load_cfg(p)
    assert c.init == "Init" and c.file == str(p)
