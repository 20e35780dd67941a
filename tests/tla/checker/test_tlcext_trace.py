"""TLCExt's Trace, CounterExample and ToTrace, and TLCGet("level"), read from the search as TLC
does. The expected values are TLC 2.18's (printed by it for these specs, or TLC's own tests in
tlaplus/tlaplus test-model: TLCExtTrace, Github757, Github1147); the differential tests run TLC
again when SPECULA_TLA2TOOLS is set."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from specula.cli import main
from specula.tla.checker import Limits, build_model, check, check_spec
from specula.tla.simulate import simulate

TR = """EXTENDS Naturals, Sequences, TLC, TLCExt
VARIABLES x, y
Init == x = 0 /\\ y = 0
Next == /\\ x < 3
        /\\ \\/ x' = x + 1 /\\ y' = y
           \\/ y' = 1 - y /\\ x' = x
NextP == Next /\\ PrintT(<<"next", x, y, TLCGet("level"), Trace>>)
Inv == PrintT(<<"inv", x, y, TLCGet("level"), Trace>>)
Con == PrintT(<<"con", x, y, TLCGet("level"), Trace>>)
ACon == PrintT(<<"acon", x, y, x', y', TLCGet("level"), Trace>>)
V == <<x, y>>"""

CFGS = {
    "inv": "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
    "con": "INIT Init\nNEXT Next\nCONSTRAINT Con\nCHECK_DEADLOCK FALSE\n",
    "acon": "INIT Init\nNEXT Next\nACTION_CONSTRAINT ACon\nCHECK_DEADLOCK FALSE\n",
    "next": "INIT Init\nNEXT NextP\nCHECK_DEADLOCK FALSE\n",
    "view-inv": "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\nVIEW V\n",
    "view-next": "INIT Init\nNEXT NextP\nCHECK_DEADLOCK FALSE\nVIEW V\n",
}

# TLC 2.18's PrintT lines for TR (blanks removed), in its order
_R = {(0, 0): "[x|->0,y|->0]", (1, 0): "[x|->1,y|->0]", (0, 1): "[x|->0,y|->1]", (2, 0): "[x|->2,y|->0]",
      (1, 1): "[x|->1,y|->1]", (3, 0): "[x|->3,y|->0]", (2, 1): "[x|->2,y|->1]", (3, 1): "[x|->3,y|->1]"}


def _line(kind: str, vals: tuple, path: list) -> str:
    return f'<<"{kind}",{",".join(map(str, vals))},<<{",".join(_R[p] for p in path)}>>>>'


TLC_INV = [
    _line("inv", (0, 0, 1), [(0, 0)]),
    _line("inv", (1, 0, 2), [(0, 0), (1, 0)]),
    _line("inv", (0, 1, 2), [(0, 0), (0, 1)]),
    _line("inv", (2, 0, 3), [(0, 0), (1, 0), (2, 0)]),
    _line("inv", (1, 1, 3), [(0, 0), (1, 0), (1, 1)]),
    _line("inv", (3, 0, 4), [(0, 0), (1, 0), (2, 0), (3, 0)]),
    _line("inv", (2, 1, 4), [(0, 0), (1, 0), (2, 0), (2, 1)]),
    _line("inv", (3, 1, 5), [(0, 0), (1, 0), (2, 0), (2, 1), (3, 1)]),
]
# CONSTRAINT is evaluated on every successor (also those already seen): Trace ends with it
TLC_CON = [
    _line("con", (0, 0, 1), [(0, 0)]),
    _line("con", (1, 0, 2), [(0, 0), (1, 0)]),
    _line("con", (0, 1, 2), [(0, 0), (0, 1)]),
    _line("con", (2, 0, 3), [(0, 0), (1, 0), (2, 0)]),
    _line("con", (1, 1, 3), [(0, 0), (1, 0), (1, 1)]),
    _line("con", (1, 1, 3), [(0, 0), (0, 1), (1, 1)]),
    _line("con", (0, 0, 3), [(0, 0), (0, 1), (0, 0)]),
    _line("con", (3, 0, 4), [(0, 0), (1, 0), (2, 0), (3, 0)]),
    _line("con", (2, 1, 4), [(0, 0), (1, 0), (2, 0), (2, 1)]),
    _line("con", (2, 1, 4), [(0, 0), (1, 0), (1, 1), (2, 1)]),
    _line("con", (1, 0, 4), [(0, 0), (1, 0), (1, 1), (1, 0)]),
    _line("con", (3, 1, 5), [(0, 0), (1, 0), (2, 0), (2, 1), (3, 1)]),
    _line("con", (2, 0, 5), [(0, 0), (1, 0), (2, 0), (2, 1), (2, 0)]),
]
# ACTION_CONSTRAINT: Trace and TLCGet("level") are those of the unprimed state
TLC_ACON_HEAD = [
    '<<"acon",0,0,1,0,1,<<[x|->0,y|->0]>>>>',
    '<<"acon",0,0,0,1,1,<<[x|->0,y|->0]>>>>',
    '<<"acon",1,0,2,0,2,<<[x|->0,y|->0],[x|->1,y|->0]>>>>',
    '<<"acon",1,0,1,1,2,<<[x|->0,y|->0],[x|->1,y|->0]>>>>',
    '<<"acon",0,1,1,1,2,<<[x|->0,y|->0],[x|->0,y|->1]>>>>',
    '<<"acon",0,1,0,0,2,<<[x|->0,y|->0],[x|->0,y|->1]>>>>',
]


def _prints(text: str) -> list[str]:
    """The PrintT values of a run (TLC breaks long values over lines), blanks removed."""
    vals: list[str] = []
    cur: str | None = None
    for line in text.splitlines():
        if cur is None and not line.startswith("<<"):
            continue
        cur = line if cur is None else cur + line
        if cur.count("<<") == cur.count(">>"):
            vals.append(re.sub(r"\s+", "", cur))
            cur = None
    return vals


def _write(tmp_path: Path, name: str, body: str, cfg: str) -> Path:
    p = tmp_path / f"{name}.tla"
    p.write_text(f"---- MODULE {name} ----\n{body}\n====\n", encoding="utf-8")
    (tmp_path / f"{name}.cfg").write_text(cfg, encoding="utf-8")
    return p


def _specula_prints(tmp_path: Path, kind: str, capsys: pytest.CaptureFixture) -> list[str]:
    spec = _write(tmp_path, "TR", TR, CFGS[kind])
    capsys.readouterr()
    r = check_spec(spec)
    assert r.verdict == "ok", r.message
    return _prints(capsys.readouterr().out)


@pytest.mark.parametrize("kind,expected", [("inv", TLC_INV), ("con", TLC_CON), ("view-inv", TLC_INV)])
def test_trace_and_level_in_invariants_and_constraints_are_tlcs(tmp_path, capsys, kind, expected) -> None:
    assert _specula_prints(tmp_path, kind, capsys) == [s.replace('"view-', '"') for s in expected]


def test_trace_in_action_constraint_is_the_unprimed_states_behaviour(tmp_path, capsys) -> None:
    got = _specula_prints(tmp_path, "acon", capsys)
    assert got[: len(TLC_ACON_HEAD)] == TLC_ACON_HEAD and len(got) == 12


@pytest.mark.parametrize("kind", ["next", "view-next"])
def test_trace_in_the_next_state_relation_is_the_explored_states_behaviour(tmp_path, capsys, kind) -> None:
    """TLC prints more lines (it re-evaluates Next while rebuilding traces), the same values."""
    got = _specula_prints(tmp_path, kind, capsys)
    expected = {s.replace('"inv"', '"next"') for s in TLC_INV if '"inv",3,' not in s}
    assert set(got) == expected and len(got) == 2 * len(expected)  # each state: two actions


def test_trace_in_an_invariant_and_constraint_tlcs_own_test(tmp_path) -> None:
    """tlaplus test-model TLCExtTrace.tla: Len(Trace) = x and Trace[i].x = i in every state."""
    body = """EXTENDS Integers, TLCExt, Sequences
