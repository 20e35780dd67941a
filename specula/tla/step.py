"""``check_step``: is one observed transition (pre, action, post) a step of the spec's action?

The observed pre-state is bound, the action's parameters are enumerated (or fixed by the
window), and the action is evaluated as a predicate over (pre, post): the observed primed
variables are set *before* evaluation, so ``x' = e`` compares and ``x' \\in S`` tests membership;
unobserved primed variables stay free and are assigned by the action. Unobserved pre-state
variables range over the given ``free`` domains, else over a domain read from the spec's type
invariant (``x \\in S`` conjuncts of TypeOK), else stay unknown. The state space is never
enumerated.

On failure the action is run once more with probes that record, on every path, the conjunct
that stopped it and how many conjuncts had passed before; the deepest stop is the diagnosis:
a false guard (its text, span and the values of the variables and parameters it reads) or the
primed variables whose observed values differ from what the action produces.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.protocol import ActionInfo
from specula.tla.compile import UNSET, ActionCompiler, CompileError, Env, Unassigned
from specula.tla.values import (
    Fn,
    LazySet,
    ModelValue,
    ValueFault,
    enumerate_set,
    format_value,
    from_python,
    is_set,
    ordered,
    tla_eq,
)

if TYPE_CHECKING:
    from specula.tla.model import Model

__all__ = ["StepVerdict", "FalseConjunct", "check_step", "MAX_CANDIDATES"]

MAX_CANDIDATES = 100_000


@dataclass
class FalseConjunct:
    text: str
    span: Any
    values: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"text": self.text, "span": str(self.span) if self.span else None,
                "values": {k: format_value(v) for k, v in self.values.items()}}


@dataclass
class StepVerdict:
    ok: bool
    params: dict[str, Any] | None = None  # witness parameters when ok
    false_conjunct: FalseConjunct | None = None
    # var -> (observed post value, values the action can produce for it here)
    mismatched: dict[str, tuple[Any, list[Any]]] = field(default_factory=dict)
    message: str = ""
    post_states: list[tuple] | None = None  # successors agreeing with the observed post (when ok)
    pre_state: tuple | None = None  # the witness pre-state (unobserved variables filled in)

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "params": {k: format_value(v) for k, v in (self.params or {}).items()},
            "false_conjunct": self.false_conjunct.to_dict() if self.false_conjunct else None,
            "mismatched": {k: {"observed": format_value(o), "spec": [format_value(x) for x in r]}
                           for k, (o, r) in self.mismatched.items()},
            "message": self.message,
        }


class Unobserved:
    """Placeholder for an unobserved pre-state variable without a known domain."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return other is self

    def __hash__(self) -> int:
        return hash(("$unobserved", self.name))

    def __repr__(self) -> str:
        return f"<unobserved {self.name}>"


# ----------------------------------------------------------------------------- probes


class Probe:
    """Instrumentation compiled into diagnostic copies of actions."""

    def __init__(self, model: "Model") -> None:
        self.model = model
        self.depth = [0]
        self.fails: list[tuple] = []

    def reset(self) -> None:
        self.depth[0] = 0
        self.fails.clear()

    def guard(self, g: Callable, node: Any, env: Env, k: Callable) -> Callable:
        readers = _readers(self.model, node, env)
        depth, fails = self.depth, self.fails

        def guard(s: Any, n: Any, e: list) -> None:
            try:
                v = g(s, n, e)
            except EvalError as exc:
                fails.append((depth[0], "error", node, _read(readers, s, n, e), exc))
                return
            if v is True:
                depth[0] += 1
                try:
                    k(s, n, e)
                finally:
                    depth[0] -= 1
            else:
                fails.append((depth[0], "guard", node, _read(readers, s, n, e), None))

        return guard

    def assign(self, i: int, v: Callable, node: Any, k: Callable, kind: str) -> Callable:
        depth, fails = self.depth, self.fails

        def assign(s: Any, n: Any, e: list) -> None:
            try:
                x = v(s, n, e)
            except EvalError as exc:
                fails.append((depth[0], "error", node, {}, exc))
                return
            old = n[i]
            if old is UNSET:
                vals = [x] if kind == "=" else ordered(enumerate_set(x))
                depth[0] += 1
                try:
                    for y in vals:
                        n[i] = y
                        k(s, n, e)
                finally:
                    n[i] = UNSET
                    depth[0] -= 1
                return
            if kind == "=":
                ok = old == x and tla_eq(old, x)
            else:
                ok = is_set(x) and old in x
            if ok:
                depth[0] += 1
                try:
                    k(s, n, e)
                finally:
                    depth[0] -= 1
            else:
                fails.append((depth[0], "mismatch", node, {"var": i, "observed": old, "spec": x, "kind": kind}, None))

        return assign


