"""agent room: LLM providers, the tools the modeling agent calls, the refinement loop, run directories.

Typical use::

    from specula.agent import RunOptions, start_run
    from specula.bench.scoring import TaskScorer
    from specula.tasks import load_task
    task = load_task("spinlock")
    agent = start_run(task, RunOptions(model="anthropic/claude-sonnet-4-6"), TaskScorer(task))
    outcome = agent.run()          # converged | finished | budget | provider-error | interrupted

Nothing happens at import; names resolve lazily (no SDK is imported until a provider is built).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Agent", "Outcome", "RunOptions", "start_run", "resume_run", "preview_prompts",
    "Scorer", "Scoring", "Evaluation",
    "Provider", "RetryPolicy", "ModelRef", "make_provider", "parse_model",
    "Budget", "Ledger", "parse_budget",
    "Message", "ToolCall", "ToolSpec", "Usage", "Reply",
    "TOOLS", "TOOL_SPECS", "Tool", "tool", "tool_named", "Toolbox", "Session", "RunDir",
    "translate_with_model", "Steering", "WorkspaceToolbox", "LiveState", "LiveView",
]

_WHERE = {
    "Agent": "loop", "Outcome": "loop",
    "RunOptions": "session", "start_run": "session", "resume_run": "session", "preview_prompts": "session",
    "Scorer": "evaluate", "Scoring": "evaluate", "Evaluation": "evaluate",
    "Provider": "providers", "RetryPolicy": "providers", "ModelRef": "providers", "make_provider": "providers",
    "parse_model": "providers",
    "Budget": "ledger", "Ledger": "ledger", "parse_budget": "ledger",
    "Message": "messages", "ToolCall": "messages", "ToolSpec": "messages", "Usage": "messages", "Reply": "messages",
    "TOOLS": "tools", "TOOL_SPECS": "tools", "Tool": "declare", "tool": "declare", "tool_named": "tools", "Toolbox": "tools", "Session": "tools", "RunDir": "rundir",
    "translate_with_model": "translate",
    "Steering": "loop", "WorkspaceToolbox": "workspace", "LiveState": "liveview", "LiveView": "liveview",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'specula.agent' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"specula.agent.{_WHERE[name]}"), name)
