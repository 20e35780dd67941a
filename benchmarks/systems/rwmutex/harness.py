"""Trace harness: python harness.py --runs N --seed S --out DIR [--threads T] [--ops K].

Run i (seed S+i): T threads t1..tT share one RwMutex under the seeded cooperative scheduler;
each performs K operations (read, write, or upgradeable read possibly upgraded to a write;
blocking or try-variants, a failed try retried later), holding the lock for a few scheduling
steps. Same seed, same trace, byte for byte.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools" / "emitters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from specula_coop import Scheduler  # noqa: E402
from specula_trace import TraceWriter  # noqa: E402

import rwmutex as rw  # noqa: E402

PC_AFTER = {
    "AcquireReadLock": "read",
    "AcquireWriteLock": "write",
    "AcquireUpReadLock": "upread",
    "StartUpgrade": "upgrading",
    "Upgrade": "write",
    "ReleaseLock": "idle",
}


def observed(m: rw.RwMutex, pc: dict[str, str]) -> dict:
    return {
        "writer": m.has_writer(),
        "upreader": m.has_upreader(),
        "upgrading": m.being_upgraded(),
        "readers": m.readers(),
        "pc": dict(pc),
    }


def worker(sched: Scheduler, m: rw.RwMutex, ops: int):
    rng = sched.rng
    done = 0
    while done < ops:
        kind = rng.random()
        use_try = rng.random() < 0.3
        if kind < 0.35:
            guard = rw.try_read(m) if use_try else (yield from m.read())
        elif kind < 0.55:
            guard = rw.try_write(m) if use_try else (yield from m.write())
        else:
            guard = rw.try_upread(m) if use_try else (yield from m.upread())
        if guard is None:  # a failed try: do something else, come back later
            yield
            continue
        for _ in range(rng.randint(0, 3)):
            yield
        if isinstance(guard, rw.UpgradeableReadGuard) and rng.random() < 0.5:
            guard = yield from guard.upgrade()
            for _ in range(rng.randint(0, 2)):
                yield
        guard.release()
        done += 1
        yield


def run_one(path: Path, seed: int, threads: int, ops: int) -> None:
    names = [f"t{i}" for i in range(1, threads + 1)]
    sched = Scheduler(seed)
    pc = {n: "idle" for n in names}
    with TraceWriter.open(path, system="rwmutex", nodes=names, seed=seed) as tw:
        m: rw.RwMutex

        def observe(action: str, who: str) -> None:
            pc[who] = PC_AFTER[action]
            tw.step(action, actor=who, state=observed(m, pc), params={"t": who})

        m = rw.RwMutex(sched, observe)
        tw.init(observed(m, pc))
        for n in names:
            sched.spawn(n, worker(sched, m, ops))
        sched.run()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--threads", type=int, default=3)
    ap.add_argument("--ops", type=int, default=6)
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    for i in range(a.runs):
        run_one(a.out / f"trace-{i:03d}.ndjson", a.seed + i, a.threads, a.ops)
    return 0


if __name__ == "__main__":
    sys.exit(main())
