"""Throughput of phase 3: windows validated per second, in-process, one core.

Windows are cut from seeded random walks of the spec itself (so every window must pass), turned
into JSON the way traces carry them, and validated through the full path (binding + check_step).
Two figures per spec: ``distinct`` (every window is a new check_step call: the verdict cache
cannot help) and ``trace`` (windows as random walks produce them, repeats included).

    python benchmarks/perf/conformance_throughput.py [--windows 2000] [--seed 1]

Targets (issue 9): >= 2,000 windows/s for a spin-lock sized spec, >= 200/s for a Raft-sized one.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "tests" / "traces" / "specs"


def walk_windows(model, n: int, seed: int, depth: int = 30):
    """``n`` windows from random walks (restarting at depth or deadlock)."""
    from specula.tla.values import to_json
    from specula.traces.window import Window

    rng = random.Random(seed)
    inits = list(model.init_states())
    names = {a.index: a.name for a in model.actions}
    out = []
    trace = 0
    while len(out) < n:
        trace += 1
        s = rng.choice(inits)
        for k in range(depth):
            succ = list(model.next_states(s))
            if not succ:
                break
            ai, t = rng.choice(succ)
            pre = {v: to_json(x) for v, x in zip(model.variables, s)}
            post = {v: to_json(x) for v, x in zip(model.variables, t)}
            out.append(Window(len(out), f"walk{trace}", k, names[ai], pre, post))
            s = t
            if len(out) >= n:
                break
    return out


def measure(module: str, n: int, seed: int, cfg_text: str | None = None) -> dict:
    import tempfile

    from specula.phases.conformance import validate_windows
    from specula.phases.runtime import build_model

    cfg_path = SPECS / f"{module}.cfg"
    if cfg_text is not None:
        tmp = Path(tempfile.mkdtemp()) / f"{module}.cfg"
        tmp.write_text(cfg_text)
        cfg_path = tmp
    model, cfg = build_model(SPECS / f"{module}.tla", cfg_path)
    windows = walk_windows(model, n, seed)
    distinct = {json.dumps([w.action, w.pre, w.post], sort_keys=True): w for w in windows}
    uniq = list(distinct.values())
    validate_windows(model, uniq[:5], cfg=cfg)  # warm-up: compile each action once
    t0 = time.perf_counter()
    r1 = validate_windows(model, uniq, cfg=cfg)
    t1 = time.perf_counter()
    r2 = validate_windows(model, windows, cfg=cfg)
    t2 = time.perf_counter()
    return {
        "spec": module,
        "distinct_windows": len(uniq),
        "distinct_passed": r1.passed,
        "distinct_per_s": round(len(uniq) / (t1 - t0), 1),
        "trace_windows": len(windows),
        "trace_passed": r2.passed,
        "trace_per_s": round(len(windows) / (t2 - t1), 1),
        "check_step_calls": r2.checked,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--windows", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    spin_cfg = "CONSTANTS\n    Threads = {1, 2, 3, 4, 5, 6, 7, 8}\nINIT Init\nNEXT Next\n"
    rows = [measure("spin", args.windows, args.seed, spin_cfg), measure("raft", max(200, args.windows // 4), args.seed)]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(
                f"{r['spec']:>5}: distinct {r['distinct_passed']}/{r['distinct_windows']} at {r['distinct_per_s']}/s; "
                f"trace {r['trace_passed']}/{r['trace_windows']} at {r['trace_per_s']}/s "
                f"({r['check_step_calls']} check_step calls)"
            )
    ok = rows[0]["distinct_per_s"] >= 2000 and rows[1]["distinct_per_s"] >= 200
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
