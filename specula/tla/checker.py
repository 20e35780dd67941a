"""Explicit-state model checking with TLC's semantics: ``check(model, limits, on_progress)``.

Breadth-first search over a ``Model`` (see :class:`ModelProtocol`) with a fingerprint table.
What is judged, and in which order, follows TLC's ``ModelChecker``:

* initial states: every generated initial state counts as generated; a state outside CONSTRAINT
  is checked (invariants) but neither stored nor explored;
* for each explored state, all successors of all actions are generated (per-action coverage:
  ``generated`` counts every successor, ``distinct`` the new states it found); a state with no
  successor at all is a deadlock (judged before CONSTRAINT / ACTION_CONSTRAINT);
* a successor is stored and explored only when it satisfies CONSTRAINT and the transition
  satisfies ACTION_CONSTRAINT; invariants are checked on every new successor (also on those
  outside the constraints); action properties ``[][A]_v`` on every transition;
* identity is the fingerprint of ``model.view(state)`` (VIEW), reduced under SYMMETRY.

Counterexamples are shortest (BFS) and rebuilt by replaying the recorded (parent, action)
chain, so only fingerprints, parents and action indices are kept per distinct state.
"""

from __future__ import annotations

import gc
import time
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.errors import ConfigError, EvalError, InputError, SpeculaError
from specula.tla.cfg import check_cfg_names, load_cfg
from specula.tla.liveness import Graph, LiveMemo, check_liveness, liveness_plan
from specula.tla.loading import load
from specula.tla.memory import rss_bytes
from specula.tla.model import Model
from specula.tla.plan import ActionCoverage, Plan, PropertyResult, model_string_order, prepare
from specula.tla.outcome import Found as _Found, Stop as _Stop
from specula.tla.parallel import ParallelRun, ParallelUnsupported, obstacle as parallel_obstacle
from specula.tla.protocol import ModelProtocol
from specula.tla.symmetry import identity
from specula.tla.natives_tlcext import counterexample_record
from specula.tla.values import Fn, StringOrder, format_value, make_record, tlc_string_order as string_order

__all__ = [
    "Limits",
    "ActionCoverage",
    "Progress",
    "PropertyResult",
    "CheckResult",
    "ModelProtocol",
    "check",
    "check_spec",
    "build_model",
    "VERDICTS",
]

VERDICTS = ("ok", "invariant", "deadlock", "assumption", "error", "action-property", "liveness", "limit")

State = tuple


@dataclass(frozen=True)
class Limits:
    """Search limits; ``None`` means unlimited. ``check_deadlock=None`` takes the cfg's value."""

    max_states: int | None = None
    max_depth: int | None = None
    max_seconds: float | None = None
    max_memory: int | None = None  # bytes of resident memory (specula.tla.memory); the search stops there
    check_deadlock: bool | None = None
    progress_every: float = 1.0  # seconds between on_progress calls
    # temporal properties are also checked on the growing graph (as TLC's periodic check): the
    # first time when this many states are explored, then whenever the explored states grew
    # LIVE_GROWTH-fold (None: only the final check). Counted in states, not seconds, so that a
    # run's verdicts do not depend on the machine's load (a violation found by a periodic check
    # ends the search, with the other properties not checked).
    live_first: int | None = 10_000


@dataclass
class Progress:
    distinct: int
    generated: int
    depth: int
    queue: int
    elapsed: float
    note: str = ""  # set while temporal properties are checked after the search

    @property
    def states_per_sec(self) -> float:
        return self.generated / self.elapsed if self.elapsed > 0 else 0.0


@dataclass
class CheckResult:
    verdict: str  # one of VERDICTS
    distinct: int = 0
    generated: int = 0
    depth: int = 0
    coverage: list[ActionCoverage] = field(default_factory=list)
    counterexample: list[tuple[str | None, State]] = field(default_factory=list)
    message: str = ""
    violated: str | None = None
    span: Any = None
    elapsed: float = 0.0
    queue_left: int = 0
    init_states: int = 0
    stopped: str | None = None  # "max_states" | "max_depth" | "max_seconds" | "max_memory" | "interrupted"
    variables: tuple[str, ...] = ()
    properties: list[PropertyResult] = field(default_factory=list)
    diagnostics: list[Any] = field(default_factory=list)
    error_state: State | None = None  # state in which an evaluation error happened
    loop_to: int | None = None  # liveness lasso: the last state steps back to state N (1-based)
    stuttering: bool = False  # liveness lasso: ends by stuttering forever in the last state
    loop_label: str | None = None  # liveness lasso: the action of the step back to state loop_to
    # cfg ALIAS: the error trace as records (shown instead of the variables, as TLC)
    alias_variables: tuple[str, ...] = ()
    alias_trace: list[tuple[str | None, tuple]] = field(default_factory=list)
    alias_error: str = ""
    # TLC's order of strings for this model (values are printed in TLC's order with it)
    string_order: Any = field(default=None, repr=False, compare=False)
    workers: int = 1  # processes that searched (specula.tla.parallel)
    workers_note: str = ""  # why fewer workers than asked searched (one line)
    # the workers' seen set holds 64-bit fingerprints: TLC's optimistic estimate of the probability
    # that two distinct states had the same one (None: states were compared exactly)
    fp_collision: float | None = None

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"

    def trace_dicts(self) -> list[dict[str, Any]]:
        return [
            {"action": label, "state": dict(zip(self.variables, st))} for label, st in self.counterexample
        ]


