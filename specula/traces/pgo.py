"""PGo TraceLink traces (SysMoBench's dqueue, locksvc, raftkvs) -> specula traces.

A TraceLink run is a folder of ``*.log`` files, one per process; each line is one critical
section of an archetype process: its vector clock and the reads and writes it made
(``csElements``: ``.pc``, archetype-local variables with ``prefix``, and shared resources such as
``net[...]`` with ``indices``). specula merges the files into one linearization consistent with
happens-before (ordered by vector-clock sum, a valid topological order, then start time), drops
aborted sections, and turns each section into a step:

* ``action``: the label the process executed (the ``.pc`` value it read, without the archetype
  prefix: ``"AProducer.p1"`` -> ``p1``), ``actor``: the process id (``self``),
  ``params``: ``{"self": id, "archetype": name}``;
* ``state``: every variable observed anywhere in the run, as of after the step: ``pc`` and
  archetype locals (``"AProducer.requester"``) as objects keyed by process id; an indexed
  resource (``net[0]``, whichever archetype names it) is one global object keyed by its index
  (``net: {"0": ..., "1": ...}``; several indices joined by ``,``).
  A variable's initial value is its first observed value (a read, or a write's ``oldValue``).

Values are decoded from PGo's text: JSON numbers and strings, ``TRUE``/``FALSE``; anything else
(records, sequences, ``defaultInitValue``) stays as its text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from specula.errors import TraceError
from specula.traces.window import Step, Trace, TraceIssue

__all__ = ["read_tracelink_run", "is_tracelink_run", "tracelink_runs"]


@dataclass
class _Section:
    archetype: str
    self_id: str
    clock_sum: int
    start: str
    elements: list[dict[str, Any]]
    source: str
    line: int


def decode_value(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    t = text.strip()
    if t == "TRUE":
        return True
    if t == "FALSE":
        return False
    try:
        return json.loads(t)
    except ValueError:
        return t


def _var_key(name: dict[str, Any]) -> tuple[str, bool]:
    """(variable name in the state, per-process?)"""
    n = str(name.get("name", ""))
    prefix = str(name.get("prefix", "") or "")
    if n == ".pc":
        return "pc", True
    if prefix:
        return f"{prefix}.{n}", True
    return n, False


def _slot(el: dict[str, Any]) -> tuple[str, str | None]:
    """(variable, key within it or None for a plain variable)."""
    name = el.get("name") or {}
    var, per_process = _var_key(name)
    idx = [str(decode_value(i)) for i in (el.get("indices") or [])]
    if idx and var != "pc":
        # an indexed resource (a mailbox, a shared map) is one global, whichever archetype names it
        return str(name.get("name", var)), ",".join(idx)
    if per_process:
        return var, str(name.get("self", ""))
    return var, None


def is_tracelink_run(path: str | Path) -> bool:
    p = Path(path)
    return p.is_dir() and any(p.glob("*.log"))


def tracelink_runs(directory: str | Path) -> list[Path]:
    """Run folders under ``directory`` (itself, or its sub-folders holding ``*.log`` files)."""
    d = Path(directory)
    if is_tracelink_run(d):
        return [d]
    return sorted(p for p in d.iterdir() if is_tracelink_run(p)) if d.is_dir() else []


def _read_sections(run: Path, issues: list[TraceIssue] | None) -> list[_Section]:
    out: list[_Section] = []
    for f in sorted(run.glob("*.log")):
        with f.open(encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                try:
                    rec = json.loads(line)
                    if rec.get("isAbort"):
                        continue
                    clock = sum(int(c[1]) for c in rec.get("clock", []))
                    out.append(
                        _Section(
                            archetype=str(rec.get("archetypeName", "")),
                            self_id=str(rec.get("self", "")),
                            clock_sum=clock,
                            start=str(rec.get("startTime", "")),
                            elements=list(rec.get("csElements") or []),
                            source=str(f),
                            line=lineno,
                        )
                    )
                except (ValueError, TypeError, KeyError, IndexError) as exc:
                    if issues is None:
                        raise TraceError(f"bad TraceLink record: {exc}", str(f), lineno) from None
                    issues.append(TraceIssue(str(f), lineno, f"bad TraceLink record: {exc}"))
    out.sort(key=lambda s: (s.clock_sum, s.start, s.archetype, s.self_id))
    return out


def _set(state: dict[str, Any], var: str, key: str | None, value: Any) -> None:
    if key is None:
        state[var] = value
    else:
        cur = state.get(var)
        if not isinstance(cur, dict):
            cur = {}
            state[var] = cur
        cur[key] = value


def _has(state: dict[str, Any], var: str, key: str | None) -> bool:
    if key is None:
        return var in state
    return isinstance(state.get(var), dict) and key in state[var]


def read_tracelink_run(run: str | Path, issues: list[TraceIssue] | None = None) -> Trace:
    """Merge one TraceLink run folder into a :class:`Trace` (see the module doc)."""
    run = Path(run)
    if not is_tracelink_run(run):
        raise TraceError("not a TraceLink run folder (no *.log files)", str(run))
    sections = _read_sections(run, issues)
    init: dict[str, Any] = {}
    # pass 1: initial values = first observed value of every slot
    for s in sections:
        for el in s.elements:
            var, key = _slot(el)
            if _has(init, var, key):
                continue
            if el.get("tag") == "read":
                _set(init, var, key, decode_value(el.get("value")))
            elif el.get("tag") == "write" and "oldValue" in el:
                _set(init, var, key, decode_value(el.get("oldValue")))
    state = json.loads(json.dumps(init))
    steps: list[Step] = []
    for seq, s in enumerate(sections, 1):
        label = None
        for el in s.elements:
            var, key = _slot(el)
            if var == "pc" and el.get("tag") == "read" and label is None:
                label = str(decode_value(el.get("value")))
            if el.get("tag") == "write":
                _set(state, var, key, decode_value(el.get("value")))
        action = (label or f"{s.archetype}.?").split(".", 1)[-1]
        steps.append(
            Step(
                seq=seq,
                action=action,
                state=json.loads(json.dumps(state)),
                actor=s.self_id,
                params={"self": s.self_id, "archetype": s.archetype},
                line=s.line,
            )
        )
    procs = sorted({s.self_id for s in sections})
    return Trace(id=run.name, source=str(run), meta={"format": "pgo-tracelink", "nodes": procs}, init=init, steps=steps)


def read_tracelink_runs(paths: Iterable[Path], issues: list[TraceIssue] | None = None) -> list[Trace]:
    return [read_tracelink_run(p, issues) for p in paths]
