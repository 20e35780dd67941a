"""Checker speed: states/s of specula on standard specs, wall time side by side with TLC (1 worker).

Each spec is run as a fresh process (``python -m specula check``; TLC with JVM start), so the
wall times compare what a user waits for. specula's states/s counts generated states over its
own search time; peak memory is the child's max RSS.

    python benchmarks/perf/checker_speed.py [--only NAME] [--no-tlc] [--timeout 900]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
ROOT = HERE.parents[1]
EX = Path(os.environ.get("SPECULA_EXAMPLES", "/work/ext/examples")) / "specifications"

# (name, tla, cfg): small models (< 10k states) and larger ones (up to ~1M)
SPECS = [
    ("TwoPhase (own, 288)", ROOT / "tests/tla/specs/TwoPhase.tla", None),
    ("NestedExcept (own, 81)", ROOT / "tests/tla/specs/NestedExcept.tla", None),
    ("ewd840 EWD840 (302)", EX / "ewd840/EWD840.tla", EX / "ewd840/EWD840.cfg"),
    ("Chameneos (34k)", EX / "Chameneos/Chameneos.tla", None),
    ("GameOfLife (65k)", EX / "GameOfLife/GameOfLife.tla", None),
    ("Disruptor_MPMC (113k)", EX / "Disruptor/Disruptor_MPMC.tla", None),
    ("MultiPaxos_MC_small (344k)", EX / "MultiPaxos-SMR/MultiPaxos_MC.tla", EX / "MultiPaxos-SMR/MultiPaxos_MC_small.cfg"),
    ("MCBakery (655k)", EX / "Bakery-Boulangerie/MCBakery.tla", None),
    ("MCLamportMutex (724k)", EX / "lamport_mutex/MCLamportMutex.tla", None),
    ("MCNanoMedium (531k)", EX / "NanoBlockchain/MCNano.tla", EX / "NanoBlockchain/MCNanoMedium.cfg"),
    ("TLCSailfish1 (110k)", EX / "dag-consensus/TLCSailfish1.tla", None),
    # liveness: 100k states, 5 WF constraints, []<>P for 5 processes (graph + fair-SCC search)
    ("LiveBig liveness (100k)", HERE / "specs/LiveBig.tla", None),
]


def run_specula(tla: Path, cfg: Path, timeout: float) -> dict:
    # the child reports its own peak RSS (RUSAGE_CHILDREN would mix in TLC's JVM)
    boot = (
        "import resource, sys\n"
        "from specula.cli import main\n"
        "rc = main(sys.argv[1:])\n"
        "sys.stderr.write('@@RSS %d\\n' % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
        "sys.exit(rc)\n"
    )
    cmd = [sys.executable, "-c", boot, "check", str(tla), "--config", str(cfg), "--json",
           "--max-seconds", str(timeout)]
    t = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tla.parent, timeout=timeout + 120)
    wall = time.monotonic() - t
    rss = next((int(ln.split()[1]) for ln in proc.stderr.splitlines() if ln.startswith("@@RSS ")), 0)
    before = 0
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"verdict": "crash", "wall": wall, "message": (proc.stderr or proc.stdout)[-300:]}
    return {
        "verdict": data["verdict"], "distinct": data["distinct"], "generated": data["generated"],
        "elapsed": data["elapsed"], "wall": wall, "rss_mb": max(rss, before) / 1024,
        "rate": data["generated"] / data["elapsed"] if data["elapsed"] else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--no-tlc", action="store_true")
    ap.add_argument("--timeout", type=float, default=900)
    a = ap.parse_args()
    from checker_tlc import run_tlc, tlc_jar

    use_tlc = not a.no_tlc and tlc_jar() is not None
    print(f"{'spec':30} {'verdict':9} {'distinct':>9} {'generated':>10} {'states/s':>9} "
          f"{'specula s':>9} {'RSS MB':>7} {'TLC s':>7} {'TLC distinct':>12} ratio")
    for name, tla, cfg in SPECS:
        if a.only and a.only not in name:
            continue
        cfg = cfg or tla.with_suffix(".cfg")
        if not tla.is_file():
            print(f"{name:30} missing")
            continue
        s = run_specula(tla, cfg, a.timeout)
        tlc_s, tlc_d = "", ""
        ratio = ""
        if use_tlc:
            t = run_tlc(tla, cfg, timeout=a.timeout + 120)
            tlc_s, tlc_d = f"{t.seconds:7.1f}", str(t.distinct)
            ratio = f"{s['wall'] / t.seconds:5.2f}x" if t.seconds else ""
        if s["verdict"] == "crash":
            print(f"{name:30} crash {s['message'][:200]}")
            continue
        print(f"{name:30} {s['verdict']:9} {s['distinct']:>9} {s['generated']:>10} {s['rate']:>9.0f} "
              f"{s['wall']:>9.1f} {s['rss_mb']:>7.0f} {tlc_s:>7} {tlc_d:>12} {ratio}", flush=True)


if __name__ == "__main__":
    main()