class _LiveFound(Exception):
    """A periodic check of the growing graph found a liveness violation (a real lasso)."""

    def __init__(self, outcomes: list) -> None:
        self.outcomes = outcomes


# periodic liveness checks at live_first, 4x, 16x... explored states: all of them together look
# at no more than a third of the final check's graph
LIVE_GROWTH = 4


def _trace_labels(model: Any, labels: list[str]) -> list[str]:
    """Labels of error-trace steps: the action's name, or, for actions that share a name (the
    unnamed disjuncts of Next), TLC's ``Next line L, col C to line L2, col C2 of module M``."""
    infos = list(getattr(model, "actions", []) or [])
    out = list(labels)
    for i, lab in enumerate(labels):
        sp = getattr(infos[i], "span", None) if i < len(infos) else None
        if labels.count(lab) > 1 and sp is not None and getattr(sp, "line", 0):
            out[i] = (f"{lab} line {sp.line}, col {sp.col} to line {sp.end_line}, col {sp.end_col - 1} "
                      f"of module {Path(getattr(sp, 'file', '') or 'spec').stem}")
    return out


def check(
    model: Any,
    limits: Limits | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    cfg: Any = None,
    fingerprint: Callable[[Any], int] | None = None,
    workers: int = 1,
) -> CheckResult:
    """Model-check ``model`` breadth-first; never raises for model errors (verdict "error").
    Sets are enumerated in TLC's value order (strings ranked as TLC interns them), so at a
    violation the trace and the counts are TLC's. ``workers`` > 1 searches in that many
    processes (``specula.tla.parallel``) with the same results; a model the parallel search
    cannot check exactly is checked in one process, with the reason in ``workers_note``.
    Raises ``WorkerError`` when a worker process dies."""
    order = model_string_order(model)
    with string_order(order):
        try:
            result = _check(model, limits, on_progress, cfg, fingerprint, order, workers)
        except ParallelUnsupported as exc:  # found out during the search: start again in one process
            result = _check(model, limits, on_progress, cfg, fingerprint, order, 1)
            result.workers_note = f"--workers {workers}: checked in one process: {exc}"
    result.string_order = order
    return result


def _check(
    model: Any,
    limits: Limits | None,
    on_progress: Callable[[Progress], None] | None,
    cfg: Any,
    fingerprint: Callable[[Any], int] | None,
    order: StringOrder | None,
    workers: int = 1,
) -> CheckResult:
    limits = limits or Limits()
    t0 = time.monotonic()
    prep = prepare(model, cfg, mode="bfs", check_deadlock=limits.check_deadlock, fingerprint=fingerprint,
                   order=order, max_seconds=limits.max_seconds)
    cfg, coverage = prep.cfg, prep.coverage
    result = CheckResult(verdict="ok", coverage=coverage, variables=prep.variables)
    if prep.stopped is not None:  # the time limit passed while the ASSUMEs were evaluated
        result.verdict, result.stopped = "limit", prep.stopped
        result.message = _STOP_MESSAGES[prep.stopped] + " (while evaluating the ASSUMEs)"
        result.elapsed = time.monotonic() - t0
        return result
    if prep.error is not None:  # an ASSUME or a predicate of the plan could not be evaluated
        result.verdict, result.message, result.span = "error", str(prep.error), prep.error.span
        return result
    if prep.diagnostics:
        result.verdict = "assumption"
        result.diagnostics = prep.diagnostics
        result.message = getattr(prep.diagnostics[0], "message", str(prep.diagnostics[0]))
        return result
    if prep.plan is None:  # constant-only model: its ASSUMEs hold
        result.elapsed = time.monotonic() - t0
        return result
    plan = prep.plan
    result.properties = plan.property_results

    search = _Search(model, plan, limits, coverage, on_progress, prep.key, t0)
    if workers > 1:
        why = parallel_obstacle(model, plan)
        if why is None:
            search.parallel = ParallelRun(workers)
        else:
            result.workers_note = f"--workers {workers}: checked in one process: {why}"
    obligations: list = []
    fairness: list = []
    unsupported: dict[str, str] = {}
    if plan.temporal_props:
        try:
            obligations, fairness, unsupported = liveness_plan(model, cfg, plan.temporal_props)
        except Exception as exc:  # analysis failed: the properties stay "not checked"
            unsupported = {n: f"cannot analyse: {exc}" for n in plan.temporal_props}
        if obligations:
            search.record_graph()
            search.live_memo = LiveMemo()
            search.live = _periodic_liveness(search, obligations, fairness, limits, t0)
            if limits.live_first is not None:
                search.live_due = max(1, limits.live_first)
    try:
        try:
            search.run()
        finally:
            search.composed_end = search.composed()
    except _LiveFound as found:
        _apply_outcomes(result, found.outcomes, partial=True)
    except _Found as found:
        result.verdict, result.message, result.violated, result.span = (
            found.verdict,
            found.message,
            found.violated,
            found.span,
        )
        if found.verdict == "error" and found.extra:
            result.error_state = found.extra[-1][1]
        result.counterexample = search.trace(found.idx, found.extra)
        for pr in result.properties:
            if pr.name == found.violated:
                pr.status = "violated"
    except _Stop as stop:
        result.verdict = "limit"
        result.stopped = stop.reason
        result.message = _STOP_MESSAGES.get(stop.reason, stop.reason)
        if stop.reason in ("max_states", "max_depth") and search.live is not None:
            _last_partial_check(result, search)
    except KeyboardInterrupt:
        result.verdict = "limit"
        result.stopped = "interrupted"
        result.message = _STOP_MESSAGES["interrupted"]
    if result.verdict == "ok" and search.depth_cut:
        result.verdict = "limit"
        result.stopped = "max_depth"
        result.message = _STOP_MESSAGES["max_depth"]
        if search.live is not None:
            _last_partial_check(result, search)
    complete = result.verdict == "ok"  # the safety search finished without a violation
    if plan.temporal_props:
        _liveness(result, search, obligations, fairness, unsupported, limits, t0)
    if complete:
        for pr in result.properties:
            if pr.status == "pending":
                pr.status = "ok"
    for pr in result.properties:
        if pr.status == "pending-live":  # the safety search did not complete: no liveness verdict
            pr.status = "not checked"
            why = result.stopped or (f"at the violation of {result.violated}" if result.violated else result.verdict)
            pr.detail = (f"liveness not checked: the state search stopped ({why}) before the graph was complete"
                         + (" (no violation on the part explored)" if search.live_checks else ""))
        elif pr.status == "pending":
            pr.status = "not checked"
            pr.detail = pr.detail or "search did not complete"
    result.distinct = search.distinct
    result.generated = search.generated + search.composed()
    if search.parallel is not None and search.parallel.started:  # else no level was large enough
        result.workers = workers
        result.fp_collision = search.parallel.collision_estimate(result.distinct, result.generated)
    # stopped while generating the next level: TLC counts that level in the depth
    result.depth = search.depth + (1 if search._next else 0)
    result.queue_left = search.queue_left
    result.init_states = search.init_count
    result.elapsed = time.monotonic() - t0
    if search.runtime is not None:
        search.runtime.leave()
    post = getattr(cfg, "postcondition", None)
    if result.counterexample:
        _tlc_step_labels(model, result)
    alias = getattr(cfg, "alias", None)
    if alias and result.counterexample and hasattr(model, "compile_alias"):
        _apply_alias(model, alias, result)
    # TLC evaluates POSTCONDITION after a complete search and after a safety or liveness
    # violation (with TLCExt!CounterExample the error trace), not after a deadlock or an error
    if post and result.verdict in ("ok", "invariant", "action-property", "liveness"):
        _postcondition(model, post, result)
    return result