def _readers(model: "Model", node: Any, env: Env, depth: int = 0) -> list[tuple[str, Callable]]:
    """(label, fn) for the variables and bound names a conjunct reads (through definitions)."""
    comp = model.compiler
    out: list[tuple[str, Callable]] = []
    seen: set[str] = set()

    def visit(nd: Any, en: Env, primed: bool, d: int) -> None:
        if isinstance(nd, A.Prime):
            visit(nd.expr, en, True, d)
            return
        if isinstance(nd, (A.Name, A.OpApp)) and not getattr(nd, "prefix", ()):
            nm = nd.name
            if nm.replace("_", "").isalnum() and nm not in ("TRUE", "FALSE"):
                try:
                    b = comp.resolve(nm, en, None)
                except (CompileError, EvalError):
                    b = None
                if b is not None:
                    kind = b[0]
                    label = nm + ("'" if primed else "")
                    if kind == "var" and label not in seen:
                        seen.add(label)
                        i = b[1]
                        out.append((label, (lambda s, n, e, i=i: n[i]) if primed else (lambda s, n, e, i=i: s[i])))
                    elif kind == "slot" and label not in seen:
                        seen.add(label)
                        k = b[1]
                        out.append((label, lambda s, n, e, k=k: e[k]))
                    elif kind == "lazy" and label not in seen:
                        seen.add(label)
                        fn = comp.binding_value(b, en, None)[0]
                        out.append((label, fn))
                    elif kind == "expr" and d < 3:
                        visit(b[1], b[2], primed, d + 1)
                    elif kind == "op" and d < 2 and b[1].body is not None and b[1].arity == 0 and b[1].native is None:
                        visit(b[1].body, b[1].env or en, primed, d + 1)
        for c in A.children(nd):
            visit(c, en, primed, d)

    visit(node, env, False, depth)
    return out


def _read(readers: list, s: Any, n: Any, e: list) -> dict[str, Any]:
    vals: dict[str, Any] = {}
    for label, fn in readers:
        try:
            v = fn(s, n, e)
        except Exception:  # noqa: BLE001 - diagnostics only
            continue
        if v is not UNSET and not isinstance(v, Unobserved):
            vals[label] = v
    return vals


# ----------------------------------------------------------------------------- compiled step actions


@dataclass
class _Entry:
    info: Any
    fast: Callable
    diag: Callable
    slots: list[int]  # binder slots, same order as info.binders


class _StepCache:
    def __init__(self) -> None:
        self.actions: dict[str, list[_Entry]] = {}
        self.out: list = [[]]
        self.probe: Probe | None = None
        self.type_domains: dict[str, list] | None = None


def _cache(model: "Model") -> _StepCache:
    c = getattr(model, "_step_cache", None)
    if c is None:
        c = _StepCache()
        model._step_cache = c  # type: ignore[attr-defined]
        c.probe = Probe(model)
    return c


def _entries(model: "Model", action: str) -> list[_Entry]:
    cache = _cache(model)
    got = cache.actions.get(action)
    if got is not None:
        return got
    infos = [a for a in model.actions if a.name == action]
    if not infos:
        infos = [_adhoc_action(model, action)]
    comp = model.compiler
    out = cache.out
    entries = []
    for info in infos:
        slots = [b[1] for b in info.binders]
        names = list(info.params)
        nv = len(model.variables)
        vnames = model.variables

        def fin(s: Any, n: list, e: list, slots: list = slots, names: list = names, info: Any = info) -> None:
            for i in range(nv):
                if n[i] is UNSET:
                    raise Unassigned(f"action {info.name} does not assign a value to variable {vnames[i]}'", info.span)
            out[0].append((tuple(n), {nm: e[k] for nm, k in zip(names, slots)}))

        fast = comp.action(info.node, info.env, fin)
        diag = ActionCompiler(comp, cache.probe).action(info.node, info.env, fin)
        entries.append(_Entry(info, fast, diag, slots))
    cache.actions[action] = entries
    return entries


