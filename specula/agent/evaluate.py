"""Scoring for the agent: the same four phases and cascade as ``specula eval``.

The agent is given a :class:`Scorer` with its task (``specula.bench.scoring.TaskScorer``: the same
code as ``specula eval``), so a spec scored here scores the same there; it only decides which
phases to run and how invariant templates are translated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

__all__ = ["PHASES", "Evaluation", "Scorer", "Scoring", "phase_names"]

PHASES = ("syntax", "runtime", "conformance", "invariants")
_ALIASES = {"1": "syntax", "2": "runtime", "3": "conformance", "4": "invariants", "all": "all",
            "syntax": "syntax", "runtime": "runtime", "conformance": "conformance", "invariants": "invariants"}


def phase_names(which: str | int) -> tuple[str, ...]:
    """``1``..``4``, a phase name, or ``all`` -> the phases to report."""
    key = _ALIASES.get(str(which).strip().lower())
    if key is None:
        raise ValueError(f"unknown phase {which!r}; use 1, 2, 3, 4, syntax, runtime, conformance, invariants or all")
    return PHASES if key == "all" else (key,)


@dataclass
class Evaluation:
    """One scoring of one spec version: the scorecard, which phases it holds (``ran``; the others
    were not asked for), the version scored and how many invariant templates the task has."""

    card: Any  # specula.phases.Scorecard
    ran: tuple[str, ...] = PHASES
    version: int = 0
    templates: int = 0

    @property
    def overall(self) -> float:
        return float(self.card.overall)

    def score(self, phase: str) -> float:
        return float(self.card.score(phase))

    def detail(self, phase: str) -> dict[str, Any]:
        p = self.card.phases.get(phase)
        return p.detail if p is not None else {}

    def passed(self) -> tuple[str, ...]:
        """The phases of this evaluation that pass (invariants also when the task truly has none)."""
        out = []
        for p in self.ran:
            ps = self.card.phases.get(p)
            if ps is None:
                continue
            if ps.skipped:
                if p == "invariants" and self.templates == 0 and ps.skipped.startswith("no invariant templates"):
                    out.append(p)
            elif ps.score >= 1.0:
                out.append(p)
        return tuple(out)

    def converged(self) -> bool:
        """Every phase evaluated on this version, and every one passes."""
        return self.ran == PHASES and self.passed() == PHASES

    def to_dict(self) -> dict[str, Any]:
        return {**self.card.to_dict(), "ran": list(self.ran), "version": self.version,
                "invariant_templates": self.templates}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "Evaluation":
        """An evaluation as saved in ``scorecard-N.json`` (for resuming a run)."""
        from specula.phases import Scorecard

        return Evaluation(Scorecard.from_dict(data), tuple(p for p in PHASES if p in data.get("ran", ())),
                          int(data.get("version", 0)), int(data.get("invariant_templates", 0)))


class Scorer(Protocol):
    """What the agent needs from the one who asks it to model a task (``specula model``, ``bench
    run``): the task's phase inputs and the four phases on a spec. ``specula.bench.scoring.
    TaskScorer`` is the implementation; the agent never builds one itself."""

    def data(self) -> Any:
        """The task's phase inputs: ``windows`` (None without traces), ``templates``, ``mapping``."""
        ...

    def score(self, spec: Path, cfg: Path | None = None, *, only: Sequence[str] = (),
              invariant_defs: Sequence[Any] | None = None, untranslated: Sequence[Any] = (),
              refinement: str | None = None) -> Any:
        """The scorecard of ``spec`` (``specula.phases.Scorecard``); ``refinement``: a PGo task's
        mapping from the spec to its reference (``data().tracelink``)."""
        ...


@dataclass
class Scoring:
    """The agent's scoring of its spec versions: the scorer it was given, and how invariant
    templates become definitions (the model's translation, else the templates' examples)."""

    scorer: Scorer
    translate: Callable[[Path, str, list[Any]], tuple[list[Any], list[Any]]] | None = None
    #: a PGo task's refinement mapping written by the model (spec, cfg, PgoSetup) -> WITH text or None
    refine: Callable[[Path, Path, Any], str | None] | None = None

    def data(self) -> Any:
        return self.scorer.data()

    def run(self, spec: Path, cfg: Path, spec_text: str, phases: Sequence[str] = PHASES, version: int = 0) -> Evaluation:
        from specula.phases import translate_static

        data = self.data()
        defs: list[Any] = []
        untranslated: list[Any] = []
        if data.templates and ("invariants" in phases):
            if self.translate is not None:
                defs, untranslated = self.translate(spec, spec_text, data.templates)
            else:
                defs, untranslated = translate_static(data.templates, spec)
        only = () if tuple(phases) == PHASES else tuple(phases)
        refinement = None
        tracelink = getattr(data, "tracelink", None)
        if tracelink is not None and self.refine is not None and ("conformance" in phases):
            refinement = self.refine(spec, cfg, tracelink[1])
        card = self.scorer.score(spec, cfg, only=only, invariant_defs=defs, untranslated=untranslated,
                                 refinement=refinement)
        card.meta["invariants_translated"] = [d.name for d in defs]
        card.meta["invariants_untranslated"] = [t.name for t in untranslated]
        ran = tuple(p for p in PHASES if p in card.phases)
        return Evaluation(card, ran, version, len(data.templates))