def _tlc_step_labels(model: Any, result: CheckResult) -> None:
    """Error-trace labels as TLC prints them: ``A(1) line L, col C to line L2, col C2 of module
    M`` (the action, its parameters, the span of its body), found by replaying each step."""
    step_label = getattr(model, "step_label", None)
    if not callable(step_label):
        return
    names = [getattr(a, "name", "") for a in getattr(model, "actions", []) or []]
    trace = result.counterexample
    steps = [(i, trace[i - 1][1], trace[i][1]) for i in range(1, len(trace))]
    if result.loop_to is not None and result.loop_label and 1 <= result.loop_to <= len(trace):
        steps.append((-1, trace[-1][1], trace[result.loop_to - 1][1]))
    try:
        for i, pre, post in steps:
            label = trace[i][0] if i >= 0 else result.loop_label
            if label is None:
                continue
            cands = [ai for ai, t in model.next_states(pre) if t == post]
            base = label.split(" line ", 1)[0]
            ai = next((a for a in cands if names[a] == base), cands[0] if cands else None)
            if ai is None:
                continue
            new = step_label(ai, pre, post)
            new = new[1:-1] if new.startswith("<") and new.endswith(">") else new
            if i >= 0:
                trace[i] = (new, trace[i][1])
            else:
                result.loop_label = new
    except (EvalError, IndexError, TypeError):
        return


def _apply_alias(model: Any, name: str, result: CheckResult) -> None:
    """The error trace as TLC prints it under ALIAS: each state shown as the fields of the alias
    record, evaluated on the state and the next one (the last state: on itself)."""
    rt = getattr(model, "runtime", None)
    states = [st for _, st in result.counterexample]
    saved = rt.path_of if rt is not None else None
    try:
        fn = model.compile_alias(name)
        recs = []
        if rt is not None:
            rt.path_of = lambda i: states[: i + 1]
        for i, st in enumerate(states):
            if rt is not None:  # TLCGet("level") is the state's position in the trace, Trace its prefix
                rt.explore(st, i, i + 1)
            recs.append(fn(st, states[i + 1] if i + 1 < len(states) else st))
    except EvalError as exc:
        result.alias_error = f"ALIAS {name} could not be evaluated: {exc}"
        return
    finally:
        if rt is not None:
            rt.path_of = saved
            rt.leave()
    if not all(r.__class__ is Fn and all(k.__class__ is str for k in r) for r in recs):
        bad = next(r for r in recs if not (r.__class__ is Fn and all(k.__class__ is str for k in r)))
        result.alias_error = f"ALIAS {name} is not a record (it is {format_value(bad)})"
        return
    names: list[str] = []
    for r in recs:
        for k in r:
            if k not in names:
                names.append(k)
    result.alias_variables = tuple(names)
    result.alias_trace = [(lab, tuple(r.get(k) for k in names)) for (lab, _), r in zip(result.counterexample, recs)]


