"""Cut windows from whole traces: one window per step whose action is a target action."""

from __future__ import annotations

from typing import Any, Collection, Iterator

from specula.traces.window import Trace, Window

__all__ = ["cut_windows"]


def cut_windows(trace: Trace, actions: Collection[str] | None = None) -> Iterator[Window]:
    """One :class:`Window` per step of ``trace`` whose action is in ``actions`` (every step when
    None). The pre-state is the state before the step (the initial state for the first step).
    Steps whose pre- or post-state is uncertain (see :class:`~specula.traces.window.Step`) give
    no window."""
    before: dict[str, Any] | None = trace.init
    for step in trace.steps:
        pre = before
        before = step.state
        if actions is not None and step.action not in actions:
            continue
        if pre is None or not step.known or not step.pre_known:
            continue
        yield Window(
            id=f"{trace.id}:{step.seq}",
            trace_id=trace.id,
            index=step.seq,
            action=step.action,
            pre=pre,
            post=step.state,
            actor=step.actor,
            params=step.params,
            input=step.input,
            source=f"{trace.source}:{step.line}" if step.line is not None else trace.source,
        )
