"""Running the phases for the agent: one call, the SysMoBench cascade, a ``Scorecard``.

The agent reaches the engine only through ``specula.phases`` (imported lazily, phase by phase):
``syntax(spec)``, ``runtime(spec, cfg)``, ``conformance(spec, cfg, windows, mapping)``,
``invariants(spec, cfg, translated)``. A phase module that is not installed yet is reported as
unavailable (never as passed); a phase that raises a specula error scores 0 with the message.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.errors import SpeculaError

__all__ = ["PHASES", "Inputs", "Evaluation", "evaluate", "phase_names"]

PHASES = ("syntax", "runtime", "conformance", "invariants")
_ALIASES = {"1": "syntax", "2": "runtime", "3": "conformance", "4": "invariants", "all": "all",
            "syntax": "syntax", "runtime": "runtime", "conformance": "conformance", "invariants": "invariants"}


def phase_names(which: str | int) -> tuple[str, ...]:
    """``1``..``4``, a phase name, or ``all`` -> the phases to run (earlier ones included for gates)."""
    key = _ALIASES.get(str(which).strip().lower())
    if key is None:
        raise ValueError(f"unknown phase {which!r}; use 1, 2, 3, 4, syntax, runtime, conformance, invariants or all")
    if key == "all":
        return PHASES
    return PHASES[: PHASES.index(key) + 1]


@dataclass
class Inputs:
    """What the phases need besides the spec: windows, mapping, translated invariants."""

    windows: Callable[[], list[Any]]
    mapping: Callable[[], Any]
    invariants: Callable[[str], list[Any]]  # spec text -> translated definitions
    search_path: Sequence[Path] = ()


@dataclass
class Evaluation:
    card: Any  # specula.phases.scorecard.Scorecard
    results: dict[str, Any] = field(default_factory=dict)  # phase -> raw result object
    ran: tuple[str, ...] = ()

    @property
    def overall(self) -> float:
        return float(self.card.overall)

    def score(self, phase: str) -> float:
        return float(self.card.score(phase))

    def converged(self) -> bool:
        """Every phase passes: syntax, runtime and conformance at 1.0, and invariants at 1.0
        (or none could be tested)."""
        if self.ran != PHASES:
            return False
        if any(self.card.phases[p].skipped for p in ("syntax", "runtime", "conformance")):
            return False
        if not all(self.score(p) >= 1.0 for p in ("syntax", "runtime", "conformance")):
            return False
        inv = self.card.phases.get("invariants")
        if inv is None:
            return False
        return inv.score >= 1.0 or inv.skipped == "no invariants to test"

    def to_dict(self) -> dict[str, Any]:
        d = self.card.to_dict()
        d["ran"] = list(self.ran)
        return d


def _phase_fn(name: str) -> Callable[..., Any] | None:
    try:
        mod = importlib.import_module(f"specula.phases.{name}")
    except ImportError:
        return None
    return getattr(mod, name, None)


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    params = inspect.signature(fn).parameters
    accepted = {k: v for k, v in kwargs.items() if k in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())}
    return fn(*args, **accepted)


def _summary(result: Any, max_chars: int = 2500) -> str:
    fn = getattr(result, "summary", None)
    if callable(fn):
        try:
            return str(fn(max_chars=max_chars))
        except TypeError:
            return str(fn())[:max_chars]
    return ""


def _runtime_check_passed(result: Any) -> bool:
    for attr in ("check_passed", "check_ok", "passed_check"):
        v = getattr(result, attr, None)
        if isinstance(v, bool):
            return v
    check = getattr(result, "check", None)
    for attr in ("passed", "ok"):
        v = getattr(check, attr, None)
        if isinstance(v, bool):
            return v
    return True


def evaluate(task_name: str, spec_path: Path, cfg_path: Path, inputs: Inputs, phases: Sequence[str] = PHASES,
             spec_text: str = "") -> Evaluation:
    """Run ``phases`` (in order, with the cascade) and return the scorecard and raw results."""
    from specula.phases.scorecard import PhaseScore, Scorecard, gate_after_runtime, gate_after_syntax

    card = Scorecard(task=task_name, spec=str(spec_path))
    ev = Evaluation(card, ran=tuple(phases))
    skip: str | None = None
    for name in phases:
        if skip:
            card.phases[name] = PhaseScore(name, 0.0, skipped=skip)
            continue
        fn = _phase_fn(name)
        if fn is None:
            card.phases[name] = PhaseScore(name, 0.0, skipped="phase not available in this installation")
            skip = skip or f"{name} phase not available"
            continue
        try:
            if name == "syntax":
                result = _call(fn, spec_path, search_path=inputs.search_path)
            elif name == "runtime":
                result = _call(fn, spec_path, cfg_path)
            elif name == "conformance":
                windows = inputs.windows()
                if not windows:
                    card.phases[name] = PhaseScore(name, 0.0, skipped="no trace windows for the target actions")
                    continue
                result = _call(fn, spec_path, cfg_path, windows, mapping=inputs.mapping())
            else:
                translated = inputs.invariants(spec_text)
                if not translated:
                    card.phases[name] = PhaseScore(name, 0.0, skipped="no invariants to test")
                    continue
                result = _call(fn, spec_path, cfg_path, translated)
        except SpeculaError as exc:
            card.phases[name] = PhaseScore(name, 0.0, summary=f"{name}: error: {exc}",
                                           detail={"error": str(exc), "kind": type(exc).__name__})
            skip = f"{name} failed with an error"
            continue
        ev.results[name] = result
        score = float(getattr(result, "score", 0.0))
        detail = result.to_dict() if hasattr(result, "to_dict") else {}
        card.phases[name] = PhaseScore(name, score, detail=detail, summary=_summary(result))
        if name == "syntax":
            skip = gate_after_syntax(score)
        elif name == "runtime":
            skip = gate_after_runtime(_runtime_check_passed(result), score)
    return ev
