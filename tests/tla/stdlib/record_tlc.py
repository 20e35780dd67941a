"""Record TLC's value of every case in cases/*.txt (rewrites the files' right-hand sides).

Run: SPECULA_TLA2TOOLS=/path/tla2tools.jar SPECULA_COMMUNITY_MODULES=/other/CommunityModules.jar:...
     python tests/tla/stdlib/record_tlc.py [Module ...]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tlc_values import case_files, tlc_values, write_cases  # noqa: E402


def main(names: list[str]) -> None:
    jar = os.environ["SPECULA_TLA2TOOLS"]
    for cf in case_files():
        if names and cf.module not in names:
            continue
        with tempfile.TemporaryDirectory() as wd:
            values = tlc_values(jar, cf.extends, [c.expr for c in cf.tlc_cases], Path(wd))
        for c, v in zip(cf.tlc_cases, values):
            c.expected = v
            print(f"{cf.module}: {c.expr} ==> {v}", flush=True)
        write_cases(cf)


if __name__ == "__main__":
    main(sys.argv[1:])
