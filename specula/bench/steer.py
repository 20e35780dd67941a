"""`specula bench traces SYSTEM --until-coverage`: record traces until coverage stops growing.

Rounds of ``batch`` runs each. A round uses fresh seeds and one configuration of the harness's
``explore`` options (task.yaml ``harness.explore``: schedules, step counts, fault rates, node
counts); configurations not tried yet go first, then the one whose latest round added the
most (ties: the least tried). After each round only what is still uncovered is checked
on the new traces: spec actions without an accepted window, spec branches no window exercised
(``specula.coverage``, against the task's reference spec or ``spec``), and implementation branch
points (``specula.bench.pycov`` for Python harnesses, ``specula.bench.implcov`` for C and Java). The loop stops after ``patience`` rounds in a
row that added nothing, when nothing is left uncovered, or after ``max_rounds``.
"""

from __future__ import annotations

import itertools
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from specula.bench.harness import IMPL_COVERAGE_FILE, resolve_task, run_harness, trace_file_name
from specula.tasks import Task

__all__ = ["SteerRound", "SteerResult", "until_coverage"]


@dataclass
class SteerRound:
    index: int
    options: dict[str, str]
    seeds: tuple[int, int]  # first, last
    new: list[str] = field(default_factory=list)  # newly covered spec actions/branches
    new_impl: int = 0  # newly reached implementation branch points
    spec_covered: int = 0  # totals after the round
    impl_covered: int = 0

    @property
    def gain(self) -> int:
        return len(self.new) + self.new_impl

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.index, "options": self.options, "seeds": list(self.seeds), "gain": self.gain,
                "new": self.new, "new_impl": self.new_impl, "spec_covered": self.spec_covered,
                "impl_covered": self.impl_covered}


@dataclass
class SteerResult:
    system: str
    files: list[Path] = field(default_factory=list)
    rounds: list[SteerRound] = field(default_factory=list)
    spec: str = ""
    spec_items: int = 0  # actions + branches of the spec
    spec_covered: set[str] = field(default_factory=set)
    impl: dict | None = None
    stopped: str = ""
    uncovered: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": "specula.bench.steer/1", "system": self.system, "spec": self.spec,
                "files": [str(f) for f in self.files], "rounds": [r.to_dict() for r in self.rounds],
                "spec_items": self.spec_items, "spec_covered": len(self.spec_covered),
                "uncovered": self.uncovered, "impl_branches": (self.impl or {}).get("branches"),
                "impl_covered": (self.impl or {}).get("covered"), "stopped": self.stopped}

    def render(self) -> str:
        out = [f"{self.system}: {len(self.files)} traces in {len(self.rounds)} rounds; stopped: {self.stopped}"]
        for r in self.rounds:
            opts = " ".join(f"{k} {v}" for k, v in r.options.items()) or "(defaults)"
            out.append(f"  round {r.index}: seeds {r.seeds[0]}-{r.seeds[1]} {opts}: +{len(r.new)} spec, "
                       f"+{r.new_impl} impl -> spec {r.spec_covered}/{self.spec_items}"
                       + (f", impl {r.impl_covered}/{(self.impl or {}).get('branches', 0)}" if self.impl else ""))
        if self.uncovered:
            out.append("  still uncovered: " + ", ".join(self.uncovered[:20]) + (" …" if len(self.uncovered) > 20 else ""))
        return "\n".join(out)


def _configs(task: Task) -> list[dict[str, str]]:
    explore = task.harness.explore if task.harness else ()
    if not explore:
        return [{}]
    keys = [k for k, _ in explore]
    combos = list(itertools.product(*[v for _, v in explore]))[:32]
    return [dict(zip(keys, c)) for c in combos]


def _pick(configs: list[dict[str, str]], gains: dict[int, list[int]]) -> int:
    untried = [i for i in range(len(configs)) if i not in gains]
    if untried:
        return untried[0]
    # the gain of a configuration's latest round (the first round of all gains most, whatever it ran),
    # ties to the least tried
    return max(range(len(configs)), key=lambda i: (gains[i][-1], -len(gains[i])))


def until_coverage(system: str | Task, out_dir: Path, *, seed: int = 0, batch: int = 3, patience: int = 2,
                   max_rounds: int = 12, spec: Path | None = None, cfg: Path | None = None,
                   mapping: Path | None = None, systems_dir: Path | None = None,
                   on_round: Callable[[SteerRound], None] | None = None) -> SteerResult:
    """Record traces of ``system`` into ``out_dir`` round by round until coverage stops growing."""
    from specula.bench.pycov import merge
    from specula.coverage.spec import spec_coverage

    task = resolve_task(system, systems_dir)
    spec = spec or task.reference_spec
    cfg = cfg or task.reference_cfg
    mapping = mapping or task.mapping
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    result = SteerResult(task.name, spec=str(spec or ""))
    configs = _configs(task)
    gains: dict[int, list[int]] = {}
    stale = 0
    next_seed = seed
    all_items: set[str] | None = None
    for r in range(max_rounds):
        ci = _pick(configs, gains)
        opts = configs[ci]
        with tempfile.TemporaryDirectory(prefix="specula-steer-") as tmp:
            files = run_harness(task, runs=batch, seed=next_seed, out_dir=Path(tmp), options=opts, impl_coverage=True)
            round_dir = out / f"round-{r:02d}"
            round_dir.mkdir(parents=True, exist_ok=True)
            moved = []
            for i, f in enumerate(files):
                dst = out / trace_file_name(len(result.files) + i)
                shutil.move(str(f), dst)
                moved.append(dst)
                shutil.copyfile(dst, round_dir / dst.name)
            impl_file = Path(tmp) / IMPL_COVERAGE_FILE
            impl_round = json.loads(impl_file.read_text(encoding="utf-8")) if impl_file.is_file() else None
        rnd = SteerRound(r, opts, (next_seed, next_seed + batch - 1))
        next_seed += batch
        result.files += moved
        if spec is not None:
            rep = spec_coverage(spec, [round_dir], cfg_path=cfg, mapping=mapping, known=result.spec_covered)
            if all_items is None:
                all_items = {a.action for a in rep.actions} | {b.branch.id for a in rep.actions for b in a.branches}
                result.spec_items = len(all_items)
            new = rep.covered_ids() - result.spec_covered
            rnd.new = sorted(new)
            result.spec_covered |= new
        shutil.rmtree(round_dir, ignore_errors=True)
        before = (result.impl or {}).get("covered", 0)
        result.impl = merge(result.impl, impl_round)
        rnd.new_impl = (result.impl or {}).get("covered", 0) - before
        rnd.spec_covered = len(result.spec_covered)
        rnd.impl_covered = (result.impl or {}).get("covered", 0)
        result.rounds.append(rnd)
        gains.setdefault(ci, []).append(rnd.gain)
        if on_round is not None:
            on_round(rnd)
        stale = 0 if rnd.gain else stale + 1
        spec_done = all_items is not None and result.spec_covered >= all_items
        impl_done = result.impl is None or result.impl.get("covered") == result.impl.get("branches")
        if spec_done and impl_done:
            result.stopped = "everything covered"
            break
        if stale >= patience:
            result.stopped = f"no new coverage in {patience} rounds"
            break
    else:
        result.stopped = f"{max_rounds} rounds"
    result.uncovered = sorted((all_items or set()) - result.spec_covered)
    if result.impl is not None:
        (out / IMPL_COVERAGE_FILE).write_text(json.dumps(result.impl, indent=1) + "\n", encoding="utf-8")
    return result
