"""Issue 19's multi-process figures: specula ``--workers 1`` and ``--workers N`` against TLC
``-workers 1`` and ``-workers N`` on the issue's models (``checker_table.models``), side by side
in one run.

Each model is run ``--repeat`` times by each of the four set-ups, interleaved, each run a fresh
process with start-up included; the table shows median wall times, the speed-up of N workers
over one for each tool, and whether specula's N-worker run reported exactly its one-worker
verdict, counts, depth and counterexample. The load average of the machine is printed before
and after (the machine may be shared: the ratios are what counts). TLC runs only where
SPECULA_TLA2TOOLS is set.

    python benchmarks/perf/checker_workers.py [--workers 2] [--repeat 3] [--only NAME]
        [--examples /work/ext/examples] [--timeout 900]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from checker_table import models, run_specula  # noqa: E402


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default=None)
    ap.add_argument("--examples", type=Path, default=Path(os.environ.get("SPECULA_EXAMPLES", "/work/ext/examples")))
    ap.add_argument("--timeout", type=float, default=900)
    a = ap.parse_args()
    from checker_tlc import run_tlc, tlc_jar

    use_tlc = tlc_jar() is not None
    n = a.workers
    print(f"load average before: {_load()}; {os.cpu_count()} cores", flush=True)
    print(f"| model | distinct | specula 1w s | specula {n}w s | 1w/{n}w | TLC 1w s | TLC {n}w s | TLC 1w/{n}w "
          f"| {n}w = 1w |", flush=True)
    print("|---|---|---|---|---|---|---|---|---|", flush=True)
    for name, tla, cfg, _consts in models(a.examples):
        if a.only and a.only not in name:
            continue
        if not tla.is_file():
            print(f"| {name} | missing ({tla}) |", flush=True)
            continue
        runs: dict[str, list] = {"s1": [], "sn": [], "t1": [], "tn": []}
        for _ in range(a.repeat):
            runs["s1"].append(run_specula(tla, cfg, a.timeout, workers=1))
            runs["sn"].append(run_specula(tla, cfg, a.timeout, workers=n))
            if use_tlc:
                runs["t1"].append(run_tlc(tla, cfg, timeout=a.timeout + 120, workers=1))
                runs["tn"].append(run_tlc(tla, cfg, timeout=a.timeout + 120, workers=n))
        s1, sn = runs["s1"], runs["sn"]
        if any(r["verdict"] == "crash" for r in s1 + sn):
            bad = next(r for r in s1 + sn if r["verdict"] == "crash")
            print(f"| {name} | crash: {bad['message'][:200]} |", flush=True)
            continue
        fields = ("verdict", "distinct", "generated", "depth", "trace")
        same = all(tuple(r[f] for f in fields) == tuple(s1[0][f] for f in fields) for r in s1 + sn)
        note = next((line for r in sn for line in r["note"].splitlines() if "checked in one process" in line), "")
        m1 = statistics.median(r["wall"] for r in s1)
        mn = statistics.median(r["wall"] for r in sn)
        row = f"| {name} | {s1[0]['distinct']:,} | {m1:.2f} | {mn:.2f} | {m1 / mn:.2f} |"
        if runs["t1"]:
            t1 = statistics.median(t.seconds for t in runs["t1"])
            tn = statistics.median(t.seconds for t in runs["tn"])
            row += f" {t1:.2f} | {tn:.2f} | {t1 / tn:.2f} |"
        else:
            row += " - | - | - |"
        row += " yes |" if same else " NO |"
        print(row + (f" ({note})" if note else ""), flush=True)
    print(f"load average after: {_load()}", flush=True)


if __name__ == "__main__":
    main()
