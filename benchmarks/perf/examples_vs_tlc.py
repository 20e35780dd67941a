"""Agreement with TLC on the small models of tlaplus/Examples.

For every model in a ``manifest.json`` with mode "exhaustive search" and a recorded runtime under
one minute, run specula's checker (in a subprocess with a timeout) and compare with TLC's
recorded result (success / safety failure) and, where recorded, distinct and total state
counts. Models with a temporal property specula cannot analyse ("not checked") are listed
but left out of the rate; liveness failures are compared by verdict.

The recorded results come from the Examples' own CI (a newer TLC and newer community modules
than the TLC 2.18 here). Where specula does not agree and SPECULA_TLA2TOOLS is set, the model is
also run with the local TLC: when that TLC rejects it too (an operator or module the recorded
run had, e.g. ``TLCGet("-D...")`` or SVG's newer operators), the model is listed as ``tlc-env``
and left out of the rate, with TLC's message.

    python benchmarks/perf/examples_vs_tlc.py [--examples /work/ext/examples] [--only SUBSTR]
        [--timeout 120] [--json out.json] [--rerun previous.json --timeout 600]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
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
    out = {"verdict": r.verdict, "distinct": r.distinct, "generated": r.generated, "depth": r.depth,
           "message": r.message[:300], "stopped": r.stopped,
           "not_checked": [p.name for p in r.properties if p.status == "not checked"]}
except BaseException as exc:  # report every failure as data
    diags = getattr(exc, "diagnostics", None)
    msg = str(exc)
    if callable(diags):
        try:
            d = diags()[0]
            msg = f"{d.location()}: {d.message}"
        except Exception:
            pass
    out = {"verdict": "crash", "message": (type(exc).__name__ + ": " + msg)[:300]}
out["seconds"] = round(time.monotonic() - t, 2)
print("@@RESULT@@" + json.dumps(out))
"""


@dataclass
class Row:
    model: str
    tlc_result: str
    tlc_distinct: int | None
    tlc_total: int | None
    verdict: str = ""
    distinct: int | None = None
    generated: int | None = None
    seconds: float = 0.0
    status: str = ""  # agree | disagree | liveness | crash | timeout
    note: str = ""


def models(examples: Path, only: str | None, max_distinct: int | None = None) -> list[tuple[Path, Path, dict]]:
    """The models to compare: a recorded TLC runtime under one minute, or (``max_distinct``) at most
    that many distinct states recorded (models without a recorded count: runtime under a minute)."""
    from _manifests import manifest_models

    if max_distinct is None:
        return manifest_models(examples, only, lambda secs: secs < 60)
    found = manifest_models(examples, only, lambda secs: True)
    return [(t, c, md) for t, c, md in found
            if (md.get("distinctStates") is not None and md["distinctStates"] <= max_distinct)
            or (md.get("distinctStates") is None and _seconds(md) < 60)]


def _seconds(md: dict) -> int:
    h, m, s = (int(x) for x in md["runtime"].split(":"))
    return h * 3600 + m * 60 + s


def agree(row: Row, res: dict) -> tuple[str, str]:
    v = res.get("verdict")
    if v == "crash":
        return "crash", res.get("message", "")
    if res.get("not_checked") and v in ("ok", "limit"):
        return "liveness", "not checked: " + ", ".join(res.get("not_checked") or ["?"])
    if v == "limit":
        return "timeout", res.get("message", "")
    if row.tlc_result == "liveness failure" or v == "liveness":
        if (row.tlc_result == "liveness failure") != (v == "liveness"):
            return "disagree", f"verdict {v}: {res.get('message', '')}"
        return "agree", ""
    want_ok = row.tlc_result == "success"
    safety = ("invariant", "deadlock", "action-property", "assumption")
    if (want_ok and v != "ok") or (not want_ok and v not in safety):
        return "disagree", f"verdict {v}: {res.get('message', '')}"
    if want_ok and row.tlc_distinct is not None:
        if (res.get("distinct"), res.get("generated")) != (row.tlc_distinct, row.tlc_total):
            return "disagree", f"counts {res.get('distinct')}/{res.get('generated')} vs TLC {row.tlc_distinct}/{row.tlc_total}"
    return "agree", ""


