"""Phase 2 — runtime, as SysMoBench scores it, in-process.

* runtime check: a bounded model check, deadlock off, time limit (60 s); a timeout with no error
  passes;
* runtime coverage: 20 simulation runs (50 traces each, depth 50, seeded, 30 s each, deadlock off).
  all = every action (operator name) of Next; covered = actions that produced a state in some
  run (TLC's simulation coverage counts states per action); error = the last action of any error
  trace. P2 = |covered - error| / |all|.

That "error" rule is SysMoBench's, kept for the score: for an evaluation error, TLC's trace ends
with the state the failing action started from, so the blamed action is the one *before* it.
specula's diagnostics also pin each error to the action that actually failed (``failing_action``,
from the source span of the error) with the state trace and span; every seed is recorded so a run
can be replayed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = ["RuntimeResult", "RuntimeError_", "SimRun", "runtime", "RuntimeSettings", "build_model", "runtime_on", "progress_lines"]


@dataclass(frozen=True)
class RuntimeSettings:
    check_seconds: float = 60.0
    runs: int = 20
    traces_per_run: int = 50
    depth: int = 50
    run_seconds: float = 30.0
    seed: int | None = None  # base seed; run k uses seed + k
    strict: bool = False  # a check cut by its time limit fails instead of passing (SysMoBench passes it)
    # the searches of every phase stop at this resident memory (--max-memory: 4G, 75%, 0 = none);
    # None: specula.tla.memory's default fraction of the machine
    max_memory: str | None = None


@dataclass
class RuntimeError_:
    """One error found by the check or a simulation run, pinned to an action."""

    source: str  # "check" | "simulation run N"
    verdict: str  # "invariant" | "error" | "deadlock" | "action-property" | "assumption"
    message: str
    action: str | None  # SysMoBench's blame: the last action of the error trace
    span: str | None = None
    failing_action: str | None = None  # the action whose evaluation failed (from the span)
    trace: list[dict[str, Any]] = field(default_factory=list)
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "verdict": self.verdict,
            "message": self.message,
            "action": self.action,
            "failing_action": self.failing_action,
            "span": self.span,
            "seed": self.seed,
            "trace": self.trace,
        }


@dataclass
class SimRun:
    run: int
    seed: int
    covered: list[str]
    error_action: str | None
    traces: int
    elapsed: float

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class RuntimeResult:
    score: float
    check_passed: bool
    check: dict[str, Any] = field(default_factory=dict)
    all_actions: list[str] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)
    error_actions: list[str] = field(default_factory=list)
    runs: list[SimRun] = field(default_factory=list)
    errors: list[RuntimeError_] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "specula.phase.runtime/1",
            "score": self.score,
            "check_passed": self.check_passed,
            "check": self.check,
            "all_actions": self.all_actions,
            "covered": self.covered,
            "error_actions": self.error_actions,
            "never_covered": [a for a in self.all_actions if a not in self.covered],
            "runs": [r.to_dict() for r in self.runs],
            "errors": [e.to_dict() for e in self.errors],
            "settings": self.settings,
        }

    def summary(self, max_chars: int = 3000) -> str:
        how = self.check.get("note") or f"{self.check.get('verdict')}, {self.check.get('distinct', 0)} distinct states"
        lines = [
            f"runtime: {self.score:.3f}; check {'passed' if self.check_passed else 'FAILED'} ({how})",
            f"actions covered {len(set(self.covered) - set(self.error_actions))}/{len(self.all_actions)}",
        ]
        never = [a for a in self.all_actions if a not in self.covered]
        if never:
            lines.append("never produced a new state: " + ", ".join(never))
        seen: set[tuple[str | None, str]] = set()
        for e in self.errors:
            key = (e.action, e.message)
            if key in seen:
                continue
            seen.add(key)
            where = f" at {e.span}" if e.span else ""
            culprit = e.failing_action or e.action or "?"
            lines.append(f"error in {culprit} ({e.source}, seed {e.seed}){where}: {e.message}")
            if e.trace:
                last = e.trace[-1]
                lines.append(f"  last state: {last.get('state')}")
            if len(seen) >= 5:
                break
        return "\n".join(lines)[:max_chars]


def build_model(spec_path: str | Path, cfg_path: str | Path | None, search_path: Sequence[str | Path] = (),
                definitions: Sequence[str] = ()):
    """Load spec + cfg and build the engine's Model (raises SpecError / ConfigError / EvalError);
    ``definitions`` are added before the module's final ``====`` (phase 4's invariants)."""
    from specula.tla.checker import build_model as load_model

    return load_model(spec_path, cfg_path or None, search_path, definitions=definitions)


def _action_names(model: Any) -> list[str]:
    names: list[str] = []
    for a in getattr(model, "actions", []):
        n = getattr(a, "name", str(a))
        if n not in names:
            names.append(n)
    return names


def _label_to_name(model: Any) -> dict[str, str]:
    return {getattr(a, "label", ""): getattr(a, "name", "") for a in getattr(model, "actions", [])}


def _trace_dicts(variables: tuple[str, ...], trace: list[tuple[str | None, tuple]]) -> list[dict[str, Any]]:
    from specula.tla.values import to_json

    out = []
    for label, st in trace:
        out.append({"action": label, "state": {v: to_json(x) for v, x in zip(variables, st)}})
    return out


def _action_spans(model: Any) -> list[tuple[str, Any]]:
    """(action name, span of its definition) for pinning errors to the action that failed."""
    out = []
    names = getattr(getattr(getattr(model, "spec", None), "root", None), "names", {}) or {}
    for name in _action_names(model):
        d = names.get(name)
        span = getattr(getattr(d, "node", None), "span", None)
        if span is not None:
            out.append((name, span))
    return out


def _pin(spans: list[tuple[str, Any]], err_span: Any) -> str | None:
    if err_span is None:
        return None
    for name, sp in spans:
        if sp.file == getattr(err_span, "file", None) and sp.start <= err_span.start and err_span.end <= sp.end:
            return name
    return None


def _error_action(labels: dict[str, str], trace: list[tuple[str | None, tuple]]) -> str | None:
    for label, _ in reversed(trace):
        if label:
            return labels.get(label, label.split("(")[0].strip())
    return None


def runtime(
    spec_path: str | Path,
    cfg_path: str | Path | None = None,
    settings: RuntimeSettings = RuntimeSettings(),
    search_path: Sequence[str | Path] = (),
) -> RuntimeResult:
    """Score phase 2. Spec and cfg errors raise (phase 1 should have caught them)."""
    model, _cfg = build_model(spec_path, cfg_path, search_path)
    return runtime_on(model, settings)


def runtime_on(model: Any, settings: RuntimeSettings = RuntimeSettings(),
               on_progress: Callable[[str], None] | None = None) -> RuntimeResult:
    """Score phase 2 on a built model (the one the other phases share); ``on_progress`` gets a
    line every few seconds (states explored, rate) and one per simulation run."""
    from specula.errors import EvalError
    from specula.tla import Limits, check, simulate

    variables = tuple(model.variables)
    labels = _label_to_name(model)
    all_actions = _action_names(model)
    spans = _action_spans(model)
    base_seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(2**31)
    result = RuntimeResult(
        score=0.0,
        check_passed=False,
        all_actions=all_actions,
        settings={**settings.__dict__, "seed": base_seed},
    )

    # -- the bounded runtime check (deadlock off; a clean timeout passes)
    try:
        from specula.tla.memory import memory_limit

        memory = memory_limit(settings.max_memory)
        res = check(model, Limits(max_seconds=settings.check_seconds, check_deadlock=False, progress_every=5.0,
                                  max_memory=memory),
                    on_progress=progress_lines(on_progress, "runtime check"))
        if res.stopped == "interrupted":  # an interrupted search proves nothing: stop the phase
            raise KeyboardInterrupt
        verdict, message = res.verdict, res.message
        result.check = {
            "verdict": verdict,
            "distinct": res.distinct,
            "generated": res.generated,
            "depth": res.depth,
            "elapsed": round(res.elapsed, 3),
            "stopped": res.stopped,
            "message": message,
        }
        result.check_passed = verdict == "ok" or (verdict == "limit" and not settings.strict)
        if verdict == "limit":
            result.check["exhaustive"] = False
            result.check["note"] = (f"{'incomplete (--strict)' if settings.strict else f'passed by {limit_word(res.stopped)} limit'}: "
                                    f"{res.distinct} states explored, not exhaustive")
        if not result.check_passed:
            result.errors.append(
                RuntimeError_(
                    source="check",
                    verdict=verdict,
                    message=message,
                    action=_error_action(labels, res.counterexample),
                    span=str(res.span) if res.span else None,
                    trace=_trace_dicts(variables, res.counterexample),
                    failing_action=_pin(spans, res.span),
                )
            )
    except EvalError as exc:
        result.check = {"verdict": "error", "message": str(exc)}
        result.errors.append(
            RuntimeError_("check", "error", str(exc), None, str(exc.span) if exc.span else None,
                          failing_action=_pin(spans, exc.span))
        )

    # -- runtime coverage: simulation runs
    covered: set[str] = set()
    error_actions: set[str] = set()
    for k in range(settings.runs):
        if on_progress is not None:
            on_progress(f"runtime coverage: simulation run {k + 1}/{settings.runs}")
        seed = base_seed + k
        sim = simulate(
            model,
            num=settings.traces_per_run,
            depth=settings.depth,
            seed=seed,
            max_seconds=settings.run_seconds,
            check_deadlock=False,
            max_memory=memory,
        )
        if sim.stopped == "interrupted":
            raise KeyboardInterrupt
        if sim.stopped == "max_memory":  # coverage counts the walks made so far; said on the card
            result.check.setdefault("simulation_note", f"simulation runs stopped by the memory limit from run "
                                                       f"{k + 1} on: coverage is from the walks made")
        run_cov = sorted({c.name for c in sim.coverage if c.generated > 0})
        covered.update(run_cov)
        err_action = None
        for err in sim.errors:
            err_action = _error_action(labels, err.trace)
            if err_action:
                error_actions.add(err_action)
            result.errors.append(
                RuntimeError_(
                    source=f"simulation run {k + 1}",
                    verdict=err.verdict,
                    message=err.message,
                    action=err_action,
                    span=str(err.span) if err.span else None,
                    trace=_trace_dicts(variables, err.trace),
                    seed=seed,
                    failing_action=_pin(spans, err.span),
                )
            )
        result.runs.append(SimRun(k + 1, seed, run_cov, err_action, sim.runs, round(sim.elapsed, 3)))

    result.covered = [a for a in all_actions if a in covered]
    result.error_actions = [a for a in all_actions if a in error_actions]
    if all_actions:
        result.score = len(covered - error_actions) / len(all_actions)
    return result


def limit_word(stopped: str | None) -> str:
    """The limit that cut a search, for "passed by time limit: ..." (``CheckResult.stopped``)."""
    return {"max_seconds": "time", "max_memory": "memory", "max_states": "state", "max_depth": "depth"}.get(
        stopped or "", "time")


def progress_lines(say: Callable[[str], None] | None, what: str) -> Callable[[Any], None] | None:
    """The checker's progress records as text lines for ``say`` (None: no progress)."""
    if say is None:
        return None
    from specula.tla.report import format_progress

    return lambda p: p.elapsed >= 1.0 and say(f"{what}: {format_progress(p)}")
