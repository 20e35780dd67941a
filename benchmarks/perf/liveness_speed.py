"""Liveness speed next to TLC on a ~100k-state graph.

The model (written here, our own): N independent wheels ``c[i] \\in 0..K-1`` turned by
``Turn(i)``, each weakly fair; properties ``\\A i : []<>(c[i] = 0)`` (fair cycles, one per
process) and ``(c[1] = 1) ~> (c[1] = 2)``. For specula and TLC (1 worker) it measures the
whole run with the properties and the same run without them (safety search only); the
difference is the liveness part.

    python benchmarks/perf/liveness_speed.py [--n 3] [--k 48] [--tlc /work/ext/tla2tools.jar]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SPEC = """---- MODULE Wheels ----
EXTENDS Naturals
CONSTANTS N, K
VARIABLE c
Init == c = [i \\in 1..N |-> 0]
Turn(i) == c' = [c EXCEPT ![i] = (@ + 1) % K]
Next == \\E i \\in 1..N : Turn(i)
Spec == Init /\\ [][Next]_c /\\ \\A i \\in 1..N : WF_c(Turn(i))
Cycles == \\A i \\in 1..N : []<>(c[i] = 0)
Leads == (c[1] = 1) ~> (c[1] = 2)
====
"""


def cfg(n: int, k: int, props: bool) -> str:
    text = f"CONSTANTS N = {n}\n    K = {k}\nSPECIFICATION Spec\n"
    return text + ("PROPERTIES Cycles Leads\n" if props else "")


def run_specula(d: Path, name: str) -> tuple[float, str]:
    code = (
        "import sys, time\n"
        "from specula.tla.checker import Limits, check, build_model\n"
        "t = time.monotonic()\n"
        f"m, c = build_model({str(d / 'Wheels.tla')!r}, {str(d / name)!r})\n"
        "r = check(m, Limits(max_seconds=1800), cfg=c)\n"
        "print(r.verdict, r.distinct, [(p.name, p.status) for p in r.properties], round(time.monotonic() - t, 2))\n"
    )
    t = time.monotonic()
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return time.monotonic() - t, (p.stdout.strip() or p.stderr[-400:])


def run_tlc(jar: str, d: Path, name: str) -> tuple[float, str]:
    t = time.monotonic()
    p = subprocess.run(
        ["java", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC", "-workers", "1", "-metadir", str(d / "meta"),
         "-config", name, "Wheels.tla"], cwd=d, capture_output=True, text=True,
    )
    lines = [ln for ln in p.stdout.splitlines() if "distinct states found" in ln or "violated" in ln or "No error" in ln]
    return time.monotonic() - t, " | ".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3)
    ap.add_argument("--k", type=int, default=48)
    ap.add_argument("--tlc", default=os.environ.get("SPECULA_TLA2TOOLS", "/work/ext/tla2tools.jar"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "Wheels.tla").write_text(SPEC)
        (d / "Live.cfg").write_text(cfg(a.n, a.k, True))
        (d / "Safe.cfg").write_text(cfg(a.n, a.k, False))
        print(f"Wheels N={a.n} K={a.k}: {a.k ** a.n} states, {a.n * a.k ** a.n} edges")
        rows = {}
        for tool in ("specula", "tlc"):
            if tool == "tlc" and not Path(a.tlc).is_file():
                continue
            for name in ("Safe.cfg", "Live.cfg"):
                secs, out = run_specula(d, name) if tool == "specula" else run_tlc(a.tlc, d, name)
                rows[(tool, name)] = secs
                print(f"{tool:8} {name:9} {secs:7.1f}s  {out[:160]}", flush=True)
        if ("tlc", "Live.cfg") in rows:
            sl = rows[("specula", "Live.cfg")] - rows[("specula", "Safe.cfg")]
            tl = rows[("tlc", "Live.cfg")] - rows[("tlc", "Safe.cfg")]
            print(f"liveness part: specula {sl:.1f}s, TLC {tl:.1f}s; whole run with liveness: specula "
                  f"{rows[('specula', 'Live.cfg')]:.1f}s vs TLC {rows[('tlc', 'Live.cfg')]:.1f}s "
                  f"(ratio {rows[('specula', 'Live.cfg')] / rows[('tlc', 'Live.cfg')]:.1f}x)")


if __name__ == "__main__":
    main()
