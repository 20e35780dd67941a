"""Issue 19's table: specula against TLC (1 worker) on the issue's models, side by side in one run.

Each model is run ``--repeat`` times by each tool, interleaved (specula, [baseline,] TLC, [hand
BFS,] then again), each run a fresh process with start-up included (JVM start for TLC); the table
shows the median wall time of each tool, the ratio specula/TLC, and the peak resident memory per
distinct state (bytes; ``/usr/bin/time`` measures both processes). ``--baseline DIR`` also runs
an older specula source tree (``git archive`` of a commit) through PYTHONPATH, for before/after
figures measured in the same run. TLC runs only where SPECULA_TLA2TOOLS is set.

``--hand-bfs`` also runs the hand-written plain-Python BFS of the models that have one
(``HAND_BFS``: the 3-server leader election, benchmarks/perf/hand_bfs.py) and adds its median
wall time and the ratio specula/BFS (issue 19 asks for at most 1.5); ``--cpu`` prints, under each
row, the median CPU seconds (user + system) of each tool, the figure a loaded machine disturbs least.

``--pin CPU`` runs every tool under ``taskset -c CPU``: both on one core, literally (TLC's JVM
spreads even a ``-workers 1`` run over more than one core: its garbage collector and JIT compiler
run in threads of their own). ``--workers N`` runs specula with ``--workers N`` and TLC with
``-workers N`` (the baseline and the hand BFS unchanged).

    python benchmarks/perf/checker_table.py [--repeat 3] [--only NAME] [--baseline DIR]
        [--hand-bfs] [--cpu] [--pin CPU] [--workers N] [--examples /work/ext/examples] [--timeout 900]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
ROOT = HERE.parents[1]


def models(examples: Path) -> list[tuple[str, Path, Path, dict]]:
    """(name, tla, cfg, constant overrides): the issue's table, where the specs exist here."""
    ex = examples / "specifications"
    return [
        ("TwoPhase", ROOT / "tests/tla/specs/TwoPhase.tla", ROOT / "tests/tla/specs/TwoPhase.cfg", {}),
        ("btree/kvstore", ex / "btree/kvstore.tla", ex / "btree/kvstore.cfg", {}),
        ("ReadersWriters MC", ex / "ReadersWriters/MC.tla", ex / "ReadersWriters/MC.cfg", {}),
        ("Chameneos", ex / "Chameneos/Chameneos.tla", ex / "Chameneos/Chameneos.cfg", {}),
        ("ewd426 TokenRing", ex / "ewd426/TokenRing.tla", ex / "ewd426/TokenRing.cfg", {}),
        ("MultiPaxos_MC_small", ex / "MultiPaxos-SMR/MultiPaxos_MC.tla", ex / "MultiPaxos-SMR/MultiPaxos_MC_small.cfg", {}),
        ("3-server leader election", HERE / "specs/LeaderElection.tla", HERE / "specs/LeaderElection.cfg", {}),
        ("MCLamportMutex", ex / "lamport_mutex/MCLamportMutex.tla", ex / "lamport_mutex/MCLamportMutex.cfg", {}),
    ]


# the models with a hand-written plain-Python BFS of the same model (run with ``--cfg CFG --json``)
HAND_BFS: dict[str, Path] = {"3-server leader election": HERE / "hand_bfs.py"}


def run_hand_bfs(script: Path, cfg: Path, timeout: float, prefix: tuple[str, ...] = ()) -> dict:
    """One run of a hand-written BFS: its counts, and wall, CPU and peak RSS of the whole process."""
    cmd = [*prefix, sys.executable, str(script), "--cfg", str(cfg), "--json"]
    timer = Path("/usr/bin/time")
    if timer.is_file():
        cmd = [str(timer), "-f", "@@RSS %M\n@@CPU %U %S", *cmd]
    t = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - t
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"verdict": "crash", "wall": wall, "message": (proc.stderr or proc.stdout)[-300:]}
    c = re.search(r"^@@CPU ([\d.]+) ([\d.]+)$", proc.stderr, re.M)
    data["wall"] = wall
    if c:  # the process's own (start-up included), as for the other tools
        data["cpu"] = float(c.group(1)) + float(c.group(2))
    return data


def run_specula(tla: Path, cfg: Path, timeout: float, pythonpath: str | None = None, workers: int = 1,
                prefix: tuple[str, ...] = ()) -> dict:
    cmd = [*prefix, sys.executable, "-m", "specula", "check", str(tla), "--config", str(cfg), "--json",
           "--max-seconds", str(timeout)]
    if pythonpath is None or (Path(pythonpath) / "specula/tla/parallel.py").is_file():  # trees before it: 1 process
        cmd += ["--workers", str(workers)]
    timer = Path("/usr/bin/time")
    if timer.is_file():
        cmd = [str(timer), "-f", "@@RSS %M\n@@CPU %U %S", *cmd]
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    t = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tla.parent, timeout=timeout + 120, env=env)
    wall = time.monotonic() - t
    m = re.search(r"^@@RSS (\d+)$", proc.stderr, re.M)
    c = re.search(r"^@@CPU ([\d.]+) ([\d.]+)$", proc.stderr, re.M)
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"verdict": "crash", "wall": wall, "message": (proc.stderr or proc.stdout)[-300:]}
    return {"verdict": data["verdict"], "distinct": data["distinct"], "generated": data["generated"],
            "depth": data.get("depth"), "trace": data.get("counterexample"), "note": proc.stderr.strip()[-300:],
            "wall": wall, "rss_mb": int(m.group(1)) / 1024 if m else None,
            "cpu": float(c.group(1)) + float(c.group(2)) if c else None}


