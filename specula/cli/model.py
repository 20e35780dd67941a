"""`specula model`: the modeling agent on a task or a repository."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import (JsonOpt, MaxMemoryOpt, RunsDirOpt, SysMoBenchOpt, console, print_json,
                                progress_printer, session_runtime)

@app.command("model")
def model_cmd(
    target: Optional[str] = typer.Argument(None, help="Bundled task name, task folder/task.yaml, or a repository path."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="PROVIDER/NAME, e.g. anthropic/claude-sonnet-4-6, "
                                        "openai/gpt-5, openai-compatible/NAME@http://host:port/v1, litellm/..."),
    traces: Optional[list[Path]] = typer.Option(None, "--traces", help="Trace or window files/folders (default: the task's)."),
    mapping: Optional[Path] = typer.Option(None, "--mapping", help="Mapping YAML (default: the task's)."),
    invariants: Optional[Path] = typer.Option(None, "--invariants", help="invariants.yaml templates (default: the task's)."),
    focus: str = typer.Option("", "--focus", help="What to concentrate on (ranks the code map, goes in the prompt)."),
    guidance: Optional[Path] = typer.Option(None, "--guidance", help="A text file of extra guidance for the model."),
    budget: Optional[str] = typer.Option(None, "--budget", help="e.g. 'dollars=2,tokens=500k,iterations=40,time=30m'."),
    resume: Optional[str] = typer.Option(None, "--resume", help="Continue a stopped run (id under --runs-dir, or a path)."),
    repo: Optional[str] = typer.Option(None, "--repo", help="The system's source (folder or git URL) if not the task's."),
    module: Optional[str] = typer.Option(None, "--module", help="TLA+ module name (required for a bare repository)."),
    action: Optional[list[str]] = typer.Option(None, "--action", help="Required action names (default: the task's)."),
    runs_dir: Path = RunsDirOpt,
    stream: bool = typer.Option(False, "--stream", help="Stream model replies (the live view shows the text as it comes)."),
    retries: int = typer.Option(6, "--retries", min=1, help="Attempts per model request (429/5xx/timeouts)."),
    quick: bool = typer.Option(False, "--quick", help="Faster, smaller runtime checks while iterating."),
    no_translate: bool = typer.Option(False, "--no-translate", help="Translate invariant templates without the model."),
    print_prompt: bool = typer.Option(False, "--print-prompt", help="Print the system and task prompts and exit."),
    sysmobench: Optional[str] = SysMoBenchOpt,
    max_memory: Optional[str] = MaxMemoryOpt,
    json_out: bool = JsonOpt,
) -> None:
    """Model a system in TLA+ with an LLM agent that runs the four phases as tools and refines the spec."""
    from specula.agent.ledger import parse_budget
    from specula.agent.session import DEFAULT_BUDGET, DEFAULT_MODEL, RunOptions, resume_run, start_run
    from specula.bench.scoring import TaskScorer
    from specula.tasks import load_target, with_code, with_overrides
    from specula.errors import InputError

    if not target and not resume:
        raise InputError("give a task or repository to model, or --resume RUN")
    from specula.agent.liveview import LiveState, LiveView
    from specula.agent.providers import RetryPolicy

    view = LiveView(LiveState(model or DEFAULT_MODEL))

    opts = RunOptions(model=model or DEFAULT_MODEL, runs_dir=runs_dir, stream=stream,
                      retry=RetryPolicy(attempts=retries, initial=0.2 if retries <= 2 else 1.0),
                      translate_with_model=not no_translate, on_event=view.on_event)
    settings, invariant_seconds = session_runtime(quick, max_memory)

    # progress of the phases (a long check: invariant, states, rate): in the live view, or on stderr with --json
    say = progress_printer() if json_out else (lambda line: view.on_event({"event": "progress", "text": line}))

    def scorer_for(task):
        return TaskScorer(task, settings, invariant_seconds, on_progress=say)

    if resume:
        opts.budget = parse_budget(budget) if budget else None
        agent = resume_run(resume, opts, scorer_for, model=model)
    else:
        opts.budget = parse_budget(budget, DEFAULT_BUDGET)
        text = guidance.read_text(encoding="utf-8") if guidance and guidance.is_file() else ""
        if guidance and not guidance.is_file():
            raise InputError("guidance file not found", str(guidance))
        task = load_target(target, module=module, sysmobench=sysmobench)
        task = with_code(with_overrides(task, module=module, actions=action, traces=traces, mapping=mapping,
                                        invariants=invariants, focus=focus, guidance=text), repo)
        if print_prompt:
            from specula.agent.session import preview_prompts

            system, prompt = preview_prompts(task, scorer_for(task))
            if json_out:
                print_json({"system": system, "task": prompt})
            else:
                sys.stdout.write(f"=== system prompt\n{system}\n=== task prompt\n{prompt}")
            raise typer.Exit(0)
        agent = start_run(task, opts, scorer_for(task))
    if json_out:
        outcome = agent.run()
        print_json(outcome.to_dict())
    else:
        from rich.live import Live

        # counters continue the run's own (a resumed run does not start again at 0 tokens, $0)
        view.state = LiveState.of(agent, str(agent.provider.model) if agent.provider else view.state.model)
        con = console()
        with Live(view, console=con, refresh_per_second=4, transient=False):
            outcome = agent.run()
        con.print()
        con.print(f"run {outcome.run}: {outcome.status} — {outcome.reason}", markup=False)
        if outcome.best_version:
            con.print(f"best spec: version {outcome.best_version}, overall {outcome.best_score:.3f}; "
                      f"final/ holds it", markup=False)
        if outcome.resumable:
            con.print(f"resume with: specula model --resume {outcome.run}", markup=False)
    codes = {"converged": 0, "interrupted": 130, "provider-error": 2}
    raise typer.Exit(codes.get(outcome.status, 1))
