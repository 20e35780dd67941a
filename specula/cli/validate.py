"""`specula validate`: phase 3, transition windows and traces against the spec's actions."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import EXIT_LIMIT, JsonOpt, MaxMemoryOpt, console, memory_flag, print_json, progress_printer


@app.command("validate")
def validate_cmd(
    spec: Path = typer.Argument(..., help="The spec (.tla), or a SysMoBench window-validation module WV_<Action>.tla."),
    files: Optional[list[Path]] = typer.Argument(None, help="More window/trace files (after --windows), or more WV modules."),
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="Model config (default: SPEC.cfg)."),
    windows: Optional[list[Path]] = typer.Option(None, "--windows", "-w", help="Window or trace files (any format in docs/traces.md)."),
    traces: Optional[Path] = typer.Option(None, "--traces", "-t", help="Directory of traces/windows (*.ndjson, *.jsonl, *.json)."),
    mapping: Optional[Path] = typer.Option(None, "--mapping", "-m", help="Mapping YAML (docs/mapping.md)."),
    actions: Optional[str] = typer.Option(None, "--actions", help="Target actions, comma-separated (cut windows for these; report those without windows)."),
    whole: bool = typer.Option(False, "--whole-trace", help="Also follow each whole trace and report the first step the spec cannot take."),
    tracelink: Optional[list[Path]] = typer.Option(
        None, "--tracelink", help="PGo TraceLink run folder(s), or a folder of runs (traces_found/): validated "
        "whole against the spec as SysMoBench does (docs/traces.md)."),
    reference: Optional[Path] = typer.Option(
        None, "--reference", help="With --tracelink: the PGo reference spec with its MPCal (default: <Module>.tla "
        "beside the runs' folder)."),
    constants: Optional[Path] = typer.Option(
        None, "--constants", help="With --tracelink: tracegen's constants (default: <Module>Validate.cfg beside the reference)."),
    refinement: Optional[Path] = typer.Option(
        None, "--refinement", help="With --tracelink: SysMoBench's refinement mapping (`WITH var <- refVar, C <- 3`)."),
    strict: bool = typer.Option(False, "--strict", help="Refuse relaxations: a window whose binding needs an abstraction weaker than exact fails (docs/mapping.md, abstraction policy)."),
    max_memory: Optional[str] = MaxMemoryOpt,
    json_out: bool = JsonOpt,
) -> None:
    """Phase 3: validate observed transition windows against the spec's actions (exit 1 if any fails)."""
    from specula.phases.conformance import validate_files, validate_wv
    from specula.errors import Interrupted
    from specula.tla.memory import memory_limit
    from specula.traces.wv import is_wv_module

    memory = memory_limit(memory_flag(max_memory))
    say = progress_printer()  # windows done/total and rate on stderr, also with --json

    if tracelink:
        _validate_tracelink(spec, config, tracelink, reference, constants, refinement, json_out)

    targets = [a.strip() for a in actions.split(",") if a.strip()] if actions else None
    task = _task_of(traces) if traces is not None and (targets is None or mapping is None) else None
    if task is not None:  # the task's own traces: scored on its target actions with its mapping
        targets = targets if targets is not None else list(task.target_actions) or None
        mapping = mapping if mapping is not None else task.mapping
        used = f"; mapping {task.mapping}" if task.mapping is not None else ""
        console(stderr=True).print(f"defaults from {task.dir}/task.yaml: target actions "
                                   f"{', '.join(task.target_actions)}{used} (--actions/--mapping override)",
                                   markup=False)
    more = list(windows or []) + list(files or [])
    try:
        if is_wv_module(spec) and traces is None and all(is_wv_module(f) for f in more):
            # SysMoBench window-validation modules, run as they are (docs/windows.md)
            res = validate_wv([spec, *more], config, strict=strict, on_progress=say, max_memory=memory)
        else:
            res = validate_files(spec, config, more, traces, mapping, targets=targets, whole_trace=whole,
                                 strict=strict, on_progress=say, max_memory=memory)
    except Interrupted as stop:  # Ctrl-C: the windows checked so far, marked partial
        if stop.partial is None:
            raise
        res, partial = stop.partial, stop.what
    else:
        partial = None
    if json_out:
        data = res.to_dict()
        if partial:
            data["interrupted"] = partial
        print_json(data)
    else:
        from specula.traces.render import render_conformance

        render_conformance(res, console())
    if partial:
        console(stderr=True).print(f"{partial}: partial report (the remaining windows were not checked)",
                                   markup=False)
        raise typer.Exit(130)
    if res.stopped:  # the memory limit: a partial report, its own exit code unless a window failed
        console(stderr=True).print(f"stopped by the memory limit (--max-memory) after {res.total} windows: partial "
                                   "report (the remaining windows were not checked)", markup=False)
        raise typer.Exit(1 if res.total > res.passed else EXIT_LIMIT)
    raise typer.Exit(0 if res.ok else 1)


def _validate_tracelink(spec: Path, config: Optional[Path], given: list[Path], reference: Optional[Path],
                        constants: Optional[Path], refinement: Optional[Path], json_out: bool) -> None:
    from specula.errors import InputError
    from specula.phases.tracelink import PgoSetup, pgo_setup, validate_tracelink
    from specula.traces.pgo import tracelink_runs

    runs = [r for g in given for r in tracelink_runs(g)]
    missing = [g for g in given if not tracelink_runs(g)]
    if missing:
        raise InputError("not a TraceLink run folder (no *.log files in it or its sub-folders)", str(missing[0]))
    if reference is not None:
        if not reference.is_file():
            raise InputError("reference spec not found (--reference)", str(reference))
        cfg = constants or reference.with_name(f"{reference.stem}Validate.cfg")
        setup = PgoSetup(reference, cfg if cfg.is_file() else None)
    else:
        found = pgo_setup(runs[0].parent, spec.stem)
        if found is None:
            raise InputError(f"no PGo reference {spec.stem}.tla with an --mpcal block beside the runs; give --reference",
                             str(runs[0].parent))
        setup = PgoSetup(found.reference, constants or found.validate_cfg)
    if refinement is not None and not refinement.is_file():
        raise InputError("refinement mapping not found (--refinement)", str(refinement))
    res = validate_tracelink(runs, setup, spec, config,
                             refinement.read_text(encoding="utf-8") if refinement else None)
    if json_out:
        print_json({"schema": "specula.tracelink/1", "ok": res.passed == len(res.runs), **res.to_dict()})
    else:
        console().print(res.summary(), markup=False)
    raise typer.Exit(0 if res.passed == len(res.runs) else 1)



def _task_of(traces: Path):
    """The bundled task whose ``traces:`` folder is ``traces`` (a task.yaml beside or above it)."""
    from specula.tasks import load_task
    from specula.errors import SpeculaError

    here = traces.resolve()
    for folder in (here.parent, here.parent.parent):
        if (folder / "task.yaml").is_file():
            try:
                task = load_task(folder)
            except SpeculaError:
                return None
            if task.traces_dir is not None and Path(task.traces_dir).resolve() == here:
                return task
            return None
    return None
