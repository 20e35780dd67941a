"""Seeded mutations of the bundled spin lock's inputs (trace lines, mapping YAML, task.yaml, .cfg)
through the real CLI: whatever the damage, the answer is a verdict or a located error, never a
traceback or an "internal error". (Found: a nodes.constant naming an operator, task.yaml list
fields of another type, an action-level INVARIANT.)"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
import yaml

from specula.cli import main

REPO = Path(__file__).resolve().parents[2]
SPIN = REPO / "benchmarks" / "systems" / "spinlock"
ODD = [None, 3, "zz", [], {}, True, [1, "a"], {"q": 1}, "-", -5, 1.5]


def _run(capsys, *args: object) -> int:
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err, (args, out + err)
    return rc


def _mutate(rng: random.Random, obj: object, depth: int = 0) -> None:
    keys = list(obj) if isinstance(obj, dict) else list(range(len(obj))) if isinstance(obj, list) else []
    if not keys:
        return
    k = rng.choice(keys)
    child = obj[k]  # type: ignore[index]
    if depth < 2 and isinstance(child, (dict, list)) and child and rng.random() < 0.6:
        _mutate(rng, child, depth + 1)
    else:
        obj[k] = rng.choice(ODD)  # type: ignore[index]


@pytest.fixture
def spin(tmp_path: Path) -> Path:
    shutil.copy(SPIN / "ref" / "spin.tla", tmp_path)
    shutil.copy(SPIN / "ref" / "spin.cfg", tmp_path)
    return tmp_path / "spin.tla"


@pytest.mark.parametrize("seed", range(3))
def test_damaged_trace_lines(capsys, spin, seed):
    rng = random.Random(seed)
    lines = sorted((SPIN / "traces").glob("*.ndjson"))[0].read_text(encoding="utf-8").splitlines()
    for k in range(8):
        ls = list(lines)
        i = rng.randrange(1, len(ls))
        obj = json.loads(ls[i])
        if k % 4 == 0:
            ls[i] = ls[i][: rng.randrange(len(ls[i]))]  # cut
        elif k % 4 == 1:
            del ls[i]
        else:
            _mutate(rng, obj)
            ls[i] = json.dumps(obj)
        f = spin.parent / f"t{k}.ndjson"
        f.write_text("\n".join(ls) + "\n", encoding="utf-8")
        assert _run(capsys, "validate", spin, "-w", f, "-m", SPIN / "mapping.yaml", "--whole-trace") in (0, 1)


@pytest.mark.parametrize("seed", range(3))
def test_damaged_mapping_cfg_and_task(capsys, spin, tmp_path, seed):
    rng = random.Random(seed)
    trace = sorted((SPIN / "traces").glob("*.ndjson"))[0]
    for k in range(4):
        m = yaml.safe_load((SPIN / "mapping.yaml").read_text(encoding="utf-8"))
        _mutate(rng, m)
        mf = tmp_path / f"m{k}.yaml"
        mf.write_text(yaml.safe_dump(m), encoding="utf-8")
        assert _run(capsys, "validate", spin, "-w", trace, "-m", mf) in (0, 1, 2)

        toks = (SPIN / "ref" / "spin.cfg").read_text(encoding="utf-8").split(" ")
        toks[rng.randrange(len(toks))] = rng.choice(["", "{", "}", "<<", "=", "INIT", "<-", '"', "1", "CONSTANT", "x"])
        cf = tmp_path / f"c{k}.cfg"
        cf.write_text(" ".join(toks), encoding="utf-8")
        assert _run(capsys, "check", spin, "-c", cf, "--max-seconds", "2") in (0, 1, 2, 3)

        task = tmp_path / f"task{k}"
        shutil.copytree(SPIN, task, ignore=shutil.ignore_patterns("build", "*.o"))
        for name in ("task.yaml", "invariants.yaml"):
            data = yaml.safe_load((SPIN / name).read_text(encoding="utf-8"))
            _mutate(rng, data)
            (task / name).write_text(yaml.safe_dump(data), encoding="utf-8")
        assert _run(capsys, "eval", spin, "--task", task, "--phase", "syntax") in (0, 2)
