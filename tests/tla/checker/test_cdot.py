"""Action composition ``A \\cdot B`` as TLC runs it with ``-Dtlc2.tool.impl.Tool.cdot=true`` (the
Examples' MCCRDT and MCReplicatedLog): s's successors are those B reaches from every state A
reaches; the intermediate states of a composition not nested in another count as generated and
keep a state from being a deadlock. Expected figures from TLC 2.18 (-workers 1) with that flag."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from specula.tla.checker import check_spec

HERE = Path(__file__).resolve().parent / "cdot"


def test_composition_counts() -> None:
    r = check_spec(HERE / "Cdot.tla", HERE / "CdotNoDeadlock.cfg")
    assert r.verdict == "ok", r.message
    assert (r.distinct, r.generated, r.depth) == (14, 57, 4)


def test_composition_deadlock() -> None:
    r = check_spec(HERE / "Cdot.tla", HERE / "Cdot.cfg")
    assert r.verdict == "deadlock", r.message
    assert (r.distinct, r.generated, r.queue_left) == (14, 55, 5)
    last = r.counterexample[-1]
    assert dict(zip(r.variables, last[1])) == {"x": 3, "y": 3}


def test_java_property() -> None:
    r = check_spec(HERE / "JavaProperty.tla", HERE / "JavaProperty.cfg")
    assert r.verdict == "ok", r.message


@pytest.mark.tlc
@pytest.mark.parametrize("cfg,want", [("CdotNoDeadlock", "57 states generated, 14 distinct states found, 0 states"),
                                      ("Cdot", "55 states generated, 14 distinct states found, 5 states")])
def test_tlc_agrees(tlc_jar: Path, tmp_path: Path, cfg: str, want: str) -> None:
    for name in ("Cdot.tla", f"{cfg}.cfg"):
        (tmp_path / name).write_text((HERE / name).read_text())
    out = subprocess.run(["java", "-Dtlc2.tool.impl.Tool.cdot=true", "-cp", str(tlc_jar), "tlc2.TLC", "-workers", "1",
                          "-metadir", str(tmp_path / "states"), "-config", f"{cfg}.cfg", "Cdot.tla"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300).stdout
    assert want in out, out[-2000:]
