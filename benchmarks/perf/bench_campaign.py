"""Wall time of one scripted campaign (tests/bench/campaign.py: 2 bundled tasks x N runs, the agent
against the scripted LLM server, phases with small count-bounded settings) on the local pool and
on a private local Ray cluster, side by side in one process. Figures for docs/bench.md.

    python benchmarks/perf/bench_campaign.py [--runs 2] [--cpus 2]

Each configuration writes its own results store; the leaderboards must be equal (checked).
A warm-up campaign fills the caches first (code index, parsed specs); the Ray cluster's start is
timed apart; the Ray campaign includes starting its workers (with the runtime environment).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "bench"))

import campaign  # noqa: E402
from specula.bench.leaderboard import build_leaderboard  # noqa: E402
from specula.bench.results import ResultStore  # noqa: E402
from specula.bench.runner import run_bench  # noqa: E402


def one(name: str, url: str, out: Path, runs: int, executor=None, jobs: int = 1) -> tuple[float, list]:
    t0 = time.monotonic()
    run_bench(campaign.plan(url, out / "runs", runs=runs, jobs=jobs), ResultStore(out / "results.jsonl"),
              executor=executor)
    secs = time.monotonic() - t0
    rows = build_leaderboard(ResultStore(out / "results.jsonl").records(), list(campaign.TASKS), 5).rows
    print(f"{name:<24} {secs:7.1f} s   overall {rows[0].overall:.4f}  runs {rows[0].runs}", flush=True)
    return secs, campaign.board(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--cpus", type=int, default=2)
    a = ap.parse_args()
    os.environ["OPENAI_API_KEY"] = campaign.FAKE_KEY
    base = Path(tempfile.mkdtemp(prefix="specula-campaign-"))
    print(f"campaign: {len(campaign.TASKS)} tasks x {a.runs} runs; machine: {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    from specula.bench.executors import LocalExecutor, RayExecutor

    with campaign.server() as srv:
        url = srv.url + "/v1"
        one("warm-up (not compared)", url, base / "w", a.runs, LocalExecutor(jobs=1))  # caches: code index, specs
        t1, b1 = one("local --jobs 1", url, base / "l1", a.runs, LocalExecutor(jobs=1))
        t2, b2 = one(f"local --jobs {a.cpus}", url, base / "l2", a.runs, LocalExecutor(jobs=a.cpus))
        ray_ex = RayExecutor(address=None, init_options={"num_cpus": a.cpus, "include_dashboard": False})
        t0 = time.monotonic()
        ray = ray_ex._ray()  # start the cluster: timed apart from the campaign
        print(f"{'ray cluster start':<24} {time.monotonic() - t0:7.1f} s", flush=True)
        t3, b3 = one(f"ray (local, {a.cpus} CPUs)", url, base / "r", a.runs, ray_ex)
        ray.shutdown()
    assert b1 == b2 == b3, (b1, b2, b3)
    print(f"ratios to local --jobs 1: local --jobs {a.cpus} {t2 / t1:.2f}, ray {t3 / t1:.2f} (cluster start excluded)")


if __name__ == "__main__":
    main()
