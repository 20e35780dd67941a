"""Opening a session: a new run over a task, or an earlier run (of any face) continued; with a
model when one is given or its key is set, else the manual workbench."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from specula.session.controller import Controller, mutant_spec

__all__ = ["open_session", "pick_model"]

_KEYS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


@dataclass
class _Relay:
    """The run's event sink, pointed at the controller once it exists."""

    target: Callable[[dict[str, Any]], None] | None = None

    def __call__(self, e: dict[str, Any]) -> None:
        if self.target is not None:
            self.target(e)


def pick_model(model: str | None, recorded: str | None, env: Mapping[str, str]) -> str | None:
    """The model to run: the one asked for; else the run's own or the default one when its key is set;
    else None (the manual workbench)."""
    if model:
        return model
    from specula.agent.session import DEFAULT_MODEL

    for candidate in (recorded, DEFAULT_MODEL):
        if not candidate:
            continue
        provider = candidate.split("/", 1)[0]
        if provider == "openai-compatible" or env.get(_KEYS.get(provider, ""), ""):
            return candidate
    return None


def open_session(task: Any = None, *, run: str | Path | None = None, model: str | None = None,
                 runs_dir: Path = Path("runs"), env: Mapping[str, str] | None = None, stream: bool = True,
                 runtime: Any = None, invariant_seconds: float = 60.0, budget: Any = None,
                 spec: Path | None = None, mutant: str | None = None, confirm: bool = False,
                 retry: Any = None) -> Controller:
    from specula.agent.session import RunOptions, resume_run, start_run
    from specula.agent.workspace import WorkspaceToolbox
    from specula.agent.messages import ToolCall
    from specula.errors import InputError

    env = dict(os.environ) if env is None else dict(env)
    relay = _Relay()
    extra = {"retry": retry} if retry is not None else {}
    from specula.bench.scoring import TaskScorer
    from specula.phases import RuntimeSettings

    def scorer_for(t: Any) -> Any:
        return TaskScorer(t, runtime or RuntimeSettings(), invariant_seconds)

    opts = RunOptions(model=None, runs_dir=runs_dir, budget=budget, stream=stream, env=env, face="session",
                      toolbox=WorkspaceToolbox, on_event=relay, **extra)
    if run is not None:
        from specula.agent.rundir import RunDir
        from specula.yamlfile import load_yaml_mapping

        probe = RunDir.open(run, runs_dir)
        asked = load_yaml_mapping(probe.path / "task.yaml", "the run's task file")
        chosen = pick_model(model, asked.get("model"), env)
        agent = resume_run(probe.path, opts, scorer_for, model=chosen, manual=chosen is None)
    else:
        opts.model = pick_model(model, None, env)
        agent = start_run(task, opts, scorer_for(task))
    ctl = Controller(agent, confirm=confirm)
    relay.target = ctl._emit
    if spec is not None or mutant is not None:
        if mutant is not None:
            tla, cfg = mutant_spec(agent.session.task, mutant)
        else:
            assert spec is not None
            cfg_path = spec.with_suffix(".cfg")
            if not spec.is_file():
                raise InputError("file not found", str(spec))
            tla, cfg = spec.read_text(encoding="utf-8"), cfg_path.read_text(encoding="utf-8") if cfg_path.is_file() else ""
        text, is_error = agent.perform(ToolCall("user-load", "write_spec", {"tla": tla, "cfg": cfg}), "user")
        if is_error:
            raise InputError(f"the spec was not accepted: {text}", str(spec or mutant))
    return ctl
