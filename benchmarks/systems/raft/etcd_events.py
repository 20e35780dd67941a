"""pyraft traced in etcd-io/raft's own event format (``raft.TracingEvent``, the ndjson lines its
``tla/Traceetcdraft.tla`` validates), recorded from a seeded run of the bundled raft.

    python benchmarks/systems/raft/etcd_events.py --out trace.ndjson [--seed 1] [--steps 40]

The events are emitted where raft.go calls its ``trace*`` functions: ``InitState`` when a node
starts, ``BecomeFollower`` / ``BecomeCandidate`` / ``BecomeLeader`` after a role change,
``Replicate`` before a leader appends a normal entry, ``Commit`` each time a leader tries to
advance its commit index, ``Send*`` for each message sent (MsgApp, MsgHeartbeat, MsgAppResp,
MsgHeartbeatResp, MsgVote, MsgVoteResp; pre-vote traffic is not traced, and pre-vote is off
here), ``Receive*`` before a node steps a message, and ``Ready`` when a node's outbox is handed
to the network. As raft does, a candidate's vote for itself and a leader's acknowledgement of its
own entries are messages to itself (``MsgVoteResp`` / ``MsgAppResp`` i -> i), delivered after
its Ready. Each line is ``{"tag": "trace", "event": {...}}`` with raft's field names.

The run: three nodes, bootstrapped with the configuration {1, 2, 3}; a seeded scheduler
delivers in-flight messages (in order), lets a node time out (only while no leader is known),
and has the leader propose entries or send heartbeats. No message is lost and no node crashes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from pyraft import Entry, Message, Raft  # noqa: E402
from pyraft.raft import (MsgApp, MsgAppResp, MsgBeat, MsgHeartbeat, MsgHeartbeatResp, MsgHup,  # noqa: E402
                         MsgProp, MsgVote, MsgVoteResp, StateLeader)

SEND = {MsgApp: "SendAppendEntriesRequest", MsgHeartbeat: "SendAppendEntriesRequest",
        MsgAppResp: "SendAppendEntriesResponse", MsgHeartbeatResp: "SendAppendEntriesResponse",
        MsgVote: "SendRequestVoteRequest", MsgVoteResp: "SendRequestVoteResponse"}
RECEIVE = {MsgApp: "ReceiveAppendEntriesRequest", MsgHeartbeat: "ReceiveAppendEntriesRequest",
           MsgAppResp: "ReceiveAppendEntriesResponse", MsgHeartbeatResp: "ReceiveAppendEntriesResponse",
           MsgVote: "ReceiveRequestVoteRequest", MsgVoteResp: "ReceiveRequestVoteResponse"}


class EventLog:
    def __init__(self, ids: list[int]) -> None:
        self.lines: list[dict[str, Any]] = []
        self.conf = [[str(i) for i in ids], []]

    def event(self, name: str, r: Raft, m: Message | None = None, prop: dict | None = None) -> None:
        ev: dict[str, Any] = {
            "name": name, "nid": str(r.id),
            "state": {"term": r.term, "vote": str(r.vote), "commit": r.raft_log.committed},
            "role": r.state, "log": r.raft_log.last_index(), "conf": self.conf,
        }
        if m is not None:
            ev["msg"] = {"type": m.type, "term": m.term, "from": str(m.frm), "to": str(m.to),
                         "entries": len(m.entries), "logTerm": m.log_term, "index": m.index,
                         "commit": m.commit, "vote": "0", "reject": m.reject, "rejectHint": m.reject_hint}
        if prop is not None:
            ev["prop"] = prop
        self.lines.append({"tag": "trace", "event": ev})


class TracedRaft(Raft):
    """pyraft with raft.go's trace points (a subclass: pyraft itself is unchanged)."""

    log_events: EventLog
    self_msgs: list[Message]

    def send(self, m: Message) -> None:
        if m.frm == 0:
            m = Message(**{**m.__dict__, "frm": self.id})
        if m.type in SEND:
            prop = None
            if m.type == MsgApp:
                pr = self.prs.get(m.frm)
                prop = {"match": pr.match, "next": pr.next} if pr is not None else {}
            self.log_events.event(SEND[m.type], self, m, prop)
        if m.to == self.id:
            self.self_msgs.append(m)  # stepped after the node's Ready, as raft's msgsAfterAppend
        else:
            self.msgs.append(m)

    def become_follower(self, term: int, lead: int) -> None:
        super().become_follower(term, lead)
        if hasattr(self, "log_events"):
            self.log_events.event("BecomeFollower", self)

    def become_candidate(self) -> None:
        super().become_candidate()
        self.log_events.event("BecomeCandidate", self)

    def become_leader(self) -> None:
        # raft.go: reset, role change, traceBecomeLeader, then the empty entry is appended
        self.reset(self.term)
        self.lead = self.id
        self.state = StateLeader
        self.log_events.event("BecomeLeader", self)
        self.append_entry([Entry(self.term, 0, "")])

    def campaign(self, kind: str) -> None:
        # raft.go's campaign: the vote for itself is a MsgVoteResp to itself, sent in voter order
        self.become_candidate()
        for p in self.peers:
            if p == self.id:
                self.send(Message(MsgVoteResp, to=p, term=self.term))
            else:
                self.send(Message(MsgVote, to=p, term=self.term, index=self.raft_log.last_index(),
                                  log_term=self.raft_log.last_term()))

    def append_entry(self, es: list[Entry]) -> None:
        for _ in es:
            self.log_events.event("Replicate", self)
        li = self.raft_log.last_index()
        es = [Entry(self.term, li + 1 + k, e.data) for k, e in enumerate(es)]
        self.raft_log.append(es)
        # the leader acknowledges its own entries by a MsgAppResp to itself (stepped after Ready)
        self.send(Message(MsgAppResp, to=self.id, term=self.term, index=self.raft_log.last_index()))

    def maybe_commit(self) -> bool:
        done = super().maybe_commit()
        self.log_events.event("Commit", self)
        return done

    def step(self, m: Message) -> None:
        if m.type in RECEIVE:
            self.log_events.event(RECEIVE[m.type], self, m)
        super().step(m)


