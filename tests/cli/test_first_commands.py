"""The commands people try first, exactly as the README gives them, must work and print something
a person can act on (run from the repo root, or from another folder with absolute paths)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from specula.cli import main

REPO = Path(__file__).resolve().parents[2]
SPIN = REPO / "benchmarks" / "systems" / "spinlock"
QUICK_START = "specula eval benchmarks/systems/spinlock/ref/spin.tla --task spinlock --html spin-report.html"


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err
    return rc, out, err


def test_readme_quick_start(capsys, tmp_path, monkeypatch):
    assert QUICK_START in (REPO / "README.md").read_text(encoding="utf-8")
    monkeypatch.chdir(REPO)
    argv = QUICK_START.split()[1:]
    html = tmp_path / "spin-report.html"
    argv[argv.index("spin-report.html")] = str(html)  # keep the work tree clean
    rc, out, _ = run(capsys, *argv)
    assert rc == 0
    for phase in ("syntax", "runtime", "conformance", "invariants"):
        assert re.search(rf"{phase}\s+│\s+1\.000", out), out
    assert re.search(r"overall\s+│\s+1\.000", out)
    assert f"HTML report: {html}" in out
    text = html.read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith("<!doctype html") and "spinlock" in text


def test_check_a_bundled_reference_spec_from_another_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, _ = run(capsys, "check", SPIN / "ref" / "spin.tla")
    assert rc == 0
    assert "No error has been found" in out and "20 distinct states found" in out


def test_validate_a_bundled_system(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, _ = run(capsys, "validate", SPIN / "ref" / "spin.tla", "--traces", SPIN / "traces",
                     "--mapping", SPIN / "mapping.yaml")
    assert rc == 0
    m = re.search(r"score 1\.000 — (\d+)/(\d+) windows pass", out)
    assert m and m[1] == m[2] and int(m[1]) > 100
    for action in ("StartLock", "AcquireLock", "ReleaseLock"):
        assert action in out


def test_validate_a_mutant_points_at_the_failing_action(capsys, tmp_path):
    """What a person acts on: which action fails and an example window (file:line)."""
    for f in ("TryLockBlocks.tla",):
        text = (SPIN / "mutants" / f).read_text(encoding="utf-8")  # the module is named after the file
        (tmp_path / "spin.tla").write_text(text.replace(f"MODULE {f[:-4]}", "MODULE spin", 1), encoding="utf-8")
    (tmp_path / "spin.cfg").write_text((SPIN / "ref" / "spin.cfg").read_text(encoding="utf-8"), encoding="utf-8")
    rc, out, _ = run(capsys, "validate", tmp_path / "spin.tla", "--traces", SPIN / "traces")
    assert rc == 1
    assert "AcquireLock" in out and re.search(r"e\.g\. \S+trace-\d+\.ndjson:\d+", out), out


def test_bench_list(capsys):
    rc, out, _ = run(capsys, "bench", "list")
    assert rc == 0 and "spinlock" in out and "raft" in out
    rc, out, _ = run(capsys, "bench", "list", "--json")
    tasks = {t["name"]: t for t in json.loads(out)["tasks"]}
    assert tasks["spinlock"]["missing"] == [] and tasks["spinlock"]["traces"] >= 1


def test_code_map_of_a_bundled_system(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SPECULA_CACHE_DIR", str(tmp_path / "cache"))
    rc, out, _ = run(capsys, "code", "map", SPIN, "--focus", "lock acquire release", "--budget", "800")
    assert rc == 0
    assert "spinlock.c:" in out and re.search(r"^\s+\d+│", out, re.M)  # file, then line│source rows


@pytest.mark.slow
def test_code_map_of_this_repository_from_tmp(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "specula", "code", "map", str(REPO), "--focus", "conformance windows",
                           "--budget", "1500"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "specula/phases/conformance.py:" in proc.stdout and "Traceback" not in proc.stderr
