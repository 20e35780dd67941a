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

import time
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.errors import ConfigError, EvalError, InputError, SpeculaError
from specula.tla.cfg import check_cfg_names, load_cfg
from specula.tla.loading import load
from specula.tla.model import Model
from specula.tla.protocol import ModelProtocol

__all__ = [
    "Limits",
    "ActionCoverage",
    "Progress",
    "PropertyResult",
    "CheckResult",
    "ModelProtocol",
    "check",
    "check_spec",
    "classify_property",
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
    # first time after this many seconds of search, then whenever the graph grew by 10% and at
    # least LIVE_RATIO times the last check's duration has passed (None: only the final check)
    live_first: float | None = 1.0


@dataclass
class ActionCoverage:
    index: int
    name: str
    label: str
    distinct: int = 0  # new distinct states this action found
    generated: int = 0  # successor states this action generated (with repeats)

    def to_dict(self) -> dict:
        return {"name": self.name, "label": self.label, "distinct": self.distinct, "generated": self.generated}


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
class PropertyResult:
    name: str
    kind: str  # "invariant" | "action" | "init" | "temporal" | "mixed"
    status: str  # "ok" | "violated" | "not checked"
    detail: str = ""

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "status": self.status, "detail": self.detail}


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

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"

    def trace_dicts(self) -> list[dict[str, Any]]:
        return [
            {"action": label, "state": dict(zip(self.variables, st))} for label, st in self.counterexample
        ]


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


class _LiveFound(Exception):
    """A periodic check of the growing graph found a liveness violation (a real lasso)."""

    def __init__(self, outcomes: list) -> None:
        self.outcomes = outcomes


LIVE_RATIO = 3.0  # periodic liveness checks take at most ~1/(1+LIVE_RATIO) of the time
LIVE_GROWTH = 0.1  # ... and run only once the explored graph grew by this fraction (TLC's 10%)


@dataclass
class _Found(Exception):
    verdict: str
    message: str
    violated: str | None
    idx: int  # index of the last stored state of the trace (parent of the bad step), -1 for none
    extra: list[tuple[int, State]]  # (action index or -1, state) steps after idx
    span: Any = None

    def __post_init__(self) -> None:
        Exception.__init__(self, self.message)


def _span_of(obj: Any) -> Any:
    return getattr(obj, "span", None)


def _identity(s: State) -> State:
    return s


def _key_function(model: Any, fingerprint: Callable[[Any], int] | None) -> Callable[[State], Any]:
    """state -> identity key: the VIEW of the state, reduced under SYMMETRY.

    By default the key is the (view of the) state itself: exact, collision-free, and much faster
    in Python than serialising each state for a 64-bit fingerprint (``values.fingerprint``);
    pass ``fingerprint`` to ``check`` to store 64-bit fingerprints instead (less memory for
    large states, TLC's collision risk). Under SYMMETRY the representative of a state's orbit is
    the permuted state with the smallest ``values.fingerprint``.
    """
    custom = getattr(model, "state_key", None)
    if callable(custom):
        return custom
    view = getattr(model, "view", None)
    has_view = bool(getattr(model, "has_view", False)) and callable(view)
    perms = list(getattr(model, "symmetry_perms", None) or ())
    permute = getattr(model, "permute", None)
    base: Callable[[State], Any] = view if has_view else _identity  # type: ignore[assignment]
    if perms and callable(permute):
        return _symmetry_key(model, perms, permute, base, fingerprint)
    if fingerprint is not None:
        fp = fingerprint
        return (lambda s: fp(view(s))) if has_view else fp
    return base




_TOKEN = r'\(\*.*?\*\)|\\\*[^\n]*|"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*)'


