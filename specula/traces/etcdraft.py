"""etcd-io/raft's own trace events (built with ``-tags with_tla``), as SysMoBench's etcd trace
generator writes them, read into a specula event trace (docs/traces.md, "etcd-io/raft events").

Each line is one ``raft.TracingEvent``: ``{"name", "nid", "state": {"term", "vote", "commit"},
"role", "log", "conf", "msg"?, "prop"?}``. raft emits an event *before* it handles a received
message (``Step`` starts with ``traceReceiveMessage``) and *after* a state change it makes itself
(``becomeCandidate``, ``appendEntry``, ``maybeCommit``, sends), and it does not trace pre-vote
messages, ``becomePreCandidate``, ticks or proposals reaching ``Step``.

So the events of one node are cut into *spans*: a span starts at an event that begins a new
piece of work at that node (receiving a message, becoming a candidate, a leader appending a
client proposal, a leader stepping down by itself, bootstrapping) and takes every later event of
the same node until its next start. One span is one step of the converted trace: its pre-state
is the node's state when the span starts (the receive event's own state, or the state the
node's previous span ended in), its post-state the node's state at its last event. Other
nodes' values are carried along unchanged. Steps are ordered by the position of their first
event (raft writes events under one lock, so the file is one real-time order).

State fields, named as the etcd task's spec (``benchmarks/systems/raft/ref/etcdraft.tla``)
names them, per node in objects keyed by node id: ``currentTerm``, ``state`` (raft's role
names, ``StateFollower`` ...), ``votedFor`` (node id, 0 = none), ``commitIndex``, and ``log``
(one ``{"term": t}`` per entry). raft traces only the log's length: the entries' terms are
rebuilt from the trace -- a leader's appended entries (``BecomeLeader``, ``Replicate``) carry
its term, entries a follower takes from a ``MsgApp`` carry the terms the sender's log had when
it sent it, bootstrap entries the node's term.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from specula.errors import TraceError
from specula.traces.window import Step, Trace, TraceIssue

__all__ = ["RAFT_EVENT_NAMES", "SPAN_ACTIONS", "is_raft_event", "read_raft_trace", "convert_raft_trace",
           "event_trace_lines"]

# The event names raft's state_trace.go writes.
RAFT_EVENT_NAMES = frozenset({
    "InitState", "BecomeCandidate", "BecomeFollower", "BecomeLeader", "Commit", "Replicate", "ChangeConf",
    "ApplyConfChange", "Ready", "SendAppendEntriesRequest", "ReceiveAppendEntriesRequest",
    "SendAppendEntriesResponse", "ReceiveAppendEntriesResponse", "SendRequestVoteRequest",
    "ReceiveRequestVoteRequest", "SendRequestVoteResponse", "ReceiveRequestVoteResponse", "SendSnapshot",
    "ReceiveSnapshot",
})

# What starts a span, and the step name it gets (the etcd task's action names; the target
# actions are ElectionTimeout, HandleVoteRequest, ClientProposal, HandleAppendEntries,
# HandleHeartbeat).
SPAN_ACTIONS: dict[str, str] = {
    "InitState": "Bootstrap",
    "ReceiveRequestVoteRequest": "HandleVoteRequest",
    "ReceiveRequestVoteResponse": "HandleVoteResponse",
    "ReceiveAppendEntriesRequest/MsgApp": "HandleAppendEntries",
    "ReceiveAppendEntriesRequest/MsgHeartbeat": "HandleHeartbeat",
    "ReceiveAppendEntriesRequest/MsgSnap": "HandleSnapshot",
    "ReceiveAppendEntriesResponse/MsgAppResp": "HandleAppendResponse",
    "ReceiveAppendEntriesResponse/MsgHeartbeatResp": "HandleHeartbeatResponse",
    "ReceiveSnapshot": "HandleSnapshot",
    "BecomeCandidate": "Campaign",  # the pre-vote was won (or a transfer): becomeCandidate
    "Replicate": "ClientProposal",  # a leader appends a proposal (not the empty entry of BecomeLeader)
    "BecomeFollower/StepDown": "StepDown",  # a leader steps down by itself (CheckQuorum)
}
# With PreVote on, raft becomes a candidate only from StatePreCandidate, which it enters on an
# election timeout without tracing it: that step is put back before the candidacy.
INFERRED_TIMEOUT = "ElectionTimeout"
ROLE_PRECANDIDATE = "StatePreCandidate"
ROLE_LEADER = "StateLeader"
FIELDS = ("currentTerm", "state", "votedFor", "commitIndex", "log")


def is_raft_event(rec: Any) -> bool:
    """Whether a JSON record is one of raft's TracingEvents."""
    return (isinstance(rec, dict) and isinstance(rec.get("name"), str) and "nid" in rec
            and isinstance(rec.get("state"), dict) and "role" in rec)


