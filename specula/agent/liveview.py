"""The live view of a modeling run (``specula model``): iteration, phase scores, tokens and cost."""

from __future__ import annotations

from typing import Any


class ModelView:
    """Live view of a modeling run: iteration, phase scores, tokens and cost, failing causes."""

    def __init__(self, model: str) -> None:
        self.model, self.iteration, self.tokens, self.cost = model, 0, 0, 0.0
        self.scores: dict = {}
        self.skipped: dict = {}
        self.causes: list = []
        self.last_tool, self.version, self.status = "", 0, "running"

    def on_event(self, e: dict) -> None:
        kind = e.get("event")
        if kind == "message" and "iteration" in e:
            self.iteration = e["iteration"]
            u = e.get("usage", {})
            self.tokens += sum(int(v or 0) for v in u.values())
            self.cost += float(e.get("cost", 0.0))
        elif kind == "tool_call":
            self.last_tool = e.get("name", "")
        elif kind == "evaluation":
            self.scores, self.skipped = e["scores"], e.get("skipped", {})
            self.causes, self.version = e.get("causes", []), e.get("version", 0)
        elif kind == "stop":
            self.status = e.get("status", "")

    def __rich__(self) -> Any:
        from rich.table import Table

        t = Table(title=f"specula model ({self.model})", show_header=False, expand=False)
        t.add_column(style="bold")
        t.add_column()
        t.add_row("iteration", f"{self.iteration}   last tool: {self.last_tool or '-'}   status: {self.status}")
        t.add_row("tokens / cost", f"{self.tokens:,} / ${self.cost:.4f}")
        for p in ("syntax", "runtime", "conformance", "invariants"):
            if p in self.scores:
                note = f" (skipped: {self.skipped[p]})" if p in self.skipped else ""
                t.add_row(p, f"{self.scores[p]:.3f}{note}   [dim]spec v{self.version}[/]")
        for c in self.causes[:6]:
            t.add_row("[red]failing[/]", str(c)[:140])
        return t