def _postcondition(model: Any, name: str, result: CheckResult) -> None:
    """TLC evaluates POSTCONDITION once the search is complete, with ``TLCGet("stats")``
    describing it and ``TLCExt!CounterExample`` the error trace; FALSE after a complete search
    is reported like a false assumption (TLC exits with code 10); after a violation the verdict
    stays the violation's and the postcondition is listed as violated."""
    rt = getattr(model, "runtime", None)
    stats = getattr(rt, "stats", None)
    if stats is not None:
        stats.update(diameter=result.depth, distinct=result.distinct, generated=result.generated,
                     initial=result.init_states, queue=result.queue_left, duration=int(result.elapsed))
    if rt is not None:
        rt.counterexample = _counterexample_value(model, result) if result.verdict != "ok" else None
    try:
        v = model.evaluate(name) if hasattr(model, "evaluate") else True
    except EvalError as exc:
        if result.verdict != "ok":
            result.properties.append(PropertyResult(name, "postcondition", "violated", f"cannot be evaluated: {exc}"))
            return
        result.verdict, result.message, result.span = "error", f"evaluating the postcondition {name}: {exc}", exc.span
        return
    finally:
        if rt is not None:
            rt.counterexample = None
    if v is not True:
        why = f"Postcondition {name} is violated." if v is False else f"Postcondition {name} is not a boolean."
        if result.verdict != "ok":
            result.properties.append(PropertyResult(name, "postcondition", "violated", why))
            return
        result.verdict, result.violated = "assumption", name
        result.message = why


def _counterexample_value(model: Any, result: CheckResult) -> Any:
    """TLCExt!CounterExample for ``result``'s error trace (see ``counterexample_record``): the
    numbered states as records, and each step's action as TLC's action record."""
    names = result.variables
    trace = result.counterexample
    states = [make_record(zip(names, st)) for _, st in trace]
    step_info = getattr(model, "step_info", None)

    def action(pre: State, post: State, label: str | None) -> Any:
        name = (label or "").split(" line ", 1)[0].split("(", 1)[0]
        if callable(step_info):
            try:
                cands = [ai for ai, t in model.next_states(pre) if t == post]
                acts = getattr(model, "actions", [])
                ai = next((a for a in cands if getattr(acts[a], "name", None) == name), cands[0] if cands else None)
                if ai is not None:
                    return step_info(ai, pre, post).record()
            except (EvalError, IndexError, TypeError):
                pass
        return make_record([("name", name)])

    acts = [action(trace[i - 1][1], trace[i][1], trace[i][0]) for i in range(1, len(trace))]
    loop = None
    if result.stuttering and trace:
        loop = (acts[-1] if acts else make_record([("name", "")]), len(trace))
    elif result.loop_to is not None and trace:
        loop = (action(trace[-1][1], trace[result.loop_to - 1][1], result.loop_label), result.loop_to)
    violated = result.violated if result.verdict != "liveness" else None
    return counterexample_record(states, acts, violated, loop)


def _liveness(
    result: CheckResult,
    search: "_Search",
    obligations: list,
    fairness: list,
    unsupported: dict[str, str],
    limits: Limits,
    t0: float,
) -> None:
    """Check the temporal properties on the explored graph (only after a complete search)."""
    by_name = {p.name: p for p in result.properties}
    for name, why in unsupported.items():
        if name in by_name:
            by_name[name].status, by_name[name].detail = "not checked", f"not supported: {why}"
    if result.verdict != "ok" or not obligations:
        return
    left = None if limits.max_seconds is None else max(0.0, limits.max_seconds - (time.monotonic() - t0))
    try:
        report = None
        if search.on_progress is not None:
            def report(note: str) -> None:
                search.on_progress(Progress(search.distinct, search.generated, search.depth, 0,
                                            time.monotonic() - t0, note))
        outcomes = check_liveness(search.graph(), obligations, fairness, left, report, memo=search.live_memo)
    except KeyboardInterrupt:
        for pr in result.properties:
            if pr.status == "pending-live":
                pr.status, pr.detail = "not checked", "liveness check interrupted"
        result.verdict, result.stopped = "limit", "interrupted"
        result.message = _STOP_MESSAGES["interrupted"]
        return
    _apply_outcomes(result, outcomes, partial=False)


def _apply_outcomes(result: CheckResult, outcomes: list, partial: bool) -> None:
    """Property statuses (and the verdict, for the first violation) from liveness outcomes. On a
    partial graph (the search did not finish) only violations count: the rest stays pending."""
    by_name = {p.name: p for p in result.properties}
    for out in outcomes:
        pr = by_name.get(out.prop)
        if pr is None or pr.status != "pending-live":
            continue
        if out.violated:
            pr.status, pr.detail = "violated", ""
            if result.verdict in ("ok", "limit"):
                result.verdict = "liveness"
                result.message = out.text
                result.violated = out.prop
                result.counterexample = out.prefix
                result.loop_to = out.loop_to
                result.loop_label = out.loop_label
                result.stuttering = out.stuttering
        elif partial:
            continue
        elif out.stopped:
            pr.status, pr.detail = "not checked", out.text
        else:
            pr.status, pr.detail = "ok", ""


