"""How many times one scoring compiles the spec, and what the scoring costs.

Runs `eval_spec` on bundled tasks' reference specs with short search limits and counts
``Model`` constructions (each is a full compilation of the spec). Run it with two checkouts'
interpreters side by side to compare (e.g. before/after a change):

    python benchmarks/perf/phase_compilations.py [--task raft --task spinlock]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--task", action="append", default=None)
    ap.add_argument("--seconds", type=float, default=5.0, help="limit of each search")
    args = ap.parse_args()
    from specula.bench.scoring import eval_spec, task_data
    from specula.tasks import load_task
    from specula.phases import RuntimeSettings
    from specula.tla import model as model_mod

    count = {"n": 0, "seconds": 0.0}
    init = model_mod.Model.__init__

    def counting_init(self, *a, **kw):  # a probe for this measurement only
        t = time.perf_counter()
        init(self, *a, **kw)
        count["n"] += 1
        count["seconds"] += time.perf_counter() - t

    model_mod.Model.__init__ = counting_init
    for name in args.task or ["spinlock", "raft"]:
        task = load_task(name, None)
        spec = next(p for p in (ROOT / "benchmarks/systems").glob(f"*/ref/{task.spec_module}.tla"))
        count.update(n=0, seconds=0.0)
        t0 = time.perf_counter()
        card = eval_spec(spec, task, None, data=task_data(task, None, ()),
                         runtime=RuntimeSettings(check_seconds=args.seconds, runs=2, run_seconds=args.seconds),
                         invariant_seconds=args.seconds)
        wall = time.perf_counter() - t0
        print(f"{name:10s} compilations {count['n']:2d} ({count['seconds']:.2f} s)  scoring {wall:.1f} s  "
              f"overall {card.overall:.3f}")


if __name__ == "__main__":
    main()
