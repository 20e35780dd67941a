"""Agreement with TLC on the models of tlaplus/Examples.

The reference is TLC's own figures in the Examples' ``manifest.json`` files (recorded by the
Examples' CI with a current TLC and the community modules): result (success / safety failure /
liveness failure), distinct and total states where recorded (a different depth is noted, not
counted, as in their CI). Every selected model is run by specula's checker in a subprocess with
a time limit, from the repository's root as the Examples' CI runs TLC (specs read their trace
files relative to it), temporal properties checked once at the end (their ``-lncheck final``),
and each model that does not agree is listed with its reason: a different verdict or count,
the time limit (with the states reached), a temporal property not checked, or an error. The
local TLC (SPECULA_TLA2TOOLS) is run only for a different verdict or an error, and only to say
whether it can check the model (its figures are not the reference: it is TLC 2.18, older than
the manifests' TLC — no ``TLCGet("-D...")``, for one).

Selection: by default the exhaustive-search models with a recorded runtime under one minute;
``--max-distinct N``: those with at most N distinct states recorded (and those without a count
whose runtime is under a minute, unless TLC was measured above N on them: ``TLC_MEASURED``).

    python benchmarks/perf/examples_vs_tlc.py --examples DIR [--max-distinct 1000000] [--timeout 600]
        [--only SUBSTR] [--skip SUBSTR ...] [--jobs 2] [--json out.json] [--rerun previous.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
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
    # temporal properties checked once, on the complete graph: TLC's -lncheck final, as the
    # Examples' CI runs it
    r = check(model, Limits(max_seconds=secs, live_first=None), cfg=c)
    out = {"verdict": r.verdict, "distinct": r.distinct, "generated": r.generated, "depth": r.depth,
           "message": r.message[:300], "stopped": r.stopped,
           "not_checked": [f"{p.name} ({p.detail[:160]})" if p.detail else p.name
                           for p in r.properties if p.status == "not checked"]}
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

SAFETY = ("invariant", "deadlock", "action-property", "assumption")


@dataclass
class Row:
    model: str
    tlc_result: str
    tlc_distinct: int | None
    tlc_total: int | None
    tlc_depth: int | None = None
    verdict: str = ""
    distinct: int | None = None
    generated: int | None = None
    depth: int | None = None
    seconds: float = 0.0
    status: str = ""  # agree | disagree | timeout | liveness | crash
    note: str = ""  # the reason, for every status but agree
    local_tlc: str = ""  # the local TLC's verdict, for a model specula does not agree on


# Models whose manifest records no state count, with the distinct states the local TLC 2.18
# (1 worker, run to the end) found: ``--max-distinct`` judges them by it as by a recorded count.
TLC_MEASURED = {
    "KeyValueStore/MCKVSSafetySmall.cfg": 3_409_605,  # 56,349,379 generated, depth 23; 202 s (30 Nov 2026)
}


def models(examples: Path, only: str | None, max_distinct: int | None = None) -> list[tuple[Path, Path, dict]]:
    """The models to compare: a recorded TLC runtime under one minute, or (``max_distinct``) at most
    that many distinct states recorded (models without a recorded count: runtime under a minute,
    and not measured above ``max_distinct`` with TLC)."""
    from _manifests import manifest_models

    if max_distinct is None:
        return manifest_models(examples, only, lambda secs: secs < 60)
    found = manifest_models(examples, only, lambda secs: True)
    chosen = []
    for t, c, md in found:
        recorded = md.get("distinctStates")
        if recorded is not None:
            if recorded <= max_distinct:
                chosen.append((t, c, md))
            continue
        measured = TLC_MEASURED.get(str(c.relative_to(examples / "specifications")))
        if measured is not None and measured > max_distinct:
            print(f"not selected: {c.relative_to(examples / 'specifications')} (no count recorded; "
                  f"TLC 2.18 finds {measured:,} distinct states)", file=sys.stderr)
        elif _seconds(md) < 60:
            chosen.append((t, c, md))
    return chosen


def _seconds(md: dict) -> int:
    h, m, s = (int(x) for x in md["runtime"].split(":"))
    return h * 3600 + m * 60 + s


def agree(row: Row, res: dict, timeout: float) -> tuple[str, str]:
    """(status, reason) of specula's result ``res`` against the manifest's figures in ``row``."""
    v = res.get("verdict")
    if v == "crash":
        return "crash", res.get("message", "")
    if v == "limit":
        reached = f"{res.get('distinct')} distinct / {res.get('generated')} generated"
        want = f" of TLC's {row.tlc_distinct:,}" if row.tlc_distinct is not None else ""
        if res.get("stopped") == "max_seconds" or res.get("message") == "timeout":
            return "timeout", f"time limit ({timeout:.0f} s): {reached} states{want}, depth {res.get('depth')}"
        return "timeout", f"stopped ({res.get('stopped') or res.get('message')}): {reached}"
    if res.get("not_checked") and v == "ok":
        return "liveness", "temporal property not checked: " + "; ".join(res.get("not_checked") or ["?"])
    if row.tlc_result == "liveness failure" or v == "liveness":
        if (row.tlc_result == "liveness failure") != (v == "liveness"):
            return "disagree", f"verdict {v} (TLC: {row.tlc_result}): {res.get('message', '')}"
        return "agree", ""
    want_ok = row.tlc_result == "success"
    if (want_ok and v != "ok") or (not want_ok and v not in SAFETY):
        return "disagree", f"verdict {v} (TLC: {row.tlc_result}): {res.get('message', '')}"
    if want_ok and row.tlc_distinct is not None:
        got = (res.get("distinct"), res.get("generated"))
        if got != (row.tlc_distinct, row.tlc_total):
            return "disagree", f"counts {got[0]}/{got[1]} vs TLC {row.tlc_distinct}/{row.tlc_total}"
        if row.tlc_depth is not None and res.get("depth") != row.tlc_depth:
            # noted, not counted: the Examples' CI does not compare depths either (TLC's depth
            # with several workers is not deterministic, tlaplus/tlaplus#883)
            return "agree", f"depth {res.get('depth')}, the manifest's {row.tlc_depth}"
    return "agree", ""


def local_tlc(tla: Path, cfg: Path, cwd: Path) -> str:
    """The local TLC's verdict (and first error line), for a model specula does not agree on."""
    from checker_tlc import run_tlc, tlc_jar

    if tlc_jar() is None:
        return ""
    t = run_tlc(tla, cfg, timeout=600)
    lines = [ln.strip() for ln in t.output.splitlines()]
    msg = next((ln for ln in lines if ln.startswith(("Unknown operator", "Cannot find source file", "Error:"))
                and "Parsing or semantic analysis failed" not in ln), "")
    for i, ln in enumerate(lines):  # TLC explains an evaluation error a few lines below "Error:"
        if ln.startswith("but it produced the following error:") and i + 1 < len(lines):
            msg = lines[i + 1]
    counts = f" {t.distinct}/{t.generated}" if t.distinct is not None else ""
    return f"{t.verdict}{counts} in {t.seconds:.0f} s" + (f": {msg}" if msg else "")


