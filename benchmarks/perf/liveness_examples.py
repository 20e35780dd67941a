"""Liveness agreement with TLC on the small models of tlaplus/Examples that have PROPERTY entries.

For every model in a ``manifest.json`` (mode "exhaustive search", recorded TLC runtime under
``--max-tlc-seconds``) whose .cfg has PROPERTY/PROPERTIES, run ``specula check`` in a subprocess
with a timeout and compare with TLC's recorded result (success / safety failure / liveness
failure). Prints one row per model with each property's status, then the agreement rate.
A model whose temporal property specula reports "not checked" counts as *not decided* (listed,
left out of the rate, and counted separately).

    python benchmarks/perf/liveness_examples.py [--examples /work/ext/examples] [--only SUBSTR]
        [--timeout 60] [--max-tlc-seconds 10] [--min-tlc-seconds 0] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

WORKER = r"""
import json, sys, time
from specula.tla.checker import Limits, check, build_model
spec, cfg, secs, lib = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
t = time.monotonic()
out = {}
try:
    model, c = build_model(spec, cfg, search_path=(lib,) if lib else ())
    r = check(model, Limits(max_seconds=secs), cfg=c)
    out = {"verdict": r.verdict, "distinct": r.distinct, "message": r.message[:300], "stopped": r.stopped,
           "props": [[p.name, p.kind, p.status, (p.detail or "")[:160]] for p in r.properties],
           "lasso": len(r.counterexample or [])}
except BaseException as exc:  # report every failure as data
    out = {"verdict": "crash", "message": (type(exc).__name__ + ": " + str(exc))[:300]}
out["seconds"] = round(time.monotonic() - t, 2)
print("@@RESULT@@" + json.dumps(out))
"""


@dataclass
class Row:
    model: str
    tlc: str
    tlc_distinct: int | None
    verdict: str = ""
    distinct: int | None = None
    seconds: float = 0.0
    status: str = ""  # agree | disagree | undecided | crash | timeout
    props: list = field(default_factory=list)
    note: str = ""


def models(examples: Path, only: str | None, max_tlc: int, min_tlc: int = 0) -> list[tuple[Path, Path, dict]]:
    from _manifests import manifest_models

    def has_property(cfg: Path) -> bool:
        return bool(re.search(r"\bPROPERT(Y|IES)\b", re.sub(r"\\\*.*", "", cfg.read_text())))

    return manifest_models(examples, only, lambda secs: min_tlc <= secs <= max_tlc, has_property)


def judge(row: Row, res: dict) -> tuple[str, str]:
    v = res.get("verdict")
    if v == "crash":
        return "crash", res.get("message", "")
    if v == "limit":
        return "timeout", res.get("message", "")
    undecided = [p for p in res.get("props", []) if p[2] == "not checked" or "not checked" in p[3]]
    want = {"success": "ok", "safety failure": "safety", "liveness failure": "liveness"}[row.tlc]
    got = "ok" if v == "ok" else "liveness" if v == "liveness" else "safety"
    if got != want:
        if undecided and want == "liveness" and got == "ok":
            return "undecided", "not checked: " + "; ".join(f"{p[0]}: {p[3]}" for p in undecided)
        return "disagree", f"verdict {v}: {res.get('message', '')}"
    if undecided and want == "ok":
        return "undecided", "not checked: " + "; ".join(f"{p[0]}: {p[3]}" for p in undecided)
    return "agree", ""


def run(examples: Path, only: str | None, timeout: float, max_tlc: int, out_json: Path | None,
        library: str, min_tlc: int = 0) -> list[Row]:
    rows: list[Row] = []
    for tla, cfg, md in models(examples, only, max_tlc, min_tlc):
        rel = str(cfg.relative_to(examples / "specifications"))
        row = Row(rel, md["result"], md.get("distinctStates"))
        t = time.monotonic()
        try:
            proc = subprocess.run(
                [sys.executable, "-c", WORKER, str(tla), str(cfg), str(timeout), library],
                capture_output=True, text=True, timeout=timeout + 30, cwd=tla.parent,
            )
            line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("@@RESULT@@")), None)
            res = json.loads(line[len("@@RESULT@@"):]) if line else {"verdict": "crash", "message": proc.stderr[-300:]}
        except subprocess.TimeoutExpired:
            res = {"verdict": "limit", "message": "timeout"}
        row.seconds = round(time.monotonic() - t, 1)
        row.verdict, row.distinct = res.get("verdict", ""), res.get("distinct")
        row.props = res.get("props", [])
        row.status, row.note = judge(row, res)
        rows.append(row)
        props = ", ".join(f"{p[0]}={p[2]}" for p in row.props)
        print(f"{row.status:9} {row.model:58} TLC {row.tlc:16} specula {row.verdict:9} "
              f"{row.distinct!s:>7} {row.seconds:6.1f}s  {props[:90]}  {row.note[:140]}", flush=True)
        if out_json:
            out_json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    decided = [r for r in rows if r.status in ("agree", "disagree")]
    ok = sum(r.status == "agree" for r in decided)
    by: dict[str, int] = {}
    for r in rows:
        by[r.status] = by.get(r.status, 0) + 1
    print(f"\n{len(rows)} models with PROPERTY entries; by status {by}")
    print(f"agreement on decided models {ok}/{len(decided)} = {100 * ok / max(1, len(decided)):.1f}%; "
          f"over all models {ok}/{len(rows)} = {100 * ok / max(1, len(rows)):.1f}%")
    live = [r for r in rows if r.tlc == "liveness failure"]
    print("TLC liveness failures:", ", ".join(f"{r.model}: {r.status}" for r in live) or "none selected")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=Path, default=Path("/work/ext/examples"))
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--max-tlc-seconds", type=int, default=10)
    ap.add_argument("--min-tlc-seconds", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--library", default="/work/ext/cmtla", help="community modules as TLA+ (TLC's -DTLA-Library)")
    a = ap.parse_args()
    run(a.examples, a.only, a.timeout, a.max_tlc_seconds, a.json, a.library, a.min_tlc_seconds)


if __name__ == "__main__":
    main()