def _periodic_liveness(search: "_Search", obligations: list, fairness: list, limits: Limits,
                       t0: float) -> Callable[[int, bool], None]:
    """The check of the temporal properties on the growing graph (TLC's periodic liveness
    check): only the states whose successors are all known take part in cycles, so a lasso
    found is a real behavior; raises ``_LiveFound`` with it. Scheduled by the number of
    explored states (``search.live_due``), so the same run finds the same violations on any
    machine: at ``limits.live_first`` states, then at every LIVE_GROWTH-fold growth."""

    def run(explored: int, final: bool = False) -> None:
        now = time.monotonic()
        left = None if limits.max_seconds is None else limits.max_seconds - (now - t0)
        if final and (left is None or left < 1.0):
            left = max(1.0, min(10.0, 0.25 * (now - t0)))  # a last look after a limit stopped the search
        if left is not None and left <= 0:
            search.live_due = float("inf")
            return
        g = search.graph()
        g.explored = explored
        if search.on_progress is not None:
            search.on_progress(Progress(search.distinct, search.generated, search.depth, search.queue_left,
                                        now - t0, f"checking temporal properties on the current state "
                                                  f"space of {explored} explored states"))
        outcomes = check_liveness(g, obligations, fairness, left, memo=search.live_memo)
        search.live_due = explored * LIVE_GROWTH
        search.live_checks += 1
        if any(o.violated for o in outcomes):
            raise _LiveFound(outcomes)

    return run


def _last_partial_check(result: CheckResult, search: "_Search") -> None:
    """A search stopped by a state or depth limit: check the graph explored so far once more
    (a violation found there is real; nothing found proves nothing: the properties stay
    "not checked")."""
    try:
        search.live(search.distinct - search.queue_left, True)  # type: ignore[misc]
    except _LiveFound as found:
        _apply_outcomes(result, found.outcomes, partial=True)


_STOP_MESSAGES = {
    "max_states": "stopped: reached the maximum number of distinct states",
    "max_depth": "stopped: reached the maximum depth (states beyond it were not explored)",
    "max_seconds": "stopped: reached the time limit",
    "max_memory": "stopped: reached the memory limit (--max-memory)",
    "interrupted": "stopped: interrupted (Ctrl-C)",
}



