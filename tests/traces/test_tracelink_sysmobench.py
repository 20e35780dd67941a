"""PGo TraceLink validation on SysMoBench's own shipped runs (slow; skipped unless a checkout of
specula-org/SysMoBench is at ``$SPECULA_SYSMOBENCH``). SysMoBench's files are never committed:

    SPECULA_SYSMOBENCH=/path/to/SysMoBench python -m pytest -m slow tests/traces/test_tracelink_sysmobench.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from specula.phases.tracelink import pgo_setup, validate_tracelink

pytestmark = pytest.mark.slow


def _task(name: str) -> Path:
    root = os.environ.get("SPECULA_SYSMOBENCH")
    base = Path(root or "/nonexistent") / "tla_eval" / "core" / "trace_generation" / name
    if not (base / "traces_found").is_dir():
        pytest.skip(f"no SysMoBench checkout with {name}'s runs (set SPECULA_SYSMOBENCH)")
    return base


@pytest.mark.parametrize("name", ["dqueue", "locksvc"])
def test_the_pgo_reference_validates_every_shipped_run(name):
    base = _task(name)
    runs = sorted(p for p in (base / "traces_found").iterdir() if p.is_dir())
    res = validate_tracelink(runs, pgo_setup(base / "traces_found", name), base / f"{name}.tla")
    assert res.passed == len(runs), res.summary()


def test_raftkvs_reference_passes_a_shipped_run_and_a_term_mutant_fails_at_its_step(tmp_path):
    """A run of 8 processes and ~2,850 records, most of them aborted critical sections."""
    base = _task("raftkvs")
    run = sorted(p for p in (base / "traces_found").iterdir() if p.is_dir())[0]
    setup = pgo_setup(base / "traces_found", "raftkvs")
    (ok,) = validate_tracelink([run], setup, base / "raftkvs.tla").runs
    assert ok.ok, ok.failure
    text = (base / "raftkvs.tla").read_text(encoding="utf-8")
    cut = text.index("BEGIN TRANSLATION")
    term = re.compile(r"(currentTerm' = \[currentTerm EXCEPT !\[(\w+)\] = \(\(currentTerm\)\[\2\]\) \+ \()1(\)\])")
    mutated, n = term.subn(r"\g<1>2\3", text[cut:])
    assert n > 0
    (tmp_path / "raftkvs.tla").write_text(text[:cut] + mutated, encoding="utf-8")
    (bad,) = validate_tracelink([run], setup, tmp_path / "raftkvs.tla").runs
    assert not bad.ok
    f = bad.failure
    assert f["kind"] == "refinement" and f["label"] == "serverRequestVoteLoop" and "currentTerm" in f["message"], f
