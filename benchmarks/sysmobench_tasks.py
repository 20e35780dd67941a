"""The SysMoBench task table of docs/tasks.md: per task, which spec was scored, which phases ran,
the scores, and what (if anything) kept a phase from running.

    python benchmarks/sysmobench_tasks.py --sysmobench PATH [--seconds 20] [--write docs/tasks.md]

PATH is a checkout of specula-org/SysMoBench. The spec scored for a task is the first one the
checkout ships for it: `data/spec/<task>/**/<Module>.tla` (LLM-written specs of the paper),
else `data/spec_reproduce_bugs/<task>/*.tla` (bug-reproducing specs); a task with neither is
listed with "no spec shipped". Each phase runs with the given search limit (SysMoBench uses 60 s).
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- sysmobench-table:begin -->", "<!-- sysmobench-table:end -->"
PHASES = ("syntax", "runtime", "conformance", "invariants")


def shipped_spec(checkout: Path, task: str, module: str) -> Path | None:
    for base in (checkout / "data" / "spec" / task, checkout / "data" / "spec_reproduce_bugs" / task):
        if base.is_dir():
            found = sorted(p for p in base.rglob("*.tla") if p.stem == module or p.stem.endswith("_" + module))
            if found:
                claude = [p for p in found if "claude" in p.parts]
                return (claude or found)[0]
    return None


def row(checkout: Path, task, seconds: float) -> str:
    from specula.bench.scoring import eval_spec, task_data
    from specula.errors import SpeculaError
    from specula.phases import RuntimeSettings

    spec = shipped_spec(checkout, task.name, task.spec_module)
    if spec is None:
        kept = "; ".join(task.missing()) or "-"
        return f"| {task.name} | no spec shipped | none | - | - | - | - | - | {kept} |"
    rel = spec.relative_to(checkout)
    cfg = spec.with_suffix(".cfg")
    t0 = time.perf_counter()
    try:
        card = eval_spec(spec, task, cfg if cfg.is_file() else None, data=task_data(task),
                         runtime=RuntimeSettings(check_seconds=seconds, runs=5, run_seconds=seconds),
                         invariant_seconds=seconds)
    except SpeculaError as exc:
        return f"| {task.name} | `{rel}` | none | - | - | - | - | - | {str(exc)[:120]} |"
    wall = time.perf_counter() - t0
    ran = [p for p in PHASES if p in card.phases and not card.phases[p].skipped]
    reasons = [f"{p}: {card.phases[p].skipped}" for p in PHASES if p in card.phases and card.phases[p].skipped]
    reasons += [f"{p} scored 0: {_first_cause(card.phases[p].summary)}" for p in ran
                if card.score(p) == 0.0 and card.phases[p].summary]
    scores = " | ".join(f"{card.score(p):.3f}" for p in PHASES)
    why = re.sub(r"\s+", " ", "; ".join(reasons)).replace("|", "/") or "-"
    return (f"| {task.name} | `{rel}` | {', '.join(ran) or 'none'} | {scores} | {card.overall:.3f} | {why} "
            f"({wall:.0f} s) |")


def _first_cause(summary: str) -> str:
    """The first line of a phase summary that says why (an error, or a failing run/window)."""
    lines = [ln.strip() for ln in summary.splitlines() if ln.strip()]
    pick = next((ln for ln in lines if "error" in ln or " at " in ln), lines[0] if lines else "")
    return pick[:160]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sysmobench", required=True, type=Path)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--write", type=Path, help="replace the table between the markers in this file")
    args = ap.parse_args()
    from specula.tasks import list_tasks

    tasks = [t for t in list_tasks(str(args.sysmobench)) if t.kind == "sysmobench"]
    lines = ["| task | spec scored | phases run | syntax | runtime | conformance | invariants | overall | "
             "what kept a phase from running, or why it scored 0 |", "|---|---|---|---:|---:|---:|---:|---:|---|"]
    for t in tasks:
        lines.append(row(args.sysmobench, t, args.seconds))
        print(lines[-1], flush=True)
    table = "\n".join(lines)
    if args.write:
        text = args.write.read_text(encoding="utf-8")
        block = f"{BEGIN}\n{table}\n{END}"
        if BEGIN in text:
            text = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), lambda _: block, text, flags=re.S)
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
        args.write.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
