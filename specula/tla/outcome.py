"""How a breadth-first search ends early, shared by the single-process search (``checker``) and
the multi-process one (``parallel``): ``Stop`` (a limit or an interrupt) and ``Found`` (a
violation, a deadlock or an evaluation error, with where its trace ends)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Found", "Stop"]

State = tuple


class Stop(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Found(Exception):
    verdict: str
    message: str
    violated: str | None
    idx: int  # index of the last stored state of the trace (parent of the bad step), -1 for none
    extra: list[tuple[int, State]]  # (action index or -1, state) steps after idx
    span: Any = None

    def __post_init__(self) -> None:
        Exception.__init__(self, self.message)
