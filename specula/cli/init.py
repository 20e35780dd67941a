"""`specula init`: propose a task for a bare repository and write its task folder."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import JsonOpt, console, print_json, progress_printer


@app.command("init")
def init_cmd(
    repo: Path = typer.Argument(..., help="The repository (a directory) to onboard."),
    focus: str = typer.Option("", "--focus", help="What to model, e.g. 'leader election: votes, terms'."),
    name: Optional[str] = typer.Option(None, "--name", help="Task name (default: the folder's name)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="Let this LLM refine the proposal "
                                        "(PROVIDER/NAME, as for `specula model`); without it the index alone proposes."),
    force: bool = typer.Option(False, "--force", help="Replace an existing task.yaml."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the proposal; write nothing."),
    retries: int = typer.Option(6, "--retries", min=1, help="Attempts per model request."),
    json_out: bool = JsonOpt,
) -> None:
    """Propose the system's state, actions and instrumentation points from the code index (an LLM
    refines them with --model) and write task.yaml, mapping and invariant skeletons and a trace
    harness skeleton; then `specula model REPO` runs without --module/--action."""
    from specula.onboard import init_repo

    provider = None
    if model:
        from specula.agent.providers import RetryPolicy, make_provider

        provider = make_provider(model, retry=RetryPolicy(attempts=retries, initial=0.2 if retries <= 2 else 1.0))
    result = init_repo(repo, focus, name=name, provider=provider, force=force, write=not dry_run,
                       on_progress=progress_printer())  # on stderr, also with --json
    if json_out:
        print_json(result.to_dict())
        return
    console().print(result.render(), markup=False)
