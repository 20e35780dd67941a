"""Trace harness: python harness.py --runs N --seed S --out DIR [--items K].

Run i (seed S+i): a producer pushes K values (each 1..3, seeded) into a capacity-4 ring buffer
whose counters are 4 bits wide (they wrap at 16, so wrap-around happens within a run), and a
consumer pops them all, under the seeded cooperative scheduler; each run draws how much more
often the producer is scheduled than the consumer, so some runs keep the buffer full and
others empty. A full push or an empty pop is retried later. Same seed, same trace.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools" / "emitters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from specula_coop import Scheduler  # noqa: E402
from specula_trace import TraceWriter  # noqa: E402

from ringbuffer import RingBuffer  # noqa: E402

CAPACITY = 4
COUNTER_BITS = 4


def run_one(path: Path, seed: int, items: int) -> None:
    sched = Scheduler(seed)
    values = random.Random(seed ^ 0x5EED).choices([1, 2, 3], k=items)
    with TraceWriter.open(path, system="ringbuffer", nodes=["producer", "consumer"], seed=seed) as tw:
        rb: RingBuffer[int]

        def state() -> dict:
            return {"head": rb.head.load(), "tail": rb.tail.load(), "slots": list(rb.slots)}

        def observe(action: str, actor: str, value: object) -> None:
            tw.step(action, actor=actor, state=state(), params={"v": value})

        rb = RingBuffer(CAPACITY, counter_bits=COUNTER_BITS, fill=0, observer=observe)
        tw.init(state())
        producer, consumer = rb.split()
        received: list[int] = []

        def produce():
            for v in values:
                while not (yield from producer.push(v)):
                    yield

        def consume():
            while len(received) < items:
                v = yield from consumer.pop()
                if v is None:
                    yield
                else:
                    received.append(v)

        bias = sched.rng.choice([0.3, 1.0, 3.0])
        sched.spawn("producer", produce(), weight=bias)
        sched.spawn("consumer", consume())
        sched.run()
        if received != values:
            raise AssertionError(f"FIFO violated: sent {values}, got {received}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--items", type=int, default=20)
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    for i in range(a.runs):
        run_one(a.out / f"trace-{i:03d}.ndjson", a.seed + i, a.items)
    return 0


if __name__ == "__main__":
    sys.exit(main())