def run_one(examples: Path, tla: Path, cfg: Path, md: dict, timeout: float, library: str,
            with_tlc: bool) -> Row:
    rel = str(cfg.relative_to(examples / "specifications"))
    row = Row(rel, md["result"], md.get("distinctStates"), md.get("totalStates"), md.get("stateDepth"))
    t = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", WORKER, str(tla), str(cfg), str(timeout), library],
            capture_output=True, text=True, timeout=timeout + 60, cwd=examples,
        )
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("@@RESULT@@")), None)
        res = json.loads(line[len("@@RESULT@@"):]) if line else {"verdict": "crash", "message": proc.stderr[-300:]}
    except subprocess.TimeoutExpired:
        res = {"verdict": "limit", "message": "timeout"}
    row.seconds = round(time.monotonic() - t, 1)
    row.verdict = res.get("verdict", "")
    row.distinct, row.generated, row.depth = res.get("distinct"), res.get("generated"), res.get("depth")
    row.status, row.note = agree(row, res, timeout)
    if row.status == "agree" and row.seconds > timeout:  # e.g. loading and compiling past the limit
        row.status, row.note = "timeout", f"agrees, but took {row.seconds:.0f} s"
    if with_tlc and row.status in ("crash", "disagree"):
        row.local_tlc = local_tlc(tla, cfg, examples)
    return row


