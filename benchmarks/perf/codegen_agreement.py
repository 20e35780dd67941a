"""Code generation on and off agree: verdicts and state counts on tlaplus/Examples models.

Every exhaustive-search model of the Examples manifests whose recorded TLC runtime is under
``--max-runtime`` seconds is checked twice by specula, each in its own subprocess: with generated
code (the default) and with the closure compiler only (``Model(..., codegen=False)``). The two
runs must give the same verdict, the same distinct and generated state counts and the same
message; the script prints one row per model, the rows that differ, the totals, and the time
ratio of the two modes over the models both finished.

    python benchmarks/perf/codegen_agreement.py [--examples /work/ext/examples] [--only SUBSTR]
        [--max-runtime 10] [--timeout 120] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

WORKER = r"""
import json, sys, time
from specula.tla import Model, load
from specula.tla.cfg import check_cfg_names, load_cfg
from specula.tla.checker import Limits, check
spec, cfg_path, secs, codegen = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4] == "1"
t = time.monotonic()
try:
    cfg = load_cfg(cfg_path)
    s = load(spec)
    check_cfg_names(cfg, s)
    model = Model(s, cfg, codegen=codegen)
    r = check(model, Limits(max_seconds=secs), cfg=cfg)
    out = {"verdict": r.verdict, "distinct": r.distinct, "generated": r.generated, "message": r.message[:300],
           "stopped": r.stopped}
except BaseException as exc:  # every failure is this run's result
    out = {"verdict": "crash", "message": (type(exc).__name__ + ": " + str(exc))[:300]}
out["seconds"] = round(time.monotonic() - t, 2)
print("@@RESULT@@" + json.dumps(out))
"""


def run_one(tla: Path, cfg: Path, timeout: float, codegen: bool) -> dict:
    try:
        proc = subprocess.run([sys.executable, "-c", WORKER, str(tla), str(cfg), str(timeout), "1" if codegen else "0"],
                              capture_output=True, text=True, timeout=timeout + 60, cwd=tla.parent)
    except subprocess.TimeoutExpired:
        return {"verdict": "timeout", "message": "", "seconds": timeout}
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("@@RESULT@@")), None)
    return json.loads(line[len("@@RESULT@@"):]) if line else {"verdict": "crash", "message": proc.stderr[-300:]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=Path, default=Path("/work/ext/examples"))
    ap.add_argument("--only", default=None)
    ap.add_argument("--max-runtime", type=int, default=10, help="recorded TLC runtime bound, seconds")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from _manifests import manifest_models

    rows = []
    t0 = time.monotonic()
    for tla, cfg, _md in manifest_models(args.examples, args.only, lambda s: s < args.max_runtime):
        rel = str(cfg.relative_to(args.examples / "specifications"))
        on = run_one(tla, cfg, args.timeout, True)
        off = run_one(tla, cfg, args.timeout, False)
        keys = ("verdict", "distinct", "generated", "message")
        limited = "limit" in (on["verdict"], off["verdict"]) or "timeout" in (on["verdict"], off["verdict"])
        same = all(on.get(k) == off.get(k) for k in keys)
        status = "same" if same and not limited else ("limit" if limited else "DIFFERENT")
        rows.append({"model": rel, "status": status, "codegen": on, "closures": off})
        print(f"{status:9} {rel:60} {on['verdict']:>10} {on.get('distinct')!s:>9} {on.get('generated')!s:>10} "
              f"{on.get('seconds', 0):7.1f}s {off.get('seconds', 0):7.1f}s", flush=True)
        if status == "DIFFERENT":
            print(f"          codegen:  {on}\n          closures: {off}", flush=True)
    done = [r for r in rows if r["status"] == "same"]
    t_on = sum(r["codegen"].get("seconds", 0) for r in done)
    t_off = sum(r["closures"].get("seconds", 0) for r in done)
    print(f"\n{len(rows)} models: {len(done)} same verdict, counts and message in both modes, "
          f"{sum(r['status'] == 'DIFFERENT' for r in rows)} different, {sum(r['status'] == 'limit' for r in rows)} "
          f"stopped by the time limit; time over the agreeing models: codegen {t_on:.0f} s, closures {t_off:.0f} s "
          f"(ratio {t_off / t_on if t_on else 0:.2f}); wall {time.monotonic() - t0:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
