"""Compile-time environments, operator values, dependency markers and small helpers shared by
the compiler's parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.values import FuncSet, Powerset, Product, RecordSet, ValueFault, format_value, type_name


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
NODEPS: frozenset = frozenset()
STATE, PRIME, IMPURE = "S", "P", "I"
# natives whose value or effect is not a function of the state alone
IMPURE_NATIVES = frozenset({"TLCGet", "TLCSet", "Trace", "CounterExample", "TLCGetAndSet", "RandomElement",
                             "Print", "PrintT", "JavaTime", "IOExec", "IOExecTemplate", "IOEnv",
                             "ndJsonDeserialize", "JsonDeserialize"})
FUNCDEF = "\x00funcdef:"  # hidden LET binding: the definition of a LET-defined function
EXPR_FN = Callable[[Any, Any, list], Any]


class CompileError(EvalError):
    """The spec cannot be compiled (unknown name, unsupported construct...)."""


class Unassigned(EvalError):
    """An action finished without assigning a primed variable."""


class Found(Exception):
    pass


# ----------------------------------------------------------------------------- environments


@dataclass(frozen=True)
class OpVal:
    """A compile-time operator: a definition, a LET operator, a LAMBDA or a native builtin."""

    name: str
    params: tuple[A.Param, ...]
    body: Any  # ast.Expr, or None for natives
    env: "Env | None"
    recursive: bool = False
    native: Any = None  # builtins.Native
    key: object = None  # identity for caches

    @property
    def arity(self) -> int:
        return len(self.params) if self.native is None else self.native.arity


@dataclass(frozen=True)
class Env:
    """Compile-time environment: local bindings, the scope for global names, prime/init modes."""

    locals: dict = field(default_factory=dict)
    scope: Any = None
    primed: bool = False
    init: bool = False
    subst_locals: dict = field(default_factory=dict)  # bindings for instance substitution exprs
    no_override: bool = False  # inside a LET-level INSTANCE: cfg overrides do not apply

    def bind(self, more: dict) -> "Env":
        d = dict(self.locals)
        d.update(more)
        return Env(d, self.scope, self.primed, self.init, self.subst_locals, self.no_override)

    def with_(self, **kw: Any) -> "Env":
        vals = dict(locals=self.locals, scope=self.scope, primed=self.primed, init=self.init,
                    subst_locals=self.subst_locals, no_override=self.no_override)
        vals.update(kw)
        return Env(**vals)


# local binding kinds: ("slot", k) | ("lazy", k, fn, deps) | ("const", v) | ("expr", node, env)
#                      | ("op", OpVal) | ("var", index)


STATE_ONLY = frozenset({STATE})
PRIME_ONLY = frozenset({PRIME})


class StateMemo:
    """Values of one definition by state, shared by its unprimed and primed forms (``Def`` on a
    state and ``Def'`` on a successor are one function of that state): a successor generated
    from several parents, then explored, computes it once. Two generations of at most ``cap``
    states each bound the memory; the memo turns itself off when it rarely hits. States are
    compared as the search's seen set compares them; with ``part`` (an ``itemgetter`` of the
    variables the definition reads, when it reads only some), by the values of those: successors
    that leave them as they were (most do) find the value of their parent's."""

    __slots__ = ("cur", "old", "on", "calls", "misses", "cap", "part")

    def __init__(self, cap: int = 50_000) -> None:
        self.cur: dict = {}
        self.old: dict = {}
        self.on = True
        self.calls = 0
        self.misses = 0
        self.cap = cap
        self.part: Callable | None = None

    def get(self, key: tuple, fn: EXPR_FN, s: Any, n: Any, e: list) -> Any:
        cur = self.cur
        self.calls += 1
        try:
            v = cur.get(key, cur)
        except TypeError:  # a state holding an unhashable value
            return fn(s, n, e)
        if v is not cur:
            return v
        v = self.old.get(key, cur)
        if v is cur:
            self.misses += 1
            v = fn(s, n, e)
            if self.calls >= 20_000 and self.misses * 10 > self.calls * 9:
                self.on = False  # states do not recur: the memo costs more than it saves
                self.cur, self.old = {}, {}
                return v
        if len(cur) >= self.cap:
            self.old, self.cur = cur, {}
            cur = self.cur
        cur[key] = v
        return v


