"""The benchmark runner: the modeling agent on each task, best-of-N like SysMoBench.

Each (task, run) is one agent run directory with a deterministic id
(``bench-<entry>-<task>-r<run>``) under ``runs_dir``. A finished run appends one
:class:`~specula.bench.results.RunRecord` to the results store; a (entry, task, run) already in the
store is skipped, and a run directory left by an interrupted run is resumed, not redone.
The record's scores are the best scorecard of the run (the one in ``final/scorecard.json``).
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.bench.results import ResultStore, RunRecord
from specula.bench.tasks import Task

__all__ = ["BenchPlan", "run_bench", "run_id_for", "entry_for", "record_of_run"]

PHASES = ("syntax", "runtime", "conformance", "invariants")


@dataclass
class BenchPlan:
    tasks: Sequence[Task]
    model: str
    runs: int = 5
    jobs: int = 1
    runs_dir: Path = Path("runs")
    budget: Any = None  # specula.agent.ledger.Budget or None (the agent's default)
    entry: str | None = None
    stream: bool = False
    runtime: Any = None  # specula.phases.RuntimeSettings or None
    env: dict[str, str] | None = None
    retry: Any = None  # specula.agent.providers.RetryPolicy or None (the default policy)


def entry_for(model: str) -> str:
    return f"specula-agent/{model}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:80]


def run_id_for(entry: str, task: str, run: int) -> str:
    return f"bench-{_slug(entry)}-{_slug(task)}-r{run}"


def _record(plan: BenchPlan, entry: str, task: Task, run: int, outcome: Any, run_dir: Path) -> RunRecord:
    budget = plan.budget.to_dict() if plan.budget is not None and hasattr(plan.budget, "to_dict") else {}
    return record_of_run(entry, task.name, task.spec_module, run, run_dir, plan.model, budget,
                         getattr(outcome, "cost", None), getattr(outcome, "tokens", None),
                         getattr(outcome, "status", ""), getattr(outcome, "reason", None))


def record_of_run(entry: str, task: str, module: str, run: int, run_dir: Path, model: str | None,
                  budget: dict[str, Any], cost: float | None, tokens: int | None, status: str,
                  reason: str | None) -> RunRecord:
    """The results-store record of a finished run directory: the scores of its best scorecard
    (final/scorecard.json) — whichever face ran it (``specula model``, ``session``, ``mcp``)."""
    card_path = run_dir / "final" / "scorecard.json"
    scores = {p: 0.0 for p in PHASES}
    overall = 0.0
    if card_path.is_file():
        card = json.loads(card_path.read_text(encoding="utf-8"))
        scores = {p: float(card.get("scores", {}).get(p, 0.0)) for p in PHASES}
        overall = float(card.get("overall", 0.0))
    spec = run_dir / "final" / f"{module}.tla"
    return RunRecord(
        entry=entry,
        task=task,
        run=run,
        overall=overall,
        scores=scores,
        status="scored" if spec.is_file() else "failed",
        spec=str(spec) if spec.is_file() else None,
        scorecard=str(card_path) if card_path.is_file() else None,
        run_dir=str(run_dir),
        model=model,
        budget=budget,
        cost_usd=cost,
        tokens=tokens,
        error=None if status in ("converged", "finished", "budget") else reason,
    )


def _one(plan: BenchPlan, entry: str, task: Task, run: int, store: ResultStore,
         on_event: Callable[[dict[str, Any]], None] | None) -> RunRecord | None:
    from specula.agent.session import RunOptions, resume_run, start_run
    from specula.agent.task import from_bench

    run_id = run_id_for(entry, task.name, run)
    extra = {"retry": plan.retry} if plan.retry is not None else {}
    opts = RunOptions(model=plan.model, runs_dir=plan.runs_dir, budget=plan.budget, stream=plan.stream,
                      runtime=plan.runtime, env=plan.env, run_id=run_id,
                      on_event=(lambda e: on_event({**e, "task": task.name, "run": run})) if on_event else None,
                      **extra)
    run_dir = plan.runs_dir / run_id
    if (run_dir / "state.json").is_file():
        agent = resume_run(run_dir, opts)
    else:
        agent = start_run(from_bench(task), opts)
    outcome = agent.run()
    if getattr(outcome, "status", "") in ("interrupted", "provider-error"):
        if on_event:
            on_event({"event": "bench-run-stopped", "task": task.name, "run": run, "status": outcome.status,
                      "reason": outcome.reason})
        return None  # resumable: not recorded, so the next `bench run` continues it
    rec = _record(plan, entry, task, run, outcome, run_dir)
    store.append(rec)
    return rec


def run_bench(plan: BenchPlan, store: ResultStore,
              on_event: Callable[[dict[str, Any]], None] | None = None) -> list[RunRecord]:
    """Run what is not yet in the store; return the records added."""
    entry = plan.entry or entry_for(plan.model)
    todo = [(t, r) for t in plan.tasks for r in range(1, plan.runs + 1) if not store.has(entry, t.name, r)]
    if on_event:
        on_event({"event": "bench-plan", "entry": entry, "todo": [(t.name, r) for t, r in todo]})
    out: list[RunRecord] = []
    if plan.jobs <= 1:
        for t, r in todo:
            rec = _one(plan, entry, t, r, store, on_event)
            if rec is not None:
                out.append(rec)
        return out
    with ThreadPoolExecutor(max_workers=plan.jobs) as pool:
        futures = [pool.submit(_one, plan, entry, t, r, store, on_event) for t, r in todo]
        for f in futures:
            rec = f.result()
            if rec is not None:
                out.append(rec)
    return out
