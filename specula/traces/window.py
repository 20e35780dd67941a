"""The data of the traces room: windows, traces, and reading problems.

A *window* is one observed transition of the real system: the observed state before an event,
the event (action name, actor, parameters, the message it consumed) and the observed state after.
Values are raw, JSON-ish (``None``, bool, int, str, list, dict), exactly as the trace gave them;
the mapping (``specula.traces.mapping``) and the conformance phase turn them into spec values.

A *trace* is a whole run: an optional initial state and the sequence of steps with their full
observed post-states (deltas already applied). Windows are cut from traces (``cut_windows``).

Reading problems are data (:class:`TraceIssue`): readers collect them and go on with the next line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Window", "Step", "Trace", "TraceIssue"]


@dataclass(slots=True)
class Window:
    """One observed transition ``pre --action--> post``.

    ``id``: the window's id in its file (or ``<trace_id>:<seq>`` when cut from an event trace).
    ``index``: the event's position in its trace (``seq``), or the line's position in the file.
    ``pre`` / ``post``: observed values by trace field name (raw, before mapping); a field absent
    from both is unobserved. ``actor``: the node/thread that took the step (raw id), if known.
    ``params``: action parameters the trace names explicitly (raw values), if any.
    ``input``: the message the step consumed, if any. ``source``: ``file:line`` of the record.
    """

    id: Any
    trace_id: str
    index: int
    action: str
    pre: dict[str, Any]
    post: dict[str, Any]
    actor: Any = None
    params: dict[str, Any] | None = None
    input: Any = None
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "trace_id": self.trace_id,
            "index": self.index,
            "action": self.action,
            "pre": self.pre,
            "post": self.post,
        }
        if self.actor is not None:
            out["actor"] = self.actor
        if self.params:
            out["params"] = self.params
        if self.input is not None:
            out["input"] = self.input
        if self.source:
            out["source"] = self.source
        return out


@dataclass(slots=True)
class Step:
    """One step of a trace: the event and the full observed state after it."""

    seq: int
    action: str
    state: dict[str, Any]
    actor: Any = None
    params: dict[str, Any] | None = None
    input: Any = None
    line: int | None = None
    #: False when ``state`` is uncertain (it was built from a delta after a lost line).
    known: bool = True
    #: False when the state before this step is uncertain (no initial state, or a line was lost
    #: just before). A window is cut only when both are known.
    pre_known: bool = True


@dataclass(slots=True)
class Trace:
    """A whole observed run: metadata, the initial observed state (if any) and the steps."""

    id: str
    source: str
    meta: dict[str, Any] = field(default_factory=dict)
    init: dict[str, Any] | None = None
    steps: list[Step] = field(default_factory=list)

    @property
    def nodes(self) -> list[Any] | None:
        nodes = self.meta.get("nodes")
        return list(nodes) if isinstance(nodes, list) else None


@dataclass(frozen=True, slots=True)
class TraceIssue:
    """A line (or file) that could not be read; ``line`` is 1-based, None for the whole file."""

    path: str
    line: int | None
    message: str
    severity: str = "error"

    def location(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else self.path

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "message": self.message, "severity": self.severity}