@dataclass
class _Node:
    term: int = 0
    role: str = "StateFollower"
    vote: int = 0
    commit: int = 0
    log: list[int] = field(default_factory=list)  # entry terms

    def view(self) -> dict[str, Any]:
        return {"currentTerm": self.term, "state": self.role, "votedFor": self.vote, "commitIndex": self.commit,
                "log": [{"term": t} for t in self.log]}


@dataclass
class _Span:
    first: int  # position of the first event in the file
    line: int
    node: str
    action: str
    input: dict[str, Any] | None
    pre: dict[str, Any]  # the node's own values when the span starts
    post: dict[str, Any] = field(default_factory=dict)
    pre_known: bool = True
    inferred: bool = False


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool):
        raise ValueError(f"{what}: expected a number, got {json.dumps(v)}")
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.strip().isdigit():
        return int(v)
    raise ValueError(f"{what}: expected a number, got {json.dumps(v)}")


def _node_id(v: Any) -> int | str:
    s = str(v)
    return int(s) if s.isdigit() else s


def _msg_key(m: dict[str, Any]) -> tuple[Any, ...]:
    return (m.get("type"), str(m.get("from")), str(m.get("to")), m.get("term"), m.get("index"), m.get("logTerm"),
            m.get("entries"), m.get("commit"))


def _span_start(ev: dict[str, Any], prev_name: str | None, node: _Node) -> str | None:
    """The step name when ``ev`` starts a new span of its node, else None."""
    name = ev["name"]
    msg = ev.get("msg") if isinstance(ev.get("msg"), dict) else None
    if name in ("ReceiveAppendEntriesRequest", "ReceiveAppendEntriesResponse") and msg is not None:
        return SPAN_ACTIONS.get(f"{name}/{msg.get('type')}", SPAN_ACTIONS.get(name))
    if name == "Replicate":
        return None if prev_name == "BecomeLeader" else SPAN_ACTIONS[name]
    if name == "BecomeFollower":
        if node.role == ROLE_LEADER and _int(ev["state"].get("term", 0), "state.term") == node.term:
            return SPAN_ACTIONS["BecomeFollower/StepDown"]
        return None
    return SPAN_ACTIONS.get(name)


