"""Liveness speed next to TLC on a ~100k-state graph.

The model (written here, our own): N independent wheels ``c[i] \\in 0..K-1`` turned by
``Turn(i)``, each weakly fair; properties ``\\A i : []<>(c[i] = 0)`` (fair cycles, one per
process) and ``(c[1] = 1) ~> (c[1] = 2)``. For specula and TLC (1 worker) it measures the
whole run with the properties and the same run without them (safety search only); the
difference is the liveness part.

    python benchmarks/perf/liveness_speed.py [--n 3] [--k 48] [--tlc /work/ext/tla2tools.jar]
    python benchmarks/perf/liveness_speed.py --spec /work/ext/examples/specifications/ewd426/TokenRing.tla
    python benchmarks/perf/liveness_speed.py --spec SPEC.tla --cfg X.cfg --baseline /tmp/main-tree

``--baseline DIR`` runs an older source tree too (before/after in one run); CPU seconds are
printed for specula, the figure to compare on a loaded machine.
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


def run_specula(d: Path, name: str, spec: Path | None = None, pythonpath: str | None = None) -> tuple[float, str]:
    """Wall time of the whole run; the output ends with the process's CPU seconds (``cpu=``),
    the figure to compare on a loaded machine."""
    spec = spec or d / "Wheels.tla"
    code = (
        "import sys, time\n"
        "from specula.tla.checker import Limits, check, build_model\n"
        "t = time.monotonic()\n"
        f"m, c = build_model({str(spec)!r}, {str(d / name)!r}, search_path=('/work/ext/cmtla',))\n"
        "r = check(m, Limits(max_seconds=1800), cfg=c)\n"
        "print(r.verdict, r.distinct, [(p.name, p.status) for p in r.properties], round(time.monotonic() - t, 2),\n"
        "      f'cpu={time.process_time():.2f}')\n"
    )
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    t = time.monotonic()
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    return time.monotonic() - t, (p.stdout.strip() or p.stderr[-400:])


def _cpu(out: str) -> float | None:
    import re

    m = re.search(r"cpu=([0-9.]+)", out)
    return float(m.group(1)) if m else None


def run_tlc(jar: str, d: Path, name: str, spec: Path | None = None) -> tuple[float, str]:
    spec = spec or d / "Wheels.tla"
    t = time.monotonic()
    p = subprocess.run(
        ["java", "-XX:+UseParallelGC", "-DTLA-Library=/work/ext/cmtla", "-cp", jar, "tlc2.TLC", "-workers", "1",
         "-metadir", str(d / "meta"), "-config", str(d / name), spec.name], cwd=spec.parent, capture_output=True, text=True,
    )
    lines = [ln for ln in p.stdout.splitlines() if "distinct states found" in ln or "violated" in ln or "No error" in ln]
    return time.monotonic() - t, " | ".join(lines)


def _drop_properties(text: str) -> str:
    """The cfg without its PROPERTY/PROPERTIES entries."""
    import re

    out, skipping = [], False
    for line in text.splitlines():
        words = re.sub(r"\\\*.*", "", line).split()
        if words and words[0] in ("PROPERTY", "PROPERTIES"):
            skipping = True
            continue
        if skipping and words and (words[0].isupper() and len(words[0]) > 1):
            skipping = False
        if skipping:
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3)
    ap.add_argument("--k", type=int, default=48)
    ap.add_argument("--tlc", default=os.environ.get("SPECULA_TLA2TOOLS", "/work/ext/tla2tools.jar"))
    ap.add_argument("--spec", type=Path, default=None, help="another model: SPEC.tla with --cfg (its PROPERTY lines are dropped for the safety-only run)")
    ap.add_argument("--cfg", type=Path, default=None)
    ap.add_argument("--baseline", default=None, help="an older specula source tree (e.g. a `git archive` of main), "
                    "run through PYTHONPATH in the same run for before/after figures")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        spec = a.spec.resolve() if a.spec else None
        if spec is not None:
            text = (a.cfg or spec.with_suffix(".cfg")).read_text()
            (d / "Live.cfg").write_text(text)
            (d / "Safe.cfg").write_text(_drop_properties(text))
            print(f"{spec.name} with {(a.cfg or spec.with_suffix('.cfg')).name}")
        else:
            (d / "Wheels.tla").write_text(SPEC)
            (d / "Live.cfg").write_text(cfg(a.n, a.k, True))
            (d / "Safe.cfg").write_text(cfg(a.n, a.k, False))
            print(f"Wheels N={a.n} K={a.k}: {a.k ** a.n} states, {a.n * a.k ** a.n} edges")
        rows = {}
        cpu = {}
        tools = ["specula"] + (["baseline"] if a.baseline else []) + ["tlc"]
        for tool in tools:
            if tool == "tlc" and not Path(a.tlc).is_file():
                continue
            for name in ("Safe.cfg", "Live.cfg"):
                if tool == "tlc":
                    secs, out = run_tlc(a.tlc, d, name, spec)
                else:
                    secs, out = run_specula(d, name, spec, a.baseline if tool == "baseline" else None)
                    cpu[(tool, name)] = _cpu(out)
                rows[(tool, name)] = secs
                print(f"{tool:8} {name:9} {secs:7.1f}s  {out[:200]}", flush=True)
        if a.baseline and all(cpu.get((t, n)) is not None for t in ("specula", "baseline") for n in ("Safe.cfg", "Live.cfg")):
            new_l = cpu[("specula", "Live.cfg")] - cpu[("specula", "Safe.cfg")]
            old_l = cpu[("baseline", "Live.cfg")] - cpu[("baseline", "Safe.cfg")]
            print(f"liveness part (CPU): specula {new_l:.2f}s, baseline {old_l:.2f}s; whole run with liveness (CPU): "
                  f"{cpu[('specula', 'Live.cfg')]:.2f}s vs {cpu[('baseline', 'Live.cfg')]:.2f}s")
        if ("tlc", "Live.cfg") in rows:
            sl = rows[("specula", "Live.cfg")] - rows[("specula", "Safe.cfg")]
            tl = rows[("tlc", "Live.cfg")] - rows[("tlc", "Safe.cfg")]
            print(f"liveness part: specula {sl:.1f}s, TLC {tl:.1f}s; whole run with liveness: specula "
                  f"{rows[('specula', 'Live.cfg')]:.1f}s vs TLC {rows[('tlc', 'Live.cfg')]:.1f}s "
                  f"(ratio {rows[('specula', 'Live.cfg')] / rows[('tlc', 'Live.cfg')]:.1f}x)")


if __name__ == "__main__":
    main()