def tlc_string_order(model: Any) -> Any:
    """TLC's UniqueString order (its token numbers) for ``model``, approximated: TLC's prelude,
    the .cfg's words, the rest of the prelude, then identifiers and string literals in order of
    first appearance in the root module's text, then in the other modules' texts; model values
    in the .cfg's order. None for toy models without a spec."""
    import re

    from specula.tla.values import TLC_PRELUDE, TLC_PRELUDE_HEAD, StringOrder

    spec = getattr(model, "spec", None)
    sources: dict[str, str] = dict(getattr(spec, "sources", None) or {})
    if not sources:
        return None
    cfg = getattr(model, "cfg", None)
    tok = re.compile(_TOKEN, re.S)
    words: list[str] = list(TLC_PRELUDE_HEAD)
    cfg_file = getattr(cfg, "file", None)
    try:
        cfg_text = Path(cfg_file).read_text(encoding="utf-8-sig") if cfg_file else ""
    except OSError:
        cfg_text = ""
    words += [m.group(2) or m.group(1) for m in tok.finditer(cfg_text) if (m.group(2) or m.group(1)) is not None]
    words += getattr(cfg, "model_values", None) or []
    words += TLC_PRELUDE
    root = getattr(spec, "path", None)
    order = ([root] if root in sources else []) + [p for p in sources if p != root]
    for path in order:
        for m in tok.finditer(sources[path]):
            word = m.group(1) if m.group(1) is not None else m.group(2)
            if word is not None:
                words.append(word)
    return StringOrder(words, getattr(cfg, "model_values", None) or [])


def _token_ranks(model: Any) -> dict[str, int]:
    """Ranks of strings and model values in TLC's order (see :func:`tlc_string_order`)."""
    so = tlc_string_order(model)
    if so is None:
        return {}
    ranks = dict(so.rank)
    for name, r in so.mv.items():  # model values first, in the .cfg's order
        ranks[name] = r - len(so.mv)
    return ranks


def _symmetry_key(
    model: Any, perms: list, permute: Callable, base: Callable[[State], Any], fingerprint: Callable | None
) -> Callable[[State], Any]:
    """TLC's representative of a state under SYMMETRY: the lexicographically smallest permuted
    state (variables in order, values compared as TLC's ``compareTo``), then its VIEW.

    For a symmetry group (``Permutations(S)``, or products) any total order gives the same orbit
    count; for a union of permutation sets (not a group) TLC's count depends on its order, which
    is reproduced here (model values and strings ranked by TLC's interning order, approximated).
    """
    try:
        from specula.tla.values import Fn, ModelValue
    except ImportError:  # toy models in tests
        Fn = dict  # type: ignore[misc,assignment]
        ModelValue = ()  # type: ignore[misc,assignment]
    ranks = _token_ranks(model)
    key_cache: dict = {}

    def rank(name: str) -> int:
        r = ranks.get(name)
        if r is None:
            r = ranks[name] = len(ranks) + 1_000_000
        return r

    def key(v: Any) -> tuple:
        c = v.__class__
        if c is bool:
            return (0, int(v))
        if c is int:
            return (1, v)
        if c is str:
            return (2, rank(v))
        if ModelValue and c is ModelValue:
            return (3, rank(v.name))
        try:
            k = key_cache.get(v)
        except TypeError:
            k = None
        if k is not None:
            return k
        if c is tuple:  # a function with domain 1..n
            k = (5, len(v), tuple((1, i) for i in range(1, len(v) + 1)), tuple(key(x) for x in v))
        elif isinstance(v, (frozenset, set)):
            k = (4, len(v), tuple(sorted(key(x) for x in v)))
        elif isinstance(v, (Fn, dict)):
            items = sorted(((key(d), x) for d, x in v.items()), key=lambda t: t[0])
            k = (5, len(items), tuple(d for d, _ in items), tuple(key(x) for _, x in items))
        else:
            k = (9, repr(v))
        if len(key_cache) > 500_000:
            key_cache.clear()
        try:
            key_cache[v] = k
        except TypeError:
            pass
        return k

    def make_permuter(p: Any) -> Callable[[Any], Any]:
        """Value -> permuted value; sub-values are memoised (states share most of them)."""
        get = getattr(p, "get", None)
        if not ModelValue or not callable(get):
            return lambda v: permute((v,), p)[0]
        memo: dict = {}
        scalar = (int, str, bool)

        def pv(v: Any) -> Any:
            c = v.__class__
            if c is ModelValue:
                return get(v, v)
            if c in scalar:
                return v
            try:
                r = memo.get(v)
            except TypeError:
                return permute((v,), p)[0]
            if r is not None:
                return r
            if c is tuple:
                r = tuple([pv(x) for x in v])
            elif c is frozenset:
                r = frozenset([pv(x) for x in v])
            elif c is Fn:
                r = make_fn({pv(k): pv(x) for k, x in v.items()})
            else:
                r = permute((v,), p)[0]
            if len(memo) > 200_000:
                memo.clear()
            memo[v] = r
            return r

        return pv

    try:
        from specula.tla.values import make_fn
    except ImportError:
        make_fn = dict  # type: ignore[assignment]
    permuters = [make_permuter(p) for p in perms]

    def canon(s: State) -> Any:
        # lexicographic minimum over the permuted states, permuting each variable lazily: a
        # permutation is abandoned at the first variable where it is not smaller
        best = s
        n = len(s)
        best_keys: list = [None] * n
        for pv in permuters:
            for j in range(n):
                a = pv(s[j])
                b = best[j]
                if a is b or a == b:
                    continue
                ka = key(a)
                kb = best_keys[j]
                if kb is None:
                    kb = best_keys[j] = key(b)
                if ka < kb:
                    best = best[:j] + (a,) + tuple([pv(x) for x in s[j + 1 :]])
                    best_keys = [None] * n
                    best_keys[j] = ka
                break
        v = base(best)
        return v if fingerprint is None else fingerprint(v)

    return canon


