"""Engine speed: successor generation per second, in-process, with and without code generation.

For each spec a plain breadth-first search over ``Model.next_states`` (a Python set of states, no
invariants, no checker bookkeeping) runs for at most ``--seconds``; the figures are generated
successors per second and distinct states per second (CPU time of this process, so other
load on the machine disturbs the figures less). ``closures`` compiles with the closure
compiler only, ``codegen`` with generated Python source for simple expression subtrees (default).
Also: ``check_step`` windows per second on the spin-lock and Raft references (windows taken from
the spec's own successors, so every window passes).

    python benchmarks/perf/engine_speed.py [--seconds 10] [--only NAME]

The checker's own wall-time comparison with TLC is benchmarks/perf/checker_speed.py.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EX = Path(os.environ.get("SPECULA_EXAMPLES", "/work/ext/examples")) / "specifications"

SPECS = [
    ("spinlock (ref)", ROOT / "benchmarks/systems/spinlock/ref/spin.tla", None, {}),
    ("TwoPhase (own)", ROOT / "tests/tla/specs/TwoPhase.tla", None, {}),
    ("zab_election N=3 (ref)", ROOT / "benchmarks/systems/zab_election/ref/zookeeper.tla", None, {"N": 3}),
    ("raft (ref)", ROOT / "benchmarks/systems/raft/ref/etcdraft.tla", None, {}),
    ("ReadersWriters (Examples)", EX / "ReadersWriters/MC.tla", EX / "ReadersWriters/MC.cfg", {}),
    ("SingleLaneBridge (Examples)", EX / "SingleLaneBridge/MC.tla", EX / "SingleLaneBridge/MC.cfg", {}),
    ("Chameneos (Examples)", EX / "Chameneos/Chameneos.tla", EX / "Chameneos/Chameneos.cfg", {}),
]


def build(tla: Path, cfg: Path | None, consts: dict, codegen: bool):
    from specula.tla import Model, load
    from specula.tla.cfg import load_cfg

    c = load_cfg(cfg or tla.with_suffix(".cfg"))
    c.constants.update(consts)
    return Model(load(tla), c, codegen=codegen)


def bfs(model, seconds: float) -> tuple[int, int, float, bool]:
    t0 = time.process_time()
    seen = set()
    frontier = []
    for s in model.init_states():
        if s not in seen:
            seen.add(s)
            frontier.append(s)
    generated = 0
    done = True
    while frontier:
        nxt = []
        for s in frontier:
            for _, t in model.next_states(s):
                generated += 1
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
            if time.process_time() - t0 > seconds:
                return len(seen), generated, time.process_time() - t0, False
        frontier = nxt
    return len(seen), generated, time.process_time() - t0, done


def windows(model, n: int = 2000) -> float:
    states = list(model.init_states())
    pairs = []
    i = 0
    while len(pairs) < n and i < len(states):
        s = states[i]
        i += 1
        for a, t in model.next_states(s):
            pairs.append((model.actions[a].name, s, t))
            if t not in states and len(states) < 5000:
                states.append(t)
    pairs = (pairs * (n // max(1, len(pairs)) + 1))[:n]
    vs = model.variables
    for name, s, t in pairs[:50]:  # compile the actions' step checkers first
        model.check_step(name, dict(zip(vs, s)), dict(zip(vs, t)))
    t0 = time.process_time()
    for name, s, t in pairs:
        v = model.check_step(name, dict(zip(vs, s)), dict(zip(vs, t)))
        assert v.ok, v
    return len(pairs) / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    print(f"{'spec':30} {'mode':9} {'distinct':>9} {'generated':>10} {'secs':>6} {'gen/s':>8} {'complete':>8}")
    for name, tla, cfg, consts in SPECS:
        if args.only and args.only not in name:
            continue
        if not tla.is_file():
            print(f"{name:30} (missing {tla})")
            continue
        for codegen in (False, True):
            m = build(tla, cfg, consts, codegen)
            d, g, secs, done = bfs(m, args.seconds)
            print(f"{name:30} {'codegen' if codegen else 'closures':9} {d:9} {g:10} {secs:6.1f} {g / secs:8.0f} {str(done):>8}",
                  flush=True)
    for name, tla in (("spinlock", ROOT / "benchmarks/systems/spinlock/ref/spin.tla"),
                      ("raft", ROOT / "benchmarks/systems/raft/ref/etcdraft.tla")):
        if args.only and args.only not in name:
            continue
        m = build(tla, None, {}, True)
        print(f"check_step {name}: {windows(m):.0f} windows/s (every window a fresh call)", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
