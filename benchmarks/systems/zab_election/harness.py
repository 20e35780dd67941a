"""Seeded scenario harness for zabfle: records NDJSON event traces.

    python benchmarks/systems/zab_election/harness.py --runs 20 --seed 1 --out traces/

Each run starts N peers (default 2) with random last-logged zxids and lets a seeded scheduler pick, at
every step, one enabled event: deliver any in-flight notification (reordering), a poll timeout
(resend), the end of a finalize wait, a peer crash (its in-flight messages are lost and its memory
is wiped), a restart, or a follower losing its leader (it goes back to LOOKING keeping its clock).
Target actions are Notification, HandleNotification and BecomeLeader; Crash, Restart and
LeaderLost are recorded as steps too (they change the observed state) but are not target actions.
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

from zabfle import LOOKING, FastLeaderElection, Network, Notification  # noqa: E402
from specula_trace import TraceWriter  # noqa: E402

SYSTEM = "zab_election"
TARGET_ACTIONS = ("Notification", "HandleNotification", "BecomeLeader")


class Cluster:
    def __init__(self, n: int, rng: random.Random, tracer: TraceWriter | None = None) -> None:
        self.rng = rng
        self.ids = list(range(1, n + 1))
        self.network: Network[Notification] = Network()
        self.tracer = tracer
        self.up = {i: True for i in self.ids}
        self.peers = {i: FastLeaderElection(i, self.ids, rng.randint(0, 1), self.network,
                                            self._on_event) for i in self.ids}

    def _on_event(self, action: str, actor: int, msg: dict[str, Any] | None) -> None:
        params: dict[str, Any] = {"i": actor}
        if msg is not None:
            params["m"] = msg
        self.trace(action, actor, params, msg)

    def trace(self, action: str, actor: Any, params: dict[str, Any],
              msg: dict[str, Any] | None = None) -> None:
        if self.tracer is not None:
            self.tracer.step(action, actor, self.snapshot(), params, msg)

    def snapshot(self) -> dict[str, Any]:
        per_node = {i: p.observe() for i, p in self.peers.items()}
        fields = next(iter(per_node.values())).keys()
        state: dict[str, Any] = {f: {str(i): per_node[i][f] for i in self.ids} for f in fields}
        msgs = sorted((m.to_json() for m in self.network.in_flight),
                      key=lambda d: tuple(str(d[k]) for k in sorted(d)))
        state["msgs"] = msgs
        return state

    # -- scheduler -------------------------------------------------------------------------
    def enabled(self, crashes_left: int) -> list[tuple[str, Any]]:
        ev: list[tuple[str, Any]] = []
        for i, p in self.peers.items():
            if not self.up[i]:
                ev.append(("restart", i))
                continue
            if p.state == LOOKING and not p.electing:
                ev.append(("start", i))
            if p.state == LOOKING and p.electing and not self.network.pending_for(i):
                ev.append(("timeout", i))
            if p.ready_to_lead() and not p.better_pending():
                ev.extend([("finalize", i)] * 3)
            if p.state != LOOKING:
                leader = p.proposed_leader
                if leader != i and not self.up.get(leader, False):
                    ev.extend([("leader_lost", i)] * 3)
        for m in self.network.in_flight:
            p = self.peers[m.to]
            if self.up[m.to] and (p.electing or p.state != LOOKING):
                ev.extend([("deliver", m)] * 2)
        if crashes_left > 0:
            # Crashes are rare while electing and certain once the cluster settled; leaders
            # are the favourite victims (that is what forces a new round with a higher epoch).
            victims = [i for i in self.ids if self.up[i]]
            leaders = [i for i in victims if self.peers[i].state == "LEADING"]
            if not ev:
                ev.append(("crash", self.rng.choice(leaders or victims)))
            elif self.rng.random() < 0.03:
                ev.append(("crash", self.rng.choice(victims)))
        return ev

    def run(self, max_steps: int, crashes: int) -> None:
        if self.tracer is not None:
            self.tracer.init(self.snapshot())
        for _ in range(max_steps):
            ev = self.enabled(crashes)
            if not ev:
                break
            kind, arg = self.rng.choice(ev)
            if kind == "start":
                self.peers[arg].look_for_leader()
            elif kind == "timeout":
                self.peers[arg].poll_timeout()
            elif kind == "finalize":
                self.peers[arg].finalize()
            elif kind == "deliver":
                self.peers[arg.to].receive(arg)
            elif kind == "crash":
                crashes -= 1
                self.up[arg] = False
                self.network.drop_to(arg)
                self.peers[arg].reset()
                self.trace("Crash", arg, {"i": arg})
            elif kind == "restart":
                self.up[arg] = True
                self.trace("Restart", arg, {"i": arg})
            elif kind == "leader_lost":
                self.peers[arg].leader_lost()
                self.trace("LeaderLost", arg, {"i": arg})


def record(runs: int, seed: int, out: Path, nodes: int = 2, max_steps: int = 120,
           crashes: int = 3) -> list[Path]:
    """Record ``runs`` traces into ``out`` (created); returns the trace paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(runs):
        run_seed = seed + k
        path = out / f"trace-{k:03d}.ndjson"
        ids = list(range(1, nodes + 1))
        with TraceWriter.open(path, system=SYSTEM, nodes=ids, seed=run_seed, delta=True) as tw:
            Cluster(nodes, random.Random(run_seed), tw).run(max_steps, crashes)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--nodes", type=int, default=2,
                    help="ensemble size (the reference cfg uses N = 2: TLC explores N = 3 "
                         "in minutes, N = 2 in seconds)")
    args = ap.parse_args(argv)
    paths = record(args.runs, args.seed, args.out, nodes=args.nodes, max_steps=args.steps)
    print(f"wrote {len(paths)} traces to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
