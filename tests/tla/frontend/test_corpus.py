"""The malformed-spec corpus (expected code/line/col per spec) and the valid fixtures, plus an
opt-in differential check against real SANY."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from specula.tla.loading import check_syntax

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MALFORMED = FIXTURES / "malformed"
VALID = FIXTURES / "valid"
EXPECTED: dict[str, dict] = json.loads((MALFORMED / "expected.json").read_text())
VALID_SPECS = sorted(p.stem for p in VALID.glob("*.tla"))


def test_corpus_is_large_and_covers_every_kind() -> None:
    assert len(EXPECTED) >= 60
    codes = {v["code"] for v in EXPECTED.values()}
    assert {"E101", "E102", "E201", "E203", "E204", "E205", "E301", "E302", "E401", "E404", "E405", "E406"} <= codes


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_malformed_spec_reports_expected_diagnostic(name: str) -> None:
    want = EXPECTED[name]
    rep = check_syntax(MALFORMED / f"{name}.tla")
    assert not rep.ok
    first = rep.diagnostics[0]
    assert (first.code, first.line, first.col) == (want["code"], want["line"], want["col"]), first.message
    assert first.file == str(MALFORMED / f"{name}.tla")


@pytest.mark.parametrize("name", VALID_SPECS)
def test_valid_spec_is_accepted(name: str) -> None:
    rep = check_syntax(VALID / f"{name}.tla")
    assert rep.ok, [d.message for d in rep.diagnostics]


def test_repeated_variable_is_only_a_warning() -> None:
    rep = check_syntax(VALID / "RepeatedVariable.tla")
    assert rep.ok and [d.code for d in rep.diagnostics] == ["W203"]


def _sany(jar: Path, path: Path) -> bool:
    """True when SANY accepts ``path`` (no parse or semantic errors)."""
    out = subprocess.run(["java", "-cp", str(jar), "tla2sany.SANY", path.name], cwd=path.parent,
                         capture_output=True, text=True, timeout=120)
    text = out.stdout + out.stderr
    return "*** Errors" not in text and "Fatal" not in text and "***Parse Error***" not in text \
        and "Lexical" not in text


@pytest.mark.tlc
@pytest.mark.slow
def test_sany_agrees_with_the_corpus(tlc_jar: Path) -> None:
    wrong = [n for n in sorted(EXPECTED) if _sany(tlc_jar, MALFORMED / f"{n}.tla")]
    wrong += [n for n in VALID_SPECS if not _sany(tlc_jar, VALID / f"{n}.tla")]
    assert wrong == []
