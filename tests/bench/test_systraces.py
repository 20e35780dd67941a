"""`specula bench traces TASK` for SysMoBench tasks: what recording needs here (exit 2), importing
traces recorded elsewhere (bad lines at file:line, skipped), and `specula eval --traces` on them."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from specula.cli import main
from specula.yamlfile import load_yaml_file

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "sysmobench"
SPECS = Path(__file__).resolve().parents[1] / "traces" / "specs"

pytestmark = pytest.mark.usefixtures("sysmobench_data")


def _checkout(root: Path) -> Path:
    """A SysMoBench-shaped checkout from the shared real task files; no task ships traces."""
    for task in ("spin", "etcd"):
        d = root / "tla_eval" / "tasks" / task
        d.mkdir(parents=True)
        shutil.copy(SHARED / task / "task.yaml", d / "task.yaml")
        inv = root / "data" / "invariant_templates" / task
        inv.mkdir(parents=True)
        shutil.copy(SHARED / task / "invariants.yaml", inv / "invariants.yaml")
    (root / "tla_eval" / "core" / "trace_generation" / "etcd").mkdir(parents=True)
    return root


def _run(capsys, *args) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_needs_message_when_the_toolchain_is_missing(tmp_path, capsys, monkeypatch):
    root = _checkout(tmp_path / "sysmobench")
    data = load_yaml_file(SHARED / "etcd" / "task.yaml", "task file")
    assert data["language"] == "go"  # the toolchain this test controls through PATH
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    rc, out, err = _run(capsys, "bench", "traces", "etcd", "--sysmobench", root)
    assert rc == 2 and out == ""
    assert data["repository"]["url"] in err
    assert "go: MISSING on PATH" in err and "missing here: go" in err
    assert f"{root / 'tla_eval' / 'core' / 'trace_generation' / 'etcd'}/ (present)" in err
    assert "--import FILE_OR_DIR --out DIR" in err and "Traceback" not in err

    # the same tool put on PATH is found; --json says the same
    go = empty / "go"
    go.write_text("#!/bin/sh\nexit 0\n")
    go.chmod(go.stat().st_mode | stat.S_IXUSR)
    rc, out, _ = _run(capsys, "bench", "traces", "etcd", "--sysmobench", root, "--json")
    doc = json.loads(out)
    assert rc == 2 and doc["missing"] == [] and doc["tools"][0]["path"] == str(go)
    assert doc["repository"] == data["repository"]["url"] and doc["language"] == "go"

    # a SysMoBench task name without a checkout: still exit 2, asks for the checkout
    monkeypatch.setenv("PATH", os.defpath)
    rc, _, err = _run(capsys, "bench", "traces", "etcd")
    assert rc == 2 and "--sysmobench PATH" in err


def test_import_reports_bad_line_and_copies_good_files(tmp_path, capsys):
    root = _checkout(tmp_path / "sysmobench")
    src = tmp_path / "recorded"
    src.mkdir()
    win = src / "windows_AcquireLock.ndjson"
    good = (SHARED / "spin" / "windows_AcquireLock.sample.ndjson").read_text().splitlines()
    win.write_text("\n".join(good[:2] + ['{"id": 99, "pre": {"lockState": '] + good[2:]) + "\n")
    shutil.copy(SHARED / "spin" / "action_windows.sample.jsonl", src / "action_windows.jsonl")
    (src / "notes.json").write_text("not json at all\n")
    out = tmp_path / "imported"

    rc, text, err = _run(capsys, "bench", "traces", "spin", "--sysmobench", root, "--import", src, "--out", out)
    assert rc == 0
    assert f"{win}:3: error: malformed JSON" in err  # the bad line, by file:line
    assert f"{src / 'notes.json'}: skipped" in err
    assert f"AcquireLock: {len(good)} window(s) in 1 run(s)" in text
    assert "ReleaseLock: 0 window(s)" in text  # a target action no window exercises
    copied = (out / win.name).read_text().splitlines()
    assert copied == good  # the good lines, the bad one left out
    assert (out / "action_windows.jsonl").is_file() and not (out / "notes.json").exists()

    rc, text, _ = _run(capsys, "bench", "traces", "spin", "--sysmobench", root, "--import", src, "--out", out, "--json")
    doc = json.loads(text)
    assert rc == 0 and doc["schema"] == "specula.bench.trace-import/1"
    assert doc["actions"]["AcquireLock"] == {"windows": len(good), "runs": 1}
    assert [i["line"] for i in doc["issues"] if i["path"] == str(win)] == [3]
    assert sorted(p.name for p in out.iterdir()) == ["action_windows.jsonl", win.name]  # re-import: no copies


def test_import_tracelink_run_and_missing_input(tmp_path, capsys):
    out = tmp_path / "imported"
    run = next((SHARED / "dqueue" / "traces_found").iterdir())
    rc, text, _ = _run(capsys, "bench", "traces", "dqueue", "--import", run.parent, "--out", out, "--json")
    doc = json.loads(text)
    assert rc == 0 and [f["format"] for f in doc["files"]] == ["tracelink"]
    assert sorted(p.name for p in (out / run.name).iterdir()) == sorted(p.name for p in run.iterdir())
    # the run's four steps (test_catalog: p, c, c1, p1), none of them a V2 target action by name
    assert {a: c["windows"] for a, c in doc["actions"].items()} == {
        "p": 1, "c": 1, "c1": 1, "p1": 1, "Request": 0, "Produce": 0}
    rc, _, err = _run(capsys, "bench", "traces", "dqueue", "--import", tmp_path / "nope", "--out", out)
    assert rc == 2 and "not found" in err and "Traceback" not in err


def test_eval_scores_the_imported_traces(tmp_path, capsys):
    root = _checkout(tmp_path / "sysmobench")
    out = tmp_path / "imported"
    sample = SHARED / "spin" / "windows_AcquireLock.sample.ndjson"
    assert _run(capsys, "bench", "traces", "spin", "--sysmobench", root, "--import", sample, "--out", out)[0] == 0

    def conformance(spec: str) -> dict:
        rc, text, _ = _run(capsys, "eval", SPECS / f"{spec}.tla", "--task", "spin", "--sysmobench", root,
                           "--traces", out, "--phase", "conformance", "--runs", "1", "--check-seconds", "5", "--json")
        assert rc == 0
        return json.loads(text)["phases"]["conformance"]["detail"]

    # the task itself ships no traces: every window scored comes from the import
    ref = conformance("spin")
    assert (ref["windows_total"], ref["windows_passed"]) == (5, 5)
    # the mutant whose AcquireLock demands "trying" fails the two windows that start from "idle"
    bad = conformance("spin_trying")
    assert (bad["windows_total"], bad["windows_passed"]) == (5, 3)
