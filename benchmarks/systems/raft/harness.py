"""Seeded scenario harness for pyraft: records NDJSON event traces.

    python benchmarks/systems/raft/harness.py --runs 6 --seed 1 --out traces/

Three nodes with pre-vote. At every step a seeded scheduler picks one enabled event: a node's
clock runs until its next timeout (election timeout -> MsgHup, leader heartbeat -> MsgBeat),
any in-flight message is delivered (reordering), a client proposal at the leader, a message is
lost, a node crashes (its in-flight messages are lost; term, vote, log and commit index are
persisted) or restarts (as a follower with its persisted state). Events are named after what
the node did with the message it stepped:

    ElectionTimeout (MsgHup)        HandleVoteRequest (MsgVote, MsgPreVote)
    ClientProposal (MsgProp)        HandleAppendEntries (MsgApp)
    HandleHeartbeat (MsgHeartbeat)  -- the five target actions; also recorded:
    HandleVoteResponse, HandleAppendResponse, SendHeartbeat, HandleHeartbeatResponse,
    DropMessage, Crash, Restart.

Bounds (the reference cfg uses the same): no election timeout at term >= --max-term, no
proposal once the leader's log has --max-log entries.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
for extra in (HERE, HERE.parents[2] / "tools" / "emitters" / "python"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from pyraft import Entry, Message, Raft, RaftLog, StateLeader  # noqa: E402
from pyraft.raft import (MsgApp, MsgAppResp, MsgHeartbeat, MsgHeartbeatResp,  # noqa: E402
                         MsgPreVote, MsgPreVoteResp, MsgProp, MsgVote, MsgVoteResp)
from specula_trace import TraceWriter  # noqa: E402

SYSTEM = "raft"
TARGET_ACTIONS = ("ElectionTimeout", "HandleVoteRequest", "ClientProposal",
                  "HandleAppendEntries", "HandleHeartbeat")
ACTION_OF = {MsgVote: "HandleVoteRequest", MsgPreVote: "HandleVoteRequest",
             MsgApp: "HandleAppendEntries", MsgHeartbeat: "HandleHeartbeat",
             MsgVoteResp: "HandleVoteResponse", MsgPreVoteResp: "HandleVoteResponse",
             MsgAppResp: "HandleAppendResponse", MsgHeartbeatResp: "HandleHeartbeatResponse",
             MsgProp: "ClientProposal"}


class Cluster:
    def __init__(self, n: int, rng: random.Random, tracer: TraceWriter | None = None,
                 max_term: int = 2, max_log: int = 3) -> None:
        self.rng = rng
        self.ids = list(range(1, n + 1))
        self.tracer = tracer
        self.max_term = max_term
        self.max_log = max_log
        self.in_flight: list[Message] = []
        self.up = {i: True for i in self.ids}
        self.nodes = {i: self._new_node(i) for i in self.ids}

    def _new_node(self, i: int, term: int = 0, vote: int = 0, log: RaftLog | None = None) -> Raft:
        return Raft(i, self.ids, rng=random.Random(self.rng.random()), term=term, vote=vote,
                    raft_log=log or RaftLog())

    # -- transport + trace -------------------------------------------------------------------
    def ready(self, i: int) -> None:
        """Drain node i's outbox into the network (identical in-flight messages coalesce)."""
        node = self.nodes[i]
        for m in node.msgs:
            if m not in self.in_flight:
                self.in_flight.append(m)
        node.msgs = []

    def trace(self, action: str, actor: int, msg: Message | None = None) -> None:
        if self.tracer is None:
            return
        params: dict[str, Any] = {"i": actor}
        if msg is not None:
            params["m"] = msg.to_json()
        self.tracer.step(action, actor, self.snapshot(), params,
                         msg.to_json() if msg is not None else None)

    def snapshot(self) -> dict[str, Any]:
        per = {i: n.observe() for i, n in self.nodes.items()}
        state: dict[str, Any] = {f: {str(i): per[i][f] for i in self.ids} for f in per[1]}
        state["msgs"] = sorted((m.to_json() for m in self.in_flight),
                               key=lambda d: repr(sorted(d.items())))
        return state

    # -- events ------------------------------------------------------------------------------
    def timeout(self, i: int) -> None:
        node = self.nodes[i]
        if node.state == StateLeader:
            node.tick()                              # heartbeat_timeout = 1: fires every tick
            self.ready(i)
            self.trace("SendHeartbeat", i)
            return
        node.election_elapsed = node.randomized_election_timeout - 1
        node.tick()                                  # the tick that reaches the timeout
        self.ready(i)
        self.trace("ElectionTimeout", i)

    def deliver(self, m: Message) -> None:
        self.in_flight.remove(m)
        self.nodes[m.to].step(m)
        self.ready(m.to)
        self.trace(ACTION_OF[m.type], m.to, m)

    def propose(self, i: int, k: int) -> None:
        m = Message(MsgProp, to=i, frm=i, entries=(Entry(0, 0, f"v{k}"),))
        self.nodes[i].step(m)
        self.ready(i)
        self.trace("ClientProposal", i)

    def enabled(self, budget: dict[str, int]) -> list[tuple[str, Any]]:
        ev: list[tuple[str, Any]] = []
        for i, n in self.nodes.items():
            if not self.up[i]:
                ev.append(("restart", i))
                continue
            if n.state == StateLeader:
                ev.append(("timeout", i))
                if n.raft_log.last_index() < self.max_log and budget["proposals"] > 0:
                    ev.extend([("propose", i)] * 2)
                if budget["crashes"] > 0 and self.rng.random() < 0.1:
                    ev.append(("crash", i))
            elif n.term < self.max_term:
                ev.append(("timeout", i))
        for m in self.in_flight:
            if self.up[m.to]:
                ev.extend([("deliver", m)] * 6)
                if budget["drops"] > 0:
                    ev.append(("drop", m))
        return ev

    def run(self, max_steps: int, proposals: int = 3, crashes: int = 1, drops: int = 3) -> None:
        budget = {"proposals": proposals, "crashes": crashes, "drops": drops}
        if self.tracer is not None:
            self.tracer.init(self.snapshot())
        for _ in range(max_steps):
            ev = self.enabled(budget)
            if not ev:
                break
            kind, arg = self.rng.choice(ev)
            if kind == "timeout":
                self.timeout(arg)
            elif kind == "deliver":
                self.deliver(arg)
            elif kind == "propose":
                budget["proposals"] -= 1
                self.propose(arg, budget["proposals"])
            elif kind == "drop":
                budget["drops"] -= 1
                self.in_flight.remove(arg)
                self.trace("DropMessage", arg.to, arg)
            elif kind == "crash":
                budget["crashes"] -= 1
                self.up[arg] = False
                self.in_flight = [m for m in self.in_flight if m.to != arg]
                self.trace("Crash", arg)
            elif kind == "restart":
                old = self.nodes[arg]
                self.nodes[arg] = self._new_node(arg, old.term, old.vote, old.raft_log)
                self.up[arg] = True
                self.trace("Restart", arg)


def record(runs: int, seed: int, out: Path, nodes: int = 3, max_steps: int = 150,
           max_term: int = 2, max_log: int = 3) -> list[Path]:
    """Record ``runs`` traces into ``out`` (created); returns the trace paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(runs):
        run_seed = seed + k
        path = out / f"trace-{k:03d}.ndjson"
        ids = list(range(1, nodes + 1))
        with TraceWriter.open(path, system=SYSTEM, nodes=ids, seed=run_seed, delta=True) as tw:
            Cluster(nodes, random.Random(run_seed), tw, max_term, max_log).run(max_steps)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--max-term", type=int, default=2)
    ap.add_argument("--max-log", type=int, default=3)
    args = ap.parse_args(argv)
    paths = record(args.runs, args.seed, args.out, max_steps=args.steps,
                   max_term=args.max_term, max_log=args.max_log)
    print(f"wrote {len(paths)} traces to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
