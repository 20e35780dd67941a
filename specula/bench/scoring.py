"""Score a spec against a task: gather the task's windows, mapping and invariant templates,
translate templates statically (no LLM), and run the four phases with the cascade.

``specula eval SPEC --task TASK`` and ``specula bench eval`` call :func:`eval_spec`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.bench.tasks import Task
from specula.phases import (
    EvalInputs,
    InvariantDef,
    InvariantTemplate,
    PhaseScore,
    RuntimeSettings,
    Scorecard,
    evaluate,
    load_templates,
    load_translations,
    translate_static,
)

__all__ = ["TaskData", "task_data", "eval_spec", "find_specs", "eval_spec_dir"]


@dataclass
class TaskData:
    """Everything phase 3 and 4 need from a task, read once."""

    windows: list[Any] | None
    mapping: Any
    issues: list[Any] = field(default_factory=list)
    templates: list[InvariantTemplate] = field(default_factory=list)


def task_data(task: Task, mapping_path: Path | None = None, trace_paths: Sequence[Path] = ()) -> TaskData:
    """Windows (one per target-action event), the mapping and the invariant templates of a task."""
    from specula.traces import iter_windows, load_mapping

    mp = mapping_path or task.mapping
    mapping = load_mapping(mp) if mp is not None else None  # a mapping named but missing is an error
    from specula.traces import cut_windows
    from specula.traces.pgo import is_tracelink_run, read_tracelink_run

    files = list(trace_paths) or (task.window_files + task.trace_files() + task.tracelink_runs())
    issues: list[Any] = []
    windows: list[Any] | None = None
    if files:
        targets = set(task.target_actions)
        windows = []
        for f in files:
            src = cut_windows(read_tracelink_run(f, issues)) if is_tracelink_run(f) else iter_windows(f, issues)
            for w in src:
                spec_action = mapping.spec_action(w.action) if mapping is not None else w.action
                if not targets or spec_action in targets:
                    windows.append(w)
    templates = load_templates(task.invariants) if task.invariants and task.invariants.is_file() else []
    return TaskData(windows=windows, mapping=mapping, issues=issues, templates=templates)


def eval_spec(
    spec: Path,
    task: Task,
    cfg: Path | None = None,
    *,
    data: TaskData | None = None,
    translations: Path | None = None,
    invariant_defs: Sequence[InvariantDef] | None = None,
    runtime: RuntimeSettings = RuntimeSettings(),
    invariant_seconds: float = 60.0,
    only: Sequence[str] = (),
    on_phase: Callable[[str, PhaseScore], None] | None = None,
    coverage: bool = False,
) -> Scorecard:
    """Run the four phases on ``spec`` for ``task``; ``invariant_defs`` overrides translation.
    ``coverage`` also measures how many of the spec's actions and branches the scored windows
    exercise (``card.meta["coverage"]``, shown beside conformance)."""
    data = data or task_data(task)
    untranslated: list[InvariantTemplate] = []
    if invariant_defs is None:
        given = load_translations(translations or task.translations) if (translations or task.translations) else None
        defs: list[InvariantDef] = []
        if data.templates:
            defs, untranslated = translate_static(data.templates, spec, given)
        invariant_defs = defs
    cfg = cfg or spec.with_suffix(".cfg")
    card = evaluate(
        EvalInputs(
            spec=spec,
            cfg=cfg,
            task=task.name,
            windows=data.windows,
            mapping=data.mapping,
            invariant_defs=list(invariant_defs),
            untranslated=untranslated,
            target_actions=task.target_actions,
            runtime=runtime,
            invariant_seconds=invariant_seconds,
            only=only,
        ),
        on_phase=on_phase,
    )
    card.meta["windows"] = len(data.windows) if data.windows is not None else None
    card.meta["trace_issues"] = len(data.issues)
    card.meta["invariants_translated"] = len(invariant_defs)
    card.meta["invariants_untranslated"] = [t.name for t in untranslated]
    p3 = card.phases.get("conformance")
    if coverage and data.windows and p3 is not None and not p3.skipped:
        from specula.coverage import windows_coverage

        try:
            card.meta["coverage"] = windows_coverage(spec, data.windows, cfg_path=cfg, mapping=data.mapping).summary()
        except Exception as exc:  # noqa: BLE001 - coverage is extra information; the scores stand
            card.meta["coverage"] = {"error": f"{type(exc).__name__}: {exc}"}
    return card


def find_specs(spec_dir: Path, task: Task) -> list[tuple[int, Path]]:
    """Specs for ``task`` under ``spec_dir``: ``<dir>/<task>/<Module>.tla`` (run 1) or
    ``<dir>/<task>/<run>/<Module>.tla`` (runs numbered in sorted folder order)."""
    base = spec_dir / task.name
    if not base.is_dir():
        return []
    module = f"{task.spec_module}.tla"
    if (base / module).is_file():
        return [(1, base / module)]
    runs = [d for d in sorted(base.iterdir()) if d.is_dir() and (d / module).is_file()]
    return [(i, d / module) for i, d in enumerate(runs, 1)]


def eval_spec_dir(
    spec_dir: Path,
    tasks: Sequence[Task],
    entry: str,
    store: Any,
    runtime: RuntimeSettings = RuntimeSettings(),
    invariant_seconds: float = 60.0,
    on_record: Callable[[Any], None] | None = None,
) -> list[Any]:
    """Score every spec found for ``tasks`` and append a record per (task, run) not yet stored."""
    from specula.bench.results import RunRecord

    out = []
    for task in tasks:
        data = None
        for run, spec in find_specs(spec_dir, task):
            if store.has(entry, task.name, run):
                continue
            data = data or task_data(task)
            card = eval_spec(spec, task, spec.with_suffix(".cfg"), data=data, runtime=runtime,
                             invariant_seconds=invariant_seconds)
            card_path = spec.with_name(spec.stem + ".scorecard.json")
            card_path.write_text(card.to_json() + "\n", encoding="utf-8")
            rec = RunRecord(
                entry=entry,
                task=task.name,
                run=run,
                overall=card.overall,
                scores={p: card.score(p) for p in ("syntax", "runtime", "conformance", "invariants")},
                spec=str(spec),
                scorecard=str(card_path),
            )
            store.append(rec)
            out.append(rec)
            if on_record:
                on_record(rec)
    return out