def per_state(fn: EXPR_FN, memo: StateMemo | None = None) -> EXPR_FN:
    """``fn`` (a definition that reads only the current state) evaluated once per state: the
    last state and its value are kept (the reference keeps the state's id from being reused),
    and, with ``memo``, the values of recent states."""
    last: list = [None, None]

    if memo is None:
        def once(s: Any, n: Any, e: list) -> Any:
            if s is last[0] and s is not None:
                return last[1]
            v = fn(s, n, e)
            last[0], last[1] = s, v
            return v

        return once

    part = memo.part

    def once_memo(s: Any, n: Any, e: list) -> Any:
        if s is last[0] and s is not None:
            return last[1]
        v = memo.get(s, fn, s, n, e) if s.__class__ is tuple and memo.on else fn(s, n, e)
        last[0], last[1] = s, v
        return v

    if part is None:
        return once_memo

    def once_part(s: Any, n: Any, e: list) -> Any:
        if s is last[0] and s is not None:
            return last[1]
        v = memo.get(part(s), fn, s, n, e) if s.__class__ is tuple and memo.on else fn(s, n, e)
        last[0], last[1] = s, v
        return v

    return once_part


def per_next(fn: EXPR_FN, memo: StateMemo | None = None) -> EXPR_FN:
    """``fn`` (a primed definition that reads only the next state) evaluated once per next state
    when that state is complete (a tuple: an action property's step, a liveness edge); while an
    action builds its successor ``n`` is a list that changes, and ``fn`` is called every time."""
    last: list = [None, None]

    def once(s: Any, n: Any, e: list) -> Any:
        if n.__class__ is not tuple:
            return fn(s, n, e)
        if n is last[0]:
            return last[1]
        v = memo.get(n if memo.part is None else memo.part(n), fn, s, n, e) if memo is not None and memo.on \
            else fn(s, n, e)
        last[0], last[1] = n, v
        return v

    return once


def sizeable(node: Any) -> bool:
    """Worth remembering per state: builds a set, function or record, quantifies, chooses, or
    calls operators (a few variable reads are cheaper to redo than to look up)."""
    for x in A.walk(node):
        if isinstance(x, (A.SetFilter, A.SetMap, A.FuncCons, A.Quant, A.Choose, A.Except, A.RecordCons,
                          A.SetEnum, A.Let)):
            return True
        if isinstance(x, A.OpApp) and x.args and x.name not in ("=", "#", "/=", "/\\", "\\/", "~", "+", "-",
                                                                  "<", ">", "<=", ">=", "=<", "\\in", "\\notin"):
            return True
    return False


_SIZED = (Powerset, FuncSet, RecordSet, Product)


def large(d: Any) -> bool:
    """A finite lazy set too large to enumerate just to test membership (its size is cheap to
    compute for SUBSET, [S -> T], [a : S] and products)."""
    try:
        return isinstance(d, _SIZED) and len(d) > 20_000
    except (ValueFault, TypeError, OverflowError):
        return False


def same_types(a: tuple, b: tuple) -> bool:
    """Top-level argument classes agree (Python's ``1 == True`` must not share a memo entry)."""
    for x, y in zip(a, b):
        if x.__class__ is not y.__class__:
            return False
    return True


def raiser(message: str, span: Any) -> EXPR_FN:
    """A closure failing at run time (TLC reports such problems only when evaluated)."""

    def fail(s: Any, n: Any, e: list) -> Any:
        raise EvalError(message, span)

    return fail


def const_fn(v: Any) -> EXPR_FN:
    return lambda s, n, e: v


def fault(span: Any, msg: str) -> EvalError:
    return EvalError(msg, span)


def truth(v: Any, span: Any, what: str) -> bool:
    if v is True:
        return True
    if v is False:
        return False
    raise EvalError(f"{what} must be a boolean, found {type_name(v)} {format_value(v)}", span)


class LateEnv(Env):
    """An Env filled in after creation (LET operators that see themselves)."""

    def __init__(self, holder: dict) -> None:
        object.__setattr__(self, "_holder", holder)

    def __getattribute__(self, name: str) -> Any:
        if name in ("locals", "scope", "primed", "init", "subst_locals", "no_override", "bind", "with_"):
            return getattr(object.__getattribute__(self, "_holder")["env"], name)
        return object.__getattribute__(self, name)

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other
