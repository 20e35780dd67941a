"""Seeded scenario harness for lockservice: records NDJSON event traces.

    python benchmarks/systems/locksvc/harness.py --runs 20 --seed 1 --out traces/

Three clients each take the lock a few times; at every step a seeded scheduler picks one enabled
event: a client sends a lock request, the server serves any pending request (requests from
different clients are reordered freely), a granted client enters its critical section, a client
in its critical section unlocks. There is no message loss: the protocol has no retransmission
(a lost grant would block the service, as in the original PGo system).
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

from lockservice import SERVER, LockClient, LockServer, Network  # noqa: E402
from specula_trace import TraceWriter  # noqa: E402

SYSTEM = "locksvc"
TARGET_ACTIONS = ("ClientLockRequest", "ServerGrantLock", "ClientCriticalSection",
                  "ClientUnlockRequest")


class Service:
    def __init__(self, clients: int, rng: random.Random, tracer: TraceWriter | None = None) -> None:
        self.rng = rng
        self.network = Network()
        self.tracer = tracer
        self.server = LockServer(self.network, self._on_event)
        self.clients = {f"c{k}": LockClient(f"c{k}", self.network, self._on_event)
                        for k in range(1, clients + 1)}

    def _on_event(self, action: str, actor: str, msg: dict[str, Any] | None) -> None:
        params: dict[str, Any] = {"c": actor} if actor != SERVER else {}
        if msg is not None:
            params["m"] = msg
        self.trace(action, actor, params, msg)

    def trace(self, action: str, actor: Any, params: dict[str, Any],
              msg: dict[str, Any] | None = None) -> None:
        if self.tracer is not None:
            self.tracer.step(action, actor, self.snapshot(), params, msg)

    def snapshot(self) -> dict[str, Any]:
        return {"queue": list(self.server.queue),
                "pc": {c: cl.pc for c, cl in self.clients.items()},
                "network": sorted((m.to_json() for m in self.network.in_flight),
                                  key=lambda d: (d["type"], d["from"], d["to"]))}

    def run(self, rounds: int, max_steps: int) -> None:
        if self.tracer is not None:
            self.tracer.init(self.snapshot())
        for _ in range(max_steps):
            ev: list[tuple[str, Any]] = []
            for c in self.clients.values():
                if c.pc == "idle" and c.rounds < rounds:
                    ev.append(("request", c))
                elif c.pc == "waiting" and c.granted() is not None:
                    ev.append(("enter", c))
                elif c.pc == "cs":
                    ev.append(("release", c))
            ev.extend(("serve", m) for m in self.network.pending_for(SERVER))
            if not ev:
                break
            kind, arg = self.rng.choice(ev)
            if kind == "request":
                arg.request()
            elif kind == "enter":
                arg.enter(arg.granted())
            elif kind == "release":
                arg.release()
            else:
                self.server.handle(arg)


def record(runs: int, seed: int, out: Path, clients: int = 3, rounds: int = 3,
           max_steps: int = 200) -> list[Path]:
    """Record ``runs`` traces into ``out`` (created); returns the trace paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(runs):
        run_seed = seed + k
        path = out / f"trace-{k:03d}.ndjson"
        names = [f"c{i}" for i in range(1, clients + 1)]
        with TraceWriter.open(path, system=SYSTEM, nodes=names, seed=run_seed) as tw:
            Service(clients, random.Random(run_seed), tw).run(rounds, max_steps)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args(argv)
    paths = record(args.runs, args.seed, args.out, max_steps=args.steps)
    print(f"wrote {len(paths)} traces to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