def _cfg_of(model: Any, cfg: Any) -> Any:
    if cfg is not None:
        return cfg
    return getattr(model, "cfg", None)


def _trace_labels(model: Any, labels: list[str]) -> list[str]:
    """Labels of error-trace steps: the action's name, or, for actions that share a name (the
    unnamed disjuncts of Next), TLC's ``Next line L, col C to line L2, col C2 of module M``."""
    infos = list(getattr(model, "actions", []) or [])
    out = list(labels)
    for i, lab in enumerate(labels):
        sp = getattr(infos[i], "span", None) if i < len(infos) else None
        if labels.count(lab) > 1 and sp is not None and getattr(sp, "line", 0):
            from pathlib import Path

            out[i] = (f"{lab} line {sp.line}, col {sp.col} to line {sp.end_line}, col {sp.end_col - 1} "
                      f"of module {Path(getattr(sp, 'file', '') or 'spec').stem}")
    return out


def set_tlc_config(model: Any, cfg: Any, check_deadlock: bool | None, mode: str) -> None:
    """What ``TLCGet("config")`` reports while ``model`` is checked (mode, deadlock checking)."""
    conf = getattr(getattr(model, "runtime", None), "config", None)
    if conf is None:
        return
    if check_deadlock is None:
        check_deadlock = bool(getattr(cfg, "check_deadlock", True)) if cfg is not None else True
    conf["mode"], conf["deadlock"] = mode, bool(check_deadlock)


def check(
    model: Any,
    limits: Limits | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    cfg: Any = None,
    fingerprint: Callable[[Any], int] | None = None,
) -> CheckResult:
    """Model-check ``model`` breadth-first; never raises for model errors (verdict "error").
    Sets are enumerated in TLC's value order (strings ranked as TLC interns them), so at a
    violation the trace and the counts are TLC's."""
    from specula.tla.values import tlc_string_order as string_order

    order = tlc_string_order(model)
    with string_order(order):
        result = _check(model, limits, on_progress, cfg, fingerprint)
    result.string_order = order
    return result


