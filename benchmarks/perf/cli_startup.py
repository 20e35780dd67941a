"""Measure `specula --help` start-up time (issue: must be under 0.3 s).

Usage: python benchmarks/perf/cli_startup.py [--runs N]
Prints the median and best wall time over N runs of a fresh interpreter.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    exe = shutil.which("specula")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "specula", "--help"]
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t0)
    print(f"specula --help: median {statistics.median(times)*1000:.0f} ms, best {min(times)*1000:.0f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()
