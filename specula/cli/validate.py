"""`specula validate`: phase 3, transition windows and traces against the spec's actions."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import JsonOpt, console, print_json


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
    json_out: bool = JsonOpt,
) -> None:
    """Phase 3: validate observed transition windows against the spec's actions (exit 1 if any fails)."""
    from specula.phases.conformance import validate_files, validate_wv
    from specula.traces.wv import is_wv_module

    targets = [a.strip() for a in actions.split(",") if a.strip()] if actions else None
    more = list(windows or []) + list(files or [])
    if is_wv_module(spec) and traces is None and all(is_wv_module(f) for f in more):
        # SysMoBench window-validation modules, run as they are (docs/windows.md)
        res = validate_wv([spec, *more], config)
    else:
        res = validate_files(spec, config, more, traces, mapping, targets=targets, whole_trace=whole)
    if json_out:
        print_json(res.to_dict())
    else:
        from specula.traces.render import render_conformance

        render_conformance(res, console())
    raise typer.Exit(0 if res.ok else 1)

# --- phases/eval commands ---