def _adhoc_action(model: "Model", action: str) -> Any:
    """An action named in a trace that is a definition but not a disjunct of Next."""
    d = model.root.names.get(action)
    if d is None or d.kind != "op":
        known = ", ".join(sorted({a.name for a in model.actions})) or "none"
        raise EvalError(f"unknown action '{action}' (actions of Next: {known})")
    comp = model.compiler
    params = tuple(p.name for p in d.node.params)
    slots = [comp.new_slot() for _ in params]
    binds = {p: ("slot", k) for p, k in zip(params, slots)}
    node = A.OpApp(action, tuple(A.Name(p) for p in params), span=d.node.span)
    env = model.env.bind(binds)
    binders = [(p, k, None) for p, k in zip(params, slots)]
    return ActionInfo(-1, action, action, params, d.node.span, node, env, binders)


def _type_domains(model: "Model") -> dict[str, list]:
    cache = _cache(model)
    if cache.type_domains is not None:
        return cache.type_domains
    doms: dict[str, list] = {}
    names = [n for n in ("TypeOK", "TypeOk", "TypeInvariant", "TypeInv", "TypeCorrect") if n in model.root.names]
    names += [n for n in (getattr(model.cfg, "invariants", None) or []) if "type" in n.lower() and n not in names]
    comp = model.compiler

    def visit(node: Any, env: Env, d: int) -> None:
        if isinstance(node, A.And):
            for a in node.args:
                visit(a, env, d)
        elif isinstance(node, A.OpApp) and node.name == "\\in" and len(node.args) == 2 and isinstance(node.args[0], A.Name):
            try:
                b = comp.resolve(node.args[0].name, env, None)
            except (CompileError, EvalError):
                return
            if b[0] != "var":
                return
            try:
                fn, deps = comp.expr(node.args[1], env)
                if deps:
                    return
                S = fn(None, None, comp.frame)
                if isinstance(S, LazySet) and not S.finite:
                    return
                if isinstance(S, LazySet) and len(S) > 10_000:  # size first: never enumerate a huge set
                    return
                els = ordered(enumerate_set(S))
            except (EvalError, ValueFault, CompileError):
                return
            if len(els) <= 10_000:
                doms.setdefault(model.variables[b[1]], els)
        elif isinstance(node, (A.Name, A.OpApp)) and not getattr(node, "args", ()) and d < 3:
            dd = model.root.names.get(node.name)
            if dd is not None and dd.kind == "op" and not dd.node.params:
                visit(dd.node.body, Env(scope=dd.scope), d + 1)

    for nm in names:
        dd = model.root.names.get(nm)
        if dd is not None and dd.kind == "op" and not dd.node.params:
            visit(dd.node.body, Env(scope=dd.scope), 0)
    cache.type_domains = doms
    return doms


def _value(v: Any) -> Any:
    c = v.__class__
    if c in (int, bool, str, ModelValue, tuple, frozenset, Fn) or isinstance(v, LazySet):
        return v
    return from_python(v)


# ----------------------------------------------------------------------------- check_step


