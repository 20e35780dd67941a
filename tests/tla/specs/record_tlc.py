"""Record TLC's verdict and state counts for every spec here into expected.json.

Run: SPECULA_TLA2TOOLS=/work/ext/tla2tools.jar python tests/tla/specs/record_tlc.py [Name ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "benchmarks" / "perf"))

from checker_tlc import run_tlc  # noqa: E402


def main(names: list[str]) -> None:
    path = HERE / "expected.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    specs = sorted(p.stem for p in HERE.glob("*.cfg"))
    for name in names or specs:
        r = run_tlc(HERE / f"{name}.tla", HERE / f"{name}.cfg", timeout=300)
        data[name] = r.to_dict()
        print(name, r.to_dict(), f"{r.seconds:.1f}s", flush=True)
        if r.verdict in ("error", "unknown"):
            print(r.output[-1500:])
    path.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