def run(examples: Path, only: str | None, timeout: float, out_json: Path | None, library: str = "",
        rerun: set[str] | None = None, previous: list[Row] | None = None,
        max_distinct: int | None = None, start: int = 0, jobs: int = 1, with_tlc: bool = True,
        skip: tuple[str, ...] = ()) -> list[Row]:
    kept = {r.model: r for r in previous or []}
    todo, rows = [], []
    for tla, cfg, md in models(examples, only, max_distinct)[start:]:
        rel = str(cfg.relative_to(examples / "specifications"))
        if any(part in rel for part in skip):
            continue
        if rerun is not None and rel not in rerun and rel in kept:
            rows.append(kept[rel])
        else:
            todo.append((tla, cfg, md))

    def one(item: tuple) -> Row:
        row = run_one(examples, *item, timeout, library, with_tlc)
        print(f"{row.status:9} {row.model:60} TLC {row.tlc_result:15} {row.tlc_distinct!s:>8}/{row.tlc_total!s:<9} "
              f"specula {row.verdict:15} {row.distinct!s:>8}/{row.generated!s:<9} {row.seconds:6.1f}s {row.note[:150]}",
              flush=True)
        return row

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for row in pool.map(one, todo):
            rows.append(row)
            if out_json:
                out_json.write_text(json.dumps([asdict(r) for r in sorted(rows, key=lambda r: r.model)], indent=1))
    rows.sort(key=lambda r: r.model)
    report(rows, timeout)
    return rows


def report(rows: list[Row], timeout: float) -> None:
    for r in rows:  # rows of an older run that counted a depth difference, or an overrun
        if r.status == "disagree" and r.note.startswith("depth "):
            r.status = "agree"
        if r.status == "agree" and r.seconds > timeout:
            r.status, r.note = "timeout", f"agrees, but took {r.seconds:.0f} s"
    ok = sum(r.status == "agree" for r in rows)
    print(f"\n{len(rows)} models, time limit {timeout:.0f} s each: {ok} agree with TLC's verdict and counts "
          f"({100 * ok / max(1, len(rows)):.1f}%)")
    by: dict[str, int] = {}
    for r in rows:
        by[r.status] = by.get(r.status, 0) + 1
    print("by status:", by)
    for r in rows:
        if r.status != "agree":
            print(f"  {r.model}: {r.status}: {r.note}" + (f" [local TLC 2.18: {r.local_tlc}]" if r.local_tlc else ""))
    for r in rows:
        if r.status == "agree" and r.note:
            print(f"  {r.model}: agrees; note: {r.note}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=Path, default=Path("/work/ext/examples"))
    ap.add_argument("--only", default=None)
    ap.add_argument("--skip", action="append", default=[], help="leave out the models whose cfg path contains this")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--jobs", type=int, default=1, help="models checked at once")
    ap.add_argument("--no-tlc", action="store_true", help="never run the local TLC")
    ap.add_argument("--library", default="", help="extra modules folder (specula's library has the community modules)")
    ap.add_argument("--max-distinct", type=int, default=None,
                    help="select the models with at most this many distinct states (TLC's recorded count)")
    ap.add_argument("--start", type=int, default=0,
                    help="skip the first START models of the selection (continue an interrupted run)")
    ap.add_argument("--rerun", type=Path, default=None,
                    help="a previous --json: keep its agreeing rows, run the others again")
    ap.add_argument("--report", type=Path, default=None, help="only print the summary of a previous --json")
    a = ap.parse_args()
    if a.report:
        report([Row(**r) for r in json.loads(a.report.read_text())], a.timeout)
        return
    previous = rerun = None
    if a.rerun:
        previous = [Row(**r) for r in json.loads(a.rerun.read_text())]
        rerun = {r.model for r in previous if r.status != "agree"}
    run(a.examples.resolve(), a.only, a.timeout, a.json, a.library, rerun, previous, a.max_distinct, a.start,
        a.jobs, not a.no_tlc, tuple(a.skip))


if __name__ == "__main__":
    main()