def _per_state(rss_mb: float | None, distinct: int | None) -> str:
    if not rss_mb or not distinct:
        return "-"
    return f"{rss_mb * 1024 * 1024 / distinct:,.0f}"


def _median(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default=None)
    ap.add_argument("--baseline", default=None, help="an older specula source tree, run through PYTHONPATH")
    ap.add_argument("--hand-bfs", action="store_true", help="also run the hand-written BFS of the models that have one")
    ap.add_argument("--cpu", action="store_true", help="print each tool's median CPU seconds under each row")
    ap.add_argument("--pin", default=None, metavar="CPU", help="run every tool under taskset -c CPU (one core)")
    ap.add_argument("--workers", type=int, default=1, help="specula --workers N against TLC -workers N")
    ap.add_argument("--examples", type=Path, default=Path(os.environ.get("SPECULA_EXAMPLES", "/work/ext/examples")))
    ap.add_argument("--timeout", type=float, default=900)
    a = ap.parse_args()
    from checker_tlc import run_tlc, tlc_jar

    use_tlc = tlc_jar() is not None
    pin: tuple[str, ...] = ("taskset", "-c", a.pin) if a.pin is not None else ()
    if a.pin is not None or a.workers != 1:
        print(f"# {'pinned to CPU ' + a.pin + ' (taskset); ' if a.pin is not None else ''}"
              f"specula --workers {a.workers}, TLC -workers {a.workers}", flush=True)
    w = 26
    head = f"{'model':{w}} {'distinct':>9} {'specula s':>9}"
    if a.baseline:
        head += f" {'before s':>9}"
    head += f" {'TLC s':>7} {'ratio':>6}"
    if a.hand_bfs:
        head += f" {'BFS s':>7} {'spec/BFS':>8}"
    head += f" {'B/state':>8} {'TLC B/state':>11}  counts"
    print(head, flush=True)
    for name, tla, cfg, consts in models(a.examples):
        if a.only and a.only not in name:
            continue
        if not tla.is_file():
            print(f"{name:{w}} missing ({tla})", flush=True)
            continue
        hand = HAND_BFS.get(name) if a.hand_bfs else None
        runs: dict[str, list] = {"new": [], "base": [], "tlc": [], "bfs": []}
        with tempfile.TemporaryDirectory() as tmp:
            if consts:  # a copy of the cfg with the overrides
                text = cfg.read_text()
                for k, v in consts.items():
                    text = re.sub(rf"\b{k}\s*=\s*\S+", f"{k} = {v}", text)
                cfg = Path(tmp) / cfg.name
                cfg.write_text(text)
            for _ in range(a.repeat):
                runs["new"].append(run_specula(tla, cfg, a.timeout, workers=a.workers, prefix=pin))
                if a.baseline:
                    runs["base"].append(run_specula(tla, cfg, a.timeout, a.baseline, prefix=pin))
                if use_tlc:
                    runs["tlc"].append(run_tlc(tla, cfg, timeout=a.timeout + 120, workers=a.workers, prefix=pin))
                if hand:
                    runs["bfs"].append(run_hand_bfs(hand, cfg, a.timeout + 120, prefix=pin))
        new = runs["new"]
        if any(r["verdict"] == "crash" for r in new):
            print(f"{name:{w}} crash {next(r for r in new if r['verdict'] == 'crash')['message'][:200]}", flush=True)
            continue
        med = statistics.median(r["wall"] for r in new)
        row = f"{name:{w}} {new[0]['distinct']:>9,} {med:>9.2f}"
        if a.baseline:
            base = [r for r in runs["base"] if r["verdict"] != "crash"]
            row += f" {statistics.median(r['wall'] for r in base):>9.2f}" if base else f" {'crash':>9}"
        tlc = runs["tlc"]
        if tlc:
            tmed = statistics.median(t.seconds for t in tlc)
            row += f" {tmed:>7.2f} {med / tmed:>6.2f}"
        else:
            row += f" {'-':>7} {'-':>6}"
        bfs = [r for r in runs["bfs"] if r.get("verdict") != "crash"]
        if a.hand_bfs:
            if bfs:
                bmed = statistics.median(r["wall"] for r in bfs)
                row += f" {bmed:>7.2f} {med / bmed:>8.2f}"
            else:
                row += f" {'crash' if runs['bfs'] else '-':>7} {'-':>8}"
        row += f" {_per_state(max(r['rss_mb'] or 0 for r in new), new[0]['distinct']):>8}"
        row += f" {_per_state(max((t.rss_mb or 0) for t in tlc), tlc[0].distinct) if tlc else '-':>11}"
        counts = (new[0]["distinct"], new[0]["generated"])
        same = (not tlc) or all((t.distinct, t.generated) == counts for t in tlc)
        row += "  " + ("same as TLC" if tlc and same else "DIFFER from TLC" if tlc else "")
        if bfs:
            row += "; BFS " + ("same" if all((r["distinct"], r["generated"]) == counts for r in bfs) else "DIFFERS")
        print(row, flush=True)
        if a.cpu:
            figures = [("specula", _median([r["cpu"] for r in new]))]
            if a.baseline:
                figures.append(("before", _median([r.get("cpu") for r in runs["base"]])))
            if tlc:
                figures.append(("TLC", _median([t.cpu for t in tlc])))
            if bfs:
                figures.append(("BFS", _median([r["cpu"] for r in bfs])))
            cells = ", ".join(f"{k} {v:.2f}" if v is not None else f"{k} -" for k, v in figures)
            print(f"{'':{w}} cpu s (user+sys, median): {cells}", flush=True)


if __name__ == "__main__":
    main()
