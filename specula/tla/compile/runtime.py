"""TLC's run-time state as TLA+ sees it (TLCGet / TLCSet): one object per model, filled in by the
search that runs it (checker or simulator) and read by the compiled TLCGet/TLCSet closures."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["TLCRuntime"]


def _stats() -> dict:
    return {"diameter": 0, "distinct": 0, "generated": 0, "initial": 0, "queue": 0, "duration": 0, "worker": 0}


@dataclass
class TLCRuntime:
    """``registers``: TLCSet(i, v) values; ``level``: ``[depth]`` of the state being explored
    (TLCGet("level")); ``config``: TLCGet("config") (how the model is being checked); ``stats``:
    TLCGet("stats") and its fields (filled in when the search is complete, for POSTCONDITION)."""

    registers: dict = field(default_factory=dict)
    level: list[int] = field(default_factory=lambda: [0])
    config: dict = field(default_factory=lambda: {"mode": "bfs", "deadlock": True})
    stats: dict = field(default_factory=_stats)