def local_tlc(tla: Path, cfg: Path) -> tuple[str, str] | None:
    """The local TLC's verdict and first error line, when it cannot check the model as recorded."""
    from checker_tlc import run_tlc, tlc_jar

    if tlc_jar() is None:
        return None
    t = run_tlc(tla, cfg, timeout=300)
    lines = [ln.strip() for ln in t.output.splitlines()]
    msg = next((ln for ln in lines if ln.startswith(("Unknown operator", "Cannot find source file", "Error:"))
                and "Parsing or semantic analysis failed" not in ln), "")
    for i, ln in enumerate(lines):  # TLC explains an evaluation error a few lines below "Error:"
        if ln.startswith("but it produced the following error:") and i + 1 < len(lines):
            msg = lines[i + 1]
    return t.verdict, msg


def run(examples: Path, only: str | None, timeout: float, out_json: Path | None, library: str = "",
        rerun: set[str] | None = None, previous: list[Row] | None = None,
        max_distinct: int | None = None, start: int = 0) -> list[Row]:
    rows: list[Row] = []
    kept = {r.model: r for r in previous or []}
    for tla, cfg, md in models(examples, only, max_distinct)[start:]:
        rel = str(cfg.relative_to(examples / "specifications"))
        if rerun is not None and rel not in rerun and rel in kept:
            rows.append(kept[rel])
            continue
        row = Row(rel, md["result"], md.get("distinctStates"), md.get("totalStates"))
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
        row.verdict = res.get("verdict", "")
        row.distinct, row.generated = res.get("distinct"), res.get("generated")
        row.status, row.note = agree(row, res)
        if row.status in ("crash", "disagree"):
            local = local_tlc(tla, cfg)
            if local is not None and local[0] in ("error", "assumption", "unknown") and md["result"] != "error":
                row.status, row.note = "tlc-env", f"local TLC 2.18 fails too: {local[1]}; specula: {row.note}"
        rows.append(row)
        print(f"{row.status:9} {row.model:60} TLC {row.tlc_result:15} {row.tlc_distinct!s:>8}/{row.tlc_total!s:<9} "
              f"specula {row.verdict:15} {row.distinct!s:>8}/{row.generated!s:<9} {row.seconds:6.1f}s {row.note[:120]}",
              flush=True)
        if out_json:
            out_json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    counted = [r for r in rows if r.status not in ("liveness", "tlc-env")]
    ok = sum(r.status == "agree" for r in counted)
    env = sum(r.status == "tlc-env" for r in rows)
    live = sum(r.status == "liveness" for r in rows)
    print(f"\n{len(rows)} models; not counted: {live} with temporal properties unanalysed in the time limit, "
          f"{env} the local TLC cannot check either; agreement {ok}/{len(counted)} = {100 * ok / max(1, len(counted)):.1f}%")
    by: dict[str, int] = {}
    for r in counted:
        by[r.status] = by.get(r.status, 0) + 1
    print("by status:", by)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=Path, default=Path("/work/ext/examples"))
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--library", default="", help="extra modules folder (specula's library has the community modules)")
    ap.add_argument("--max-distinct", type=int, default=None,
                    help="select the models with at most this many distinct states (TLC's recorded count)")
    ap.add_argument("--start", type=int, default=0,
                    help="skip the first START models of the selection (continue an interrupted run)")
    ap.add_argument("--rerun", type=Path, default=None,
                    help="a previous --json: keep its agreeing rows, run the others again")
    a = ap.parse_args()
    previous = rerun = None
    if a.rerun:
        previous = [Row(**r) for r in json.loads(a.rerun.read_text())]
        rerun = {r.model for r in previous if r.status != "agree"
                 and not (r.status == "liveness" and r.verdict != "limit")}
    run(a.examples, a.only, a.timeout, a.json, a.library, rerun, previous, a.max_distinct, a.start)


if __name__ == "__main__":
    main()
