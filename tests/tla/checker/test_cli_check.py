"""`specula check` end to end on our own specs (exit codes, text, JSON, simulation, syntax)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from specula.cli import main

SPECS = Path(__file__).resolve().parents[1] / "specs"


def test_violation_text(capsys) -> None:
    assert main(["check", str(SPECS / "Jugs.tla")]) == 1
    out = capsys.readouterr().out
    assert "Error: Invariant NotFour is violated." in out
    # TLC 2.18 prints this label (the LET body of BigToSmall)
    assert "State 7: <BigToSmall line 11, col 47 to line 11, col 82 of module Jugs>" in out and "*/\\ big = 4" in out
    assert "73 states generated, 14 distinct states found" in out


def test_ok_json(capsys) -> None:
    assert main(["check", str(SPECS / "TwoPhase.tla"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "ok" and data["distinct"] == 288 and data["generated"] == 1146
    assert {c["name"] for c in data["coverage"]} >= {"TMCommit", "RMPrepare"}


def test_deadlock_and_no_deadlock(capsys) -> None:
    assert main(["check", str(SPECS / "Counter.tla")]) == 1
    assert "Deadlock reached" in capsys.readouterr().out
    assert main(["check", str(SPECS / "Counter.tla"), "--no-deadlock"]) == 0


def test_limits(capsys) -> None:
    assert main(["check", str(SPECS / "TwoPhase.tla"), "--max-states", "50", "--json"]) == 3  # stopped by the limit: its own exit code
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "limit" and data["stopped"] == "max_states"


def test_simulate(capsys) -> None:
    assert main(["check", str(SPECS / "Jugs.tla"), "--simulate", "--num", "200", "--depth", "30", "--seed", "1", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 1 and data["errors"][0]["violated"] == "NotFour"
    assert data["errors"][0]["trace"][-1]["state"]["big"] == 4


def test_syntax_only(capsys) -> None:
    assert main(["check", str(SPECS / "Jugs.tla"), "--syntax"]) == 0


def test_missing_cfg_is_input_error(tmp_path, capsys) -> None:
    spec = tmp_path / "NoCfg.tla"
    spec.write_text("---- MODULE NoCfg ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    assert main(["check", str(spec)]) == 2
    assert "NoCfg.cfg" in capsys.readouterr().err


def test_bad_cfg_line(tmp_path, capsys) -> None:
    spec = tmp_path / "B.tla"
    spec.write_text("---- MODULE B ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    (tmp_path / "B.cfg").write_text("INIT Init\nNEXT\n")
    assert main(["check", str(spec)]) == 2
    assert "B.cfg:3" in capsys.readouterr().err


@pytest.mark.parametrize("entry", ["python -m specula", "specula script"])
@pytest.mark.parametrize("name, rc", [("Bank", 0), ("Jugs", 1)])
def test_specula_process(name: str, rc: int, entry: str) -> None:
    """``python -m specula check`` and the installed ``specula`` script as their own process
    (both end through ``specula.cli.console``, which leaves what the command built to the
    operating system at exit): the exit code, and the whole JSON report printed, with TLC's
    figures (tests/tla/specs/expected.json)."""
    import subprocess
    import sys
    from importlib.metadata import entry_points

    if entry == "specula script":
        script = Path(sys.executable).parent / "specula"
        if not script.is_file():
            pytest.skip("no specula script beside this interpreter (not installed into this environment)")
        assert [e.value for e in entry_points(group="console_scripts", name="specula")] == ["specula.cli:console"]
        cmd = [str(script)]
    else:
        cmd = [sys.executable, "-m", "specula"]
    exp = json.loads((SPECS / "expected.json").read_text())[name]
    proc = subprocess.run([*cmd, "check", str(SPECS / f"{name}.tla"), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == rc, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    assert (data["verdict"], data["distinct"], data["generated"], data["depth"]) == \
        (exp["verdict"], exp["distinct"], exp["generated"], exp["depth"])
