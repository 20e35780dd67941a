"""A run directory read back as a timeline: spec versions, scorecards, model calls, tool calls.

Reads what every face writes (``specula model``, ``specula session``, ``specula mcp``):
transcript.jsonl events, spec/NNN/, scorecard-N.json, usage.json, state.json, task.yaml.
Nothing here writes; a run still in progress reads as far as it got.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from specula.errors import InputError

__all__ = ["Version", "Scoring", "ModelCall", "ToolUse", "Timeline", "RunSummary", "load_timeline", "list_runs",
           "find_run", "PHASES"]

PHASES = ("syntax", "runtime", "conformance", "invariants")


@dataclass
class Version:
    n: int
    how: str
    t: float
    tla: str
    cfg: str
    source: str = "agent"  # agent | user | mcp


@dataclass
class Scoring:
    n: int  # the n-th scorecard of the run
    version: int
    t: float
    overall: float
    scores: dict[str, float]
    ran: list[str]
    converged: bool


@dataclass
class ModelCall:
    n: int  # position among all model calls of the run (1-based)
    iteration: int | None  # the loop's iteration; None for translation calls
    purpose: str  # loop | translate
    t: float
    tokens: int
    input_tokens: int
    output_tokens: int
    cost: float
    seconds: float | None
    text: str
    tools: list[str]


@dataclass
class ToolUse:
    id: str
    name: str
    t: float
    arguments: dict[str, Any]
    result: str = ""
    is_error: bool = False
    source: str = "agent"  # agent | user | mcp


@dataclass
class Timeline:
    run: str
    path: Path
    task: str
    module: str
    model: str | None
    status: str
    reason: str
    started: float | None
    ended: float | None
    versions: list[Version] = field(default_factory=list)
    scorings: list[Scoring] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)
    tools: list[ToolUse] = field(default_factory=list)
    notes: list[tuple[float, str]] = field(default_factory=list)  # resumes, guidance, rejections, reverts
    bad_lines: list[int] = field(default_factory=list)
    face: str = "model"  # the face that started the run: model | session | mcp

    @property
    def tokens(self) -> int:
        return sum(c.tokens for c in self.calls)

    @property
    def cost(self) -> float:
        return sum(c.cost for c in self.calls)

    def best(self) -> Scoring | None:
        """The best scoring on all four phases (as final/ keeps it), else None."""
        full = [s for s in self.scorings if tuple(s.ran) == PHASES]
        return max(full, key=lambda s: (s.overall, -s.n)) if full else None

    def latest_per_version(self) -> dict[int, Scoring]:
        """The last scoring of each version: its scores per phase (a phase not run is absent)."""
        out: dict[int, Scoring] = {}
        for s in self.scorings:
            prev = out.get(s.version)
            if prev is None:
                out[s.version] = s
            else:  # a later partial run keeps the phases the earlier one had and it did not run
                merged = {**prev.scores, **{p: v for p, v in s.scores.items() if p in s.ran}}
                out[s.version] = Scoring(s.n, s.version, s.t, s.overall if tuple(s.ran) == PHASES else prev.overall,
                                         merged, sorted(set(prev.ran) | set(s.ran), key=PHASES.index),
                                         s.converged or prev.converged)
        return out

    def to_dict(self) -> dict[str, Any]:
        best = self.best()
        return {
            "schema": "specula.timeline/1", "run": self.run, "path": str(self.path), "task": self.task,
            "module": self.module, "model": self.model, "face": self.face, "status": self.status, "reason": self.reason,
            "started": self.started, "ended": self.ended, "tokens": self.tokens, "cost_usd": round(self.cost, 6),
            "best": None if best is None else {"scorecard": best.n, "version": best.version, "overall": best.overall},
            "versions": [{"n": v.n, "how": v.how, "t": v.t, "source": v.source, "lines": len(v.tla.splitlines())}
                         for v in self.versions],
            "scorings": [s.__dict__ for s in self.scorings],
            "calls": [c.__dict__ for c in self.calls],
            "tools": [t.__dict__ for t in self.tools],
            "notes": [{"t": t, "text": x} for t, x in self.notes],
        }


def _events(path: Path, bad: list[int]) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        return
    with path.open(encoding="utf-8", errors="replace") as fh:
        for i, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                e = json.loads(line)
            except json.JSONDecodeError:
                bad.append(i)  # a line cut by a crash: the rest still reads
                continue
            if isinstance(e, dict):
                yield e


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def _task_yaml(path: Path) -> dict[str, Any]:
    from specula.yamlfile import load_yaml_mapping

    return load_yaml_mapping(path / "task.yaml", "the run's task file", lenient=True)


def find_run(ref: str | Path, runs_dir: Path | None = None) -> Path:
    """A run directory by path, or by id (or a unique id prefix) under ``runs_dir``."""
    p = Path(ref)
    if (p / "transcript.jsonl").is_file():
        return p
    if runs_dir is not None:
        q = Path(runs_dir) / str(ref)
        if (q / "transcript.jsonl").is_file():
            return q
        if Path(runs_dir).is_dir():
            hits = [d for d in sorted(Path(runs_dir).iterdir()) if d.name.startswith(str(ref))
                    and (d / "transcript.jsonl").is_file()]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise InputError(f"run {ref!r} is ambiguous: " + ", ".join(h.name for h in hits[:8]), str(runs_dir))
    raise InputError(f"no run directory {ref!r} (no transcript.jsonl"
                     + (f"; looked under {runs_dir})" if runs_dir is not None else ")"), str(ref))


def load_timeline(ref: str | Path, runs_dir: Path | None = None) -> Timeline:
    path = find_run(ref, runs_dir)
    asked = _task_yaml(path)
    module = str(asked.get("module") or "")
    bad: list[int] = []
    tl = Timeline(run=path.name, path=path, task=str(asked.get("name") or path.name), module=module,
                  model=asked.get("model"), status="running", reason="", started=None, ended=None, bad_lines=bad,
                  face=str(asked.get("face") or "model"))
    usage = _read_json(path / "usage.json") or {}
    per_call = list(usage.get("per_call") or [])
    args_by_id: dict[str, dict[str, Any]] = {}
    tool_by_id: dict[str, ToolUse] = {}
    source = "agent"  # who made the latest tool call (a spec version is that call's)
    for e in _events(path / "transcript.jsonl", bad):
        kind, t = e.get("event"), float(e.get("t") or 0.0)
        if tl.started is None:
            tl.started = t
        tl.ended = t
        msg = e.get("message") or {}
        if kind == "message" and msg.get("role") == "assistant" and "usage" in e:
            u = e.get("usage") or {}
            calls = msg.get("tool_calls") or []
            for c in calls:
                args_by_id[c.get("id", "")] = c.get("arguments") or {}
            tl.calls.append(_call(len(tl.calls) + 1, e.get("iteration"), "loop", t, u, e.get("cost"),
                                  per_call, msg.get("content") or "", [c.get("name", "") for c in calls]))
        elif kind == "translate":
            tl.calls.append(_call(len(tl.calls) + 1, None, "translate", t, e.get("usage") or {}, e.get("cost"),
                                  per_call, e.get("reply") or "", []))
        elif kind == "tool_call":
            cid = str(e.get("id") or f"call-{len(tl.tools) + 1}")
            source = str(e.get("source") or "agent")
            use = ToolUse(cid, str(e.get("name") or "?"), t, dict(e.get("arguments") or args_by_id.get(cid) or {}),
                          source=source)
            tl.tools.append(use)
            tool_by_id[cid] = use
        elif kind == "message" and msg.get("role") == "tool":
            use = tool_by_id.get(str(msg.get("tool_call_id")))
            if use is not None:
                use.result, use.is_error = str(msg.get("content") or ""), bool(msg.get("is_error"))
        elif kind == "message" and msg.get("role") == "user" and e.get("guidance"):
            tl.notes.append((t, "guidance: " + str(msg.get("content") or "")))
        elif kind == "spec":
            n = int(e.get("version") or 0)
            rel = e.get("path") or f"spec/{n:03d}/{module}.tla"
            tla = _read(path / rel)
            cfg = _read((path / rel).with_suffix(".cfg"))
            tl.versions.append(Version(n, str(e.get("how") or ""), t, tla, cfg, str(e.get("source") or source)))
        elif kind == "evaluation":
            n = int(e.get("n") or 0)
            card = _read_json(path / f"scorecard-{n}.json") or {}
            ran = list(card.get("ran") or e.get("ran") or PHASES)
            tl.scorings.append(Scoring(n, int(e.get("version") or 0), t, float(e.get("overall") or 0.0),
                                       {k: float(v) for k, v in (e.get("scores") or {}).items()}, ran,
                                       bool(e.get("converged"))))
        elif kind == "stop":
            tl.status, tl.reason = str(e.get("status") or "stopped"), str(e.get("reason") or "")
        elif kind == "resume":
            tl.status, tl.reason = "running", ""
            tl.notes.append((t, f"resumed (was {e.get('status')}, {e.get('iterations')} model calls)"))
        elif kind in ("note", "approved", "rejected", "revert", "budget"):
            tl.notes.append((t, str(e.get("text") or kind)))
    return tl


def _read(p: Path) -> str:
    try:
        return p.read_text(encoding="utf-8")
    except OSError:
        return ""


def _call(n: int, iteration: Any, purpose: str, t: float, u: dict[str, Any], cost: Any,
          per_call: list[dict[str, Any]], text: str, tools: list[str]) -> ModelCall:
    seconds = None
    if n - 1 < len(per_call):  # the ledger records calls in the order the transcript does
        seconds = per_call[n - 1].get("seconds")
    inp = int(u.get("input_tokens") or 0) + int(u.get("cache_read_tokens") or 0) + int(u.get("cache_write_tokens") or 0)
    out = int(u.get("output_tokens") or 0)
    return ModelCall(n, int(iteration) if iteration is not None else None, purpose, t, inp + out, inp, out,
                     float(cost or 0.0), float(seconds) if seconds is not None else None, text, tools)


@dataclass
class RunSummary:
    run: str
    path: Path
    task: str
    face: str
    model: str | None
    status: str
    started: float | None
    versions: int
    best: float | None
    tokens: int
    cost: float

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "path": str(self.path)}


def list_runs(runs_dir: Path) -> list[RunSummary]:
    """Every run directory under ``runs_dir``, oldest first."""
    root = Path(runs_dir)
    if not root.is_dir():
        raise InputError("no runs directory", str(root))
    out: list[RunSummary] = []
    for d in sorted(root.iterdir()):
        if not (d / "transcript.jsonl").is_file():
            continue
        tl = load_timeline(d)
        best = tl.best()
        out.append(RunSummary(tl.run, d, tl.task, tl.face, tl.model, tl.status, tl.started, len(tl.versions),
                              best.overall if best else None, tl.tokens, tl.cost))
    out.sort(key=lambda r: (r.started or 0.0, r.run))
    return out
