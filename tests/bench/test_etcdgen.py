"""`specula bench traces etcd --sysmobench PATH`: what building SysMoBench's generator needs
(go, the etcd-io/raft sources), and -- slow, when go and a SysMoBench checkout are here -- the
generator built, run and its trace scored against the etcd task's reference spec."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from specula.bench.etcdgen import locate, record_traces
from specula.cli import main
from specula.traces import iter_windows

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "sysmobench"
RAFT = Path(__file__).resolve().parents[2] / "benchmarks" / "systems" / "raft"
TARGETS = ["ElectionTimeout", "HandleVoteRequest", "ClientProposal", "HandleAppendEntries", "HandleHeartbeat"]


def _checkout(root: Path) -> Path:
    """A SysMoBench-shaped checkout: the real etcd task.yaml and a generator folder holding
    placeholders where SysMoBench has its Go program (never built by these fast tests)."""
    d = root / "tla_eval" / "tasks" / "etcd"
    d.mkdir(parents=True)
    shutil.copy(SHARED / "etcd" / "task.yaml", d / "task.yaml")
    gen = root / "tla_eval" / "core" / "trace_generation" / "etcd"
    (gen / "cmd").mkdir(parents=True)
    (gen / "cmd" / "trace_generator.go").write_text("package main\n")
    (gen / "go.mod").write_text("module example.com/gen\n\ngo 1.24\n\n"
                                "replace go.etcd.io/raft/v3 => ../../../../data/repositories/etcd\n")
    return root


def _fake_raft(d: Path, go: str = "1.24") -> Path:
    d.mkdir(parents=True)
    (d / "go.mod").write_text(f"module go.etcd.io/raft/v3\n\ngo {go}\n")
    (d / "state_trace.go").write_text("//go:build with_tla\n\npackage raft\n")
    return d


def _fake_go(path: Path) -> Path:
    """A `go` that only answers `go env GOVERSION` (as go 1.24.11 does)."""
    path.write_text('#!/bin/sh\n[ "$1 $2" = "env GOVERSION" ] && echo go1.24.11 && exit 0\nexit 1\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_locate_says_what_is_missing(tmp_path):
    root = _checkout(tmp_path / "sm")
    gen = root / "tla_eval" / "core" / "trace_generation" / "etcd"
    setup = locate(gen, env={"PATH": str(tmp_path)})
    assert not setup.ready and setup.go is None and setup.raft is None
    go_msg, raft_msg = setup.problems
    assert go_msg.startswith("go: a Go toolchain >= 1.24") and "--go PATH or SPECULA_GO" in go_msg
    assert str(root / "data" / "repositories" / "etcd") in raft_msg and "--raft DIR or SPECULA_ETCD_RAFT" in raft_msg
    # a go that does not exist is named; raft where SysMoBench's go.mod points is found
    _fake_raft(root / "data" / "repositories" / "etcd")
    setup = locate(gen, env={"SPECULA_GO": str(tmp_path / "nope" / "go")})
    assert setup.problems == (f"go: {tmp_path / 'nope' / 'go'} does not exist",)
    assert setup.raft == root / "data" / "repositories" / "etcd"
    go = _fake_go(tmp_path / "go")
    other = _fake_raft(tmp_path / "raft")
    setup = locate(gen, go=str(go), raft=other, env={})
    assert setup.ready and setup.raft == other and setup.go == str(go)
    # raft's go.mod asks for a newer go than the one found (today's etcd-io/raft main: go 1.26)
    newer = _fake_raft(tmp_path / "raft-main", go="1.26")
    setup = locate(gen, go=str(go), raft=newer, env={})
    assert setup.problems == (f"go: {newer / 'go.mod'} asks for go 1.26, {go} is go1.24.11; check out an older "
                              "etcd-io/raft commit (e.g. 2148da1, go 1.24) or use a newer go",)


def test_cli_names_go_and_raft_when_missing(tmp_path, capsys, monkeypatch):
    root = _checkout(tmp_path / "sm")
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("SPECULA_GO", raising=False)
    monkeypatch.delenv("SPECULA_ETCD_RAFT", raising=False)
    rc = main(["bench", "traces", "etcd", "--sysmobench", str(root), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2
    assert "specula records etcd's traces by building and running SysMoBench's generator" in err
    assert "needed: go: a Go toolchain >= 1.24" in err
    assert f"needed: the raft sources: an etcd-io/raft checkout" in err
    assert str(root / "data" / "repositories" / "etcd") in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()

    # go and raft present but no --out: ready, says how to record (exit 2, nothing built)
    go = _fake_go(empty / "go")
    _fake_raft(root / "data" / "repositories" / "etcd")
    rc = main(["bench", "traces", "etcd", "--sysmobench", str(root), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 2 and doc["etcd_generator"]["problems"] == [] and doc["etcd_generator"]["go"] == str(go)


@pytest.mark.slow
def test_generator_built_run_and_scored(tmp_path, capsys):
    """Needs SPECULA_SYSMOBENCH (a SysMoBench checkout), go >= 1.24 (PATH or SPECULA_GO) and the
    raft sources (SPECULA_ETCD_RAFT or <checkout>/data/repositories/etcd)."""
    sm = os.environ.get("SPECULA_SYSMOBENCH")
    if not sm:
        pytest.skip("SPECULA_SYSMOBENCH is not set (a SysMoBench checkout)")
    gen = Path(sm) / "tla_eval" / "core" / "trace_generation" / "etcd"
    setup = locate(gen)
    if not setup.ready:
        pytest.skip("cannot build SysMoBench's etcd generator here: " + "; ".join(setup.problems))
    out = tmp_path / "traces"
    rec = record_traces(setup, out, runs=1, duration=5, work=tmp_path / "build")
    run = rec.runs[0]
    assert run.error == "" and run.events > 100 and run.trace is not None
    assert (out / "raw" / "trace_01.raft.txt").is_file()
    wins = list(iter_windows(run.trace, [], actions=TARGETS))
    # a leader is elected and heartbeats and replicates to its followers within 5 s
    assert {w.action for w in wins} >= {"HandleAppendEntries", "HandleHeartbeat", "ClientProposal"}
    rc = main(["validate", str(RAFT / "ref" / "etcdraft.tla"), "--config", str(RAFT / "etcd-io" / "etcdraft.cfg"),
               "--mapping", str(RAFT / "etcd-io" / "mapping.yaml"), "--traces", str(out),
               "--actions", ",".join(TARGETS), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and doc["windows_passed"] == doc["windows_total"] == len(wins)
