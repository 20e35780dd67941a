"""Differential benchmark against TLC on models that stop at an error (issue 24).

Corpus: the tlaplus/Examples models whose recorded result is a safety or liveness failure
(``--examples``, a checkout), SysMoBench's shipped specs and bug-reproducing specs
(``--sysmobench``: a checkout, or the git directory the ``fetch`` tool makes; the bug specs'
liveness cases are also run with their PROPERTY lines only, as issue 24 measured them), and
specula's own small specs (tests/tla/specs/parity). Each model is run by TLC (``-workers 1``) and
by specula (a subprocess, same timeout), and the row reports both verdicts, the counts at the
error (states generated / distinct, depth), whether the counterexample is TLC's (every state and
action label equal, compared as text), and both times (wall and CPU: the CPU seconds of each
tool's process are the ratio to read on a loaded machine).

    SPECULA_TLA2TOOLS=.../tla2tools.jar python benchmarks/perf/differential.py \\
        [--examples DIR] [--sysmobench DIR] [--only SUBSTR] [--timeout 300] [--json out.json]

Liveness lassos are compared by verdict only: which lasso is printed depends on when the
periodic check runs (in TLC too), and TLC's counts at a liveness error are those of the moment
its check ran.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

WORKER = r"""
import json, sys, time
from specula.tla.checker import Limits, check, build_model
from specula.tla.report import render_check
from specula.errors import SpecError
spec, cfg, secs, lib = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
t = time.monotonic()
try:
    model, c = build_model(spec, cfg, search_path=(lib,) if lib else ())
    r = check(model, Limits(max_seconds=secs), cfg=c)
    out = {"verdict": r.verdict, "violated": r.violated, "distinct": r.distinct, "generated": r.generated,
           "depth": r.depth, "text": render_check(r, spec, cfg, markup=False)}
except SpecError as exc:  # rejected by the front end, as TLC reports a SANY error
    out = {"verdict": "error", "text": str(exc)[:300]}
except BaseException as exc:
    out = {"verdict": "crash", "text": (type(exc).__name__ + ": " + str(exc))[:300]}
out["seconds"] = round(time.monotonic() - t, 2)
print("@@RESULT@@" + json.dumps(out))
"""


@dataclass
class Row:
    model: str
    tlc_verdict: str = ""
    tlc_counts: str = ""  # generated/distinct, depth
    tlc_seconds: float = 0.0
    verdict: str = ""
    counts: str = ""
    seconds: float = 0.0
    tlc_cpu: float = 0.0  # CPU seconds of each tool's process (user + system): a ratio that
    cpu: float = 0.0  # holds on a loaded machine, where the wall times above do not
    trace: str = ""  # "same" | "differs at state N" | "-" (no trace / liveness)
    status: str = ""  # agree | counts | trace | verdict | crash
    tlc_trace: list = field(default_factory=list, repr=False)
    our_trace: list = field(default_factory=list, repr=False)


_STATE = re.compile(r"^(?:State (\d+): (.*)|Back to state (\d+)(?:: (.*))?)$")


def trace_of(text: str) -> list[tuple[str, str]]:
    """(label, state text without blanks) per state of a TLC-style error trace (TLC's or
    specula's output: changed-variable marks dropped, multi-line values joined)."""
    out: list[tuple[str, str]] = []
    cur: list[str] | None = None
    label = ""
    def flush() -> None:  # the variables sorted (TLC may print them in another order)
        out.append((label, "".join(sorted(cur or []))))

    for ln in text.splitlines():
        if re.match(r"^Error: .* is violated by the initial state:?$", ln.strip()):  # TLC: no "State 1:"
            cur, label = [], "<Initial predicate>"
            continue
        m = _STATE.match(ln.strip())
        if m:
            if cur is not None:
                flush()
            label = (m.group(2) or m.group(4) or "").strip()
            if m.group(3):
                label = f"back to {m.group(3)}: {label}"
            cur = []
            continue
        if cur is None:
            continue
        if not ln.strip() or re.match(r"^(\d[\d,]* states generated|Error:|Property |Finished|The depth|Coverage)",
                                      ln.strip()):
            if ln.strip() and not ln.startswith((" ", "/", "*")):
                flush()
                cur = None
            continue
        line = re.sub(r"\s+", "", ln.lstrip("*"))
        if line.startswith("/\\") or not cur:  # a variable (one-variable specs: no /\)
            cur.append(line.removeprefix("/\\"))
        else:  # TLC continues a long value on the next lines
            cur[-1] += line
    if cur is not None:
        flush()
    return out


def compare(tlc: list, ours: list) -> str:
    if not tlc and not ours:
        return "-"
    for i, (a, b) in enumerate(zip(tlc, ours), 1):
        if a != b:
            return f"differs at state {i}" + (" (label)" if a[1] == b[1] else "")
    if len(tlc) != len(ours):
        return f"length {len(ours)} vs TLC {len(tlc)}"
    return "same"


def run_specula(tla: Path, cfg: Path, timeout: float, lib: str) -> dict:
    try:
        proc = subprocess.run([sys.executable, "-c", WORKER, str(tla), str(cfg), str(timeout), lib],
                              capture_output=True, text=True, timeout=timeout + 60, cwd=tla.parent)
    except subprocess.TimeoutExpired:
        return {"verdict": "timeout", "text": "", "seconds": timeout + 60}
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("@@RESULT@@")), None)
    return json.loads(line[len("@@RESULT@@"):]) if line else {"verdict": "crash", "text": proc.stderr[-300:]}


