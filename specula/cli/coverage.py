"""`specula coverage`: how many windows exercise each action and branch of a spec."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import JsonOpt, console, print_json, progress_printer


@app.command("coverage")
def coverage_cmd(
    spec: Path = typer.Argument(..., help="The spec (.tla)."),
    traces: list[Path] = typer.Option(..., "--traces", "-t", help="Trace/window files or folders (repeatable)."),
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="Model config (default: SPEC.cfg)."),
    mapping: Optional[Path] = typer.Option(None, "--mapping", "-m", help="Mapping YAML (docs/mapping.md)."),
    no_branches: bool = typer.Option(False, "--no-branches", help="Per action only (no per-branch checks)."),
    json_out: bool = JsonOpt,
) -> None:
    """Trace coverage: per action and per branch of the spec (disjuncts, IF/CASE arms) the windows
    that exercise it, and the implementation branches the harness reached (docs/coverage.md)."""
    from specula.coverage import spec_coverage
    from specula.errors import InputError

    if not spec.is_file():
        raise InputError("no such spec file", path=str(spec))
    for t in traces:
        if not t.exists():
            raise InputError("traces not found", path=str(t))
    say = progress_printer()  # the branch being checked, on stderr (also with --json)
    report = spec_coverage(spec, traces, cfg_path=config, mapping=mapping, branches=not no_branches,
                           on_progress=lambda line: say(f"coverage: {line}"))
    if json_out:
        print_json(report.to_dict())
        return
    console().print(report.render(), markup=False)