class _Converter:
    def __init__(self, path: str, issues: list[TraceIssue] | None, prevote: bool) -> None:
        self.path = path
        self.issues = issues
        self.prevote = prevote
        self.nodes: dict[str, _Node] = {}
        self.open: dict[str, _Span] = {}
        self.prev_name: dict[str, str] = {}
        self.spans: list[_Span] = []
        self.sent: dict[tuple[Any, ...], list[list[int]]] = {}
        self.pending: dict[str, list[int]] = {}  # a follower's log after the MsgApp it is handling
        self.lost = False

    def problem(self, line: int, message: str, severity: str = "error") -> None:
        if self.issues is None:
            raise TraceError(message, path=self.path, line=line)
        self.issues.append(TraceIssue(self.path, line, message, severity))

    def node(self, nid: str) -> _Node:
        if nid not in self.nodes:
            self.nodes[nid] = _Node()
        return self.nodes[nid]

    def close(self, nid: str, post: dict[str, Any] | None = None) -> None:
        span = self.open.pop(nid, None)
        if span is not None:
            span.post = post if post is not None else self.node(nid).view()
            self.spans.append(span)

    @staticmethod
    def _timeout(before: dict[str, Any], n: _Node) -> bool:
        """The node became a pre-candidate in the same term without a traced event."""
        return n.role == ROLE_PRECANDIDATE and before["state"] != ROLE_PRECANDIDATE and before["currentTerm"] == n.term

    def message(self, ev: dict[str, Any], n: _Node) -> dict[str, Any] | None:
        m = ev.get("msg")
        if not isinstance(m, dict):
            return None
        out: dict[str, Any] = {
            "type": m.get("type"), "from": _node_id(m.get("from")), "to": _node_id(m.get("to")),
            "term": _int(m.get("term", 0), "msg.term"), "logTerm": _int(m.get("logTerm", 0), "msg.logTerm"),
            "index": _int(m.get("index", 0), "msg.index"), "commit": _int(m.get("commit", 0), "msg.commit"),
            "reject": bool(m.get("reject", False)), "rejectHint": _int(m.get("rejectHint", 0), "msg.rejectHint"),
        }
        k = _int(m.get("entries", 0), "msg.entries")
        terms = None
        if m.get("type") == "MsgApp":
            queue = self.sent.get(_msg_key(m))
            if queue:
                terms = queue.pop(0)
        if terms is None or len(terms) != k:
            terms = [out["term"]] * k
        out["entries"] = [{"term": t} for t in terms]
        return out

    def apply(self, ev: dict[str, Any], n: _Node, lineno: int) -> None:
        """Set the node's values from the event (the log's terms rebuilt as the module says)."""
        st = ev["state"]
        term = _int(st.get("term", 0), "state.term")
        size = _int(ev.get("log", 0), "log")
        name = ev["name"]
        n.role = str(ev.get("role", n.role))
        n.vote = _int(st.get("vote", 0), "state.vote")
        n.commit = _int(st.get("commit", 0), "state.commit")
        n.term = term
        if size < len(n.log):
            del n.log[size:]
        while len(n.log) < size:
            n.log.append(term)
        if name == "SendAppendEntriesRequest" and isinstance(ev.get("msg"), dict):
            m = ev["msg"]
            if m.get("type") == "MsgApp":
                start = _int(m.get("index", 0), "msg.index")
                k = _int(m.get("entries", 0), "msg.entries")
                self.sent.setdefault(_msg_key(m), []).append(n.log[start:start + k])

    def receive_app(self, ev: dict[str, Any], n: _Node) -> None:
        """Remember the terms a MsgApp brings, for the follower's next events (maybeAppend)."""
        m = self.open[ev["nid"]].input
        if not m or m.get("type") != "MsgApp" or not m["entries"]:
            return
        terms = [e["term"] for e in m["entries"]]
        base = m["index"]
        if base > len(n.log) or m["term"] < n.term:
            return
        merged = list(n.log)
        for k, t in enumerate(terms):
            pos = base + k  # 0-based position of entry base+k+1
            if pos < len(merged):
                if merged[pos] != t:
                    del merged[pos:]
                    merged.append(t)
            else:
                merged.append(t)
        self.pending[ev["nid"]] = merged

    def feed(self, pos: int, lineno: int, ev: dict[str, Any]) -> None:
        nid = str(ev["nid"])
        n = self.node(nid)
        start = _span_start(ev, self.prev_name.get(nid), n)
        if start is not None:
            receive = ev["name"].startswith("Receive")
            if receive:
                # the event's own state is the state before the handling. What differs from the
                # node's last event is either the end of its previous handling (raft sets a
                # granted vote after sending the response) or an untraced election timeout.
                before = n.view()
                self.apply(ev, n, lineno)
                if self._timeout(before, n):
                    self.close(nid, before)
                    self.spans.append(_Span(pos, lineno, nid, INFERRED_TIMEOUT, None, before, n.view(),
                                            inferred=True))
                else:
                    self.close(nid)
            else:
                self.close(nid)
                if ev["name"] == "BecomeCandidate" and self.prevote and n.role != ROLE_PRECANDIDATE:
                    pre = n.view()
                    n.role = ROLE_PRECANDIDATE
                    self.spans.append(_Span(pos, lineno, nid, INFERRED_TIMEOUT, None, pre, n.view(), inferred=True))
                self.apply(ev, n, lineno)
            span = _Span(pos, lineno, nid, start, None, n.view(), pre_known=not self.lost)
            self.lost = False
            self.open[nid] = span
            self.pending.pop(nid, None)
            if receive:
                span.input = self.message(ev, n)
                self.receive_app(ev, n)
        else:
            before = n.view()
            self.apply(ev, n, lineno)
            merged = self.pending.get(nid)
            if merged is not None and len(merged) == len(n.log):  # the entries were appended
                n.log = list(merged)
                del self.pending[nid]
            if self._timeout(before, n):  # a tick made it a pre-candidate: seen on its next event
                self.close(nid, before)
                self.open[nid] = _Span(pos, lineno, nid, INFERRED_TIMEOUT, None, before, inferred=True)
            elif nid not in self.open:  # events before the node's first span start
                self.open[nid] = _Span(pos, lineno, nid, "Unobserved", None, before, pre_known=False)
        self.prev_name[nid] = ev["name"]

    def run(self, lines: Iterator[tuple[int, str]]) -> None:
        pos = 0
        for lineno, raw in lines:
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            try:
                ev = json.loads(text)
            except ValueError as exc:
                self.problem(lineno, f"not JSON: {exc}")
                self.lost = True
                continue
            if not is_raft_event(ev):
                self.problem(lineno, "not a raft trace event (needs name, nid, state, role)")
                self.lost = True
                continue
            if ev["name"] not in RAFT_EVENT_NAMES:
                self.problem(lineno, f"unknown raft event {ev['name']!r} (kept as part of the node's current step)",
                             "warning")
            pos += 1
            try:
                self.feed(pos, lineno, ev)
            except ValueError as exc:
                self.problem(lineno, str(exc))
                self.lost = True
        for nid in list(self.open):
            self.close(nid)


