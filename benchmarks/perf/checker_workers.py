"""Issue 19's multi-process figures: specula ``--workers 1`` and ``--workers N`` against TLC
``-workers 1`` and ``-workers N`` on the issue's models (``checker_table.models``), side by side
in one run.

Each model is run ``--repeat`` times by each of the four set-ups, interleaved, each run a fresh
process with start-up included; the table shows median wall times, the speed-up of N workers
over one for each tool, and whether specula's N-worker run reported exactly its one-worker
verdict, counts, depth and counterexample. The load average of the machine is printed before
and after (the machine may be shared: the ratios are what counts). TLC runs only where
SPECULA_TLA2TOOLS is set (and ``--no-tlc`` is not given).

``--cpu`` prints, under each row, the median CPU seconds (user + system, the worker processes
included) of each set-up and specula's N-worker/1-worker CPU ratio: the figure a loaded machine
disturbs least, and the price of the second process. ``--baseline DIR`` also runs an older
specula source tree (``git archive`` of a commit, through PYTHONPATH) with N workers, interleaved
with the others, for before/after figures measured in the same run.

    python benchmarks/perf/checker_workers.py [--workers 2] [--repeat 3] [--only NAME] [--cpu]
        [--baseline DIR] [--no-tlc] [--examples /work/ext/examples] [--timeout 900]
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
    ap.add_argument("--cpu", action="store_true", help="print the median CPU seconds of each set-up under each row")
    ap.add_argument("--baseline", default=None, help="an older specula source tree, run with N workers")
    ap.add_argument("--no-tlc", action="store_true", help="do not run TLC")
    a = ap.parse_args()
    from checker_tlc import run_tlc, tlc_jar

    use_tlc = tlc_jar() is not None and not a.no_tlc
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
        runs: dict[str, list] = {"s1": [], "sn": [], "bn": [], "t1": [], "tn": []}
        for _ in range(a.repeat):
            runs["s1"].append(run_specula(tla, cfg, a.timeout, workers=1))
            runs["sn"].append(run_specula(tla, cfg, a.timeout, workers=n))
            if a.baseline:
                runs["bn"].append(run_specula(tla, cfg, a.timeout, a.baseline, workers=n))
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
        if a.baseline:
            bn = [r for r in runs["bn"] if r["verdict"] != "crash"]
            cells = f"{statistics.median(r['wall'] for r in bn):.2f} s" if bn else "crash"
            print(f"|  | baseline {n}w: {cells} |", flush=True)
        if a.cpu:
            _print_cpu(runs, n)
    print(f"load average after: {_load()}", flush=True)


def _cpu(rs: list) -> float | None:
    got = [r["cpu"] if isinstance(r, dict) else r.cpu for r in rs]
    got = [c for c in got if c is not None]
    return statistics.median(got) if got else None


def _print_cpu(runs: dict[str, list], n: int) -> None:
    """One line of median CPU seconds (user + system) under a row of the table."""
    names = {"s1": "specula 1w", "sn": f"specula {n}w", "bn": f"baseline {n}w", "t1": "TLC 1w", "tn": f"TLC {n}w"}
    cpu = {k: _cpu(v) for k, v in runs.items() if v}
    cells = [f"{names[k]} {v:.2f}" for k, v in cpu.items() if v is not None]
    if cpu.get("s1") and cpu.get("sn"):
        cells.append(f"specula {n}w/1w {cpu['sn'] / cpu['s1']:.2f}")
    print("|  | cpu s (median): " + ", ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
