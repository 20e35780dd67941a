"""Readers: real SysMoBench samples, specula event traces, TLC dumps, malformed lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from specula.errors import TraceError
from specula.traces import (
    TraceIssue,
    cut_windows,
    detect_format,
    iter_windows,
    read_event_trace,
    read_tlc_trace,
)
from specula.traces.readers import action_from_filename, iter_json_lines

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "sysmobench"  # ../shared beside the repository
HERE = Path(__file__).parent / "fixtures"
needs_data = pytest.mark.usefixtures("sysmobench_data")  # fails when the samples are missing


@needs_data
def test_sysmobench_windows_action_from_file_name():
    path = DATA / "spin" / "windows_AcquireLock.sample.ndjson"
    assert detect_format(path) == "windows"
    ws = list(iter_windows(path, []))
    assert [w.id for w in ws] == [1, 2, 3, 4, 5]
    assert {w.action for w in ws} == {"AcquireLock"}
    assert ws[0].actor == 2
    assert ws[0].pre == {"lockState": "unlocked", "pc": ["idle", "trying", "idle"]}
    assert ws[0].post["pc"] == ["idle", "locked", "idle"]
    assert ws[0].source.endswith("windows_AcquireLock.sample.ndjson:1")


@needs_data
def test_etcd_windows_node_and_input():
    ws = list(iter_windows(DATA / "etcd" / "windows_HandleVoteRequest.sample.ndjson", []))
    assert [w.actor for w in ws] == [2, 1]  # "node" is the actor
    assert ws[0].input["type"] == "MsgVote" and ws[0].input["from"] == 1
    assert ws[1].pre["votedFor"] == ["None", 2, 1]


@needs_data
def test_canonical_action_windows():
    path = DATA / "spin" / "action_windows.sample.jsonl"
    assert detect_format(path) == "action-windows"
    ws = list(iter_windows(path, []))
    assert [w.action for w in ws] == ["TryAcquireBlocking", "AcquireSuccess", "TryAcquireBlocking", "Release"]
    assert [w.index for w in ws] == [0, 2, 4, 8]
    assert ws[1].pre["pc"] == {"0": "idle", "1": "acquiring", "2": "idle"}
    assert ws[1].post["lockState"] == "locked"
    # filter by action
    assert len(list(iter_windows(path, [], actions={"Release"}))) == 1


def test_action_from_filename():
    assert action_from_filename("x/windows_AcquireLock.ndjson") == "AcquireLock"
    assert action_from_filename("windows_HandleVoteRequest.sample.ndjson") == "HandleVoteRequest"
    assert action_from_filename("action_windows.jsonl") is None


def test_event_trace_deltas_and_windows():
    issues: list[TraceIssue] = []
    tr = read_event_trace(HERE / "spin_events.ndjson", issues)
    assert issues == []
    assert tr.id == "spin_events" and tr.nodes == ["t1", "t2"] and tr.meta["seed"] == 7
    assert tr.init == {"lock": False, "pc": {"t1": "idle", "t2": "idle"}}
    assert [s.seq for s in tr.steps] == [1, 2, 3, 4, 5]
    # delta replaces top-level fields; untouched fields carry over
    assert tr.steps[2].state == {"lock": True, "pc": {"t1": "locked", "t2": "acquiring"}}
    ws = list(cut_windows(tr, {"AcquireLock"}))
    assert [w.index for w in ws] == [2, 5]
    assert ws[0].pre == tr.steps[0].state and ws[0].post == tr.steps[1].state
    assert ws[0].actor == "t1" and ws[0].id == "spin_events:2"
    assert ws[1].pre["pc"]["t2"] == "acquiring" and ws[1].post["lock"] is True
    assert ws[0].source.endswith("spin_events.ndjson:5")
    assert len(list(cut_windows(tr))) == 5


def test_malformed_line_reported_with_number_rest_kept(tmp_path):
    lines = (HERE / "spin_events.ndjson").read_text().splitlines()
    lines[6] = '{"kind": "step", "seq": 3, "action": "Try", "actor": "t2", "delta": {"pc": '  # line 7 broken
    p = tmp_path / "t.ndjson"
    p.write_text("\n".join(lines) + "\n")
    issues: list[TraceIssue] = []
    tr = read_event_trace(p, issues)
    errors = [i for i in issues if i.severity == "error"]
    assert [i.line for i in errors] == [7]
    assert "malformed JSON" in errors[0].message
    assert [s.seq for s in tr.steps] == [1, 2, 4, 5]
    # after a lost delta line the state is uncertain: windows from seq 4, 5 are not cut
    ws = list(cut_windows(tr))
    assert [w.index for w in ws] == [1, 2]
    # fail fast without an issues list
    with pytest.raises(TraceError) as exc:
        read_event_trace(p)
    assert exc.value.line == 7


def test_full_state_after_lost_line_restores_certainty(tmp_path):
    p = tmp_path / "t.ndjson"
    p.write_text(
        '{"kind": "init", "state": {"x": 0}}\n'
        '{"kind": "step", "seq": 1, "action": "Inc", "state": {"x": 1}}\n'
        'garbage\n'
        '{"kind": "step", "seq": 3, "action": "Inc", "state": {"x": 3}}\n'
        '{"kind": "step", "seq": 4, "action": "Inc", "delta": {"x": 4}}\n'
    )
    issues: list[TraceIssue] = []
    tr = read_event_trace(p, issues)
    assert [i.line for i in issues] == [3]
    # seq 3's pre-state is unknown (line 3 was lost), seq 4 is fine again
    assert [w.index for w in cut_windows(tr)] == [1, 4]


def test_bad_records_reported(tmp_path):
    p = tmp_path / "t.ndjson"
    p.write_text(
        '{"kind": "init", "state": {"x": 0}}\n'
        '{"kind": "step", "seq": 1, "state": {"x": 1}}\n'
        '{"kind": "bogus"}\n'
        '[1, 2]\n'
        '{"kind": "step", "seq": "two", "action": "A", "state": {}}\n'
        '{"kind": "step", "seq": 2, "action": "A", "state": {"x": 1}, "delta": {"x": 2}}\n'
        '{"kind": "step", "seq": 3, "action": "A"}\n'
    )
    issues: list[TraceIssue] = []
    read_event_trace(p, issues)
    assert [i.line for i in issues] == [2, 3, 4, 5, 6, 7]
    assert "action" in issues[0].message and "bogus" in issues[1].message


def test_windows_file_bad_lines(tmp_path):
    p = tmp_path / "windows_Foo.ndjson"
    p.write_text(
        '{"id": 1, "pre": {"x": 1}, "post": {"x": 2}}\n'
        '{"id": 2, "pre": {"x": 1}}\n'
        '{"id": 3, "pre": {"x": 1}, "post": \n'
        '# comment\n'
        '{"id": 4, "pre": {"x": 2}, "post": {"x": 3}, "actor": "n1"}\n'
    )
    issues: list[TraceIssue] = []
    ws = list(iter_windows(p, issues))
    assert [w.id for w in ws] == [1, 4]
    assert [i.line for i in issues] == [2, 3]


TLC_DUMP = {
    "action": [
        [[1, {"pc": {"p1": "idle", "p2": "idle"}, "g": {"2": [2, ["p1", "p2"]]}}],
         {"name": "A", "location": {"beginLine": 6, "beginColumn": 9, "endLine": 6, "endColumn": 70, "module": "N"},
          "context": {"p": "p1"}},
         [2, {"pc": {"p1": "cs", "p2": "idle"}, "g": {"2": [2, ["p1", "p2"]]}}]]
    ],
    "state": [[1, {"pc": {"p1": "idle", "p2": "idle"}, "g": {"2": [2, ["p1", "p2"]]}}],
              [2, {"pc": {"p1": "cs", "p2": "idle"}, "g": {"2": [2, ["p1", "p2"]]}}]],
    "invariant": ["Inv"],
}


def test_tlc_dump_trace(tmp_path):
    # the exact shape TLC 2.18 writes with -dumpTrace json (captured from a real run)
    p = tmp_path / "n.json"
    p.write_text(json.dumps(TLC_DUMP))
    assert detect_format(p) == "tlc-json"
    tr = read_tlc_trace(p, [])
    assert tr.init["pc"] == {"p1": "idle", "p2": "idle"}
    assert tr.meta == {"invariant": ["Inv"]}
    (w,) = list(cut_windows(tr))
    assert w.action == "A" and w.params == {"p": "p1"}
    assert w.post["pc"]["p1"] == "cs"


def test_tlc_dump_malformed(tmp_path):
    p = tmp_path / "n.json"
    p.write_text('{"state": [[1, {"x": 0}],\n [2, ')
    issues: list[TraceIssue] = []
    tr = read_tlc_trace(p, issues)
    assert tr.steps == [] and issues and issues[0].line == 2


@pytest.mark.tlc
def test_real_tlc_dump(tlc_jar, tmp_path):
    import subprocess

    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals\nCONSTANTS P\nVARIABLES pc\n"
        "Init == pc = [p \\in P |-> 0]\nA(p) == pc[p] < 2 /\\ pc' = [pc EXCEPT ![p] = @ + 1]\n"
        "Next == \\E p \\in P : A(p)\nInv == \\A p \\in P : pc[p] < 2\n====\n"
    )
    (tmp_path / "M.cfg").write_text("CONSTANT P = {p1, p2}\nINIT Init\nNEXT Next\nINVARIANT Inv\n")
    subprocess.run(
        ["java", "-cp", str(tlc_jar), "tlc2.TLC", "-workers", "1", "-dumpTrace", "json", "t.json", "-config", "M.cfg", "M.tla"],
        cwd=tmp_path, capture_output=True, timeout=120,
    )
    tr = read_tlc_trace(tmp_path / "t.json", [])
    ws = list(cut_windows(tr))
    assert len(ws) == 2 and all(w.action == "A" for w in ws)
    assert all(w.params["p"] in ("p1", "p2") for w in ws)


def test_unknown_format(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"hello": 1}\n')
    with pytest.raises(TraceError):
        detect_format(p)


# --- property tests -------------------------------------------------------------------------

json_leaf = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
json_val = st.recursive(json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3), max_leaves=8)
state_st = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), json_val, min_size=1)


@settings(max_examples=60, deadline=None)
@given(init=state_st, steps=st.lists(st.tuples(st.booleans(), state_st), max_size=6),
       broken=st.sets(st.integers(0, 8), max_size=3))
def test_events_roundtrip_and_broken_lines(tmp_path_factory, init, steps, broken):
    """Full states survive; deltas reconstruct the state; each broken line is one issue with its
    number, and no step after it is lost."""
    lines = [json.dumps({"kind": "init", "state": init})]
    full = []
    cur = dict(init)
    for i, (use_delta, st_) in enumerate(steps, 1):
        new = {**cur, **st_} if use_delta else st_
        rec = {"kind": "step", "seq": i, "action": "A"}
        if use_delta:
            rec["delta"] = st_
        else:
            rec["state"] = st_
        lines.append(json.dumps(rec))
        full.append(new)
        cur = new
    out, broken_at = [], []
    for idx, line in enumerate(lines):
        out.append(line)
        if idx in broken:
            out.append("{not json")
            broken_at.append(len(out))
    p = tmp_path_factory.mktemp("ev") / "t.ndjson"
    p.write_text("\n".join(out) + "\n")
    issues: list[TraceIssue] = []
    tr = read_event_trace(p, issues)
    assert [i.line for i in issues if i.severity == "error"] == broken_at
    assert [s.seq for s in tr.steps] == list(range(1, len(steps) + 1))
    if not broken_at:
        assert [s.state for s in tr.steps] == full
        assert len(list(cut_windows(tr))) == len(steps)
    for s, expected in zip(tr.steps, full):
        if s.known:
            assert s.state == expected


@settings(max_examples=60, deadline=None)
@given(records=st.lists(st.tuples(state_st, state_st, json_val), max_size=8), junk=st.sets(st.integers(0, 8), max_size=3))
def test_windows_file_roundtrip(tmp_path_factory, records, junk):
    lines, expected, bad = [], [], []
    for i, (pre, post, inp) in enumerate(records):
        if i in junk:
            lines.append('{"pre": ')
            bad.append(len(lines))
        lines.append(json.dumps({"id": i, "trace_id": "t", "node": 1, "pre": pre, "post": post, "input": inp}))
        expected.append((i, pre, post, inp))
    p = tmp_path_factory.mktemp("w") / "windows_Act.ndjson"
    p.write_text("\n".join(lines) + "\n")
    issues: list[TraceIssue] = []
    got = [(w.id, w.pre, w.post, w.input) for w in iter_windows(p, issues)]
    assert got == expected
    assert [i.line for i in issues] == bad


@settings(max_examples=40, deadline=None)
@given(lines=st.lists(st.text(max_size=20), max_size=10))
def test_json_lines_never_crash(tmp_path_factory, lines):
    p = tmp_path_factory.mktemp("j") / "x.ndjson"
    p.write_text("\n".join(l.replace("\n", " ").replace("\r", " ") for l in lines) + "\n")
    issues: list[TraceIssue] = []
    got = list(iter_json_lines(p, issues))
    assert all(isinstance(n, int) for n, _ in got)
    assert len(got) + len(issues) <= len(lines) + 1


def test_bom_and_crlf(tmp_path):
    p = tmp_path / "windows_A.ndjson"
    p.write_bytes(b'\xef\xbb\xbf{"id": 1, "pre": {"x": 1}, "post": {"x": 2}}\r\n# c\r\n{"id": 2, "pre": {"x": 2}, "post": {"x": 3}}\r\n')
    issues: list[TraceIssue] = []
    assert [w.id for w in iter_windows(p, issues)] == [1, 2] and issues == []
