"""The live view of a modeling run: ``LiveState`` folds the agent's events (streamed text, tool
calls, model calls with their cost, evaluations) into what a live view shows; ``LiveView`` renders
it with rich for ``specula model``; ``specula session`` shows the same state in its own widgets."""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LiveState", "LiveView", "compact_args"]

PHASES = ("syntax", "runtime", "conformance", "invariants")


def compact_args(args: dict[str, Any], limit: int = 90) -> str:
    parts = []
    for k, v in args.items():
        text = v if isinstance(v, str) else json.dumps(v, default=str)
        if "\n" in text or len(text) > 40:
            first = text.strip().splitlines()[0] if text.strip() else ""
            text = f"{first[:30]}… ({len(text.splitlines())} lines)" if "\n" in text else text[:40] + "…"
        parts.append(f"{k}={text}")
    out = ", ".join(parts)
    return out if len(out) <= limit else out[:limit] + "…"


@dataclass
class LiveState:
    """Counters start from the run's own (``resume`` continues them, it does not restart at 0)."""

    model: str
    budget: dict[str, Any] = field(default_factory=dict)
    iteration: int = 0
    tokens: int = 0
    cost: float = 0.0
    started: float = field(default_factory=time.monotonic)
    elapsed_before: float = 0.0
    version: int = 0
    scores: dict[str, float] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    causes: list[str] = field(default_factory=list)
    status: str = "running"
    streaming: str = ""  # the reply being streamed right now
    streamed: int = 0  # characters received as deltas so far
    log: deque = field(default_factory=lambda: deque(maxlen=400))  # (kind, text)
    progress: str = ""  # what the phases are doing now (a long check: invariant, states, rate)

    @staticmethod
    def of(agent: Any, model: str) -> "LiveState":
        """The state of an agent about to run: its counters as recorded so far."""
        return LiveState(model=model, budget=agent.budget.to_dict(), iteration=agent.iterations,
                         tokens=agent.ledger.usage.total, cost=agent.ledger.cost, elapsed_before=agent.elapsed,
                         version=agent.session.version)

    @property
    def elapsed(self) -> float:
        return self.elapsed_before + time.monotonic() - self.started

    def budget_line(self) -> str:
        b = self.budget

        def part(label: str, used: str, limit: Any, fmt: str) -> str:
            return f"{label} {used}" + (f"/{format(limit, fmt)}" if limit is not None else "")

        return " · ".join([part("tokens", f"{self.tokens:,}", b.get("tokens"), ","),
                           part("cost", f"${self.cost:.4f}", b.get("dollars"), ".2f").replace("/", "/$", 1),
                           part("calls", str(self.iteration), b.get("iterations"), "d"),
                           part("time", f"{self.elapsed:.0f}s", b.get("seconds"), ".0f") + ("s" if b.get("seconds") else "")])

    def on_event(self, e: dict[str, Any]) -> None:
        kind = e.get("event")
        msg = e.get("message") or {}
        if kind == "progress":
            self.progress = str(e.get("text") or "")
            return
        if kind in ("message", "evaluation", "stop"):
            self.progress = ""
        if kind == "delta":
            if e.get("start"):
                self.streaming = ""
            if e.get("text"):
                self.streaming += e["text"]
                self.streamed += len(e["text"])
            if e.get("tool"):
                self.streaming += f"\n→ {e['tool']} …"
        elif kind == "message" and msg.get("role") == "assistant":
            self.streaming = ""
            if msg.get("content"):
                self.log.append(("text", msg["content"]))
            for c in msg.get("tool_calls") or []:
                self.log.append(("call", f"{c.get('name')}({compact_args(c.get('arguments') or {})})"))
            if "iteration" in e:
                u = e.get("usage") or {}
                n = sum(int(v or 0) for v in u.values())
                cost = float(e.get("cost") or 0.0)
                self.iteration = int(e["iteration"])
                self.tokens += n
                self.cost += cost
                self.log.append(("cost", f"call {self.iteration}: {n:,} tokens, ${cost:.4f} "
                                         f"(total {self.tokens:,} tokens, ${self.cost:.4f})"))
        elif kind == "message" and msg.get("role") == "tool":
            first = next((x for x in str(msg.get("content") or "").splitlines() if x.strip()), "")
            self.log.append(("error" if msg.get("is_error") else "result", f"{msg.get('name')}: {first[:160]}"))
        elif kind == "message" and msg.get("role") == "user" and e.get("guidance"):
            self.log.append(("guidance", str(msg.get("content") or "")))
        elif kind == "translate":
            u = e.get("usage") or {}
            n = sum(int(v or 0) for v in u.values())
            cost = float(e.get("cost") or 0.0)
            self.tokens += n
            self.cost += cost
            self.log.append(("cost", f"invariant translation: {n:,} tokens, ${cost:.4f}"))
        elif kind == "evaluation":
            self.scores, self.skipped = dict(e.get("scores") or {}), dict(e.get("skipped") or {})
            self.causes, self.version = list(e.get("causes") or []), int(e.get("version") or self.version)
            self.log.append(("score", f"v{self.version}: overall {float(e.get('overall') or 0):.3f} "
                                      + " ".join(f"{p[:4]} {v:.2f}" for p, v in self.scores.items())))
        elif kind == "rejected":
            self.log.append(("error", str(e.get("text") or "rejected")))
        elif kind == "stop":
            self.status = str(e.get("status") or "stopped")
            self.log.append(("stop", f"{self.status}: {e.get('reason', '')}"))


_STYLE = {"text": "", "call": "cyan", "result": "dim", "error": "red", "cost": "yellow", "score": "green",
          "guidance": "magenta", "stop": "bold"}


class LiveView:
    """Rich renderable of a LiveState: the recent log with the streaming reply, scores, budget."""

    def __init__(self, state: LiveState, lines: int = 14) -> None:
        self.state = state
        self.lines = lines

    def on_event(self, e: dict[str, Any]) -> None:
        self.state.on_event(e)

    def __rich__(self) -> Any:
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        s = self.state
        recent: list[Text] = []
        for kind, text in list(s.log)[-self.lines:]:
            for line in text.splitlines()[-4:] or [""]:
                recent.append(Text(line[:200], style=_STYLE.get(kind, "")))
        if s.streaming:
            for line in s.streaming.splitlines()[-4:]:
                recent.append(Text(line[:200], style="italic"))
        t = Table(title=f"specula model ({s.model})", show_header=False, expand=False)
        t.add_column(style="bold")
        t.add_column()
        t.add_row("status", f"{s.status}   model call {s.iteration}   spec v{s.version}")
        t.add_row("budget", s.budget_line())
        if s.progress:
            t.add_row("working", Text(s.progress[:200], style="dim"))
        for p in PHASES:
            if p in s.scores:
                note = f" (skipped: {s.skipped[p]})" if p in s.skipped else ""
                t.add_row(p, f"{s.scores[p]:.3f}{note}")
        for c in s.causes[:6]:
            t.add_row(Text("failing", style="red"), str(c)[:140])
        return Group(*recent[-self.lines:], t)
