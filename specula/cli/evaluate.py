"""`specula eval`: score a spec on all four SysMoBench phases for a task."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import (JsonOpt, MaxMemoryOpt, SysMoBenchOpt, console, memory_flag, output_file, print_json,
                                progress_printer)


class Phase(str, Enum):
    syntax = "syntax"
    runtime = "runtime"
    conformance = "conformance"
    invariants = "invariants"

@app.command("eval")
def eval_cmd(
    spec: Path = typer.Argument(..., help="The spec to score (SPEC.tla)."),
    task: str = typer.Option(..., "--task", "-t", help="Bundled task name, task folder, or SysMoBench task name."),
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="Model config (default: SPEC.cfg)."),
    sysmobench: Optional[str] = SysMoBenchOpt,
    traces: Optional[list[Path]] = typer.Option(None, "--traces", help="Trace or window files, or folders of them (default: the task's)."),
    mapping: Optional[Path] = typer.Option(None, "--mapping", help="Mapping YAML (default: the task's)."),
    translations: Optional[Path] = typer.Option(None, "--translations", help="Invariant translations YAML."),
    refinement: Optional[Path] = typer.Option(
        None, "--refinement", help="PGo tasks: SysMoBench's refinement mapping from the spec to the reference "
        "(`WITH var <- refVar, C <- 3`); `specula model` has the model write it."),
    phase: Optional[list[Phase]] = typer.Option(None, "--phase", help="Run only these phases (cascade still applies)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Base seed of the runtime coverage runs."),
    runs: int = typer.Option(20, "--runs", min=1, help="Simulation runs for runtime coverage."),
    check_seconds: float = typer.Option(60.0, "--check-seconds", help="Time limit of the runtime check."),
    invariant_seconds: float = typer.Option(60.0, "--invariant-seconds", help="Time limit per invariant."),
    html: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained HTML report here."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the scorecard JSON here."),
    fail_under: Optional[float] = typer.Option(None, "--fail-under", help="Exit 1 when overall < this."),
    coverage: bool = typer.Option(False, "--coverage", help="Also count the spec's actions and branches the scored "
                                  "windows exercise (shown beside conformance; docs/coverage.md)."),
    strict: bool = typer.Option(False, "--strict", help="A search cut by its time limit is incomplete, not a pass "
                                "(SysMoBench passes it)."),
    max_memory: Optional[str] = MaxMemoryOpt,
    json_out: bool = JsonOpt,
) -> None:
    """Score SPEC on all four SysMoBench phases for TASK (no LLM needed)."""
    from specula.bench.scoring import eval_spec, task_data
    from specula.tasks import load_task
    from specula.errors import InputError, Interrupted
    from specula.phases import RuntimeSettings

    if not spec.is_file():
        raise InputError("spec file not found", str(spec))
    if config is not None and not config.is_file():
        raise InputError("model config not found (--config)", str(config))
    if refinement is not None and not refinement.is_file():
        raise InputError("refinement mapping not found (--refinement)", str(refinement))
    output_file(html, "--html")
    output_file(out, "--out")
    t = load_task(task, sysmobench)
    data = task_data(t, mapping, traces or ())
    settings = RuntimeSettings(check_seconds=check_seconds, runs=runs, seed=seed, strict=strict,
                               max_memory=memory_flag(max_memory))
    try:
        card = eval_spec(
            spec, t, config, data=data, translations=translations, runtime=settings,
            invariant_seconds=invariant_seconds, only=[p.value for p in phase or ()], coverage=coverage,
            strict=strict, on_progress=progress_printer(),
            refinement=refinement.read_text(encoding="utf-8") if refinement else None,
        )
    except Interrupted as stop:  # what finished is shown; nothing is written as a result
        partial = stop.partial
        if json_out and partial is not None:
            print_json(partial.to_dict())
        err = console(stderr=True)
        if not json_out and partial is not None:
            for name, ps in partial.phases.items():
                err.print(f"{name}: {ps.score:.3f}" + (f" ({ps.skipped})" if ps.skipped else "") + " [finished]",
                          markup=False)
        err.print(f"interrupted: {stop.what}; the phases listed finished, the rest did not run "
                  "(partial: no overall score, nothing written)", markup=False)
        raise typer.Exit(130) from None
    if out:
        out.write_text(card.to_json() + "\n", encoding="utf-8")
    if html:
        from specula.phases.html import render_html

        html.write_text(render_html(card), encoding="utf-8")
    if json_out:
        print_json(card.to_dict())
    else:
        from specula.phases.render import render_scorecard

        render_scorecard(card, console())
        if html:
            console().print(f"HTML report: {html}")
    raise typer.Exit(1 if fail_under is not None and card.overall < fail_under else 0)

# --- code commands ---
_RepoArg = typer.Argument(..., help="Repository: a directory, a git URL, or a bare repository.")
_TestsOpt = typer.Option(False, "--tests", help="Also index test code.")
_VendoredOpt = typer.Option(False, "--vendored", help="Also index vendored and generated code.")
_CommitOpt = typer.Option(None, "--commit", help="Revision to check out (git repositories).")
