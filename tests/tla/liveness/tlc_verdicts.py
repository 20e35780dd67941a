"""Run real TLC on one property at a time and read its verdict (used to record expected.json and
by the differential test).

Run: SPECULA_TLA2TOOLS=/work/ext/tla2tools.jar python tests/tla/liveness/tlc_verdicts.py [Name ...]
records, for every specs/<Name>.cfg, each PROPERTY's verdict ("ok" | "violated") and how TLC's
counterexample ends ("stuttering" | "loop") into expected.json.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPECS = HERE / "specs"


def cfg_properties(text: str) -> tuple[list[str], str]:
    """The PROPERTY names of a cfg and the cfg text without them."""
    names: list[str] = []
    kept: list[str] = []
    in_props = False
    for line in text.splitlines():
        words = line.split()
        if words and words[0] in ("PROPERTY", "PROPERTIES"):
            in_props = True
            names += words[1:]
            continue
        if in_props and words and re.fullmatch(r"[A-Za-z_]\w*", words[0]) and words[0].isupper() is False:
            names += words
            continue
        in_props = False
        kept.append(line)
    return names, "\n".join(kept) + "\n"


def tlc_property(jar: str, tla: Path, cfg_text: str, prop: str, timeout: float = 300) -> dict:
    """TLC's verdict on one property: {"verdict": "ok"|"violated"|"safety"|"error", "end": ...}."""
    _, base = cfg_properties(cfg_text)
    with tempfile.TemporaryDirectory() as d:
        dd = Path(d)
        for f in tla.parent.glob("*.tla"):
            (dd / f.name).write_text(f.read_text())
        (dd / "MC.cfg").write_text(base + f"PROPERTY {prop}\n")
        proc = subprocess.run(
            ["java", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC", "-workers", "1", "-metadir", str(dd / "meta"),
             "-config", "MC.cfg", tla.name],
            cwd=dd, capture_output=True, text=True, timeout=timeout,
        )
    out = proc.stdout
    if "Temporal properties were violated" in out:
        end = ("stuttering" if re.search(r"State \d+: Stuttering", out)
               else "loop" if re.search(r"Back to state \d+", out) else "prefix")
        return {"verdict": "violated", "end": end}
    if "Model checking completed. No error has been found." in out:
        return {"verdict": "ok"}
    if re.search(r"Error: (Invariant|Action property|Deadlock)", out) or "is violated" in out:
        return {"verdict": "safety"}
    return {"verdict": "error", "output": out[-800:]}


def main(names: list[str]) -> None:
    jar = os.environ.get("SPECULA_TLA2TOOLS")
    if not jar:
        sys.exit("set SPECULA_TLA2TOOLS to tla2tools.jar")
    path = HERE / "expected.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    for cfg in sorted(SPECS.glob("*.cfg")):
        if names and cfg.stem not in names:
            continue
        text = cfg.read_text()
        props, _ = cfg_properties(text)
        data[cfg.stem] = {p: tlc_property(jar, cfg.with_suffix(".tla"), text, p) for p in props}
        print(cfg.stem, json.dumps(data[cfg.stem]), flush=True)
    path.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