def _check(
    model: Any,
    limits: Limits | None,
    on_progress: Callable[[Progress], None] | None,
    cfg: Any,
    fingerprint: Callable[[Any], int] | None,
) -> CheckResult:
    limits = limits or Limits()
    cfg = _cfg_of(model, cfg)
    t0 = time.monotonic()
    actions = list(getattr(model, "actions", []) or [])
    coverage = [
        ActionCoverage(i, getattr(a, "name", str(a)), getattr(a, "label", getattr(a, "name", str(a))))
        for i, a in enumerate(actions)
    ]
    variables = tuple(getattr(model, "variables", ()))
    result = CheckResult(verdict="ok", coverage=coverage, variables=variables)

    set_tlc_config(model, cfg, limits.check_deadlock, "bfs")
    # ---- ASSUME ------------------------------------------------------------------------------
    try:
        diags = list(model.check_assumes()) if hasattr(model, "check_assumes") else []
    except EvalError as exc:
        result.verdict, result.message, result.span = "error", str(exc), exc.span
        return result
    if diags:
        result.verdict = "assumption"
        result.diagnostics = diags
        result.message = getattr(diags[0], "message", str(diags[0]))
        return result

    constant_only = cfg is not None and not (
        getattr(cfg, "init", None) or getattr(cfg, "next", None) or getattr(cfg, "specification", None)
    )
    if constant_only and not getattr(model, "has_behavior", False):
        result.elapsed = time.monotonic() - t0
        return result

    # ---- what to check -----------------------------------------------------------------------
    try:
        plan = _Plan.build(model, cfg, limits)
    except EvalError as exc:
        result.verdict, result.message, result.span = "error", str(exc), exc.span
        return result
    result.properties = plan.property_results

    search = _Search(model, plan, limits, coverage, on_progress, _key_function(model, fingerprint), t0)
    obligations: list = []
    fairness: list = []
    unsupported: dict[str, str] = {}
    if plan.temporal_props:
        try:
            from specula.tla.liveness import liveness_plan

            obligations, fairness, unsupported = liveness_plan(model, cfg, plan.temporal_props)
        except Exception as exc:  # analysis failed: the properties stay "not checked"
            unsupported = {n: f"cannot analyse: {exc}" for n in plan.temporal_props}
        if obligations:
            search.record_graph()
            search.live = _periodic_liveness(search, obligations, fairness, limits, t0)
            if limits.live_first is not None:
                search.live_due = t0 + limits.live_first
    try:
        search.run()
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
    result.generated = search.generated
    # stopped while generating the next level: TLC counts that level in the depth
    result.depth = search.depth + (1 if search._next else 0)
    result.queue_left = search.queue_left
    result.init_states = search.init_count
    result.elapsed = time.monotonic() - t0
    post = getattr(cfg, "postcondition", None)
    if post and result.verdict == "ok":
        _postcondition(model, post, result)
    if result.counterexample:
        _tlc_step_labels(model, result)
    alias = getattr(cfg, "alias", None)
    if alias and result.counterexample and hasattr(model, "compile_alias"):
        _apply_alias(model, alias, result)
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
    from specula.tla.values import Fn, format_value

    level = getattr(getattr(model, "runtime", None), "level", [0])
    try:
        fn = model.compile_alias(name)
        states = [st for _, st in result.counterexample]
        recs = []
        for i, st in enumerate(states):
            level[0] = i + 1  # TLCGet("level") is the state's position in the trace, as TLC
            recs.append(fn(st, states[i + 1] if i + 1 < len(states) else st))
    except EvalError as exc:
        result.alias_error = f"ALIAS {name} could not be evaluated: {exc}"
        return
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
    describing it; FALSE is reported like a false assumption (TLC exits with code 10)."""
    stats = getattr(getattr(model, "runtime", None), "stats", None)
    if stats is not None:
        stats.update(diameter=result.depth, distinct=result.distinct, generated=result.generated,
                     initial=result.init_states, queue=result.queue_left, duration=int(result.elapsed))
    try:
        v = model.evaluate(name) if hasattr(model, "evaluate") else True
    except EvalError as exc:
        result.verdict, result.message, result.span = "error", f"evaluating the postcondition {name}: {exc}", exc.span
        return
    if v is not True:
        result.verdict, result.violated = "assumption", name
        result.message = f"Postcondition {name} is violated." if v is False else f"Postcondition {name} is not a boolean."


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
    from specula.tla.liveness import check_liveness

    try:
        report = None
        if search.on_progress is not None:
            def report(note: str) -> None:
                search.on_progress(Progress(search.distinct, search.generated, search.depth, 0,
                                            time.monotonic() - t0, note))
        outcomes = check_liveness(search.graph(), obligations, fairness, left, report)
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
    found is a real behavior; raises ``_LiveFound`` with it. Scheduled so that the checks cost
    at most about 1/(1 + LIVE_RATIO) of the search time."""
    from specula.tla.liveness import check_liveness

    last = {"size": 0}

    def run(explored: int, final: bool = False) -> None:
        now = time.monotonic()
        if not final and explored < last["size"] * (1 + LIVE_GROWTH) + 1:
            search.live_due = now + 0.5
            return
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
        outcomes = check_liveness(g, obligations, fairness, left)
        end = time.monotonic()
        last["size"] = explored
        search.live_due = end + max(limits.live_first or 1.0, LIVE_RATIO * (end - now))
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



