"""Load every .tla file of tlaplus/Examples with specula's front end and report false errors.

SANY accepts every module of that repository (given the community modules on its library
path), so each error specula reports is a false error — unless SANY, run here with the same
library path, rejects the file too (a module missing from this machine). With SPECULA_TLA2TOOLS
set, every file specula rejects is re-checked with SANY and classified.

    python benchmarks/perf/frontend_examples.py [--examples /work/ext/examples]
        [--library /work/ext/cmtla] [--verbose]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

from specula.errors import SpecError
from specula.tla.loading import load


def sany_accepts(jar: str, path: Path, library: Path) -> bool:
    out = subprocess.run(["java", f"-DTLA-Library={library}", "-cp", jar, "tla2sany.SANY", path.name],
                         cwd=path.parent, capture_output=True, text=True, timeout=300)
    text = out.stdout + out.stderr
    return not any(m in text for m in ("*** Errors", "Fatal", "***Parse Error***", "Lexical", "Unknown operator",
                                       "Cannot find source file"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", default="/work/ext/examples")
    ap.add_argument("--library", default="/work/ext/cmtla", help="community modules (TLC's -DTLA-Library)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    files = sorted(Path(args.examples).rglob("*.tla"))
    library = Path(args.library)
    jar = os.environ.get("SPECULA_TLA2TOOLS")
    failed: list[tuple[Path, SpecError]] = []
    t0 = time.perf_counter()
    for f in files:
        try:
            load(f, search_path=[library] if library.is_dir() else [])
        except SpecError as exc:
            failed.append((f, exc))
    elapsed = time.perf_counter() - t0
    false_errors = 0
    for f, exc in failed:
        first = exc.diagnostics()[0]
        verdict = "rejected"
        if jar:
            agreed = not sany_accepts(jar, f, library)
            verdict = "SANY also rejects (missing module here)" if agreed else "FALSE ERROR (SANY accepts)"
            false_errors += 0 if agreed else 1
        print(f"{first.location()}: [{first.code}] {first.message}  -- {verdict}")
        if args.verbose:
            for d in exc.diagnostics()[1:]:
                print(f"    {d.location()}: [{d.code}] {d.message}")
    print(f"{len(files)} modules, {len(files) - len(failed)} loaded, {len(failed)} rejected "
          f"in {elapsed:.1f} s ({elapsed / max(1, len(files)) * 1000:.0f} ms per module)")
    if jar:
        print(f"false errors (SANY accepts, specula rejects): {false_errors}")
    else:
        print("set SPECULA_TLA2TOOLS to classify rejections with SANY")
    return 1 if (false_errors if jar else len(failed)) else 0


if __name__ == "__main__":
    raise SystemExit(main())
