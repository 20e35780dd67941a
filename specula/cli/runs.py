"""`specula runs list|show`: run directories read back as timelines (text, JSON or an HTML page)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import JsonOpt, RunsDirOpt, console, output_file, print_json

runs_app = typer.Typer(help="Run directories of `specula model`, `session` and `mcp`: list them, show a timeline.",
                       no_args_is_help=True)
app.add_typer(runs_app, name="runs")


@runs_app.command("list")
def runs_list(runs_dir: Path = RunsDirOpt, json_out: bool = JsonOpt) -> None:
    """Every run under --runs-dir: task, model, status, spec versions, best score, tokens, cost."""
    from specula.timeline import list_runs, render_list

    runs = list_runs(runs_dir)
    if json_out:
        print_json({"schema": "specula.runs/1", "runs": [r.to_dict() for r in runs]})
    else:
        sys.stdout.write(render_list(runs) + "\n")


@runs_app.command("show")
def runs_show(
    run: str = typer.Argument(..., help="Run id under --runs-dir (a unique prefix works), or its path."),
    runs_dir: Path = RunsDirOpt,
    html: Optional[Path] = typer.Option(None, "--html", help="Also write a self-contained HTML page (spec diffs, score plot)."),
    json_out: bool = JsonOpt,
) -> None:
    """A run's timeline: spec versions, scores per phase per version, cost and tokens per model call, tool calls."""
    from specula.timeline import load_timeline, render_html, render_text

    output_file(html, "--html")
    tl = load_timeline(run, runs_dir)
    if html is not None:
        html.write_text(render_html(tl), encoding="utf-8")
    if json_out:
        print_json(tl.to_dict())
        return
    sys.stdout.write(render_text(tl) + "\n")
    if html is not None:
        console(stderr=True).print(f"wrote {html}", markup=False)
