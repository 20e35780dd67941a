"""Score a spec against a task: gather the task's windows, mapping and invariant templates,
translate templates statically (no LLM), and run the four phases with the cascade.

``specula eval SPEC --task TASK`` and ``specula bench eval`` call :func:`eval_spec`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

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
from specula.tasks import Task

__all__ = ["TaskData", "TaskScorer", "task_data", "eval_spec", "find_specs", "eval_spec_dir", "eval_one"]


@dataclass
class TaskData:
    """Everything phase 3 and 4 need from a task, read once."""

    windows: list[Any] | None
    mapping: Any
    issues: list[Any] = field(default_factory=list)
    templates: list[InvariantTemplate] = field(default_factory=list)
    #: PGo tasks with their MPCal reference: (run folders, PgoSetup), validated whole as SysMoBench does
    tracelink: tuple[list[Path], Any] | None = None
    wv_modules: list[Path] = field(default_factory=list)  # SysMoBench WV_<Action>.tla given as traces


def task_data(task: Task, mapping_path: Path | None = None, trace_paths: Sequence[Path] = ()) -> TaskData:
    """Windows (one per target-action event), the mapping and the invariant templates of a task."""
    from specula.traces import iter_windows, load_mapping

    mp = mapping_path or task.mapping
    mapping = load_mapping(mp) if mp is not None else None  # a mapping named but missing is an error
    from specula.traces import cut_windows
    from specula.traces.pgo import is_tracelink_run, read_tracelink_run

    from specula.phases.tracelink import pgo_setup

    if trace_paths:  # given traces replace the task's; folders are expanded as the task's are
        from specula.tasks import with_overrides

        task = with_overrides(task, traces=trace_paths)
    runs = [Path(p) for p in task.trace_paths() if is_tracelink_run(p)]
    setup = pgo_setup(runs[0].parent, task.spec_module, task) if runs else None
    if setup is not None:  # PGo: whole runs against the MPCal reference, not windows
        templates = load_templates(task.invariants) if task.invariants and task.invariants.is_file() else []
        return TaskData(windows=None, mapping=mapping, templates=templates, tracelink=(runs, setup))
    files = task.trace_paths()
    declared = task.fields.get("traces") if isinstance(task.fields, Mapping) else None
    if not task.trace_inputs and declared and (task.traces_dir is None or not Path(task.traces_dir).exists()):
        from specula.errors import ConfigError

        raise ConfigError(f"traces: {task.traces_dir or declared} does not exist (record traces with "
                          f"`specula bench traces {task.name}` or fix the path)",
                          str(task.task_file) if task.task_file else None, field="traces")
    issues: list[Any] = []
    windows: list[Any] | None = None
    wv_modules: list[Path] = []
    if files:
        targets = set(task.target_actions)
        windows = []
        from specula.traces.wv import is_wv_module

        for f in files:
            if is_wv_module(f):  # run as it is in phase 3 (docs/windows.md)
                wv_modules.append(Path(f))
                continue
            src = cut_windows(read_tracelink_run(f, issues)) if is_tracelink_run(f) else iter_windows(f, issues)
            for w in src:
                spec_action = mapping.spec_action(w.action) if mapping is not None else w.action
                if not targets or spec_action in targets:
                    windows.append(w)
    templates = load_templates(task.invariants) if task.invariants and task.invariants.is_file() else []
    return TaskData(windows=windows, mapping=mapping, issues=issues, templates=templates, wv_modules=wv_modules)


def eval_spec(
    spec: Path,
    task: Task,
    cfg: Path | None = None,
    *,
    data: TaskData | None = None,
    translations: Path | None = None,
    invariant_defs: Sequence[InvariantDef] | None = None,
    untranslated: Sequence[InvariantTemplate] = (),
    runtime: RuntimeSettings = RuntimeSettings(),
    invariant_seconds: float = 60.0,
    only: Sequence[str] = (),
    on_phase: Callable[[str, PhaseScore], None] | None = None,
    coverage: bool = False,
    strict: bool = False,
    on_progress: Callable[[str], None] | None = None,
    refinement: str | None = None,
) -> Scorecard:
    """Run the four phases on ``spec`` for ``task``; ``invariant_defs`` overrides translation.
    ``coverage`` also measures how many of the spec's actions and branches the scored windows
    exercise (``card.meta["coverage"]``, shown beside conformance)."""
    data = data or task_data(task)
    strict = strict or runtime.strict  # one --strict for every phase's search
    untranslated = list(untranslated)
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
            tracelink=data.tracelink,
            refinement=refinement,
            mapping=data.mapping,
            wv_modules=list(data.wv_modules),
            invariant_defs=list(invariant_defs),
            untranslated=untranslated,
            target_actions=list(task.target_actions),
            runtime=runtime,
            invariant_seconds=invariant_seconds,
            only=only,
            strict=strict,
            on_progress=on_progress,
        ),
        on_phase=on_phase,
    )
    card.meta["windows"] = len(data.windows) if data.windows is not None else None
    if data.tracelink is not None and refinement:
        card.meta["refinement"] = refinement  # the mapping phase 3 validated the runs through
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


@dataclass
class TaskScorer:
    """The scorer a modeling agent receives: the task's phase inputs read once, and the four
    phases with the cascade on a spec (the same code as ``specula eval``)."""

    task: Task
    runtime: RuntimeSettings = field(default_factory=RuntimeSettings)
    invariant_seconds: float = 60.0
    _data: TaskData | None = field(default=None, repr=False)
    on_progress: Callable[[str], None] | None = field(default=None, repr=False)  # phase, invariant, states, rate

    def data(self) -> TaskData:
        if self._data is None:
            self._data = task_data(self.task)
        return self._data

    def score(self, spec: Path, cfg: Path | None = None, *, only: Sequence[str] = (),
              invariant_defs: Sequence[InvariantDef] | None = None,
              untranslated: Sequence[InvariantTemplate] = (), refinement: str | None = None) -> Scorecard:
        return eval_spec(spec, self.task, cfg, data=self.data(), invariant_defs=invariant_defs,
                         untranslated=untranslated, runtime=self.runtime,
                         invariant_seconds=self.invariant_seconds, only=only, refinement=refinement,
                         on_progress=self.on_progress)


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


def eval_one(spec: Path, task: Task, entry: str, run: int, runtime: RuntimeSettings = RuntimeSettings(),
             invariant_seconds: float = 60.0, on_progress: Callable[[str], None] | None = None) -> Any:
    """Score one spec (one job of ``bench eval``): its scorecard beside it, its record returned."""
    from specula.bench.results import RunRecord

    card = eval_spec(spec, task, spec.with_suffix(".cfg"), runtime=runtime, invariant_seconds=invariant_seconds,
                     on_progress=on_progress)
    card_path = spec.with_name(spec.stem + ".scorecard.json")
    card_path.write_text(card.to_json() + "\n", encoding="utf-8")
    return RunRecord(entry=entry, task=task.name, run=run, overall=card.overall,
                     scores={p: card.score(p) for p in ("syntax", "runtime", "conformance", "invariants")},
                     spec=str(spec), scorecard=str(card_path), strict=runtime.strict, not_exhaustive=card.limit_notes())


def eval_spec_dir(
    spec_dir: Path,
    tasks: Sequence[Task],
    entry: str,
    store: Any,
    runtime: RuntimeSettings = RuntimeSettings(),
    invariant_seconds: float = 60.0,
    on_record: Callable[[Any], None] | None = None,
    executor: Any = None,
    on_progress: Callable[[Any], None] | None = None,
    on_failure: Callable[[tuple[Any, ...], str], None] | None = None,
    rescore: bool = False,
    kept: list[tuple[str, int]] | None = None,
    on_line: Callable[[str], None] | None = None,
) -> list[Any]:
    """Score every spec found for ``tasks`` and append a record per (task, run) not yet stored
    (``rescore``: also those stored, the new record replacing the old on the leaderboard; runs
    kept as stored are appended to ``kept`` as (task, run)). Specs are scored by ``executor``
    (default: one at a time here); this process alone writes the store, so a campaign
    interrupted anywhere resumes without redoing or doubling a record."""
    from specula.bench.executors import Job, LocalExecutor, Progress

    ex = executor or LocalExecutor()

    def lines_of(task: str, run: int) -> Callable[[str], None] | None:
        # progress inside a spec's scoring (phase, invariant, states, rate): for jobs run in this process
        if on_line is None or not isinstance(ex, LocalExecutor):
            return None
        return lambda text: on_line(f"{task} run {run}: {text}")

    jobs = []
    for task in tasks:
        for run, spec in find_specs(spec_dir, task):
            if not rescore and store.has(entry, task.name, run):
                if kept is not None:
                    kept.append((task.name, run))
                continue
            jobs.append(Job((entry, task.name, run), eval_one,
                            (spec, task, entry, run, runtime, invariant_seconds, lines_of(task.name, run))))
    out = []
    for done in ex.run(jobs, Progress(executor=ex.name), on_progress):
        if done.error is not None or done.result is None:
            if on_failure:  # that spec's failure; the others are still scored
                on_failure(done.job.key, done.error or "no result")
            continue
        rec = done.result
        if not rescore and store.has(rec.entry, rec.task, rec.run):  # never counted twice
            continue
        store.append(rec)
        out.append(rec)
        if on_record:
            on_record(rec)
    return out
