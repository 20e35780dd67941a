"""The scorecard: the four phase scores aggregated exactly as SysMoBench does.

Cascade: P1 < 1 skips phases 2-4 (they score 0); a failed runtime check or P2 = 0 skips phases 3-4.
Overall = (P1 + P2 + P3 + P4) / 4, a skipped phase counting 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SCORECARD_SCHEMA", "PhaseScore", "Scorecard", "gate_after_syntax", "gate_after_runtime"]

SCORECARD_SCHEMA = "specula.scorecard/1"
PHASES = ("syntax", "runtime", "conformance", "invariants")


@dataclass
class PhaseScore:
    """One phase's line on the scorecard; ``detail`` is the phase result's ``to_dict()``."""

    phase: str
    score: float = 0.0
    skipped: str | None = None  # reason the phase did not run
    detail: dict[str, Any] = field(default_factory=dict)
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "score": round(self.score, 6),
            "skipped": self.skipped,
            "summary": self.summary,
            "detail": self.detail,
        }


def gate_after_syntax(p1: float) -> str | None:
    """Reason phases 2-4 are skipped, or None."""
    return None if p1 >= 1.0 else f"syntax score {p1:.2f} < 1"


def gate_after_runtime(check_passed: bool, p2: float) -> str | None:
    """Reason phases 3-4 are skipped, or None."""
    if not check_passed:
        return "runtime check failed"
    if p2 <= 0.0:
        return "runtime coverage score is 0"
    return None


@dataclass
class Scorecard:
    task: str
    spec: str
    phases: dict[str, PhaseScore] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def score(self, phase: str) -> float:
        p = self.phases.get(phase)
        return 0.0 if p is None or p.skipped else p.score

    @property
    def overall(self) -> float:
        return sum(self.score(p) for p in PHASES) / len(PHASES)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCORECARD_SCHEMA,
            "task": self.task,
            "spec": self.spec,
            "overall": round(self.overall, 6),
            "scores": {p: round(self.score(p), 6) for p in PHASES},
            "phases": {p: self.phases[p].to_dict() for p in PHASES if p in self.phases},
            "meta": self.meta,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, default=str)

    def limit_notes(self) -> list[str]:
        """The searches a limit cut (time, memory) with no error, each as "runtime: passed by time
        limit: N states explored, not exhaustive" (or "incomplete (--strict): ...")."""
        notes: list[str] = []
        rt = self.phases.get("runtime")
        check = ((rt.detail or {}).get("check") or {}) if rt is not None and not rt.skipped else {}
        notes += [f"runtime: {check[k]}" for k in ("note", "simulation_note") if check.get(k)]
        inv = self.phases.get("invariants")
        for row in (inv.detail or {}).get("rows", []) if inv is not None and not inv.skipped else []:
            if row.get("exhaustive") is False:
                notes.append(f"invariants: {row.get('name')}: {row.get('message')}")
        return notes

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Scorecard":
        card = cls(task=data.get("task", ""), spec=data.get("spec", ""), meta=dict(data.get("meta", {})))
        for name, p in data.get("phases", {}).items():
            card.phases[name] = PhaseScore(
                phase=name,
                score=float(p.get("score", 0.0)),
                skipped=p.get("skipped"),
                detail=p.get("detail", {}),
                summary=p.get("summary", ""),
            )
        return card

    def summary(self, max_chars: int = 4000) -> str:
        """Compact text for an agent: one line per phase, then the phases' own summaries."""
        lines = [f"overall {self.overall:.3f} ({self.task})"]
        for p in PHASES:
            ps = self.phases.get(p)
            if ps is None:
                lines.append(f"- {p}: not run")
            elif ps.skipped:
                lines.append(f"- {p}: skipped ({ps.skipped})")
            else:
                lines.append(f"- {p}: {ps.score:.3f}")
        for p in PHASES:
            ps = self.phases.get(p)
            if ps and not ps.skipped and ps.summary and ps.score < 1.0:
                lines.append(f"\n[{p}]\n{ps.summary}")
        text = "\n".join(lines)
        return text if len(text) <= max_chars else text[: max_chars - 20] + "\n... (truncated)"
