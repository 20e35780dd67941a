"""etcd's own trace validation: Traceetcdraft.tla over the example trace etcd-io/raft ships.

In a checkout of etcd-io/raft (never committed here), run specula's CLI in its tla/ folder as
etcd's CI runs TLC (validate.sh: JSON=<trace> tlc -config Traceetcdraft.cfg Traceetcdraft.tla
-lncheck final), and TLC too when SPECULA_TLA2TOOLS is set (with SPECULA_COMMUNITY_MODULES: a
CommunityModules jar and its dependencies for TLC's class path). MAX_TRACE limits the trace to
its first N events (the spec reads it from the environment).

    python benchmarks/perf/etcd_trace.py --raft /path/to/etcd-io/raft [--max-trace N] [--no-tlc]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd: list[str], cwd: Path, env: dict, timeout: float) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (the machine is shared: CPU time is the fairer figure), output."""
    t, cpu = time.monotonic(), _children_cpu()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        out += "\n@@timeout"
    return time.monotonic() - t, _children_cpu() - cpu, out


def summary(out: str) -> str:
    verdict = "timeout" if "@@timeout" in out else (
        "success" if "No error has been found" in out else "violation/error")
    m = re.search(r"([\d,]+) states generated, ([\d,]+) distinct states found", out)
    counts = f"{m.group(2)} distinct / {m.group(1)} generated" if m else "no counts"
    return f"{verdict}, {counts}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--raft", type=Path, required=True, help="a checkout of etcd-io/raft")
    ap.add_argument("--max-trace", type=int, default=None)
    ap.add_argument("--timeout", type=float, default=7200)
    ap.add_argument("--no-tlc", action="store_true")
    a = ap.parse_args()
    tla = a.raft / "tla"
    env = dict(os.environ)
    if a.max_trace:
        env["MAX_TRACE"] = str(a.max_trace)
    with tempfile.TemporaryDirectory() as wd:
        work = Path(wd)
        for f in tla.iterdir():
            if f.suffix in (".tla", ".cfg", ".ndjson"):
                shutil.copy(f, work / f.name)
        specula = shutil.which("specula") or f"{sys.executable} -m specula"
        secs, cpu, out = run([*specula.split(), "check", "Traceetcdraft.tla", "--config", "Traceetcdraft.cfg"],
                        work, env, a.timeout)
        print(f"specula: {summary(out)} in {secs:.0f} s ({cpu:.0f} s CPU)", flush=True)
        jar = os.environ.get("SPECULA_TLA2TOOLS")
        if jar and not a.no_tlc:
            cp = ":".join([jar, *[p for p in os.environ.get("SPECULA_COMMUNITY_MODULES", "").split(":") if p]])
            secs, cpu, out = run(["java", "-XX:+UseParallelGC", "-cp", cp, "tlc2.TLC", "-workers", "1",
                             "-config", "Traceetcdraft.cfg", "Traceetcdraft.tla", "-lncheck", "final",
                             "-metadir", str(work / "states")], work, env, a.timeout)
            print(f"TLC:     {summary(out)} in {secs:.0f} s ({cpu:.0f} s CPU)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
