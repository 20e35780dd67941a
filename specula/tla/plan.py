"""What a search checks, prepared once from (model, cfg, options): :func:`prepare`.

Both searches — ``checker.check`` (breadth-first) and ``simulate.simulate`` (random walks) —
start from :func:`prepare`, in TLC's order: the cfg (the model's own unless one is given), the
coverage rows of the model's actions, what ``TLCGet("config")`` reports, the ASSUMEs, then the
:class:`Plan` (invariants, CONSTRAINT / ACTION_CONSTRAINT, each PROPERTY split by
:func:`classify_property` into what the state search checks and what is left to liveness,
deadlock checking) and the identity key of a state (``symmetry.key_function``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile import IMPURE, PRIME
from specula.tla.liveness import has_temporal, unfold_definition
from specula.tla.symmetry import identity, key_function
from specula.tla.timelimit import TimeUp, time_limit
from specula.tla.values import TLC_PRELUDE, TLC_PRELUDE_HEAD, StringOrder

__all__ = [
    "ActionCoverage",
    "Plan",
    "Prepared",
    "PropertyResult",
    "classify_property",
    "model_string_order",
    "prepare",
    "set_tlc_config",
]

State = tuple


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
class PropertyResult:
    name: str
    kind: str  # "invariant" | "action" | "init" | "temporal" | "mixed"
    status: str  # "ok" | "violated" | "not checked"
    detail: str = ""

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "status": self.status, "detail": self.detail}


@dataclass
class Plan:
    """The predicates a search judges states and steps by (see docs/checker.md, Semantics)."""

    invariants: list[tuple[str, Callable[[State], bool]]]
    init_props: list[tuple[str, Callable[[State], bool]]]  # implied initial predicates
    action_props: list[tuple[str, Callable[[State, State], bool]]]
    constraints: list[tuple[str, Callable[[State], bool]]]
    action_constraints: list[tuple[str, Callable[[State, State], bool]]]
    check_deadlock: bool
    property_results: list[PropertyResult]
    temporal_props: list[str] = field(default_factory=list)

    @staticmethod
    def build(model: Any, cfg: Any, check_deadlock: bool | None) -> "Plan":
        """Compile the cfg's predicates; ``check_deadlock=None`` takes the cfg's CHECK_DEADLOCK.
        Raises EvalError when one cannot be compiled."""
        compile_inv = getattr(model, "compile_invariant", model.compile_state_predicate)
        invs = [(n, compile_inv(n)) for n in (getattr(cfg, "invariants", None) or [])]
        compile_con = getattr(model, "compile_constraint", model.compile_state_predicate)
        cons = [(n, compile_con(n)) for n in (getattr(cfg, "constraints", None) or [])]
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
        deadlock = check_deadlock
        if deadlock is None:
            deadlock = bool(getattr(cfg, "check_deadlock", True)) if cfg is not None else True
        return Plan(invs, init_props, action_props, cons, acons, deadlock, results, temporal_props)


@dataclass
class Prepared:
    """A search's starting point. ``error`` (evaluating an ASSUME or compiling the plan failed)
    or ``diagnostics`` (false ASSUMEs) end the search before any state; ``plan`` is None then,
    and for a constant-only model (no INIT/NEXT/SPECIFICATION: nothing to search)."""

    cfg: Any
    variables: tuple[str, ...]
    coverage: list[ActionCoverage]
    plan: Plan | None = None
    key: Callable[[State], Any] = identity
    diagnostics: list[Any] = field(default_factory=list)
    error: EvalError | None = None
    stopped: str | None = None  # "max_seconds": the time limit passed while evaluating the ASSUMEs


def prepare(
    model: Any,
    cfg: Any = None,
    *,
    mode: str,
    check_deadlock: bool | None = None,
    fingerprint: Callable[[Any], int] | None = None,
    order: StringOrder | None = None,
    max_seconds: float | None = None,
) -> Prepared:
    """Turn (model, cfg, options) into what a search starts from, in TLC's order: ASSUMEs, then
    the plan, then the state key. ``mode`` is what ``TLCGet("config").mode`` reports ("bfs",
    "simulate"); ``order`` is the model's string order when the caller computed it already
    (:func:`model_string_order`; only SYMMETRY needs it here). ``max_seconds`` limits the
    evaluation of the ASSUMEs (``stopped`` is then "max_seconds")."""
    if cfg is None:
        cfg = getattr(model, "cfg", None)
    actions = list(getattr(model, "actions", []) or [])
    coverage = [
        ActionCoverage(i, getattr(a, "name", str(a)), getattr(a, "label", getattr(a, "name", str(a))))
        for i, a in enumerate(actions)
    ]
    prep = Prepared(cfg, tuple(getattr(model, "variables", ())), coverage)
    set_tlc_config(model, cfg, check_deadlock, mode)
    try:
        with time_limit(max_seconds):
            prep.diagnostics = list(model.check_assumes()) if hasattr(model, "check_assumes") else []
    except EvalError as exc:
        prep.error = exc
        return prep
    except TimeUp:
        prep.stopped = "max_seconds"
        return prep
    if prep.diagnostics:
        return prep
    if cfg is not None and not (
        getattr(cfg, "init", None) or getattr(cfg, "next", None) or getattr(cfg, "specification", None)
    ):
        return prep  # constant-only: the ASSUMEs were all there was to check
    try:
        prep.plan = Plan.build(model, cfg, check_deadlock)
    except EvalError as exc:
        prep.error = exc
        return prep
    if order is None and getattr(model, "symmetry_perms", None):
        order = model_string_order(model)
    prep.key = key_function(model, fingerprint, order)
    return prep


def set_tlc_config(model: Any, cfg: Any, check_deadlock: bool | None, mode: str) -> None:
    """What ``TLCGet("config")`` reports while ``model`` is checked (mode, deadlock checking)."""
    conf = getattr(getattr(model, "runtime", None), "config", None)
    if conf is None:
        return
    if check_deadlock is None:
        check_deadlock = bool(getattr(cfg, "check_deadlock", True)) if cfg is not None else True
    conf["mode"], conf["deadlock"] = mode, bool(check_deadlock)


_TOKEN = re.compile(r'\(\*.*?\*\)|\\\*[^\n]*|"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*)', re.S)


def model_string_order(model: Any) -> StringOrder | None:
    """TLC's UniqueString order (its token numbers) for ``model``, approximated from how TLC 2.18
    interns strings (measured): a few names at start-up, the .cfg's words, then SANY lexes the
    identifiers of the root module (in text order), then of the modules it extends (TLC's
    standard modules: ``TLC_PRELUDE``; the other modules in load order); string literals are
    interned after all modules were parsed (semantic analysis: the extended modules' first, the
    root module's last). So a record's fields sort by the first appearance of their names as
    identifiers, and a string met only as a literal sorts after every identifier. Model values
    in the .cfg's order. None for toy models without a spec."""
    spec = getattr(model, "spec", None)
    sources: dict[str, str] = dict(getattr(spec, "sources", None) or {})
    if not sources:
        return None
    cfg = getattr(model, "cfg", None)
    words: list[str] = list(TLC_PRELUDE_HEAD)
    cfg_file = getattr(cfg, "file", None)
    try:
        cfg_text = Path(cfg_file).read_text(encoding="utf-8-sig") if cfg_file else ""
    except OSError:
        cfg_text = ""
    words += [m.group(2) or m.group(1) for m in _TOKEN.finditer(cfg_text) if (m.group(2) or m.group(1)) is not None]
    words += getattr(cfg, "model_values", None) or []
    root = getattr(spec, "path", None)
    order = ([root] if root in sources else []) + [p for p in sources if p != root]
    literals: list[list[str]] = []
    for i, path in enumerate(order):
        lits: list[str] = []
        for m in _TOKEN.finditer(sources[path]):
            if m.group(2) is not None:
                words.append(m.group(2))
            elif m.group(1) is not None:
                lits.append(m.group(1))
        literals.append(lits)
        if i == 0:
            words += TLC_PRELUDE
    for lits in literals[1:] + literals[:1]:
        words += lits
    return StringOrder(words, getattr(cfg, "model_values", None) or [])


def _per_step(fn: Callable, frame: list) -> Callable[[Any, Any], bool]:
    """An action property ``(s, t) -> bool`` evaluated once per distinct step: the successors of
    the state being explored are often generated several times (by several actions, or values
    of an ``\\E``), and the property is a function of the step alone (it reads nothing impure)."""
    last: list = [None]
    memo: dict = {}

    def act(s: Any, t: Any) -> bool:
        if s is not last[0]:
            memo.clear()
            last[0] = s
        try:
            r = memo.get(t)
        except TypeError:  # an unhashable state: no memo
            return fn(s, t, frame) is True
        if r is None:
            r = memo[t] = fn(s, t, frame) is True
        return r

    return act


def classify_property(model: Any, name: str) -> list[tuple[str, Callable | None]] | None:
    """Split a PROPERTY into what the safety search can check, as TLC does.

    Conjunctions are split (through definitions and instances, e.g. a refinement ``Abs!Spec``);
    ``[][A]_v`` -> ("action", (s, t) -> bool); ``[]P`` with P a state predicate ->
    ("invariant", s -> bool); a state predicate outside any temporal operator -> ("init",
    s -> bool), checked on initial states; anything else (``<>``, ``~>``, WF/SF, ...) ->
    ("temporal", None), left to liveness checking. ``None`` when the model offers no compiler.
    A model may classify its properties itself (``ModelProtocol.classify_property``).
    """
    own = getattr(model, "classify_property", None)
    if callable(own):
        return own(name)
    comp = getattr(model, "compiler", None)
    env0 = getattr(model, "env", None)
    node0 = getattr(model, "expr_node", None)
    if comp is None or env0 is None or node0 is None:
        return None
    frame = comp.frame
    out: list[tuple[str, Callable | None]] = []

    def unfold(node: Any, env: Any) -> tuple[Any, Any] | None:
        return unfold_definition(comp, node, env)

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
                    out.append(("action", _per_step(fn, frame) if IMPURE not in deps
                                else (lambda s, t, fn=fn: fn(s, t, frame) is True)))
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
