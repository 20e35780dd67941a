"""The benchmark runner: the modeling agent on each task, best-of-N like SysMoBench.

Each (task, run) is one agent run directory with a deterministic id
(``bench-<entry>-<task>-r<run>``) under ``runs_dir``, run as one job of an executor (the local
pool, or Ray: ``specula.bench.executors``). The driver — this process — alone appends a finished
run's :class:`~specula.bench.results.RunRecord` to the results store; a (entry, task, run) already
in the store is neither rerun nor recorded twice, and a run directory left by an interrupted run
(or by a worker that died) is resumed, not redone.

A record's scores are those of the run's final spec on every phase: the run's own final scorecard
when the agent evaluated every phase on that version, else the task's scorer scores the final
spec here — a spec the agent never fully checked is never ranked on the phases it skipped.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.bench.results import ResultStore, RunRecord
from specula.tasks import Task

__all__ = ["BenchPlan", "run_bench", "run_id_for", "entry_for", "run_one", "record_of_run"]

PHASES = ("syntax", "runtime", "conformance", "invariants")


@dataclass(frozen=True)
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
    invariant_seconds: float = 60.0
    env: dict[str, str] | None = None  # provider keys for in-process runs (Ray workers get theirs from the runtime env)
    retry: Any = None  # specula.agent.providers.RetryPolicy or None (the default policy)


def entry_for(model: str) -> str:
    return f"specula-agent/{model}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:80]


def run_id_for(entry: str, task: str, run: int) -> str:
    return f"bench-{_slug(entry)}-{_slug(task)}-r{run}"


def _scorer(plan: BenchPlan, task: Task) -> Any:
    from specula.bench.scoring import TaskScorer
    from specula.phases import RuntimeSettings

    return TaskScorer(task, plan.runtime or RuntimeSettings(), plan.invariant_seconds)


def _final_card(task: Task, run_dir: Path, scorer: Any) -> tuple[dict[str, Any] | None, Path | None]:
    """The final spec's scorecard on every phase: the run's own when it scored every phase of that
    version, else scored now by ``scorer`` (and written to final/scorecard.json)."""
    final = run_dir / "final"
    spec = final / f"{task.spec_module}.tla"
    if not spec.is_file():
        return None, None
    card_path = final / "scorecard.json"
    if card_path.is_file():
        card = json.loads(card_path.read_text(encoding="utf-8"))
        if tuple(card.get("ran", PHASES)) == PHASES:
            return card, card_path
    card = scorer.score(spec, spec.with_suffix(".cfg")).to_dict()
    card["ran"] = list(PHASES)
    card["scored_by"] = "bench (the run never evaluated every phase of its final spec)"
    card_path.write_text(json.dumps(card, indent=2, default=str) + "\n", encoding="utf-8")
    return card, card_path


def record_of_run(entry: str, task: Task, run: int, run_dir: Path, model: str | None, budget: dict[str, Any],
                  cost: float | None, tokens: int | None, status: str, reason: str | None, scorer: Any) -> RunRecord:
    """The results-store record of a finished run directory — whichever face ran it (``specula
    model``, ``bench run``, ``session``, ``mcp``): the final spec's scores on every phase."""
    card, card_path = _final_card(task, run_dir, scorer)
    scores = {p: 0.0 for p in PHASES}
    overall = 0.0
    if card is not None:
        scores = {p: float(card.get("scores", {}).get(p, 0.0)) for p in PHASES}
        overall = float(card.get("overall", 0.0))
    spec = run_dir / "final" / f"{task.spec_module}.tla"
    return RunRecord(
        entry=entry,
        task=task.name,
        run=run,
        overall=overall,
        scores=scores,
        status="scored" if spec.is_file() else "failed",
        spec=str(spec) if spec.is_file() else None,
        scorecard=str(card_path) if card_path is not None else None,
        run_dir=str(run_dir),
        model=model,
        budget=budget,
        cost_usd=cost,
        tokens=tokens,
        error=None if status in ("converged", "finished", "budget") else reason,
    )


