"""`specula mcp`: the agent's tools served over MCP for external agents (Claude Code, Codex, ...)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app
from specula.cli.common import MaxMemoryOpt, RunsDirOpt, SysMoBenchOpt, session_runtime


@app.command("mcp")
def mcp_cmd(
    target: Optional[str] = typer.Argument(None, help="Bundled task name, task folder/task.yaml, or a repository path."),
    spec: Optional[Path] = typer.Option(None, "--spec", help="A spec to start from (version 1); its cfg is SPEC.cfg unless --cfg."),
    cfg: Optional[Path] = typer.Option(None, "--cfg", help="The cfg of --spec."),
    module: Optional[str] = typer.Option(None, "--module", help="TLA+ module name (required for a bare repository)."),
    action: Optional[list[str]] = typer.Option(None, "--action", help="Required action names (default: the task's)."),
    traces: Optional[list[Path]] = typer.Option(None, "--traces", help="Trace or window files/folders (default: the task's)."),
    mapping: Optional[Path] = typer.Option(None, "--mapping", help="Mapping YAML (default: the task's)."),
    invariants: Optional[Path] = typer.Option(None, "--invariants", help="invariants.yaml templates (default: the task's)."),
    resume: Optional[str] = typer.Option(None, "--resume", help="Continue an earlier run (id under --runs-dir, or a path)."),
    http: Optional[str] = typer.Option(None, "--http", help="Serve streamable HTTP on HOST:PORT (or PORT; host 127.0.0.1) instead of stdio."),
    runs_dir: Path = RunsDirOpt,
    results: Optional[Path] = typer.Option(None, "--results", help="Record the run in this results store when the session ends (for `specula leaderboard`)."),
    entry: str = typer.Option("mcp/external", "--entry", help="Leaderboard entry name of the external agent, e.g. mcp/claude-code."),
    quick: bool = typer.Option(False, "--quick", help="Faster, smaller runtime checks while iterating."),
    sysmobench: Optional[str] = SysMoBenchOpt,
    max_memory: Optional[str] = MaxMemoryOpt,
) -> None:
    """Serve the modeling agent's tools (and model checking, trace validation) over MCP, on stdio by default.
    Every session is a run directory, like `specula model`'s."""
    from specula.tasks import load_target, with_code, with_overrides
    from specula.errors import InputError
    from specula.mcp.server import open_workspace, parse_hostport, serve_http, serve_stdio, stderr_log

    if not target and not resume:
        raise InputError("give a task or repository to serve, or --resume RUN")
    where = parse_hostport(http) if http else None
    task = None
    if not resume:
        task = load_target(target, module=module, sysmobench=sysmobench)
        task = with_code(with_overrides(task, module=module, actions=action, traces=traces, mapping=mapping,
                                        invariants=invariants))
    runtime, inv_seconds = session_runtime(quick, max_memory)
    ws, instructions = open_workspace(task, resume=resume, runs_dir=runs_dir, spec=spec, cfg=cfg, entry=entry,
                                      results=results, runtime=runtime, invariant_seconds=inv_seconds,
                                      log=stderr_log)
    stderr_log(f"run directory {ws.agent.session.run.path}")
    if where is None:
        serve_stdio(ws, instructions)
    else:
        serve_http(ws, where[0], where[1], instructions)

