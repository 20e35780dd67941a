"""Write specula's NDJSON event trace (docs/traces.md) from an instrumented Python system.

Self-contained (standard library only) so a system under test does not import specula::

    from specula_trace import TraceWriter
    with TraceWriter.open("trace-000.ndjson", system="rwmutex", nodes=["t1", "t2"], seed=7) as tw:
        tw.init({"writer": None, "readers": []})
        tw.step("AcquireWriteLock", actor="t1", state={...}, params={"t": "t1"})

Every step gets the next value of one global sequence counter under a lock, so the file order
is the linearization order even when several OS threads emit. ``state`` is the full observed
post-state; pass ``delta=True`` to write only the fields that changed since the last event.
"""

from __future__ import annotations

import copy
import json
import threading
from pathlib import Path
from typing import IO, Any

__all__ = ["TraceWriter"]


class TraceWriter:
    def __init__(self, stream: IO[str], system: str, nodes: list[str] | None = None,
                 seed: int | None = None, delta: bool = False, owns: bool = False) -> None:
        self._stream = stream
        self._owns = owns
        self._lock = threading.Lock()
        self._seq = 0
        self._delta = delta
        self._last: dict[str, Any] = {}
        meta: dict[str, Any] = {"kind": "meta", "system": system, "format": 1}
        if nodes is not None:
            meta["nodes"] = list(nodes)
        if seed is not None:
            meta["seed"] = seed
        self._write(meta)

    @classmethod
    def open(cls, path: str | Path, system: str, **kw: Any) -> "TraceWriter":
        return cls(open(path, "w", encoding="utf-8"), system, owns=True, **kw)

    def _write(self, event: dict[str, Any]) -> None:
        self._stream.write(json.dumps(event, sort_keys=False, separators=(", ", ": ")) + "\n")

    def comment(self, text: str) -> None:
        with self._lock:
            for line in text.splitlines() or [""]:
                self._stream.write(f"# {line}\n")

    def init(self, state: dict[str, Any]) -> None:
        with self._lock:
            self._last = copy.deepcopy(state)
            self._write({"kind": "init", "state": state})

    def step(self, action: str, actor: str | None, state: dict[str, Any],
             params: dict[str, Any] | None = None, input: Any = None) -> int:
        """Record one linearization point; returns its sequence number."""
        with self._lock:
            self._seq += 1
            event: dict[str, Any] = {"kind": "step", "seq": self._seq, "action": action, "actor": actor}
            if params is not None:
                event["params"] = params
            event["input"] = input
            if self._delta:
                event["delta"] = {k: v for k, v in state.items() if self._last.get(k, object()) != v}
            else:
                event["state"] = state
            self._last = copy.deepcopy(state)
            self._write(event)
            return self._seq

    def close(self) -> None:
        with self._lock:
            self._stream.flush()
            if self._owns:
                self._stream.close()

    def __enter__(self) -> "TraceWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
