"""Helpers shared by the bundled-systems suites (lock systems and distributed systems)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import yaml

from specula.cli import main

SYSTEMS_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"


def task(name: str) -> dict:
    return yaml.safe_load((SYSTEMS_DIR / name / "task.yaml").read_text())


def validate(name: str, spec: str, traces: Path, capsys, whole: list | None = None) -> dict[str, tuple[int, int]]:
    """`specula validate` (JSON) of one spec of a system over a trace directory: action -> (passed, total).
    With ``whole`` (a list), also follow each whole trace and append the per-trace results to it."""
    t = task(name)
    d = SYSTEMS_DIR / name
    rc = main([
        "validate", str(d / spec), "-c", str(d / t["reference"]["cfg"]), "-t", str(traces),
        "-m", str(d / t["mapping"]), "--actions", ",".join(t["wv"]["target_actions"]), "--json",
        *(["--whole-trace"] if whole is not None else []),
    ])
    data = json.loads(capsys.readouterr().out)
    rows = {r["action"]: (r["passed"], r["total"]) for r in data["actions"]}
    if whole is not None:
        whole.extend(data["traces"])
    else:
        assert rc == (0 if all(p == n for p, n in rows.values()) else 1)
    return rows


def step_counts(traces: Path) -> Counter:
    """Step events per action over the ``*.ndjson`` traces of a folder (one window each)."""
    counts: Counter = Counter()
    for f in sorted(traces.glob("*.ndjson")):
        for line in f.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                ev = json.loads(line)
                if ev["kind"] == "step":
                    counts[ev["action"]] += 1
    return counts
