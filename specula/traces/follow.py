"""Whole-trace mode: follow a trace keeping every spec state consistent with it so far, and report
the first step where none is left (which action was tried, which others would have matched)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from specula.errors import EvalError, SpeculaError
from specula.traces.bind import Binder, BindError, Bound, summaries_match
from specula.traces.shape import check_step_over_domains
from specula.traces.window import Trace, Window

__all__ = ["TraceFollow", "follow_trace", "MAX_TRACE_STATES"]

MAX_TRACE_STATES = 20000


@dataclass
class TraceFollow:
    """Whole-trace mode: how far a trace can be followed by the spec."""

    trace_id: str
    steps: int
    followed: int  # steps matched before the state set became empty
    ok: bool
    failed_seq: int | None = None
    failed_action: str | None = None
    tried: list[str] = field(default_factory=list)  # spec actions tried at the failing step
    explained_by: list[str] = field(default_factory=list)  # other actions that match the step
    message: str = ""
    max_states: int = 0
    #: steps of actions the spec lacks (not target actions, e.g. Crash), applied as observed changes
    environment_steps: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "trace_id": self.trace_id,
            "steps": self.steps,
            "followed": self.followed,
            "ok": self.ok,
            "failed_seq": self.failed_seq,
            "failed_action": self.failed_action,
            "tried": self.tried,
            "explained_by": self.explained_by,
            "message": self.message,
            "max_states": self.max_states,
            "environment_steps": self.environment_steps,
        }





def follow_trace(model: Any, binder: Binder, trace: Trace, max_states: int = MAX_TRACE_STATES) -> TraceFollow:
    """Follow ``trace`` keeping every spec state consistent with it so far; report the first step
    where no state is left, which action was tried and which other actions would match."""
    from specula.tla.values import tla_eq

    variables = tuple(model.variables)
    idx = {v: i for i, v in enumerate(variables)}
    m = binder.mapping
    names = {a.index: a.name for a in model.actions}

    def observe(raw: dict[str, Any]) -> dict[int, Any]:
        vals, summ = binder.state(raw)
        obs: dict[int, Any] = {idx[k]: v for k, v in vals.items()}
        for var, s in summ.items():
            obs[idx[var]] = ("summary", s, binder.abstraction(var))
        return obs

    def agrees(state: tuple, obs: dict[int, Any]) -> bool:
        for i, v in obs.items():
            if v.__class__ is tuple and len(v) == 3 and v[0] == "summary":
                if not summaries_match(state[i], v[1], v[2]):
                    return False
            elif not tla_eq(state[i], v):
                return False
        return True

    res = TraceFollow(trace.id, len(trace.steps), 0, False)
    try:
        obs0 = observe(trace.init) if trace.init is not None else {}
        current = []
        for s in model.init_states():
            if agrees(s, obs0):
                current.append(s)
                if len(current) >= max_states:
                    break
    except (BindError, SpeculaError) as exc:
        res.message = f"initial state: {exc}"
        return res
    if not current:
        res.message = "no initial state of the spec agrees with the trace's initial state"
        return res
    res.max_states = len(current)
    split = set(names.values())
    domains: dict[str, dict[str, list]] = {}
    prev_raw: dict[str, Any] = trace.init or {}
    for step in trace.steps:
        action = m.spec_action(step.action) if step.action else ""
        # an operator Next reaches under a state-level \E is not split out (as in TLC): take any
        # action's successors and keep those the named operator can produce (check_step)
        action_filter = action if action in split else ""
        params: dict[str, Any] = {}
        try:
            obs = observe(step.state)
            if action and action in binder.info.actions:
                params = binder.bind(Window(step.seq, trace.id, step.seq, step.action, prev_raw, step.state,
                                            step.actor, step.params, step.input)).params
        except BindError as exc:
            res.failed_seq, res.failed_action, res.message = step.seq, action, f"step {step.seq}: {exc}"
            return res
        prev_raw = step.state
        exact = bool(action) and action in binder.info.actions and (bool(params) or not action_filter)
        if action and action not in binder.info.actions:
            # an action the spec does not model (an environment step such as a crash): the
            # observed variables take their observed values, the hidden ones are kept
            moved: dict[tuple, None] = {}
            for st in current:
                lst = list(st)
                for i, v in obs.items():
                    if not (v.__class__ is tuple and len(v) == 3 and v[0] == "summary"):
                        lst[i] = v
                moved[tuple(lst)] = None
            current = list(moved)
            res.environment_steps += 1
            res.followed += 1
            continue
        nxt: dict[tuple, None] = {}
        others: set[str] = set()
        try:
            for s in current:
                for ai, t in model.next_states(s):
                    name = names.get(ai, "")
                    if action_filter and name != action_filter:
                        if name not in others and agrees(t, obs):
                            others.add(name)
                        continue
                    if t not in nxt and agrees(t, obs):
                        if exact and not _can_step(model, action, s, t, params, domains):
                            continue
                        nxt[t] = None
                        if len(nxt) >= max_states:
                            break
        except SpeculaError as exc:
            res.failed_seq, res.failed_action, res.message = step.seq, action, f"step {step.seq}: {exc}"
            return res
        if not nxt:
            res.failed_seq, res.failed_action = step.seq, action
            res.tried = [action] if action else sorted(set(names.values()))
            res.explained_by = sorted(others)
            hint = f"; the step matches {', '.join(res.explained_by)} instead" if res.explained_by else ""
            res.message = (
                f"step {step.seq} ({action or 'any action'}) has no successor agreeing with the trace "
                f"after {res.followed} matched step(s){hint}"
            )
            return res
        current = list(nxt)
        res.followed += 1
        res.max_states = max(res.max_states, len(current))
    res.ok = True
    res.message = f"all {res.steps} steps followed" + (
        f" ({res.environment_steps} steps of actions the spec lacks applied as observed changes)"
        if res.environment_steps else "")
    return res


def _can_step(model: Any, action: str, s: tuple, t: tuple, params: dict[str, Any],
              domains: dict[str, dict[str, list]]) -> bool:
    """Can ``action`` with ``params`` (others free) move the full state ``s`` to ``t``?"""
    pre = dict(zip(model.variables, s))
    post = dict(zip(model.variables, t))
    b = Bound(action, pre, post, dict(params), {}, {}, [], "")
    try:
        v = model.check_step(action, pre, post, params or None)
    except EvalError as exc:
        if "needs a value for its parameter" not in str(exc):
            return False
        v = check_step_over_domains(model, b, domains)
    except Exception:  # noqa: BLE001
        return False
    return bool(v is not None and getattr(v, "ok", False))
