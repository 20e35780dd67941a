"""Random simulation (TLC's ``-simulate``): ``simulate(model, num, depth, seed, max_seconds)``.

Each run picks a random initial state, then repeatedly a random successor among all enabled
transitions, up to ``depth`` states. Invariants and ``[][A]_v`` action properties are checked
on every visited state / step; a state with no successor is a deadlock (when deadlock checking
is on); a successor outside CONSTRAINT / ACTION_CONSTRAINT ends the run (after its invariants
are checked), as in TLC. Runs are reproducible from ``seed``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from specula.errors import EvalError
from specula.tla.memory import rss_bytes
from specula.tla.plan import ActionCoverage, prepare
from specula.tla.values import make_record

__all__ = ["SimError", "SimResult", "simulate"]

State = tuple


@dataclass
class SimError:
    verdict: str  # "invariant" | "deadlock" | "action-property" | "error"
    message: str
    violated: str | None
    trace: list[tuple[str | None, State]]
    run: int
    span: Any = None

    def to_dict(self, variables: tuple[str, ...]) -> dict:
        return {
            "verdict": self.verdict,
            "message": self.message,
            "violated": self.violated,
            "run": self.run,
            "trace": [{"action": a, "state": dict(zip(variables, s))} for a, s in self.trace],
        }


@dataclass
class SimResult:
    seed: int
    runs: int = 0  # walks completed or cut
    steps: int = 0  # transitions taken
    generated: int = 0  # successor states generated while choosing
    distinct: int = 0  # distinct states visited (by fingerprint)
    max_depth: int = 0  # longest walk (states)
    coverage: list[ActionCoverage] = field(default_factory=list)  # distinct = states first seen via it
    errors: list[SimError] = field(default_factory=list)
    elapsed: float = 0.0
    stopped: str | None = None  # "max_seconds" | "max_memory" | "interrupted"
    variables: tuple[str, ...] = ()
    message: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def verdict(self) -> str:
        return self.errors[0].verdict if self.errors else ("limit" if self.stopped == "interrupted" else "ok")


def simulate(
    model: Any,
    num: int = 50,
    depth: int = 50,
    seed: int | None = None,
    max_seconds: float | None = None,
    cfg: Any = None,
    check_deadlock: bool | None = None,
    stop_on_error: bool = True,
    on_run: Callable[[int, SimResult], None] | None = None,
    max_memory: int | None = None,
) -> SimResult:
    """Run ``num`` random walks of at most ``depth`` states; never raises for model errors.
    ``max_memory`` (bytes of resident memory): the walks stop there (``stopped = "max_memory"``)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    t0 = time.monotonic()
    prep = prepare(model, cfg, mode="simulate", check_deadlock=check_deadlock, max_seconds=max_seconds)
    coverage = prep.coverage
    labels = [c.label for c in coverage]
    res = SimResult(seed=seed, coverage=coverage, variables=prep.variables)
    if prep.stopped is not None:  # the time limit passed while the ASSUMEs were evaluated
        res.stopped = prep.stopped
        res.message = "stopped: reached the time limit (while evaluating the ASSUMEs)"
        return res
    if prep.error is not None:
        res.errors.append(SimError("error", str(prep.error), None, [], 0, prep.error.span))
        return res
    if prep.diagnostics:
        diag = prep.diagnostics[0]
        res.errors.append(SimError("assumption", getattr(diag, "message", str(diag)), None, [], 0))
        return res
    plan, key = prep.plan, prep.key
    try:
        inits = list(model.init_states()) if plan is not None else []  # None: a constant-only model
    except EvalError as exc:
        res.errors.append(SimError("error", str(exc), None, [], 0, exc.span))
        return res
    if not inits or plan is None:
        res.message = "no initial state"
        return res
    seen: set = set()
    rt = getattr(model, "runtime", None)
    walk = _Walk(model)
    emitted = getattr(model, "emitted", None)
    if rt is not None and emitted is not None:  # TLCExt!TLCDefer: evaluated on the successor picked
        rt.deferred, rt.emitted = [], emitted

    def in_model(pre: State | None, st: State) -> bool:
        if not all(c(st) for _, c in plan.constraints):
            return False
        return pre is None or all(a(pre, st) for _, a in plan.action_constraints)

    def bad_state(st: State) -> tuple[str, str] | None:
        for name, inv in plan.invariants:
            if not inv(st):
                return name, f"Invariant {name} is violated."
        return None

    memory_due = 0.0
    try:
        for run in range(num):
            now = time.monotonic()
            if max_seconds is not None and now - t0 >= max_seconds:
                res.stopped = "max_seconds"
                break
            if max_memory is not None and now >= memory_due:
                memory_due = now + 0.2
                if rss_bytes() >= max_memory:
                    res.stopped = "max_memory"
                    break
            res.runs += 1
            trace: list[tuple[str | None, State]] = []
            try:
                st = inits[rng.randrange(len(inits))]
                res.generated += 1
                trace.append((None, st))
                walk.start(rt, st)
                k = key(st)
                if k not in seen:
                    seen.add(k)
                bad = bad_state(st)
                for name, ip in plan.init_props:
                    if bad is None and not ip(st):
                        bad = name, f"Property {name} is violated by the initial state."
                if bad:
                    res.errors.append(SimError("invariant", bad[1], bad[0], trace, run))
                    if stop_on_error:
                        break
                    continue
                if not in_model(None, st):
                    continue
                for _ in range(depth - 1):
                    if rt is not None:
                        rt.deferred = []
                    succs = list(model.next_states(st))
                    res.generated += len(succs)
                    for ai, _s in succs:
                        coverage[ai].generated += 1
                    if not succs:
                        if plan.check_deadlock:
                            res.errors.append(SimError("deadlock", "Deadlock reached.", None, trace, run))
                        break
                    pick = rng.randrange(len(succs))
                    ai, nxt = succs[pick]
                    if rt is not None and rt.deferred:
                        rt.run_deferred(pick, nxt)
                    res.steps += 1
                    trace.append((labels[ai], nxt))
                    walk.step(rt, ai, nxt)
                    k = key(nxt)
                    if k not in seen:
                        seen.add(k)
                        coverage[ai].distinct += 1
                    bad = bad_state(nxt)
                    if bad:
                        res.errors.append(SimError("invariant", bad[1], bad[0], trace, run))
                        break
                    for name, ap in plan.action_props:
                        if not ap(st, nxt):
                            bad = name, f"Action property {name} is violated."
                            res.errors.append(SimError("action-property", bad[1], name, trace, run))
                            break
                    if bad:
                        break
                    if not in_model(st, nxt):
                        break
                    st = nxt
            except EvalError as exc:
                res.errors.append(SimError("error", str(exc), None, trace, run, exc.span))
            res.max_depth = max(res.max_depth, len(trace))
            if on_run is not None:
                on_run(run, res)
            if res.errors and stop_on_error:
                break
    except KeyboardInterrupt:
        res.stopped = "interrupted"
    if rt is not None:
        rt.leave()
        rt.path_of = rt.record_of = None
        rt.deferred = rt.emitted = None
    res.distinct = len(seen)
    res.elapsed = time.monotonic() - t0
    return res