def _ids(nodes: dict[str, _Node]) -> list[str]:
    return sorted(nodes, key=lambda s: (not s.isdigit(), int(s) if s.isdigit() else 0, s))


def convert_raft_trace(path: str | os.PathLike[str], issues: list[TraceIssue] | None = None, *,
                       prevote: bool = True, trace_id: str | None = None) -> Trace:
    """Read raft TracingEvents (one JSON object per line) into a :class:`Trace` whose steps are
    the nodes' spans (module docstring). ``prevote``: the cluster ran with PreVote (SysMoBench's
    generator does), so a candidacy is preceded by an (untraced) election timeout."""
    p = str(path)
    try:
        with open(p, encoding="utf-8-sig", errors="replace") as fh:
            text = fh.read()
    except OSError as exc:
        raise TraceError(f"cannot read trace file: {exc.strerror or exc}", path=p) from None
    conv = _Converter(p, issues, prevote)
    conv.run(enumerate(text.splitlines(), 1))
    ids = _ids(conv.nodes)
    if not ids:
        raise TraceError("no raft trace events in this file", path=p)
    tid = trace_id or Path(p).name.split(".", 1)[0]
    init = {f: {nid: _Node().view()[f] for nid in ids} for f in FIELDS}
    trace = Trace(id=tid, source=p, meta={"system": "etcd-raft", "format": 1, "nodes": [_node_id(i) for i in ids],
                                          "trace_id": tid}, init=init)
    state = {f: dict(v) for f, v in init.items()}
    for seq, span in enumerate(sorted(conv.spans, key=lambda s: (s.first, not s.inferred)), 1):
        for f in FIELDS:
            state[f] = dict(state[f])
            state[f][span.node] = span.post[f]
        params: dict[str, Any] = {"i": _node_id(span.node)}
        if span.input is not None:
            params["m"] = span.input
        trace.steps.append(Step(seq=seq, action=span.action, state={f: dict(v) for f, v in state.items()},
                                actor=_node_id(span.node), params=params, input=span.input, line=span.line,
                                pre_known=span.pre_known))
    return trace


def read_raft_trace(path: str | os.PathLike[str], issues: list[TraceIssue] | None = None) -> Trace:
    """:func:`convert_raft_trace` with the defaults (the reader ``read_trace`` dispatches to)."""
    return convert_raft_trace(path, issues)


def event_trace_lines(trace: Trace) -> Iterator[str]:
    """The trace as specula's NDJSON event trace (format 1, docs/traces.md): meta, init, then one
    step per span with the fields it changed as a delta (a ``gap`` record and the full state
    where raft events were lost)."""
    yield json.dumps({"kind": "meta", **trace.meta})
    yield json.dumps({"kind": "init", "state": trace.init})
    before = trace.init or {}
    for step in trace.steps:
        delta = {f: v for f, v in step.state.items() if before.get(f) != v}
        rec: dict[str, Any] = {"kind": "step", "seq": step.seq, "action": step.action, "actor": step.actor,
                               "params": step.params or {}, "input": step.input}
        if not step.pre_known:  # events were lost before this step: no window for it
            yield json.dumps({"kind": "gap", "reason": "unreadable raft event(s) before this step"})
            rec["state"] = step.state
        else:
            rec["delta"] = delta
        yield json.dumps(rec)
        before = step.state
