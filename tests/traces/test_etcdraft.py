"""etcd-io/raft's TracingEvents (SysMoBench's etcd generator) read into specula's event trace:
spans per node, raft's untraced steps put back, log terms rebuilt, bad lines reported; the
etcd task's reference spec passes the windows and a textbook mutant fails them.

The sample (fixtures/etcd-raft/sample.ndjson) is hand-written in the generator's format; the
expected values below follow from what etcd-io/raft does for each event (raft.go at 2148da1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from specula.cli import main
from specula.errors import TraceError
from specula.traces import detect_format, iter_windows
from specula.traces.etcdraft import convert_raft_trace, event_trace_lines
from specula.traces.readers import read_event_trace

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "fixtures" / "etcd-raft" / "sample.ndjson"
RAFT = HERE.parents[1] / "benchmarks" / "systems" / "raft"
TARGETS = ["ElectionTimeout", "HandleVoteRequest", "ClientProposal", "HandleAppendEntries", "HandleHeartbeat"]


def _log(*terms: int) -> list[dict[str, int]]:
    return [{"term": t} for t in terms]


def test_spans_become_steps_with_raft_semantics():
    issues: list = []
    tr = convert_raft_trace(SAMPLE, issues)
    assert [(s.action, s.actor) for s in tr.steps] == [
        ("Bootstrap", 1), ("Bootstrap", 2), ("Bootstrap", 3),
        ("ElectionTimeout", 1),          # untraced becomePreCandidate, seen on node 1's Ready
        ("Campaign", 1),                 # becomeCandidate after the pre-vote
        ("HandleVoteRequest", 2),
        ("HandleVoteResponse", 1),       # poll won: becomeLeader + the empty entry
        ("HandleAppendEntries", 2),
        ("HandleAppendResponse", 1),
        ("ClientProposal", 1),           # Replicate at the leader, then its heartbeat
        ("HandleHeartbeat", 2),
        ("HandleAppendEntries", 2),      # after the cut-short line
    ]
    s = {i + 1: st for i, st in enumerate(tr.steps)}
    assert tr.init == {"currentTerm": {"1": 0, "2": 0, "3": 0}, "state": {n: "StateFollower" for n in "123"},
                       "votedFor": {"1": 0, "2": 0, "3": 0}, "commitIndex": {"1": 0, "2": 0, "3": 0},
                       "log": {"1": [], "2": [], "3": []}}
    # bootstrap: term 1, the three conf-change entries of term 1 committed
    assert s[3].state["log"] == {"1": _log(1, 1, 1), "2": _log(1, 1, 1), "3": _log(1, 1, 1)}
    assert s[3].state["commitIndex"] == {"1": 3, "2": 3, "3": 3}
    assert s[4].state["state"]["1"] == "StatePreCandidate" and s[4].state["currentTerm"]["1"] == 1
    assert (s[5].state["state"]["1"], s[5].state["currentTerm"]["1"], s[5].state["votedFor"]["1"]) == (
        "StateCandidate", 2, 1)
    # raft sets the granted vote after sending the response: node 2's next event shows it
    assert (s[6].state["currentTerm"]["2"], s[6].state["votedFor"]["2"]) == (2, 1)
    assert s[6].input == {"type": "MsgVote", "from": 1, "to": 2, "term": 2, "logTerm": 1, "index": 3, "commit": 0,
                          "reject": False, "rejectHint": 0, "entries": []}
    assert s[7].state["state"]["1"] == "StateLeader" and s[7].state["log"]["1"] == _log(1, 1, 1, 2)
    # the follower's new entry carries the term the leader's log had for it
    assert s[8].state["log"]["2"] == _log(1, 1, 1, 2) and s[8].input["entries"] == _log(2)
    assert s[9].state["commitIndex"]["1"] == 4
    assert s[10].state["log"]["1"] == _log(1, 1, 1, 2, 2) and s[10].input is None
    assert s[11].state["commitIndex"]["2"] == 4 and s[11].input["type"] == "MsgHeartbeat"
    assert s[12].state["log"]["2"] == _log(1, 1, 1, 2, 2)
    # the cut-short line: reported by line, and the step after it gets no window
    assert [(i.line, i.severity) for i in issues] == [(36, "error")]
    assert [st.pre_known for st in tr.steps] == [True] * 11 + [False]


def test_format_detected_and_windows_cut_for_target_actions():
    assert detect_format(SAMPLE) == "etcd-raft"
    wins = list(iter_windows(SAMPLE, [], actions=TARGETS))
    assert sorted((w.action, w.actor) for w in wins) == [
        ("ClientProposal", 1), ("ElectionTimeout", 1), ("HandleAppendEntries", 2), ("HandleHeartbeat", 2),
        ("HandleVoteRequest", 2)]
    vote = next(w for w in wins if w.action == "HandleVoteRequest")
    assert (vote.pre["votedFor"]["2"], vote.post["votedFor"]["2"]) == (0, 1)
    assert vote.source == f"{SAMPLE}:20"  # the ReceiveRequestVoteRequest line


def test_written_event_trace_reads_back_the_same(tmp_path):
    tr = convert_raft_trace(SAMPLE, [])
    out = tmp_path / "trace_01.ndjson"
    out.write_text("\n".join(event_trace_lines(tr)) + "\n")
    assert detect_format(out) == "events"
    back = read_event_trace(out)
    assert back.init == tr.init and [s.state for s in back.steps] == [s.state for s in tr.steps]
    assert [s.action for s in back.steps] == [s.action for s in tr.steps]
    assert [s.pre_known for s in back.steps][-1] is False  # the full state after the lost line


def test_not_raft_events_and_empty_files(tmp_path):
    f = tmp_path / "x.ndjson"
    f.write_text('{"name": "Foo"}\n')
    with pytest.raises(TraceError) as exc:
        convert_raft_trace(f)
    assert exc.value.line == 1 and "not a raft trace event" in str(exc.value)
    issues: list = []
    with pytest.raises(TraceError, match="no raft trace events"):
        convert_raft_trace(f, issues)
    assert [i.line for i in issues] == [1]


def _validate(capsys, spec: Path, traces: Path) -> dict:
    rc = main(["validate", str(spec), "--config", str(RAFT / "etcd-io" / "etcdraft.cfg"), "--mapping",
               str(RAFT / "etcd-io" / "mapping.yaml"), "--traces", str(traces), "--actions", ",".join(TARGETS),
               "--json"])
    doc = json.loads(capsys.readouterr().out)
    doc["rc"] = rc
    return doc


def test_reference_spec_passes_and_no_prevote_mutant_fails(tmp_path, capsys):
    d = tmp_path / "traces"
    d.mkdir()
    (d / SAMPLE.name).write_text(SAMPLE.read_text())
    ref = _validate(capsys, RAFT / "ref" / "etcdraft.tla", d)
    per = {v["action"]: (v["total"], v["passed"]) for v in ref["actions"]}
    assert ref["rc"] == 0 and per == {a: (1, 1) for a in TARGETS}
    bad = _validate(capsys, RAFT / "mutants" / "etcdraft_NoPreVote.tla", d)
    per = {v["action"]: (v["total"], v["passed"]) for v in bad["actions"]}
    assert bad["rc"] == 1 and per["ElectionTimeout"] == (1, 0)
    assert all(per[a] == (1, 1) for a in TARGETS if a != "ElectionTimeout")


def test_import_writes_the_converted_trace(tmp_path, capsys):
    out = tmp_path / "imported"
    rc = main(["bench", "traces", "etcd", "--import", str(SAMPLE), "--out", str(out), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and [f["format"] for f in doc["files"]] == ["etcd-raft"]
    assert {a: c["windows"] for a, c in doc["actions"].items() if a in TARGETS} == {a: 1 for a in TARGETS}
    assert [i["line"] for i in doc["issues"]] == [36]
    written = out / "sample.ndjson"
    assert detect_format(written) == "events"
    assert [s.action for s in read_event_trace(written).steps] == [s.action for s in convert_raft_trace(SAMPLE, []).steps]
