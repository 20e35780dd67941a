"""Data of an onboarding proposal: the state, actions and instrumentation points of a system."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["ProposedAction", "StateVar", "InstrumentationPoint", "Proposal"]


@dataclass
class ProposedAction:
    """One spec action and the code that performs it.

    ``kind``: ``traced`` (the code already emits this action name), ``lock``, ``handler``
    (a message handler or a message type a dispatcher switches on), ``timer``, ``transition``
    (``becomeLeader``), ``client``, ``queue`` or ``core`` (a focus-relevant function of no
    other kind). ``entry`` is the function's qualname, ``file:line`` where it starts."""

    name: str
    kind: str
    entry: str
    file: str
    line: int
    evidence: str = ""
    end_line: int = 0

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class StateVar:
    """A field or global that action code writes: a candidate spec variable."""

    name: str  # proposed spec variable name
    owner: str  # type (or function, for a local such as recvset) holding it; "" for a global
    field: str  # the code's name
    file: str
    line: int
    writers: list[str] = field(default_factory=list)  # qualnames of writing functions
    per_node: bool = False


@dataclass
class InstrumentationPoint:
    """Where to emit a trace step for ``action``: after the state change, before return."""

    action: str
    file: str
    line: int
    function: str
    note: str = ""


@dataclass
class Proposal:
    name: str
    module: str
    language: str
    system_type: str  # "concurrent" | "distributed"
    focus: str = ""
    description: str = ""
    source_files: list[str] = field(default_factory=list)
    actions: list[ProposedAction] = field(default_factory=list)
    state: list[StateVar] = field(default_factory=list)
    instrumentation: list[InstrumentationPoint] = field(default_factory=list)
    node_type: str = ""  # the type one node / thread's state lives in (for per-node variables)
    refined_by: str = ""  # model that refined the proposal, "" = the index alone

    def action_names(self) -> list[str]:
        return [a.name for a in self.actions]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["schema"] = "specula.onboard.proposal/1"
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Proposal":
        return Proposal(
            name=d["name"], module=d["module"], language=d.get("language", ""),
            system_type=d.get("system_type", ""), focus=d.get("focus", ""), description=d.get("description", ""),
            source_files=list(d.get("source_files", [])),
            actions=[ProposedAction(**a) for a in d.get("actions", [])],
            state=[StateVar(**s) for s in d.get("state", [])],
            instrumentation=[InstrumentationPoint(**p) for p in d.get("instrumentation", [])],
            node_type=d.get("node_type", ""), refined_by=d.get("refined_by", ""),
        )

    def render(self) -> str:
        out = [f"# {self.name}: module {self.module} ({self.language}, {self.system_type})"]
        if self.focus:
            out.append(f"focus: {self.focus}")
        if self.refined_by:
            out.append(f"refined by: {self.refined_by}")
        out.append(f"source files: {', '.join(self.source_files) or '-'}")
        out.append("actions:")
        for a in self.actions:
            out.append(f"  {a.name:<28} {a.kind:<10} {a.entry}  {a.location}" + (f"  ({a.evidence})" if a.evidence else ""))
        out.append("state" + (f" (per node: {self.node_type})" if self.node_type else "") + ":")
        for s in self.state:
            owner = f"{s.owner}." if s.owner else ""
            writers = ", ".join(w.rsplit(".", 1)[-1] for w in s.writers[:4]) + (" ..." if len(s.writers) > 4 else "")
            out.append(f"  {s.name:<28} {owner}{s.field}  {s.file}:{s.line}  written by {writers}")
        out.append("instrumentation points:")
        for p in self.instrumentation:
            out.append(f"  {p.action:<28} {p.file}:{p.line}  in {p.function}" + (f"  {p.note}" if p.note else ""))
        return "\n".join(out)