def check_step(model: "Model", action: str, pre: dict[str, Any], post: dict[str, Any],
               params: dict[str, Any] | None = None, free: dict[str, Iterable[Any]] | None = None) -> StepVerdict:
    entries = _entries(model, action)
    variables = model.variables
    nv = len(variables)
    for d, what in ((pre, "pre"), (post, "post")):
        for k in d:
            if k not in model.var_index:
                raise EvalError(f"'{k}' in the {what}-state is not a variable of the spec ({', '.join(variables)})")
    pre_vals = {k: _value(v) for k, v in pre.items()}
    post_vals = [(model.var_index[k], _value(v)) for k, v in post.items()]
    params = {k: _value(v) for k, v in (params or {}).items()}
    unobserved = [v for v in variables if v not in pre_vals]
    free_doms: list[list] = []
    if unobserved:
        tdoms = None
        for v in unobserved:
            if free and v in free:
                free_doms.append(list(free[v]))
            else:
                if tdoms is None:
                    tdoms = _type_domains(model)
                free_doms.append(tdoms.get(v) or [Unobserved(v)])
    ncand = 1
    for dlist in free_doms:
        ncand *= max(1, len(dlist))
    if ncand > MAX_CANDIDATES:
        raise EvalError(
            f"too many candidate pre-states ({ncand}) for the unobserved variables {', '.join(unobserved)}; "
            "observe them or give smaller domains"
        )
    upos = [model.var_index[v] for v in unobserved]
    base = [UNSET] * nv
    for k, v in pre_vals.items():
        base[model.var_index[k]] = v

    def pre_states() -> Iterable[tuple]:
        if not upos:
            yield tuple(base)
            return
        for combo in itertools.product(*free_doms):
            st = list(base)
            for i, v in zip(upos, combo):
                st[i] = v
            yield tuple(st)

    def bindings(entry: _Entry, s: tuple) -> Iterable[tuple]:
        lists: list = []
        dyn = False
        for (nm, k, vals) in entry.info.binders:
            if nm in params:
                lists.append([params[nm]])
            elif vals is None:
                raise EvalError(f"action {action} needs a value for its parameter '{nm}'")
            elif hasattr(vals, "values") and callable(vals.values):
                dyn = True
                lists.append(vals)
            else:
                lists.append(vals)
        if not dyn:
            return itertools.product(*lists)
        return _dyn_product(entry, lists, s, e)

    cache = _cache(model)
    e = model.compiler.frame
    post_template = [UNSET] * nv
    for i, v in post_vals:
        post_template[i] = v
    res: list = []
    cache.out[0] = res
    for s in pre_states():
        for en in entries:
            for combo in bindings(en, s):
                for k, v in zip(en.slots, combo):
                    e[k] = v
                try:
                    en.fast(s, list(post_template), e)
                except EvalError as exc:
                    if exc.state is None:
                        exc.state = s
                    raise
                if res:
                    return StepVerdict(True, params=res[0][1], post_states=[r[0] for r in res], pre_state=s)
    # --- diagnosis
    probe = cache.probe
    assert probe is not None
    best: tuple | None = None
    first_err: EvalError | None = None
    for s in pre_states():
        for en in entries:
            for combo in bindings(en, s):
                for k, v in zip(en.slots, combo):
                    e[k] = v
                probe.reset()
                en.diag(s, list(post_template), e)
                for f in probe.fails:
                    if f[1] == "error" and first_err is None:
                        first_err = f[4]
                    if best is None or f[0] > best[0]:
                        best = f + (dict(zip(en.info.params, combo)), s)
    if best is None:
        return StepVerdict(False, message=f"action {action} has no way to start here" + (
            f": {first_err}" if first_err else ""))
    depth, kind, node, data, exc, bparams, s = best
    text = _source(model, node)
    if kind == "mismatch":
        var = variables[data["var"]]
        spec = data["spec"]
        if data["kind"] == "in":
            try:
                reach = ordered(enumerate_set(spec))[:20]
            except ValueFault:
                reach = []
        else:
            reach = [spec]
        return StepVerdict(False, params=bparams, mismatched={var: (data["observed"], reach)},
                           message=f"{var}' differs: trace says {format_value(data['observed'])}", pre_state=s)
    if kind == "error":
        raise exc
    return StepVerdict(False, params=bparams, false_conjunct=FalseConjunct(text, node.span, data),
                       message=f"false: {text}", pre_state=s)


def _dyn_product(entry: _Entry, lists: list, s: tuple, e: list) -> Iterable[tuple]:
    """Parameter combinations when some domains depend on the state (and earlier parameters)."""
    slots = entry.slots

    def rec(i: int, acc: tuple) -> Iterable[tuple]:
        if i == len(lists):
            yield acc
            return
        vals = lists[i]
        if not isinstance(vals, list):
            for k, v in zip(slots, acc):
                e[k] = v
            vals = vals.values(s, None, e)
        for v in vals:
            yield from rec(i + 1, acc + (v,))

    return list(rec(0, ()))


def _source(model: "Model", node: Any) -> str:
    span = getattr(node, "span", None)
    if span is None or not getattr(span, "end", 0):
        return type(node).__name__
    src = (getattr(model.spec, "sources", None) or {}).get(span.file)
    if src is None:
        return type(node).__name__
    b = src.encode("utf-8")
    return b[span.start:span.end].decode("utf-8", errors="replace") if span.end <= len(b) else src[span.start:span.end]