def corpus(examples: Path | None, sysmobench: Path | None, work: Path) -> list[tuple[str, Path, Path]]:
    out: list[tuple[str, Path, Path]] = []
    for tla in sorted((REPO / "tests/tla/specs/parity").glob("*.tla")):
        out.append((f"own/{tla.stem}", tla, tla.with_suffix(".cfg")))
    if examples is not None:
        sys.path.insert(0, str(HERE))
        from _manifests import manifest_models

        for tla, cfg, md in manifest_models(examples, None, lambda s: s < 120):
            if md["result"] != "success":
                out.append((f"Examples/{cfg.relative_to(examples / 'specifications')}", tla, cfg))
    if sysmobench is not None:
        root = sysmobench
        if not (root / "data").is_dir():  # a git directory (the fetch tool's mirror): export it
            root = work / "sysmobench"
            root.mkdir(parents=True, exist_ok=True)
            subprocess.run(f"git --git-dir={sysmobench} archive HEAD data/spec data/spec_reproduce_bugs | tar -x -C {root}",
                           shell=True, check=True)
        for cfg in sorted((root / "data").glob("spec*/**/*.cfg")):
            tla = cfg.with_suffix(".tla")
            if not tla.is_file():
                continue
            name = f"SysMoBench/{cfg.relative_to(root / 'data')}"
            out.append((name, tla, cfg))
            text = cfg.read_text()
            if "spec_reproduce_bugs" in name and re.search(r"^\s*PROPERT", text, re.M) and re.search(r"^\s*INVARIANT", text, re.M):
                live = cfg.with_name(cfg.stem + "_live.cfg")  # PROPERTY lines only (issue 24's measurement)
                lines, skip = [], False
                for ln in text.splitlines():
                    if re.match(r"^\s*INVARIANTS?\b", ln):
                        skip = True
                        rest = re.sub(r"^\s*INVARIANTS?\b", "", ln).strip()
                        if rest:
                            skip = False
                        continue
                    if skip and (not ln.strip() or ln.startswith((" ", "\t"))):
                        continue
                    skip = False
                    lines.append(ln)
                live.write_text("\n".join(lines) + "\n")
                out.append((name.replace(".cfg", " (PROPERTY only)"), tla, live))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=Path, default=None)
    ap.add_argument("--sysmobench", type=Path, default=None)
    ap.add_argument("--library", default="", help="community modules as TLA+ (TLC's -DTLA-Library)")
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args()
    from checker_tlc import run_tlc, tlc_jar

    if tlc_jar() is None:
        sys.exit("SPECULA_TLA2TOOLS is not set")
    work = Path(tempfile.mkdtemp(prefix="specula-diff-"))
    rows: list[Row] = []
    for name, tla, cfg in corpus(a.examples, a.sysmobench, work):
        if a.only and a.only not in name:
            continue
        # each tool on its own copy of the folder (TLC writes states/ and trace files beside the spec)
        d = work / re.sub(r"[^A-Za-z0-9_.-]", "_", name)
        shutil.copytree(tla.parent, d, dirs_exist_ok=True)
        t, c0 = time.monotonic(), _children_cpu()
        try:
            tr = run_tlc(d / tla.name, d / cfg.name, timeout=a.timeout)
            tv, tout = tr.verdict, tr.output
            tcounts = f"{tr.generated}/{tr.distinct}, {tr.depth}" if tr.generated is not None else ""
        except subprocess.TimeoutExpired:
            tv, tout, tcounts = "timeout", "", ""
        tsecs, c1 = time.monotonic() - t, _children_cpu()
        res = run_specula(d / tla.name, d / cfg.name, a.timeout, a.library)
        c2 = _children_cpu()
        row = Row(name, tv, tcounts, round(tsecs, 1), res["verdict"],
                  f"{res.get('generated')}/{res.get('distinct')}, {res.get('depth')}" if "distinct" in res else "",
                  res.get("seconds", 0.0), round(c1 - c0, 1), round(c2 - c1, 1))
        row.tlc_trace, row.our_trace = trace_of(tout), trace_of(res.get("text", ""))
        live = tv == "liveness" or res["verdict"] == "liveness"
        row.trace = "-" if live else compare(row.tlc_trace, row.our_trace)
        no_verdict = ("timeout", "limit")  # both stopped by the time limit
        same_verdict = tv == res["verdict"] or (tv in no_verdict and res["verdict"] in no_verdict)
        if same_verdict and tv in no_verdict:
            row.status = "no verdict"
        elif res["verdict"] in ("crash", "timeout"):
            row.status = res["verdict"]
        elif not same_verdict:
            row.status = "verdict"
        elif not live and row.tlc_counts and row.tlc_counts != row.counts:
            row.status = "counts"
        elif row.trace not in ("same", "-"):
            row.status = "trace"
        else:
            row.status = "agree"
        rows.append(row)
        print(f"{row.status:8} {name:70} TLC {tv:14} {tcounts:22} {tsecs:7.1f}s | specula {res['verdict']:14} "
              f"{row.counts:22} {row.seconds:7.1f}s | CPU {row.tlc_cpu}/{row.cpu} s | trace {row.trace}", flush=True)
        if a.json:
            a.json.write_text(json.dumps([{k: v for k, v in asdict(r).items() if not k.endswith("_trace")} for r in rows],
                                         indent=1))
    errors = [r for r in rows if r.tlc_verdict not in ("ok", "timeout", "error", "unknown")]
    agree = sum(r.status == "agree" for r in errors)
    print(f"\n{len(rows)} models, {len(errors)} stop at an error in TLC; TLC's verdict, counts and trace: {agree}/{len(errors)}")
    print("\n| model | TLC verdict | TLC generated/distinct, depth | TLC s (CPU) | specula verdict | specula generated/distinct, depth | specula s (CPU) | trace |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r.model} | {r.tlc_verdict} | {r.tlc_counts} | {r.tlc_seconds} ({r.tlc_cpu}) | {r.verdict} | {r.counts} "
              f"| {r.seconds} ({r.cpu}) | {r.trace} |")


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


if __name__ == "__main__":
    main()