VARIABLE x
Spec == x = 1 /\\ [][x < 10 /\\ x' = x + 1]_x
Inv == /\\ Len(Trace) = x
       /\\ \\A i \\in 1..x : /\\ Trace[i].x = i"""
    spec = _write(tmp_path, "TLCExtTrace", body, "SPECIFICATION Spec\nINVARIANT Inv\nCONSTRAINT Inv\nCHECK_DEADLOCK FALSE\n")
    r = check_spec(spec)
    assert (r.verdict, r.distinct) == ("ok", 10)


def test_trace_in_alias_is_the_error_traces_prefix(tmp_path, capsys) -> None:
    """tlaplus test-model TLCExtTraceAlias: each state of the error trace shows Trace up to it."""
    body = """EXTENDS Integers, TLCExt, Sequences
VARIABLE x
Spec == x = 1 /\\ [][x < 10 /\\ x' = x + 1]_x
Inv2 == x < 7
Alias == [x |-> x, t |-> Trace]"""
    spec = _write(tmp_path, "TLCExtTrace", body, "SPECIFICATION Spec\nINVARIANT Inv2\nALIAS Alias\n")
    assert main(["check", str(spec)]) != 0
    out = capsys.readouterr().out
    ts = re.findall(r"t = (<<.*>>)", out)
    assert ts == ["<<" + ", ".join(f"[x |-> {j}]" for j in range(1, i + 1)) + ">>" for i in range(1, 8)]


CE = """EXTENDS Naturals, Sequences, TLC, TLCExt
VARIABLES x, y
Init == x = 0 /\\ y = "a"
Inc(d) == x' = x + d /\\ y' = y
Flip == y' = (IF y = "a" THEN "b" ELSE "a") /\\ UNCHANGED x
Next == \\/ \\E d \\in {1, 2}: Inc(d)
        \\/ Flip
Inv == x < 3
Loc == [beginLine |-> 5, beginColumn |-> 11, endLine |-> 5, endColumn |-> 30, module |-> "CE"]
\\* TLC 2.18's value
Expected ==
  [ state |-> {<<1, [x |-> 0, y |-> "a"]>>, <<2, [x |-> 1, y |-> "a"]>>, <<3, [x |-> 3, y |-> "a"]>>},
    action |->
      { << <<1, [x |-> 0, y |-> "a"]>>, [name |-> "Inc", location |-> Loc, context |-> [d |-> 1]],
           <<2, [x |-> 1, y |-> "a"]>> >>,
        << <<2, [x |-> 1, y |-> "a"]>>, [name |-> "Inc", location |-> Loc, context |-> [d |-> 2]],
           <<3, [x |-> 3, y |-> "a"]>> >> },
    invariant |-> {"Inv"} ]
Post == /\\ CounterExample = Expected
        /\\ ToTrace(CounterExample) = <<[x |-> 0, y |-> "a"], [x |-> 1, y |-> "a"], [x |-> 3, y |-> "a"]>>
        /\\ TLCGet("level") = 0
Wrong == CounterExample.invariant = {"default"}"""


def test_counterexample_in_postcondition_after_an_invariant_violation(tmp_path) -> None:
    spec = _write(tmp_path, "CE", CE, "INIT Init\nNEXT Next\nINVARIANT Inv\nPOSTCONDITION Post\n")
    r = check_spec(spec)
    assert r.verdict == "invariant" and not [p for p in r.properties if p.kind == "postcondition"]
    (tmp_path / "CE.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\nPOSTCONDITION Wrong\n")
    r = check_spec(spec)
    assert r.verdict == "invariant"  # TLC reports the false postcondition, the exit code stays 12
    assert [(p.name, p.status) for p in r.properties if p.kind == "postcondition"] == [("Wrong", "violated")]


def test_counterexample_without_violation_initial_state_and_lasso(tmp_path) -> None:
    body = """EXTENDS Naturals, Sequences, TLC, TLCExt
VARIABLES x
Init == x \\in {0, 7}
Next == x < 2 /\\ x' = x + 1
Inv == x < 5
Live == <>(x = 5)
None == CounterExample = [state |-> {}, action |-> {}, invariant |-> {"default"}] /\\ ToTrace(CounterExample) = <<>>
AtInit == CounterExample = [state |-> {<<1, [x |-> 7]>>}, action |-> {}, invariant |-> {"Inv"}]
Loc == [beginLine |-> 5, beginColumn |-> 9, endLine |-> 5, endColumn |-> 27, module |-> "CE2"]
Lasso == CounterExample =
  [ state |-> {<<1, [x |-> 0]>>, <<2, [x |-> 1]>>, <<3, [x |-> 2]>>},
    action |-> { << <<1, [x |-> 0]>>, [name |-> "Next", location |-> Loc], <<2, [x |-> 1]>> >>,
                 << <<2, [x |-> 1]>>, [name |-> "Next", location |-> Loc], <<3, [x |-> 2]>> >>,
                 << <<3, [x |-> 2]>>, [name |-> "Next", location |-> Loc], <<3, [x |-> 2]>> >> },
    invariant |-> {"default"} ]"""
    spec = _write(tmp_path, "CE2", body.replace("x \\in {0, 7}", "x = 0"),
                  "INIT Init\nNEXT Next\nINVARIANT Inv\nPOSTCONDITION None\nCHECK_DEADLOCK FALSE\n")
    assert check_spec(spec).verdict == "ok"
    (tmp_path / "CE2.cfg").write_text("INIT Init\nNEXT Next\nPROPERTY Live\nPOSTCONDITION Lasso\nCHECK_DEADLOCK FALSE\n")
    r = check_spec(spec)
    assert r.verdict == "liveness" and not [p for p in r.properties if p.kind == "postcondition"]
    spec = _write(tmp_path, "CE2", body, "INIT Init\nNEXT Next\nINVARIANT Inv\nPOSTCONDITION AtInit\n")
    r = check_spec(spec)
    assert r.verdict == "invariant" and not [p for p in r.properties if p.kind == "postcondition"]


def test_to_trace_of_tlcs_own_test_github757(tmp_path) -> None:
    body = """EXTENDS Naturals, TLC, TLCExt
VARIABLE x
vars == <<x>>
Init == x = 1
Next == x' = x + 1
Spec == Init /\\ [][Next]_vars
Inv == x < 2
PostCondition ==
  /\\ ToTrace(CounterExample) = <<[x |-> 1], [x |-> 2]>>
  /\\ CounterExample.state = {<<1, [x |-> 1]>>, <<2, [x |-> 2]>>}"""
    spec = _write(tmp_path, "Github757", body, "SPECIFICATION Spec\nINVARIANT Inv\nPOSTCONDITION PostCondition\n")
    r = check_spec(spec)
    assert r.verdict == "invariant" and not [p for p in r.properties if p.kind == "postcondition"]


def test_to_trace_rejects_other_values(tmp_path) -> None:
    spec = _write(tmp_path, "TT", "EXTENDS TLCExt\nASSUME ToTrace(<<1>>) = <<>>", "")
    r = check_spec(spec)
    assert r.verdict in ("error", "assumption") and "ToTrace" in r.message


SIM = """EXTENDS Naturals, Sequences, TLC, TLCExt
VARIABLES x
Init == x = 0
Next == x < 2 /\\ x' = x + 1
I == [name |-> "Init", location |-> [beginLine |-> 4, beginColumn |-> 9, endLine |-> 4, endColumn |-> 13, module |-> "SIM"]]
N == [name |-> "Next", location |-> [beginLine |-> 5, beginColumn |-> 9, endLine |-> 5, endColumn |-> 27, module |-> "SIM"]]
\\* TLC 2.18 -simulate: each state's record has the field _action
Inv == /\\ TLCGet("level") = x + 1
       /\\ Trace = [i \\in 1..x + 1 |-> [x |-> i - 1, _action |-> IF i = 1 THEN I ELSE N]]"""


def test_trace_in_simulation_has_tlcs_action_field(tmp_path) -> None:
    spec = _write(tmp_path, "SIM", SIM, "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    model, cfg = build_model(spec)
    res = simulate(model, num=3, depth=5, seed=1, cfg=cfg)
    assert res.ok and res.steps == 6, [e.message for e in res.errors]
    # the same spec checked exhaustively: no _action field there
    assert check(model, Limits(), cfg=cfg).verdict == "invariant"


# --------------------------------------------------------------------------- against TLC itself

TLA2TOOLS = os.environ.get("SPECULA_TLA2TOOLS")
needs_tlc = pytest.mark.skipif(not TLA2TOOLS or not Path(TLA2TOOLS).is_file(), reason="SPECULA_TLA2TOOLS not set")


def _tlc(spec: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(["java", "-XX:+UseParallelGC", "-cp", str(TLA2TOOLS), "tlc2.TLC", "-workers", "1",
                           "-cleanup", *extra, "-config", spec.with_suffix(".cfg").name, spec.name],
                          cwd=spec.parent, capture_output=True, text=True, timeout=300)


@needs_tlc
@pytest.mark.parametrize("kind", sorted(CFGS))
def test_trace_prints_agree_with_tlc(tmp_path, capsys, kind) -> None:
    got = _specula_prints(tmp_path, kind, capsys)
    want = _prints(_tlc(tmp_path / "TR.tla").stdout)
    if kind.endswith("next"):
        assert set(got) == set(want)
    else:
        assert got == want


@needs_tlc
def test_counterexample_postconditions_hold_in_tlc(tmp_path) -> None:
    spec = _write(tmp_path, "CE", CE, "INIT Init\nNEXT Next\nINVARIANT Inv\nPOSTCONDITION Post\n")
    out = _tlc(spec)
    assert out.returncode == 12 and "Invariant Inv is violated" in out.stdout and "is false" not in out.stdout
    (tmp_path / "CE.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\nPOSTCONDITION Wrong\n")
    out = _tlc(spec)
    assert out.returncode == 12 and "is false" in out.stdout


@needs_tlc
def test_simulation_trace_holds_in_tlc(tmp_path) -> None:
    spec = _write(tmp_path, "SIM", SIM, "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    out = _tlc(spec, "-simulate", "num=3", "-depth", "5")
    assert out.returncode == 0, out.stdout[-2000:]
