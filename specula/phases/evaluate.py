"""All four phases with SysMoBench's cascade, over finished inputs (no LLM, no task lookup).

``evaluate(inputs)`` runs syntax -> runtime -> conformance -> invariants, skipping what the
cascade skips, and returns a :class:`Scorecard` whose phases carry each result's ``to_dict()``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.phases.invariants import InvariantDef, InvariantTemplate, invariants
from specula.phases.runtime import RuntimeSettings, build_model, runtime_on
from specula.phases.scorecard import PhaseScore, Scorecard, gate_after_runtime, gate_after_syntax
from specula.phases.syntax import syntax

__all__ = ["EvalInputs", "evaluate"]


@dataclass
class EvalInputs:
    spec: Path
    cfg: Path | None = None
    task: str = ""
    windows: Sequence[Any] | None = None  # traces.Window objects (None: phase 3 has no data)
    mapping: Any = None  # traces mapping (parsed) or None
    invariant_defs: Sequence[InvariantDef] = ()
    untranslated: Sequence[InvariantTemplate] = ()
    target_actions: Sequence[str] = ()
    runtime: RuntimeSettings = field(default_factory=RuntimeSettings)
    invariant_seconds: float = 60.0
    search_path: Sequence[Path] = ()
    only: Sequence[str] = ()  # run only these phases (and the earlier ones that gate them); the others are left off the card
    #: PGo tasks: (TraceLink run folders, PgoSetup) — phase 3 validates whole runs as SysMoBench does
    tracelink: tuple[Sequence[Path], Any] | None = None
    #: PGo tasks: SysMoBench's refinement mapping (``WITH var <- refVar, C <- 3``) from the spec
    #: under test to the reference (SysMoBench has a model write it at scoring time)
    refinement: str | None = None
    wv_modules: Sequence[Path] = ()  # SysMoBench window-validation modules: phase 3 runs them as they are
    strict: bool = False  # an invariant search cut by its time limit is incomplete, not passed
    on_progress: Callable[[str], None] | None = None  # progress lines (phase, invariant, states, rate)


def _want(inputs: EvalInputs, phase: str) -> bool:
    return not inputs.only or phase in inputs.only


def evaluate(inputs: EvalInputs, on_phase: Callable[[str, PhaseScore], None] | None = None) -> Scorecard:
    """The scorecard; raises ``Interrupted`` (carrying the phases that finished, marked
    ``meta["interrupted"]``) when Ctrl-C stops a phase: a partial card is never a result."""
    from specula.errors import Interrupted

    card = Scorecard(task=inputs.task, spec=str(inputs.spec))
    try:
        return _evaluate(inputs, card, on_phase)
    except KeyboardInterrupt:
        card.meta["interrupted"] = True
        running = next((p for p in ("syntax", "runtime", "conformance", "invariants") if p not in card.phases), None)
        card.meta["interrupted_in"] = running
        raise Interrupted(card, f"interrupted during {running or 'scoring'}") from None


def _compile(inputs: EvalInputs) -> tuple[Any, Any, Any]:
    """``(model, cfg, model for phase 4 or None)``: one compilation for phases 2-4. The spec is
    compiled with phase 4's definitions added (as phase 4 would compile it: the lines above keep
    their numbers); if they do not compile with it, the spec alone, and phase 4 then compiles the
    definitions itself to report each one's own error."""
    from specula.errors import SpeculaError

    defs = [d.definition for d in inputs.invariant_defs] if _want(inputs, "invariants") else []
    if defs:
        try:
            model, cfg = build_model(inputs.spec, inputs.cfg, inputs.search_path, definitions=defs)
            return model, cfg, model
        except SpeculaError:
            pass
    model, cfg = build_model(inputs.spec, inputs.cfg, inputs.search_path)
    return model, cfg, None


