"""The toolbox of the interactive faces (``specula mcp``, ``specula session``): every tool of the
built-in agent, plus model checking with limits and trace validation of the current spec version,
declared the same way (``@tool``) so each face lists and runs them from one registry."""

from __future__ import annotations

import io
from typing import Any

from specula.agent.declare import ToolError, tool
from specula.agent.tools import Toolbox

__all__ = ["WorkspaceToolbox"]


class WorkspaceToolbox(Toolbox):
    """``Toolbox`` + ``check_spec`` and ``validate_traces``."""

    def _current(self) -> tuple[Any, Any]:
        if not self.s.tla:
            raise ToolError("there is no spec yet; use write_spec first")
        return self.s.spec_paths()

    @tool
    def check_spec(self, max_states: int = 100000, max_depth: int = 0, max_seconds: int = 60,
                   deadlock: bool = False, simulate: bool = False, traces: int = 20, depth: int = 50,
                   seed: int = 1) -> str:
        """Model-check the current spec version with its cfg under limits (TLC's semantics): the
        verdict, an error trace with action labels, state counts and per-action coverage. With
        simulate=true, random traces instead of an exhaustive search.

        Args:
            max_states: stop after this many distinct states (0 = no limit)
            max_depth: do not explore beyond this depth (0 = no limit)
            max_seconds: stop after this many seconds (0 = no limit)
            deadlock: report deadlocks (off by default, as the runtime phase)
            simulate: random simulation instead of exhaustive search
            traces: simulation: number of traces
            depth: simulation: maximum states per trace
            seed: simulation: random seed
        """
        from specula.tla import report
        from specula.tla.checker import Limits, build_model, check
        from specula.tla.memory import memory_limit

        spec, cfg_path = self._current()
        model, cfg = build_model(spec, cfg_path)
        seconds = float(max_seconds) if max_seconds > 0 else None
        # even with every other limit off, the search stops at the scorer's memory limit (--max-memory)
        runtime = getattr(self.scoring.scorer, "runtime", None)
        memory = memory_limit(getattr(runtime, "max_memory", None))
        if simulate:
            from specula.tla.simulate import simulate as run_simulation

            sim = run_simulation(model, num=max(1, traces), depth=max(1, depth), seed=seed, max_seconds=seconds,
                                 cfg=cfg, check_deadlock=deadlock, max_memory=memory)
            return report.render_simulation(sim, spec.name, markup=False)
        limits = Limits(max_states=max_states or None, max_depth=max_depth or None, max_seconds=seconds,
                        check_deadlock=deadlock, max_memory=memory)
        res = check(model, limits, cfg=cfg)
        return report.render_check(res, spec.name, cfg_path.name, markup=False)

    @tool
    def validate_traces(self, action: str = "", whole_trace: bool = False) -> str:
        """Validate the task's observed windows against the current spec version (phase 3 alone,
        no other phase run first): per-action pass counts and failing windows grouped by cause;
        with whole_trace=true each whole trace is also followed to the first step the spec cannot take.

        Args:
            action: only windows of this action (default: every required action)
            whole_trace: also follow each whole trace
        """
        from rich.console import Console

        from specula.phases.conformance import validate_files
        from specula.traces.render import render_conformance

        spec, cfg_path = self._current()
        files = self.s.task.trace_paths()
        if not files:
            raise ToolError("this task has no traces to validate against")
        targets = [action] if action else (list(self.s.task.target_actions) or None)
        res = validate_files(spec, cfg_path, files, None, self.s.task.mapping, targets=targets,
                             whole_trace=whole_trace)
        buf = io.StringIO()
        render_conformance(res, Console(file=buf, width=110, no_color=True, highlight=False, soft_wrap=True))
        return buf.getvalue().rstrip()
