"""`specula validate`: exit codes, table and causes, --json, clear errors for bad inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from specula.cli import main

SPECS = Path(__file__).parent / "specs"
WIN = str(SPECS / "windows_Handle.ndjson")


def test_passing_windows_exit_0(capsys):
    code = main(["validate", str(SPECS / "Election.tla"), "--windows", WIN, "--actions", "Handle,Send"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Handle" in out and "6" in out and "score 1.000" in out
    assert "Send" in out and "no windows" in out  # target action without windows is listed


def test_failing_windows_exit_1_with_grouped_cause(capsys):
    code = main(["validate", str(SPECS / "ElectionFused.tla"), "-w", WIN])
    out = capsys.readouterr().out
    assert code == 1
    assert "m.epoch <= clock[s]" in out and "2 windows" in out
    assert "ElectionFused.tla:25" in out


def test_json_output(capsys):
    code = main(["validate", str(SPECS / "ElectionUnion.tla"), "-w", WIN, "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1
    assert d["schema"] == "specula.phase.conformance/1"
    assert d["actions"] == [{"action": "Handle", "total": 6, "passed": 4, "rate": round(4 / 6, 6), "leaderboard": 0}]
    assert d["causes"][0]["title"] == "post-state differs in votes"
    assert {w["id"] for w in d["windows"]} == {2, 6}


def test_several_files_after_windows_flag(capsys, tmp_path):
    other = tmp_path / "windows_Handle.ndjson"
    other.write_text(Path(WIN).read_text())
    code = main(["validate", str(SPECS / "Election.tla"), "--windows", WIN, str(other), "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["windows_total"] == 12


def test_unknown_mapping_variable_exit_2(capsys, tmp_path):
    m = tmp_path / "m.yaml"
    m.write_text("variables:\n  clocks: {field: clock}\n")
    code = main(["validate", str(SPECS / "Election.tla"), "-w", WIN, "-m", str(m)])
    err = capsys.readouterr().err
    assert code == 2
    assert "m.yaml:2" in err and "clocks" in err and "Traceback" not in err


def test_missing_file_and_no_files_exit_2(capsys):
    assert main(["validate", str(SPECS / "Election.tla"), "-w", "/nonexistent/windows_X.ndjson"]) == 2
    assert main(["validate", str(SPECS / "Election.tla")]) == 2
    err = capsys.readouterr().err
    assert "no window or trace files" in err


def test_malformed_lines_and_unknown_action_are_reported_not_fatal(capsys, tmp_path):
    f = tmp_path / "windows_Handle.ndjson"
    lines = Path(WIN).read_text().splitlines()
    lines.insert(2, "{broken")
    f.write_text("\n".join(lines) + "\n")
    g = tmp_path / "windows_Vote.ndjson"
    g.write_text('{"id": 1, "pre": {"clock": {"n1": 0, "n2": 0, "n3": 0}}, "post": {"clock": {"n1": 0, "n2": 0, "n3": 0}}}\n')
    code = main(["validate", str(SPECS / "Election.tla"), "-w", str(f), str(g), "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [i["line"] for i in d["issues"]] == [3]
    assert {a["action"]: a["passed"] for a in d["actions"]} == {"Handle": 6, "Vote": 0}
    (cause,) = d["causes"]
    assert cause["kind"] == "unknown-action" and "Vote" in cause["title"]