def classify_property(model: Any, name: str) -> list[tuple[str, Callable]] | None:
    """Split a PROPERTY into what the safety search can check, as TLC does.

    Conjunctions are split (through definitions and instances, e.g. a refinement ``Abs!Spec``);
    ``[][A]_v`` -> ("action", (s, t) -> bool); ``[]P`` with P a state predicate ->
    ("invariant", s -> bool); a state predicate outside any temporal operator -> ("init",
    s -> bool), checked on initial states; anything else (``<>``, ``~>``, WF/SF, ...) ->
    ("temporal", None), left to liveness checking. ``None`` when the model offers no compiler.
    """
    own = getattr(model, "classify_property", None)
    if callable(own):
        return own(name)
    comp = getattr(model, "compiler", None)
    env0 = getattr(model, "env", None)
    node0 = getattr(model, "_expr_node", None)
    if comp is None or env0 is None or node0 is None:
        return None
    from specula.tla import ast as A
    from specula.tla.compile import PRIME

    frame = comp.frame
    out: list[tuple[str, Callable]] = []

    from specula.tla.liveness import unfold_definition

    def unfold(node: Any, env: Any) -> tuple[Any, Any] | None:
        return unfold_definition(comp, node, env)

    from specula.tla.liveness import has_temporal

    def compiled(node: Any, env: Any) -> tuple[Callable, frozenset] | None:
        if has_temporal(comp, node, env):
            return None
        try:
            return comp.expr(node, env)
        except Exception:
            return None

    def walk(node: Any, env: Any, depth: int = 0) -> None:
        if depth > 50:
            out.append(("temporal", None))
            return
        if isinstance(node, A.And) or (isinstance(node, A.OpApp) and node.name == "/\\" and not node.prefix):
            for a in node.args:
                walk(a, env, depth + 1)
            return
        if isinstance(node, A.OpApp) and node.name == "[]" and len(node.args) == 1 and not node.prefix:
            inner, ienv = node.args[0], env
            for _ in range(20):
                u = unfold(inner, ienv)
                if u is None:
                    break
                inner, ienv = u
            c = compiled(inner, ienv)
            if c is not None:
                fn, deps = c
                if isinstance(inner, A.BoxAction) or PRIME in deps:
                    out.append(("action", lambda s, t, fn=fn: fn(s, t, frame) is True))
                else:
                    out.append(("invariant", lambda s, fn=fn: fn(s, None, frame) is True))
                return
            out.append(("temporal", None))
            return
        u = unfold(node, env)
        if u is not None:
            c = compiled(node, env)
            if c is not None and PRIME not in c[1]:
                fn = c[0]
                out.append(("init", lambda s, fn=fn: fn(s, None, frame) is True))
                return
            walk(u[0], u[1], depth + 1)
            return
        c = compiled(node, env)
        if c is not None and PRIME not in c[1]:
            fn = c[0]
            out.append(("init", lambda s, fn=fn: fn(s, None, frame) is True))
            return
        out.append(("temporal", None))

    try:
        walk(node0(name), env0)
    except Exception:
        return None
    return out


