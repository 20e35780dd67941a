"""`specula check --syntax SPEC.tla`: text with excerpt and caret, --json, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from specula.cli import main


def spec(tmp: Path, body: str, name: str = "M") -> Path:
    p = tmp / f"{name}.tla"
    p.write_text(f"---- MODULE {name} ----\n{body}\n====\n", encoding="utf-8")
    return p


def test_ok_spec_exits_zero(tmp_path: Path, capsys) -> None:
    p = spec(tmp_path, "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = x + 1")
    assert main(["check", "--syntax", str(p)]) == 0
    assert "ok" in capsys.readouterr().out


def test_errors_print_location_excerpt_and_caret(tmp_path: Path, capsys) -> None:
    p = spec(tmp_path, "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = y + 1")
    assert main(["check", "--syntax", str(p)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{p}:5:14: error: unknown identifier 'y' [E301]"
    assert out[1].endswith("| Next == x' = y + 1")
    assert out[2].index("^") == out[1].index("y + 1")


def test_json_lists_diagnostics(tmp_path: Path, capsys) -> None:
    p = spec(tmp_path, "A == 1 +")
    assert main(["check", "--syntax", "--json", str(p)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "specula.diagnostics/1" and data["ok"] is False
    (d,) = data["diagnostics"]
    assert d["code"] == "E101" and d["file"] == str(p) and d["line"] >= 2


def test_missing_file_is_usage_error(tmp_path: Path) -> None:
    assert main(["check", "--syntax", str(tmp_path / "Nope.tla")]) == 2


def test_syntax_error_says_what_was_expected(tmp_path: Path, capsys) -> None:
    p = spec(tmp_path, "A == IF TRUE THEN 1\nB == 2")
    assert main(["check", "--syntax", str(p)]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{p}:3:1: error: syntax error: unexpected 'B'") and "expected ELSE" in first


def test_warnings_do_not_fail(tmp_path: Path, capsys) -> None:
    p = spec(tmp_path, "VARIABLE x\nVARIABLE x\nA == x")
    assert main(["check", "--syntax", "--json", str(p)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and [d["code"] for d in data["diagnostics"]] == ["W203"]
