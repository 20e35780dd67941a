"""Trace instrumentation: NDJSON events at linearization points.

The cluster owns one :class:`Tracer`; nodes call :meth:`Tracer.step` right after the state change
that makes an action visible. The tracer snapshots the whole observed state through the
``snapshot`` callable it was given (per-node objects keyed by node id, the network as a list).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO


@dataclass
class Tracer:
    snapshot: Callable[[], dict[str, Any]]
    out: TextIO | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    seq: int = 0

    def _emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if self.out is not None:
            self.out.write(json.dumps(event, sort_keys=False) + "\n")

    def meta(self, system: str, nodes: list[Any], seed: int, **extra: Any) -> None:
        self._emit({"kind": "meta", "system": system, "format": 1, "nodes": nodes, "seed": seed, **extra})

    def init(self) -> None:
        self._emit({"kind": "init", "state": self.snapshot()})

    def step(self, action: str, actor: Any, params: dict[str, Any] | None = None,
             input: dict[str, Any] | None = None) -> None:
        self.seq += 1
        self._emit({"kind": "step", "seq": self.seq, "action": action, "actor": actor,
                    "params": params or {}, "input": input, "state": self.snapshot()})