@dataclass
class _Plan:
    invariants: list[tuple[str, Callable[[State], bool]]]
    init_props: list[tuple[str, Callable[[State], bool]]]  # implied initial predicates
    action_props: list[tuple[str, Callable[[State, State], bool]]]
    constraints: list[tuple[str, Callable[[State], bool]]]
    action_constraints: list[tuple[str, Callable[[State, State], bool]]]
    check_deadlock: bool
    property_results: list[PropertyResult]
    temporal_props: list[str] = field(default_factory=list)

    @staticmethod
    def build(model: Any, cfg: Any, limits: Limits) -> "_Plan":
        compile_inv = getattr(model, "compile_invariant", model.compile_state_predicate)
        invs = [(n, compile_inv(n)) for n in (getattr(cfg, "invariants", None) or [])]
        cons = [(n, model.compile_state_predicate(n)) for n in (getattr(cfg, "constraints", None) or [])]
        acons = [(n, model.compile_action_predicate(n)) for n in (getattr(cfg, "action_constraints", None) or [])]
        init_props: list[tuple[str, Callable[[State], bool]]] = []
        action_props: list[tuple[str, Callable[[State, State], bool]]] = []
        results: list[PropertyResult] = []
        temporal_props: list[str] = []
        for name in getattr(cfg, "properties", None) or []:
            parts = classify_property(model, name)
            if parts is None:
                temporal_props.append(name)
                results.append(PropertyResult(name, "temporal", "pending-live", "could not be analysed"))
                continue
            kinds = set()
            temporal = False
            for kind, fn in parts:
                kinds.add(kind)
                if kind == "invariant":
                    invs.append((name, fn))
                elif kind == "init":
                    init_props.append((name, fn))
                elif kind == "action":
                    action_props.append((name, fn))
                else:
                    temporal = True
            kind = kinds.pop() if len(kinds) == 1 else "mixed"
            if temporal:
                temporal_props.append(name)
                results.append(PropertyResult(name, kind, "pending-live", "liveness parts not checked"))
            else:
                results.append(PropertyResult(name, kind, "pending"))
        deadlock = limits.check_deadlock
        if deadlock is None:
            deadlock = bool(getattr(cfg, "check_deadlock", True)) if cfg is not None else True
        return _Plan(invs, init_props, action_props, cons, acons, deadlock, results, temporal_props)


