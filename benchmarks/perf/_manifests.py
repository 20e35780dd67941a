"""tlaplus/Examples manifest models for the agreement scripts (examples_vs_tlc, liveness_examples)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

RESULTS = ("success", "safety failure", "liveness failure")


def manifest_models(
    examples: Path,
    only: str | None,
    runtime_ok: Callable[[int], bool],
    keep: Callable[[Path], bool] = lambda cfg: True,
) -> list[tuple[Path, Path, dict]]:
    """(module .tla, model .cfg, manifest entry) of every exhaustive-search model whose recorded TLC
    result is one of RESULTS and whose runtime (seconds) passes ``runtime_ok``; ``only`` filters
    by a substring of the model path, ``keep`` by the cfg."""
    found = []
    for mf in sorted(examples.glob("specifications/*/manifest.json")):
        data = json.loads(mf.read_text())
        for mod in data.get("modules", []):
            for md in mod.get("models", []):
                if md.get("mode") != "exhaustive search" or md.get("result") not in RESULTS:
                    continue
                try:
                    h, m, s = (int(x) for x in md.get("runtime", "").split(":"))
                except ValueError:
                    continue
                if not runtime_ok(h * 3600 + m * 60 + s):
                    continue
                if only and only not in md["path"]:
                    continue
                cfg = examples / md["path"]
                if keep(cfg):
                    found.append((examples / mod["path"], cfg, md))
    return found