def _evaluate(inputs: EvalInputs, card: Scorecard,
              on_phase: Callable[[str, PhaseScore], None] | None) -> Scorecard:
    from specula.errors import SpeculaError

    card.meta["started"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    from specula import __version__

    card.meta["specula_version"] = __version__

    def put(ps: PhaseScore) -> None:
        card.phases[ps.phase] = ps
        if on_phase:
            on_phase(ps.phase, ps)

    say = inputs.on_progress or (lambda line: None)
    shared = None  # phase 4's model when phases 2-4 share one compilation
    # phase 1
    say("syntax")
    p1 = syntax(inputs.spec, inputs.search_path)
    put(PhaseScore("syntax", p1.score, None, p1.to_dict(), p1.summary()))
    skip = gate_after_syntax(p1.score)

    # phase 2
    if not (_want(inputs, "runtime") or _want(inputs, "conformance") or _want(inputs, "invariants")):
        pass
    elif skip:
        put(PhaseScore("runtime", 0.0, skip))
    else:
        try:
            say(f"runtime: model check (up to {inputs.runtime.check_seconds:.0f} s), then "
                f"{inputs.runtime.runs} simulation runs")
            model, cfg, shared = _compile(inputs)  # one compilation for phases 2-4
            built = (model, cfg)
            p2 = runtime_on(built[0], inputs.runtime, inputs.on_progress)
            put(PhaseScore("runtime", p2.score, None, p2.to_dict(), p2.summary()))
            skip = gate_after_runtime(p2.check_passed, p2.score)
        except SpeculaError as exc:
            d = exc.diagnostics()
            msg = d[0].message if d else str(exc)
            put(PhaseScore("runtime", 0.0, None, {"error": [x.to_dict() for x in d]}, f"runtime: error: {msg}"))
            skip = "runtime check failed"

    # phase 3
    if not _want(inputs, "conformance"):
        pass
    elif skip:
        put(PhaseScore("conformance", 0.0, skip))
    elif inputs.tracelink is not None and _want(inputs, "conformance"):
        from specula.phases.tracelink import validate_tracelink

        runs, setup = inputs.tracelink
        try:
            pt = validate_tracelink(list(runs), setup, inputs.spec, inputs.cfg, refinement=inputs.refinement)
            put(PhaseScore("conformance", pt.score, None, pt.to_dict(), pt.summary()))
        except SpeculaError as exc:
            d = exc.diagnostics()
            msg = d[0].message if d else str(exc)
            put(PhaseScore("conformance", 0.0, None, {"error": [x.to_dict() for x in d]}, f"conformance: error: {msg}"))
    elif inputs.wv_modules:
        from specula.phases.conformance import validate_wv

        try:
            p3 = validate_wv(list(inputs.wv_modules), spec=inputs.spec)
            put(PhaseScore("conformance", p3.score, None, p3.to_dict(), p3.summary()))
        except SpeculaError as exc:
            d = exc.diagnostics()
            msg = d[0].message if d else str(exc)
            put(PhaseScore("conformance", 0.0, None, {"error": [x.to_dict() for x in d]}, f"conformance: error: {msg}"))
    elif inputs.windows is None:
        put(PhaseScore("conformance", 0.0, "no traces or windows for this task"))
    elif not inputs.windows:
        targets = ", ".join(inputs.target_actions) or "the target actions"
        put(PhaseScore("conformance", 0.0, f"the traces have no windows of {targets} (is a mapping of trace actions needed?)"))
    else:
        from specula.phases.conformance import Watch, validate_windows
        from specula.traces.mapping import Mapping, load_mapping

        try:
            mapping = inputs.mapping
            if mapping is not None and not isinstance(mapping, Mapping):
                mapping = load_mapping(mapping)
            model, cfg = built
            if inputs.on_progress is not None:
                inputs.on_progress(f"conformance: {len(inputs.windows)} windows")
            p3 = validate_windows(model, list(inputs.windows), mapping, cfg=cfg,
                                  targets=list(inputs.target_actions) or None,
                                  watch=Watch(len(inputs.windows), inputs.on_progress, label="conformance"))
            put(PhaseScore("conformance", p3.score, None, p3.to_dict(), p3.summary()))
        except SpeculaError as exc:
            d = exc.diagnostics()
            msg = d[0].message if d else str(exc)
            put(PhaseScore("conformance", 0.0, None, {"error": [x.to_dict() for x in d]}, f"conformance: error: {msg}"))

    # phase 4 (a phase not asked for is left off the card: "skipped" is only written with its true reason)
    if not _want(inputs, "invariants"):
        pass
    elif skip:
        put(PhaseScore("invariants", 0.0, skip))
    elif not inputs.invariant_defs and not inputs.untranslated:
        put(PhaseScore("invariants", 0.0, "no invariant templates for this task"))
    else:
        p4 = invariants(
            inputs.spec,
            inputs.cfg,
            inputs.invariant_defs,
            inputs.untranslated,
            seconds=inputs.invariant_seconds,
            search_path=inputs.search_path,
            strict=inputs.strict,
            on_progress=inputs.on_progress,
            max_memory=inputs.runtime.max_memory,
            model=shared,
        )
        put(PhaseScore("invariants", p4.score, None, p4.to_dict(), p4.summary()))
    notes = card.limit_notes()
    if notes:  # searches that passed only because a limit cut them: said on the card itself
        card.meta["not_exhaustive"] = notes
    card.meta["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return card
