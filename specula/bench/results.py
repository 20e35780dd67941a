"""The results store: one JSON line per scored run, appended and flushed, safe to resume.

A record says which entry (agent + model, or an external tool's name) produced which spec for
which task, its four phase scores and overall, and how it was produced (specula version, model,
budget, cost). A runner asks :meth:`ResultStore.has` before redoing a (entry, task, run).
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

from specula.errors import TraceError

__all__ = ["RunRecord", "ResultStore", "RESULTS_SCHEMA"]

RESULTS_SCHEMA = "specula.result/1"


@dataclass
class RunRecord:
    entry: str  # leaderboard row: e.g. "specula-agent/anthropic/claude-sonnet-4-6" or "external/foo"
    task: str
    run: int
    overall: float
    scores: dict[str, float]
    status: str = "scored"  # "scored" | "failed" (the run produced no spec; scores 0)
    spec: str | None = None
    scorecard: str | None = None
    run_dir: str | None = None
    model: str | None = None
    budget: dict[str, Any] = field(default_factory=dict)
    cost_usd: float | None = None
    tokens: int | None = None
    specula_version: str = ""
    timestamp: str = ""
    error: str | None = None
    strict: bool = False  # scored with --strict: a search cut by a limit is incomplete, not passed
    # searches that passed only because a time/memory limit cut them ("runtime: passed by time limit: ...")
    not_exhaustive: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": RESULTS_SCHEMA, **asdict(self)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RunRecord":
        known = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        return cls(**known)


class ResultStore:
    """Append-only JSON-lines file of :class:`RunRecord`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()  # runner threads append concurrently
        self.skipped: list[TraceError] = []  # bad lines of the last records() pass

    def records(self) -> Iterator[RunRecord]:
        """Every good record. A bad line (a run killed mid-write, a hand edit) is skipped and kept
        in ``skipped`` as a TraceError with its line, so the records around it are not lost."""
        self.skipped = []
        if not self.path.is_file():
            return
        with self.path.open(encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                try:
                    rec = RunRecord.from_dict(json.loads(line))
                except (json.JSONDecodeError, TypeError, AttributeError) as exc:
                    self.skipped.append(TraceError(f"bad results record skipped: {exc}", str(self.path), lineno))
                    continue
                yield rec

    def has(self, entry: str, task: str, run: int) -> bool:
        return any(r.entry == entry and r.task == task and r.run == run for r in self.records())

    def append(self, rec: RunRecord) -> None:
        from specula import __version__

        if not rec.specula_version:
            rec.specula_version = __version__
        if not rec.timestamp:
            rec.timestamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock, self.path.open("ab") as fh:
            cut = False
            if fh.tell() > 0:  # a line cut by a crash must not swallow this record
                with self.path.open("rb") as rb:
                    rb.seek(-1, os.SEEK_END)
                    cut = rb.read(1) != b"\n"
            fh.write((("\n" if cut else "") + json.dumps(rec.to_dict(), default=str) + "\n").encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
