"""SysMoBench window-validation modules: specula's verdicts next to TLC's, per (spec, action).

For every ``WV_<Action>.tla`` under the given folders (each folder: one spec under test, its
modules, their ``.cfg`` and windows files -- e.g. a copy of SysMoBench's
``tla_eval/skills/wv-eval/examples/etcd/ai_spec_1``), three runs:

* ``validate WV_X.tla``: the module run per window in-process (``validate_wv``);
* ``validate --mapping``: the mapping ``mapping from-wv`` derives from the folder's modules, the
  spec under test and the windows file (``validate_files``);
* with ``--tlc JAR``: TLC once per window, as SysMoBench's run_wv.py does (``-deadlock``, pass
  = exit code 12), the window inlined as a TLA+ literal in a copy of the module (TLC's
  CommunityModules are not needed; a stub SequencesExt is given when the spec extends it).

    python benchmarks/perf/wv_reproduction.py DIR [DIR...] [--tlc tla2tools.jar] [--workers 2]

Prints a markdown table: passed/total, failing window ids, seconds. SysMoBench's files are not
part of this repository (docs/windows.md has the figures on its public etcd examples).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def tla_literal(v):
    from specula.traces.bind import tla_literal as lit

    return lit(v)


def tlc_counts(module: Path, jar: str, workers: int) -> tuple[list[int], int, float]:
    """Window ids (1-based index) that pass under TLC, the window count, seconds."""
    text = module.read_text()
    m = re.search(r'(\w+)\s*==\s*ndJsonDeserialize\("([^"]+)"\)', text)
    all_def, wfile = m.group(1), m.group(2)
    lines = [ln for ln in (module.parent / wfile).read_text().splitlines() if ln.strip()]
    text = re.sub(r"\bJson,\s*", "", text)
    text = re.sub(r",\s*IOUtils\b", "", text)
    text = re.sub(all_def + r'\s*==\s*ndJsonDeserialize\("[^"]+"\)\n', "", text)
    tmp = Path(tempfile.mkdtemp(prefix="wvtlc"))
    for f in module.parent.glob("*.tla"):
        if not f.name.startswith(("WV_", "TV_")):
            shutil.copy(f, tmp / f.name)
    if not (tmp / "SequencesExt.tla").exists():
        (tmp / "SequencesExt.tla").write_text("---- MODULE SequencesExt ----\n====\n")
    cfg = module.with_suffix(".cfg")

    def one(i: int) -> tuple[int, bool]:
        d = tmp / f"w{i}"
        d.mkdir()
        for f in tmp.glob("*.tla"):
            shutil.copy(f, d / f.name)
        body = re.sub(r"\bw\s*==\s*" + all_def + r"\[atoi\(IOEnv\.WINDOW_INDEX\)\]",
                      lambda _m: "w == " + tla_literal(json.loads(lines[i - 1])), text)
        (d / module.name).write_text(body)
        shutil.copy(cfg, d / cfg.name)
        r = subprocess.run(["java", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC", "-dfid", "2", "-deadlock",
                            "-nowarning", "-workers", "1", "-metadir", str(d / "meta"), "-config", cfg.name,
                            module.name], cwd=d, capture_output=True, text=True, timeout=600)
        return i, r.returncode == 12

    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as ex:
        res = list(ex.map(one, range(1, len(lines) + 1)))
    shutil.rmtree(tmp, ignore_errors=True)
    return [i for i, ok in res if ok], len(lines), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--tlc", help="tla2tools.jar: also run TLC once per window")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    from specula.phases.conformance import validate_files, validate_wv
    from specula.traces.mapping import parse_mapping
    from specula.traces.wv import mapping_yaml, read_wv

    print("| spec | action | TLC | s | validate WV_X.tla | s | validate --mapping | s | failing ids (specula) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in args.dirs:
        modules = sorted(d.glob("WV_*.tla"))
        mods = [read_wv(m) for m in modules]
        mapping = parse_mapping(mapping_yaml(mods), "<from-wv>")
        cfg_text = "\n".join(ln for ln in modules[0].with_suffix(".cfg").read_text().splitlines()
                             if not ln.strip().startswith(("INVARIANT", "SPECIFICATION", "INIT", "NEXT")))
        inner_cfg = Path(tempfile.mkdtemp()) / "inner.cfg"
        inner_cfg.write_text("INIT Init\nNEXT Next\n" + cfg_text + "\n")
        for module, mod in zip(modules, mods):
            t0 = time.perf_counter()
            r1 = validate_wv([module])
            s1 = time.perf_counter() - t0
            t0 = time.perf_counter()
            r2 = validate_files(d / f"{mod.inner}.tla", inner_cfg, [mod.windows_file], mapping=mapping)
            s2 = time.perf_counter() - t0
            fail1 = sorted(w.id for w in r1.windows if not w.ok)
            fail2 = sorted(w.id for w in r2.windows if not w.ok)
            tlc, ts = "-", ""
            if args.tlc:
                passed, n, secs = tlc_counts(module, args.tlc, args.workers)
                tlc, ts = f"{len(passed)}/{n}", f"{secs:.0f}"
            same = "" if fail1 == fail2 else f" (mapping: {fail2})"
            print(f"| {d.name} | {mod.action} | {tlc} | {ts} | {r1.passed}/{r1.total} | {s1:.1f} | "
                  f"{r2.passed}/{r2.total} | {s2:.1f} | {fail1 or '-'}{same} |")


if __name__ == "__main__":
    main()
