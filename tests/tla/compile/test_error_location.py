"""An evaluation error inside generated code is reported where TLC reports it: at the innermost
failing expression, not at the root of the generated function (an invariant's whole conjunction).

Expected line:col are TLC 2.18's ("line L, col C to ..." of its error, or the last of its nested
positions), for the spec below with each invariant checked alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from specula.tla.cfg import load_cfg
from specula.tla.checker import Limits, check
from specula.tla.loading import load
from specula.tla.model import Model

SPEC = """---- MODULE L ----
EXTENDS Naturals, Sequences
VARIABLE x, f
S == {1, 2}
Init == x = 0 /\\ f = [i \\in S |-> i]
Next == x' = x /\\ f' = f
Get(k) == f[k] + 1
InvQ ==
    /\\ x = 0
    /\\ \\A a \\in S : a[1] = 1
InvDom ==
    /\\ x = 0
    /\\ Get(3) > 0
InvDiv ==
    \\/ x = 1
    \\/ (x + 2) \\div x = 0
InvSet ==
    /\\ x \\in S \\cup {0}
    /\\ { y \\in S : y.foo = 1 } = {}
====
"""

# TLC 2.18: "A non-function (an integer) was applied as a function. line 10, col 21 to line 10,
# col 24"; "Attempted to apply function <<1, 2>> to argument 3" (nested positions end at line 7,
# col 11 to col 14); "The second argument of \\div is 0" (ends at line 16, col 8 to col 21);
# "Attempted to select field "foo" from a non-record value 1 line 19, col 20 to line 19, col 24"
TLC = {"InvQ": (10, 21), "InvDom": (7, 11), "InvDiv": (16, 8), "InvSet": (19, 20)}


@pytest.mark.parametrize("codegen", [True, False], ids=["generated", "closures"])
@pytest.mark.parametrize("inv", sorted(TLC))
def test_invariant_error_at_tlc_position(tmp_path: Path, inv: str, codegen: bool) -> None:
    (tmp_path / "L.tla").write_text(SPEC)
    (tmp_path / "L.cfg").write_text(f"INIT Init\nNEXT Next\nINVARIANT {inv}\n")
    spec = load(tmp_path / "L.tla")
    cfg = load_cfg(tmp_path / "L.cfg")
    res = check(Model(spec, cfg, codegen=codegen), Limits(), cfg=cfg)
    assert res.verdict == "error"
    assert (res.span.line, res.span.col) == TLC[inv], res.message
