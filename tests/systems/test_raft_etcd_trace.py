"""The bundled raft, traced in etcd-io/raft's own event format
(benchmarks/systems/raft/etcd_events.py), validated by etcd's own trace specification:
``specula check Traceetcdraft.tla --config Traceetcdraft.cfg`` in etcd-io/raft's ``tla/`` folder
(SPECULA_ETCD_RAFT names it; the test skips without it and writes nothing into it), as etcd's CI
runs TLC: success, TraceMatched holding, when the recorded trace is one of raft's behaviours;
TraceMatched violated when a validated field of the log is changed."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

from specula.cli import main

ROOT = Path(__file__).resolve().parents[2]
RECORDER = ROOT / "benchmarks/systems/raft/etcd_events.py"
ETCD = os.environ.get("SPECULA_ETCD_RAFT")

# raft's TracingEvent fields (state_trace.go) and event names
EVENT_KEYS = {"name", "nid", "state", "role", "log", "conf"}
MSG_KEYS = {"type", "term", "from", "to", "entries", "logTerm", "index", "commit", "vote", "reject", "rejectHint"}
NAMES = {"InitState", "BecomeCandidate", "BecomeFollower", "BecomeLeader", "Commit", "Replicate", "Ready",
         "SendAppendEntriesRequest", "ReceiveAppendEntriesRequest", "SendAppendEntriesResponse",
         "ReceiveAppendEntriesResponse", "SendRequestVoteRequest", "ReceiveRequestVoteRequest",
         "SendRequestVoteResponse", "ReceiveRequestVoteResponse"}


def _recorder():
    spec = importlib.util.spec_from_file_location("raft_etcd_events", RECORDER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_recorded_events_have_rafts_fields() -> None:
    lines = _recorder().record(seed=1, steps=14)
    assert [x["event"]["name"] for x in lines[:3]] == ["InitState"] * 3
    for x in lines:
        ev = x["event"]
        assert x["tag"] == "trace" and EVENT_KEYS <= set(ev) and ev["name"] in NAMES
        assert set(ev["state"]) == {"term", "vote", "commit"} and ev["conf"] == [["1", "2", "3"], []]
        if "msg" in ev:
            assert set(ev["msg"]) == MSG_KEYS and isinstance(ev["msg"]["from"], str)
    names = [x["event"]["name"] for x in lines]
    # a candidate's vote for itself and a leader's ack of its own entry are messages to itself
    self_msgs = {(x["event"]["name"], x["event"]["msg"]["type"]) for x in lines
                 if "msg" in x["event"] and x["event"]["msg"]["from"] == x["event"]["msg"]["to"]}
    assert ("SendRequestVoteResponse", "MsgVoteResp") in self_msgs and "BecomeLeader" in names
    assert ("SendAppendEntriesResponse", "MsgAppResp") in self_msgs


def _validate(tmp_path: Path, lines: list, monkeypatch: pytest.MonkeyPatch, capsys) -> tuple[int, str]:
    work = tmp_path / "tla"
    shutil.copytree(ETCD, work)  # type: ignore[arg-type]
    trace = tmp_path / "raft.ndjson"
    trace.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    monkeypatch.setenv("JSON", str(trace))
    monkeypatch.delenv("MAX_TRACE", raising=False)
    monkeypatch.chdir(work)
    capsys.readouterr()
    code = main(["check", "Traceetcdraft.tla", "--config", "Traceetcdraft.cfg"])
    return code, capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.skipif(not ETCD or not (Path(ETCD) / "Traceetcdraft.tla").is_file(),
                    reason="SPECULA_ETCD_RAFT (etcd-io/raft's tla/ folder) not set")
@pytest.mark.parametrize("seed,steps", [(1, 14), (2, 40)])
def test_etcds_trace_spec_validates_a_recorded_raft_trace(tmp_path, monkeypatch, capsys, seed, steps) -> None:
    lines = _recorder().record(seed=seed, steps=steps)
    assert 40 <= len(lines) <= 200
    code, out = _validate(tmp_path, lines, monkeypatch, capsys)
    assert code == 0 and "No error has been found" in out and "Property TraceMatched: holds" in out, out[-3000:]


@pytest.mark.slow
@pytest.mark.skipif(not ETCD or not (Path(ETCD) / "Traceetcdraft.tla").is_file(),
                    reason="SPECULA_ETCD_RAFT (etcd-io/raft's tla/ folder) not set")
def test_etcds_trace_spec_rejects_a_changed_commit_index(tmp_path, monkeypatch, capsys) -> None:
    lines = _recorder().record(seed=1, steps=14)
    commit = next(x["event"] for x in lines if x["event"]["name"] == "Commit")
    commit["state"]["commit"] += 1  # ValidatePostStates compares it with the spec's commit index
    code, out = _validate(tmp_path, lines, monkeypatch, capsys)
    assert code != 0 and "TraceMatched is violated" in out
