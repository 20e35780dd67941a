"""SysMoBench's etcd trace generator built, run and scored here (docs/traces.md, "etcd-io/raft
events"; numbers in docs/tasks.md).

Builds the generator from a SysMoBench checkout against an etcd-io/raft checkout (never committed
here) in a fresh build folder, runs it RUNS times as SysMoBench runs it (3 nodes, --duration s,
10 proposals/s, no faults, filter coarse), converts each output, and validates the etcd task's
reference spec (benchmarks/systems/raft/ref/etcdraft.tla with etcd-io/mapping.yaml) and its
mutants on the windows of the five target actions.

    python benchmarks/perf/etcd_generator.py --sysmobench PATH --raft PATH [--go GO] [--runs 2] [--duration 10]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from specula.bench.etcdgen import locate, record_traces

RAFT_TASK = Path(__file__).resolve().parents[1] / "systems" / "raft"
TARGETS = "ElectionTimeout,HandleVoteRequest,ClientProposal,HandleAppendEntries,HandleHeartbeat"


def validate(spec: Path, traces: Path) -> tuple[float, dict]:
    t = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "specula", "validate", str(spec), "--config",
                        str(RAFT_TASK / "etcd-io" / "etcdraft.cfg"), "--mapping", str(RAFT_TASK / "etcd-io" / "mapping.yaml"),
                        "--traces", str(traces), "--actions", TARGETS, "--json"], capture_output=True, text=True)
    return time.monotonic() - t, json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sysmobench", required=True, type=Path)
    ap.add_argument("--raft", required=True, type=Path)
    ap.add_argument("--go")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--duration", type=int, default=10)
    a = ap.parse_args()
    setup = locate(a.sysmobench / "tla_eval" / "core" / "trace_generation" / "etcd", go=a.go, raft=a.raft)
    if not setup.ready:
        sys.exit("not ready: " + "; ".join(setup.problems))
    with tempfile.TemporaryDirectory(prefix="etcdgen-") as tmp:
        out = Path(tmp) / "traces"
        rec = record_traces(setup, out, runs=a.runs, duration=a.duration, work=Path(tmp) / "build")
        print(f"build (cold Go cache): {rec.build_seconds:.1f} s, "
              f"{'local Go sources' if rec.offline else 'module proxy'}")
        for r in rec.runs:
            print(f"run {Path(r.raw).name}: {r.events} raft events -> {r.steps} steps, {r.seconds:.1f} s, "
                  f"{r.error or json.dumps(r.actions, sort_keys=True)}")
        specs = [RAFT_TASK / "ref" / "etcdraft.tla"] + sorted((RAFT_TASK / "mutants").glob("*.tla"))
        for spec in specs:
            secs, doc = validate(spec, out)
            acts = ", ".join(f"{x['action']} {x['passed']}/{x['total']}" for x in doc["actions"])
            print(f"{spec.name}: score {doc['score']:.3f}, {doc['windows_passed']}/{doc['windows_total']} windows "
                  f"({acts}); {secs:.1f} s")


if __name__ == "__main__":
    main()