class _Walk:
    """The behaviour a random walk has built so far, as TLCExt!Trace and TLCGet("level") read it
    in simulation: the last state is the one being explored (and judged), and each state's
    record carries TLC's ``_action`` field (the action that produced it)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.states: list[State] = []
        self.actions: list[int] = []
        self.records: list[Any] = []

    def start(self, rt: Any, st: State) -> None:
        if rt is None:
            return
        self.states, self.actions, self.records = [st], [-1], []
        states = self.states
        rt.path_of = lambda i: states[: i + 1]  # a new function per walk: rt's cache is per walk
        rt.record_of = self.record
        rt.explore(st, 0, 1)

    def step(self, rt: Any, ai: int, st: State) -> None:
        if rt is None:
            return
        self.states.append(st)
        self.actions.append(ai)
        rt.explore(st, len(self.states) - 1, len(self.states))

    def record(self, i: int, st: State) -> Any:
        model = self.model
        names = getattr(model, "variables", ())
        init_info, step_info = getattr(model, "init_info", None), getattr(model, "step_info", None)
        while len(self.records) <= i:
            j = len(self.records)
            if j == 0:
                action = init_info().record() if callable(init_info) else make_record([("name", "Init")])
            elif callable(step_info):
                action = step_info(self.actions[j], self.states[j - 1], self.states[j]).record()
            else:
                action = make_record([("name", getattr(model.actions[self.actions[j]], "name", ""))])
            self.records.append(make_record([("_action", action), *zip(names, self.states[j])]))
        return self.records[i]