def _record(plan: BenchPlan, entry: str, task: Task, run: int, outcome: Any, run_dir: Path) -> RunRecord:
    budget = plan.budget.to_dict() if plan.budget is not None and hasattr(plan.budget, "to_dict") else {}
    return record_of_run(entry, task, run, run_dir, plan.model, budget, getattr(outcome, "cost", None),
                         getattr(outcome, "tokens", None), getattr(outcome, "status", ""),
                         getattr(outcome, "reason", None), _scorer(plan, task))


def run_one(plan: BenchPlan, entry: str, task: Task, run: int,
            on_event: Callable[[dict[str, Any]], None] | None = None) -> RunRecord | None:
    """One (task, run): start it, or resume the run directory an earlier attempt left; the record
    of a finished run, or None when it stopped resumably (interrupted, provider failure)."""
    from specula.agent.session import RunOptions, resume_run, start_run
    from specula.tasks import with_code

    run_id = run_id_for(entry, task.name, run)
    extra = {"retry": plan.retry} if plan.retry is not None else {}
    opts = RunOptions(model=plan.model, runs_dir=plan.runs_dir, budget=plan.budget, stream=plan.stream,
                      env=plan.env, run_id=run_id,
                      on_event=(lambda e: on_event({**e, "task": task.name, "run": run})) if on_event else None,
                      **extra)
    run_dir = plan.runs_dir / run_id
    if (run_dir / "state.json").is_file():
        agent = resume_run(run_dir, opts, lambda t: _scorer(plan, t))
    else:
        code_task = with_code(task)
        agent = start_run(code_task, opts, _scorer(plan, code_task))
    outcome = agent.run()
    if getattr(outcome, "status", "") in ("interrupted", "provider-error"):
        if on_event:
            on_event({"event": "bench-run-stopped", "task": task.name, "run": run, "status": outcome.status,
                      "reason": outcome.reason})
        return None  # resumable: not recorded, so the next `bench run` continues it
    return _record(plan, entry, task, run, outcome, run_dir)


def run_bench(plan: BenchPlan, store: ResultStore, on_event: Callable[[dict[str, Any]], None] | None = None,
              executor: Any = None) -> list[RunRecord]:
    """Run what is not yet in the store; return the records added. ``executor`` defaults to the
    local pool of ``plan.jobs``; with Ray, the plan goes to the workers without ``env`` (keys
    travel in the cluster's runtime environment) and per-run events stay on the workers."""
    from specula.bench.executors import Job, LocalExecutor, Progress

    entry = plan.entry or entry_for(plan.model)
    todo = [(t, r) for t in plan.tasks for r in range(1, plan.runs + 1) if not store.has(entry, t.name, r)]
    ex = executor or LocalExecutor(jobs=plan.jobs)
    if on_event:
        on_event({"event": "bench-plan", "entry": entry, "todo": [(t.name, r) for t, r in todo],
                  "executor": ex.name})
    local = ex.name == "local"
    # workers write run directories by absolute path; keys never travel with the plan to a cluster
    shipped = dataclasses.replace(plan, runs_dir=Path(plan.runs_dir).resolve(), env=plan.env if local else None)
    jobs = [Job((entry, t.name, r), run_one, (shipped, entry, t, r, on_event if local else None)) for t, r in todo]

    def progress(p: Progress) -> None:
        if on_event:
            on_event({"event": "bench-progress", **p.to_dict()})

    out: list[RunRecord] = []
    for done in ex.run(jobs, Progress(executor=ex.name), progress):
        _, task_name, run = done.job.key
        if done.error is not None:
            if on_event:
                on_event({"event": "bench-run-failed", "task": task_name, "run": run, "error": done.error})
            continue
        rec = done.result
        if rec is None or store.has(entry, rec.task, rec.run):  # stopped resumably, or already counted
            continue
        store.append(rec)
        out.append(rec)
    return out