class Cluster:
    def __init__(self, seed: int, ids: tuple[int, ...] = (1, 2, 3), max_log: int = 3) -> None:
        self.rng = random.Random(seed)
        self.ids = list(ids)
        self.log = EventLog(self.ids)
        self.max_log = max_log
        self.nodes: dict[int, TracedRaft] = {}
        self.net: list[Message] = []
        for i in self.ids:
            r = TracedRaft(i, self.ids, rng=random.Random(self.rng.random()))
            r.pre_vote = False
            r.log_events, r.self_msgs = self.log, []
            self.nodes[i] = r
            self.log.event("InitState", r)

    def ready(self, i: int) -> None:
        """raft's Ready: the outbox goes to the network, then the messages to itself are stepped."""
        r = self.nodes[i]
        self.log.event("Ready", r)
        self.net.extend(r.msgs)
        r.msgs = []
        while r.self_msgs:
            m = r.self_msgs.pop(0)
            r.step(m)
            if r.msgs or r.self_msgs:
                self.log.event("Ready", r)
                self.net.extend(r.msgs)
                r.msgs = []

    def leader(self) -> TracedRaft | None:
        return next((r for r in self.nodes.values() if r.state == StateLeader), None)

    def run(self, steps: int) -> None:
        for _ in range(steps):
            # the network delivers in order (FIFO): raft's rafttest does too, and a vote request
            # overtaken by the new leader's heartbeat would be refused by raft (it knows a leader)
            # where etcdraft.tla, which has no notion of a known leader, grants it
            choices: list[tuple[str, Any]] = [("deliver", 0)] * min(len(self.net), 3)
            lead = self.leader()
            if lead is None and not self.net:
                choices += [("timeout", i) for i in self.ids]
            if lead is not None:
                choices.append(("beat", lead.id))
                if lead.raft_log.last_index() < self.max_log:
                    choices.append(("propose", lead.id))
            if not choices:
                break
            kind, arg = self.rng.choice(choices)
            if kind == "deliver":
                m = self.net.pop(arg)
                self.nodes[m.to].step(m)
                self.ready(m.to)
            elif kind == "timeout":
                self.nodes[arg].step(Message(MsgHup, frm=arg))
                self.ready(arg)
            elif kind == "beat":
                self.nodes[arg].step(Message(MsgBeat, frm=arg))
                self.ready(arg)
            else:
                self.nodes[arg].step(Message(MsgProp, frm=arg, entries=(Entry(0, 0, "x"),)))
                self.ready(arg)


def record(seed: int, steps: int) -> list[dict[str, Any]]:
    c = Cluster(seed)
    c.run(steps)
    return c.log.lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=40)
    a = ap.parse_args()
    lines = record(a.seed, a.steps)
    a.out.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    print(f"{len(lines)} events -> {a.out}")


if __name__ == "__main__":
    main()