class _Search:
    def __init__(
        self,
        model: Any,
        plan: Plan,
        limits: Limits,
        coverage: list[ActionCoverage],
        on_progress: Callable[[Progress], None] | None,
        key: Callable[[State], Any],
        t0: float,
    ) -> None:
        self.model = model
        self.plan = plan
        self.limits = limits
        self.coverage = coverage
        self.on_progress = on_progress
        self.key = key
        self.t0 = t0
        # the keys stored: a set (membership is all the search asks), or, when the state graph
        # is recorded, a dict key -> index (an edge's target); a set's table is a flat array of
        # (hash, key) slots, a dict's an index array into an array of entries: less memory per
        # state and fewer cache misses per lookup (MCLamportMutex: -17 % peak memory)
        self.seen: set[Any] | dict[Any, int] = set()
        self.keys: list[Any] = []
        self.parent = array("q")
        self.action = array("i")
        self.distinct = 0
        self.generated = 0
        self.depth = 0
        self.queue_left = 0
        self.init_count = 0
        self.depth_cut = False
        self._next: list[State] | None = None
        # the state graph, recorded only when liveness properties need it
        self.record = False
        self.esrc = array("i")
        # TLC's queue size right after each state's successors were generated (by state index, for
        # TLCGet("queue") in temporal properties: TLC evaluates their state predicates then)
        self.queue_at = array("q")
        self.edst = array("i")
        self.eact = array("i")
        self.keep_states: list[State] | None = None
        # periodic liveness check on the growing graph: live(explored states) raises _LiveFound
        self.live: Callable[..., None] | None = None
        self.live_due = float("inf")
        self.live_memo: Any = None  # liveness.LiveMemo: what one check of the graph tells the next
        self.live_checks = 0
        # the levels after the initial states searched by worker processes (specula.tla.parallel)
        self.parallel: Any = None
        # TLCExt!Trace / TLCGet("level"): the runtime is told which state is being explored
        self.runtime = getattr(model, "runtime", None)
        self.composed0 = self.runtime.composed[0] if self.runtime is not None else 0
        self.composed_end: int | None = None
        if self.runtime is not None:
            self.runtime.path_of = self.path_states
            if self.runtime.uses_trace and key is not identity:
                self.keep_states = []  # the paths are read from them (no replay inside a step)

    def composed(self) -> int:
        """The intermediate states of action compositions (A \\cdot B) the search generated
        (not those of an error trace's reconstruction)."""
        if self.composed_end is not None:
            return self.composed_end
        rt = self.runtime
        return rt.composed[0] - self.composed0 if rt is not None else 0

    def record_graph(self) -> None:
        self.record = True
        self.seen = {}  # (called before the search)
        if self.key is not identity and self.keep_states is None:
            self.keep_states = []

    def graph(self) -> Any:
        states = self.keep_states if self.keep_states is not None else self.keys
        inits = list(range(self.init_count))
        return Graph(states, inits, self.esrc, self.edst, self.eact, [c.label for c in self.coverage],
                     key=None if self.key is identity else self.key, model=self.model,
                     queue_at=self.queue_at,
                     tlc_stats=getattr(getattr(self.model, "runtime", None), "stats", None))

    # ------------------------------------------------------------------------------------------
    def _add(self, k: Any, parent: int, action: int) -> int:
        idx = len(self.keys)
        if self.record:
            self.seen[k] = idx  # type: ignore[index]
        else:
            self.seen.add(k)  # type: ignore[union-attr]
        self.keys.append(k)
        self.parent.append(parent)
        self.action.append(action)
        return idx

    def _progress(self, queue: int) -> None:
        if self.on_progress is not None:
            self.on_progress(
                Progress(self.distinct, self.generated, self.depth, queue, time.monotonic() - self.t0)
            )

    def run(self) -> None:
        # The stored states and the memos live until the search ends, and hold no garbage: a
        # full collection of the cyclic GC would traverse all of them to find nothing (~5 % of
        # a 340,000-state search). They are moved out of its reach (gc.freeze, also at each level
        # and every 16,384 states of one) and given back at the end; garbage stays collected by
        # reference counting and, for short-lived cycles, by the young generations.
        frozen_before = gc.get_freeze_count()
        try:
            self._run()
        finally:
            if not frozen_before:
                gc.unfreeze()

    def _run(self) -> None:
        model, plan, limits = self.model, self.plan, self.limits
        key = self.key
        ident = key is identity
        seen = self.seen
        invariants = plan.invariants
        constraints = plan.constraints
        acons = plan.action_constraints
        aprops = plan.action_props
        max_states = limits.max_states
        deadline = None if limits.max_seconds is None else self.t0 + limits.max_seconds
        max_memory = limits.max_memory
        memory_due = 0.0
        cov_gen = [0] * len(self.coverage)
        cov_new = [0] * len(self.coverage)
        actions = self.coverage

        level_states: list[State] = []
        level_idx: list[int] = []
        # Without a key function the search interns the states it stores into its own pools
        # (one per variable, as Model.intern_state): a pooled value is then one of a stored
        # state, which the invariants held for, and a planned invariant's fresh(succ, parent,
        # raw) checks only the variables whose values are new to the pools (no memory of the
        # values it held for looked up)
        pools = [{} for _ in model.variables] if ident and hasattr(model, "intern_state") else None
        rt = self.runtime
        explore = rt.explore if rt is not None else None
        if rt is not None:
            rt.leave()
        # ---- initial states ------------------------------------------------------------------
        try:
            for st in model.init_states():
                self.generated += 1
                k = key(st)
                if k in seen:
                    continue
                # ACTION_CONSTRAINT does not apply to initial states (TLC: isInActions(null, s))
                in_model = all(c(st) for _, c in constraints)
                if in_model:
                    if pools is not None:
                        st = k = tuple(map(dict.setdefault, pools, st, st))
                    idx = self._add(k, -1, -1)
                    if self.keep_states is not None:
                        self.keep_states.append(st)
                    self.distinct += 1
                    level_states.append(st)
                    level_idx.append(idx)
                    bad_at, extra = idx, []
                else:
                    bad_at, extra = -1, [(-1, st)]
                for name, inv in invariants:
                    if not inv(st):
                        raise _Found("invariant", f"Invariant {name} is violated by the initial state.", name, bad_at, extra)
                for name, ip in plan.init_props:
                    if not ip(st):
                        raise _Found("invariant", f"Property {name} is violated by the initial state.", name, bad_at, extra)
                if max_states is not None and self.distinct >= max_states:
                    self.queue_left = len(level_states)  # none explored yet
                    raise _Stop("max_states")
                if deadline is not None and self.generated & 255 == 0 and time.monotonic() >= deadline:
                    self.queue_left = len(level_states)  # a model with very many initial states
                    raise _Stop("max_seconds")
        except EvalError as exc:
            raise _Found("error", str(exc), None, -1, [(-1, exc.state)] if isinstance(exc.state, tuple) else [], exc.span) from None
        self.init_count = self.distinct
        if level_states:
            self.depth = 1
        self._progress(len(level_states))
        parallel = self.parallel
        if parallel is not None and parallel.takes(level_states):
            parallel.run(self, level_states, level_idx)
            return

        # ---- breadth-first, one level at a time ----------------------------------------------
        check_deadlock = plan.check_deadlock
        max_depth = limits.max_depth
        next_tick = time.monotonic() + limits.progress_every
        parent_arr, action_arr, keys = self.parent, self.action, self.keys
        record = self.record
        seen_add = None if record else seen.add  # type: ignore[union-attr]
        esrc, edst, eact = self.esrc, self.edst, self.eact
        keep_states = self.keep_states
        generated = self.generated
        composed = self.runtime.composed if self.runtime is not None else [0, 0]
        intern = getattr(model, "intern_state", identity)  # optional in the model protocol
        # a SYMMETRY key that takes the parent state builds a new value's entry from the parent's
        pkey = key if getattr(key, "takes_parent", False) else None
        # its memory of the keys of recent states, by value: a successor equal to a state keyed
        # recently (a stored one: its key is seen) needs neither interning nor keying
        recent = getattr(pkey, "recent", None)
        in_constraints = bool(constraints or acons)
        # a planned predicate's step(succ, parent) takes a successor of a state it held for
        # (Model.compile_invariant: the conjuncts of parent's unchanged variables hold)
        inv_steps = [(name, inv, getattr(inv, "step", None)) for name, inv in invariants]
        # with the search's own pools: fresh(succ, parent, raw) (an invariant without it is
        # evaluated whole)
        inv_fresh = [(name, inv, getattr(inv, "fresh", None)) for name, inv in invariants]
        setdefault = dict.setdefault
        con_steps = [(c, getattr(c, "step", None)) for _, c in constraints]
        unqueued = False  # an invariant's evaluation error on a stored state (not in TLC's queue)
        try:
            while level_states:
                if max_depth is not None and self.depth >= max_depth:
                    self.depth_cut = True
                    self.queue_left = len(level_states)
                    return
                next_states: list[State] = []
                next_idx: list[int] = []
                self._next = next_states
                n_level = len(level_states)
                for pos in range(n_level):
                    st = level_states[pos]
                    pidx = level_idx[pos]
                    level_states[pos] = None  # type: ignore[call-overload]  # free as we go
                    if explore is not None:
                        explore(st, pidx, self.depth)
                    deadlocked = True
                    cmark = composed[0]
                    try:
                        for ai, succ in model.next_states(st):
                            deadlocked = False
                            generated += 1
                            cov_gen[ai] += 1
                            if in_constraints:
                                in_model = True
                                for c, c_step in con_steps:
                                    if not (c(succ) if c_step is None else c_step(succ, st)):
                                        in_model = False
                                        break
                                if in_model:
                                    for _, a in acons:
                                        if not a(st, succ):
                                            in_model = False
                                            break
                            else:
                                in_model = True
                            if in_model:
                                if ident:
                                    k = succ
                                else:
                                    k = None if recent is None else recent(succ)
                                    if k is None:
                                        # pooled values make the symmetry/VIEW memo lookups hit by identity
                                        succ = intern(succ)
                                        k = key(succ) if pkey is None else pkey(succ, st, recent is not None)
                                if record:
                                    didx = seen.get(k)  # type: ignore[union-attr]
                                    new = didx is None
                                else:
                                    new = k not in seen
                                if new:
                                    if ident:
                                        raw = succ
                                        succ = k = intern(succ) if pools is None else tuple(map(setdefault, pools, succ, succ))
                                    didx = idx = len(keys)
                                    if record:
                                        seen[k] = idx  # type: ignore[index]
                                    else:
                                        seen_add(k)
                                    keys.append(k)
                                    parent_arr.append(pidx)
                                    action_arr.append(ai)
                                    cov_new[ai] += 1
                                    next_states.append(succ)
                                    next_idx.append(idx)
                                    if keep_states is not None:
                                        keep_states.append(succ)
                                if record:
                                    esrc.append(pidx)
                                    edst.append(didx)
                                    eact.append(ai)
                            else:
                                new = True
                                idx = -1
                                if pools is not None:  # (checked, not stored: its values pooled as checked)
                                    raw = succ
                                    succ = tuple(map(setdefault, pools, succ, succ))
                            if new:
                                try:
                                    if pools is not None:
                                        for name, inv, i_fresh in inv_fresh:
                                            if not (inv(succ) if i_fresh is None else i_fresh(succ, st, raw)):
                                                break
                                        else:
                                            name = None
                                    else:
                                        for name, inv, i_step in inv_steps:
                                            if not (inv(succ) if i_step is None else i_step(succ, st)):
                                                break
                                        else:
                                            name = None
                                except EvalError:
                                    # TLC's queue at an invariant's evaluation error, as at a
                                    # violation: without the state (checked before it is enqueued)
                                    unqueued = idx >= 0
                                    raise
                                if name is not None:
                                    # TLC's queue: the rest of this level and the next one, without
                                    # the violating state (checked before it is enqueued)
                                    self._sync(generated, cov_gen, cov_new,
                                               n_level - pos - 1 + len(next_states) - (idx >= 0))
                                    extra = [] if idx >= 0 else [(ai, succ)]
                                    at = idx if idx >= 0 else pidx
                                    raise _Found("invariant", f"Invariant {name} is violated.", name, at, extra)
                            if aprops:
                                for name, ap in aprops:
                                    if not ap(st, succ):
                                        self._sync(generated, cov_gen, cov_new, n_level - pos - 1 + len(next_states))
                                        raise _Found(
                                            "action-property",
                                            f"Action property {name} is violated.",
                                            name,
                                            pidx,
                                            [(ai, succ)],
                                        )
                    except EvalError as exc:
                        self._sync(generated, cov_gen, cov_new, n_level - pos - 1 + len(next_states) - unqueued)
                        bad = exc.state if isinstance(exc.state, tuple) else None
                        extra = [] if bad is None or bad is st else [(-1, bad)]
                        raise _Found("error", str(exc), None, pidx, extra, exc.span) from None
                    if record:
                        self.queue_at.append(n_level - pos - 1 + len(next_states))
                    # TLC: a deadlock is a state without generated states, the intermediate
                    # states of action compositions included
                    if deadlocked and check_deadlock and composed[0] == cmark:
                        self._sync(generated, cov_gen, cov_new, n_level - pos - 1 + len(next_states))
                        raise _Found("deadlock", "Deadlock reached.", None, pidx, [])
                    if max_states is not None and len(keys) >= max_states:
                        self._sync(generated, cov_gen, cov_new, len(next_states) + n_level - pos - 1)
                        raise _Stop("max_states")
                    if pos & 63 == 0:
                        if pos & 16383 == 0:
                            gc.freeze()
                        now = time.monotonic()
                        if deadline is not None and now >= deadline:
                            self._sync(generated, cov_gen, cov_new, len(next_states) + n_level - pos - 1)
                            raise _Stop("max_seconds")
                        if max_memory is not None and now >= memory_due:
                            memory_due = now + 0.25
                            if rss_bytes() >= max_memory:
                                self._sync(generated, cov_gen, cov_new, len(next_states) + n_level - pos - 1)
                                raise _Stop("max_memory")
                        if now >= next_tick:
                            next_tick = now + limits.progress_every
                            self._sync(generated, cov_gen, cov_new, len(next_states) + n_level - pos - 1)
                            self._progress(self.queue_left)
                        if pidx + 1 >= self.live_due:
                            self._sync(generated, cov_gen, cov_new, len(next_states) + n_level - pos - 1)
                            self.live(pidx + 1)  # type: ignore[misc]  # states 0..pidx are explored
                level_states, level_idx = next_states, next_idx
                self._next = None
                gc.freeze()
                if level_states:
                    self.depth += 1
                self._sync(generated, cov_gen, cov_new, len(level_states))
                if parallel is not None and parallel.takes(level_states):
                    break  # a level large enough for the worker processes: they search the rest
        except KeyboardInterrupt:
            self._sync(generated, cov_gen, cov_new, self.queue_left)
            raise
        if parallel is not None and level_states:
            parallel.run(self, level_states, level_idx)
            return
        self._sync(generated, cov_gen, cov_new, 0)
        self._progress(0)

    def path_states(self, idx: int) -> list[State]:
        """The states of the shortest behaviour from an initial state to stored state ``idx``
        (TLCExt!Trace): read from the stored states, or replayed when only keys are stored."""
        states = self.keys if self.key is identity else self.keep_states
        if states is None:
            return [st for _, st in self.trace(idx, [])]
        chain: list[State] = []
        i = idx
        while i >= 0:
            chain.append(states[i])
            i = self.parent[i]
        chain.reverse()
        return chain

    def _sync(self, generated: int, cov_gen: list[int], cov_new: list[int], queue: int) -> None:
        self.generated = generated
        self.distinct = len(self.keys)
        self.queue_left = queue
        for c, g, n in zip(self.coverage, cov_gen, cov_new):
            c.generated = g
            c.distinct = n

    # ------------------------------------------------------------------------------------------
    def trace(self, idx: int, extra: list[tuple[int, State]]) -> list[tuple[str | None, State]]:
        """Rebuild the shortest path to stored state ``idx`` by replay, then append ``extra``."""
        chain: list[int] = []
        i = idx
        while i >= 0:
            chain.append(i)
            i = self.parent[i]
        chain.reverse()
        out: list[tuple[str | None, State]] = []
        labels = _trace_labels(self.model, [c.label for c in self.coverage])
        rt = self.runtime
        saved = (rt.current, rt.at, rt.level[0]) if rt is not None else None
        try:
            if chain:
                key = self.key
                target = self.keys[chain[0]]
                cur = None
                if rt is not None:
                    rt.leave()
                for st in self.model.init_states():
                    if key(st) == target:
                        cur = st
                        break
                if cur is None:  # cannot happen unless the model is nondeterministic
                    return [(None, s) for _, s in extra]
                out.append((None, cur))
                for j, i in enumerate(chain[1:]):
                    target, want = self.keys[i], self.action[i]
                    nxt = None
                    if rt is not None:  # replayed as explored (Trace and TLCGet("level") as then)
                        rt.explore(cur, chain[j], j + 1)
                    for ai, succ in self.model.next_states(cur):
                        if ai == want and key(succ) == target:
                            nxt = succ
                            break
                    if nxt is None:
                        break
                    out.append((labels[want], nxt))
                    cur = nxt
        finally:
            if rt is not None and saved is not None:
                rt.current, rt.at, rt.level[0] = saved
        for ai, st in extra:
            out.append((labels[ai] if ai >= 0 else None, st))
        return out


