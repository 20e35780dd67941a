"""`specula session`: refine a spec interactively (textual), by hand or with the agent inside."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import MaxMemoryOpt, RunsDirOpt, SysMoBenchOpt, console, session_runtime


@app.command("session")
def session_cmd(
    target: str = typer.Argument(..., help="Bundled task name, task folder/task.yaml, repository path, or a run "
                                           "(id under --runs-dir, or its path) to continue."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="The agent's model (default: the run's own, or "
                                        "the default model when its API key is set; else a manual workbench)."),
    spec: Optional[Path] = typer.Option(None, "--spec", help="Start from this spec (its cfg is SPEC.cfg)."),
    mutant: Optional[str] = typer.Option(None, "--mutant", help="Start from a bundled task's mutant (e.g. TryLockBlocks)."),
    agent: bool = typer.Option(False, "--agent", help="Start the agent at once (needs a model)."),
    confirm: bool = typer.Option(False, "--confirm", help="Ask before each spec edit of the agent (approve/reject)."),
    budget: Optional[str] = typer.Option(None, "--budget", help="e.g. 'dollars=2,tokens=500k,iterations=40,time=30m'."),
    module: Optional[str] = typer.Option(None, "--module", help="TLA+ module name (required for a bare repository)."),
    runs_dir: Path = RunsDirOpt,
    quick: bool = typer.Option(False, "--quick", help="Faster, smaller runtime checks while iterating."),
    sysmobench: Optional[str] = SysMoBenchOpt,
    max_memory: Optional[str] = MaxMemoryOpt,
) -> None:
    """An interactive session over a run directory: the agent's text and tool calls live, the spec and its diffs,
    the scorecard, failing windows and counterexamples; commands to run phases, edit, guide, approve or reject."""
    from specula.agent.ledger import parse_budget
    from specula.agent.rundir import RunDir
    from specula.tasks import load_target, with_code, with_overrides
    from specula.session import SessionApp, open_session

    runtime, inv_seconds = session_runtime(quick, max_memory)
    is_run = (Path(target) / "state.json").is_file() or (runs_dir / target / "state.json").is_file()
    common = dict(model=model, runs_dir=runs_dir, runtime=runtime, invariant_seconds=inv_seconds,
                  spec=spec, mutant=mutant, confirm=confirm)
    if is_run:
        ctl = open_session(run=RunDir.open(target, runs_dir).path, budget=parse_budget(budget) if budget else None,
                           **common)
    else:
        from specula.agent.session import DEFAULT_BUDGET

        task = with_code(with_overrides(load_target(target, module=module, sysmobench=sysmobench), module=module))
        ctl = open_session(task, budget=parse_budget(budget, DEFAULT_BUDGET), **common)
    try:
        SessionApp(ctl, start_agent=agent).run()
    finally:
        ctl.close()
    run = ctl.agent.session.run.path
    console().print(f"run {run}: {ctl.agent.status}; continue with `specula session {run}` or "
                    f"`specula model --resume {run}`", markup=False)