class _Search:
    def __init__(
        self,
        model: Any,
        plan: _Plan,
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
        self.seen: dict[Any, int] = {}
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
        self.live_checks = 0

    def record_graph(self) -> None:
        self.record = True
        if self.key is not _identity:
            self.keep_states = []

    def graph(self) -> Any:
        from specula.tla.liveness import Graph

        states = self.keep_states if self.keep_states is not None else self.keys
        inits = list(range(self.init_count))
        return Graph(states, inits, self.esrc, self.edst, self.eact, [c.label for c in self.coverage],
                     key=None if self.key is _identity else self.key, model=self.model,
                     queue_at=self.queue_at,
                     tlc_stats=getattr(getattr(self.model, "runtime", None), "stats", None))

    # ------------------------------------------------------------------------------------------
    def _add(self, k: Any, parent: int, action: int) -> int:
        idx = len(self.keys)
        self.seen[k] = idx
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
        model, plan, limits = self.model, self.plan, self.limits
        key = self.key
        ident = key is _identity
        seen = self.seen
        invariants = plan.invariants
        constraints = plan.constraints
        acons = plan.action_constraints
        aprops = plan.action_props
        max_states = limits.max_states
        deadline = None if limits.max_seconds is None else self.t0 + limits.max_seconds
        max_memory = limits.max_memory
        memory_due = 0.0
        if max_memory is not None:
            from specula.tla.memory import rss_bytes
        cov_gen = [0] * len(self.coverage)
        cov_new = [0] * len(self.coverage)
        actions = self.coverage

        level_states: list[State] = []
        level_idx: list[int] = []
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
        except EvalError as exc:
            raise _Found("error", str(exc), None, -1, [(-1, exc.state)] if isinstance(exc.state, tuple) else [], exc.span) from None
        self.init_count = self.distinct
        if level_states:
            self.depth = 1
        self._progress(len(level_states))

        # ---- breadth-first, one level at a time ----------------------------------------------
        check_deadlock = plan.check_deadlock
        max_depth = limits.max_depth
        next_tick = time.monotonic() + limits.progress_every
        parent_arr, action_arr, keys = self.parent, self.action, self.keys
        record = self.record
        esrc, edst, eact = self.esrc, self.edst, self.eact
        keep_states = self.keep_states
        generated = self.generated
        intern = getattr(model, "intern_state", _identity)  # optional in the model protocol
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
                    deadlocked = True
                    try:
                        for ai, succ in model.next_states(st):
                            deadlocked = False
                            generated += 1
                            cov_gen[ai] += 1
                            if constraints or acons:
                                in_model = True
                                for _, c in constraints:
                                    if not c(succ):
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
                                    # pooled values make the symmetry/VIEW memo lookups hit by identity
                                    succ = intern(succ)
                                    k = key(succ)
                                didx = seen.get(k)
                                if didx is not None:
                                    new = False
                                else:
                                    new = True
                                    if ident:
                                        succ = k = intern(succ)
                                    didx = idx = len(keys)
                                    seen[k] = idx
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
                            if new:
                                for name, inv in invariants:
                                    if not inv(succ):
                                        # TLC's queue: the rest of this level and the next one, without
                                        # the violating state (checked before it is enqueued)
                                        self._sync(generated, cov_gen, cov_new,
                                                   n_level - pos - 1 + len(next_states) - (idx >= 0))
                                        extra = [] if idx >= 0 else [(ai, succ)]
                                        at = idx if idx >= 0 else pidx
                                        raise _Found("invariant", f"Invariant {name} is violated.", name, at, extra)
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
                        self._sync(generated, cov_gen, cov_new, n_level - pos - 1 + len(next_states))
                        bad = exc.state if isinstance(exc.state, tuple) else None
                        extra = [] if bad is None or bad is st else [(-1, bad)]
                        raise _Found("error", str(exc), None, pidx, extra, exc.span) from None
                    if record:
                        self.queue_at.append(n_level - pos - 1 + len(next_states))
                    if deadlocked and check_deadlock:
                        self._sync(generated, cov_gen, cov_new, n_level - pos - 1 + len(next_states))
                        raise _Found("deadlock", "Deadlock reached.", None, pidx, [])
                    if max_states is not None and len(keys) >= max_states:
                        self._sync(generated, cov_gen, cov_new, len(next_states) + n_level - pos - 1)
                        raise _Stop("max_states")
                    if pos & 63 == 0:
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
                        if now >= self.live_due:
                            self._sync(generated, cov_gen, cov_new, len(next_states) + n_level - pos - 1)
                            self.live(pidx + 1)  # type: ignore[misc]  # states 0..pidx are explored
                level_states, level_idx = next_states, next_idx
                self._next = None
                if level_states:
                    self.depth += 1
                self._sync(generated, cov_gen, cov_new, len(level_states))
        except KeyboardInterrupt:
            self._sync(generated, cov_gen, cov_new, self.queue_left)
            raise
        self._sync(generated, cov_gen, cov_new, 0)
        self._progress(0)

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
        if chain:
            key = self.key
            target = self.keys[chain[0]]
            cur = None
            for st in self.model.init_states():
                if key(st) == target:
                    cur = st
                    break
            if cur is None:  # cannot happen unless the model is nondeterministic
                return [(None, s) for _, s in extra]
            out.append((None, cur))
            for i in chain[1:]:
                target, want = self.keys[i], self.action[i]
                nxt = None
                for ai, succ in self.model.next_states(cur):
                    if ai == want and key(succ) == target:
                        nxt = succ
                        break
                if nxt is None:
                    break
                out.append((labels[want], nxt))
                cur = nxt
        for ai, st in extra:
            out.append((labels[ai] if ai >= 0 else None, st))
        return out


def build_model(spec_path: str | Path, cfg_path: str | Path | None = None, search_path: Sequence[str] = ()) -> tuple[Any, Any]:
    """Load SPEC.tla and its .cfg (default: same name) and build the engine's Model."""
    spec_path = Path(spec_path)
    if not spec_path.is_file():
        raise InputError("spec file not found" if not spec_path.exists() else "spec is not a file", path=str(spec_path))
    cfg_file = Path(cfg_path) if cfg_path is not None else spec_path.with_suffix(".cfg")
    if not cfg_file.is_file():
        raise ConfigError(f"model config not found: {cfg_file}", path=str(cfg_file))
    spec = load(str(spec_path), search_path=tuple(str(p) for p in search_path))
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
) -> CheckResult:
    """Load, build and model-check a spec: the one call behind ``specula check``."""
    model, cfg = build_model(spec_path, cfg_path, search_path)
    return check(model, limits or Limits(), on_progress=on_progress, cfg=cfg)