def build_model(spec_path: str | Path, cfg_path: str | Path | None = None, search_path: Sequence[str] = (),
                definitions: Sequence[str] = ()) -> tuple[Any, Any]:
    """Load SPEC.tla and its .cfg (default: same name) and build the engine's Model.

    ``definitions`` (``Name == expr`` texts) are added before the module's final ``====``, as if
    written there: the scoring compiles the spec once with phase 4's invariants."""
    spec_path = Path(spec_path)
    if not spec_path.is_file():
        raise InputError("spec file not found" if not spec_path.exists() else "spec is not a file", path=str(spec_path))
    cfg_file = Path(cfg_path) if cfg_path is not None else spec_path.with_suffix(".cfg")
    if not cfg_file.is_file():
        raise ConfigError(f"model config not found: {cfg_file}", path=str(cfg_file))
    spec = load(str(spec_path), search_path=tuple(str(p) for p in search_path), definitions=definitions)
    cfg = load_cfg(cfg_file)
    check_cfg_names(cfg, spec)
    model = Model(spec, cfg)
    if model.next_name is None and model.variables:  # as TLC, before any state is explored
        raise ConfigError(f"SPECIFICATION {cfg.specification} has no next-state action (a [][Next]_vars conjunct)",
                          path=str(cfg_file), line=cfg.lines.get("specification"), field="specification")
    return model, cfg


def check_spec(
    spec_path: str | Path,
    cfg_path: str | Path | None = None,
    limits: Limits | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    search_path: Sequence[str] = (),
    workers: int = 1,
) -> CheckResult:
    """Load, build and model-check a spec: the one call behind ``specula check``."""
    model, cfg = build_model(spec_path, cfg_path, search_path)
    return check(model, limits or Limits(), on_progress=on_progress, cfg=cfg, workers=workers)
