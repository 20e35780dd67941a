"""onboard room: turn a bare repository into a task — `specula init REPO [--focus TEXT]`.

``propose(index, focus)`` reads the code index alone and proposes the system's actions (message
handlers, timers, lock entry points, already-traced action names), its state (fields and
globals the action code writes) and instrumentation points; ``refine(proposal, provider, ...)``
lets an LLM correct it; ``write_task(proposal, repo)`` writes the task folder (task.yaml,
mapping and invariant skeletons, a trace harness skeleton with the language's emitter).
Nothing happens at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["propose", "ProposeOptions", "module_name", "Proposal", "ProposedAction", "StateVar",
           "InstrumentationPoint", "refine", "write_task", "InitResult", "init_repo"]

_WHERE = {"propose": "scan", "ProposeOptions": "scan", "module_name": "scan",
          "Proposal": "proposal", "ProposedAction": "proposal", "StateVar": "proposal",
          "InstrumentationPoint": "proposal", "refine": "llm", "write_task": "write",
          "InitResult": "write", "init_repo": "write"}

if TYPE_CHECKING:  # pragma: no cover
    from specula.onboard.proposal import InstrumentationPoint, Proposal, ProposedAction, StateVar
    from specula.onboard.scan import ProposeOptions, module_name, propose
    from specula.onboard.llm import refine
    from specula.onboard.write import InitResult, init_repo, write_task


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'specula.onboard' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"specula.onboard.{_WHERE[name]}"), name)
