"""The registry of built-in value operators: each declared once.

An :class:`Operator` is a TLA+ built-in that maps values to a value (``+``, ``<``, ``\\cup``,
``DOMAIN``...). It has one *strict* implementation, total over values: it returns the result or
raises :class:`ValueFault` with the message the user sees (``cannot apply + to integer 1 and
boolean TRUE``). It may also have a *fast* template, a Python expression over ``{0}``/``{1}``
that is valid only when every operand's class is the one named in ``guard``; anything else falls
back to the strict implementation, so the two can never disagree.

Both evaluation paths derive from this table: the closure compiler calls ``strict``
(``compile/builtin_ops.py``), the source generator emits ``fast`` under its guards with ``strict``
as the fallback (``compile/gen.py``). Operators that are not functions of their operands' values
(``=>``, ``/\\``, ``UNCHANGED``, ``ENABLED``, ``\\X`` with any arity...) are compiled by handlers
in ``compile/builtin_ops.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from specula.tla.values import (
    Fn,
    Interval,
    LazyFn,
    LazySet,
    Powerset,
    UnionSet,
    ValueFault,
    domain,
    enumerate_set,
    format_value,
    is_set,
    make_fn,
    tla_eq,
    tla_eq_op,
    to_frozenset,
    type_name,
)

__all__ = ["Operator", "OPERATORS", "operator", "cannot_apply", "sets", "strict_native"]


@dataclass(frozen=True)
class Operator:
    """One built-in value operator (see the module docstring)."""

    name: str  # as written in TLA+ (the name error messages use)
    arity: int
    strict: Callable[..., Any]
    fast: str | None = None  # Python expression over {0}, {1}; valid under `guard`
    guard: tuple[type, ...] = ()  # the class each operand must have for `fast`
    aliases: tuple[str, ...] = ()


def cannot_apply(name: str, *vals: Any) -> ValueFault:
    """The error for an operator applied to values of the wrong type (one wording everywhere)."""
    shown = " and ".join(f"{type_name(v)} {format_value(v)}" for v in vals)
    return ValueFault(f"cannot apply {name} to {shown}")


def sets(name: str, *vals: Any) -> tuple:
    """``vals`` when every one is a set (the operands of ``[S -> T]``, ``[a : S]``, ``S \\X T``)."""
    for v in vals:
        if not is_set(v):
            raise cannot_apply(name, *vals)
    return vals


# ----------------------------------------------------------------------------- integers


def _plus(x: Any, y: Any) -> int:
    if x.__class__ is int and y.__class__ is int:
        return x + y
    raise cannot_apply("+", x, y)


def _minus(x: Any, y: Any) -> int:
    if x.__class__ is int and y.__class__ is int:
        return x - y
    raise cannot_apply("-", x, y)


def _times(x: Any, y: Any) -> int:
    if x.__class__ is int and y.__class__ is int:
        return x * y
    raise cannot_apply("*", x, y)


def _div(x: Any, y: Any) -> int:
    if x.__class__ is int and y.__class__ is int:
        if y == 0:
            raise ValueFault("division by zero")
        return x // y
    raise cannot_apply("\\div", x, y)


def _mod(x: Any, y: Any) -> int:
    if x.__class__ is int and y.__class__ is int:
        if y <= 0:
            raise ValueFault(f"the second argument of % must be positive, found {y}")
        return x % y
    raise cannot_apply("%", x, y)


def _power(x: Any, y: Any) -> int:
    if x.__class__ is int and y.__class__ is int:
        if y < 0:
            raise ValueFault("negative exponent")
        return x**y
    raise cannot_apply("^", x, y)


def _negate(x: Any) -> int:
    if x.__class__ is int:
        return -x
    raise cannot_apply("-", x)


def _lt(x: Any, y: Any) -> bool:
    if x.__class__ is int and y.__class__ is int:
        return x < y
    raise cannot_apply("<", x, y)


def _le(x: Any, y: Any) -> bool:
    if x.__class__ is int and y.__class__ is int:
        return x <= y
    raise cannot_apply("<=", x, y)


def _gt(x: Any, y: Any) -> bool:
    if x.__class__ is int and y.__class__ is int:
        return x > y
    raise cannot_apply(">", x, y)


def _ge(x: Any, y: Any) -> bool:
    if x.__class__ is int and y.__class__ is int:
        return x >= y
    raise cannot_apply(">=", x, y)


def _interval(x: Any, y: Any) -> Any:
    if x.__class__ is int and y.__class__ is int:
        if y - x < 200_000:
            return frozenset(range(x, y + 1))
        return Interval(x, y)
    raise cannot_apply("..", x, y)


# ----------------------------------------------------------------------------- logic


def _not(x: Any) -> bool:
    if x is True:
        return False
    if x is False:
        return True
    raise cannot_apply("~", x)


def _equiv(x: Any, y: Any) -> bool:
    if (x is True or x is False) and (y is True or y is False):
        return x is y
    raise cannot_apply("<=>", x, y)


def _eq(x: Any, y: Any) -> bool:
    if x.__class__ is y.__class__:
        return x == y
    return tla_eq_op(x, y)


def _neq(x: Any, y: Any) -> bool:
    if x.__class__ is y.__class__:
        return x != y
    return not tla_eq_op(x, y)


# ----------------------------------------------------------------------------- sets


def _in(x: Any, S: Any) -> bool:
    if S.__class__ is frozenset or isinstance(S, LazySet):
        return x in S
    raise ValueFault(f"\\in applied to {type_name(S)} {format_value(S)}, which is not a set")


def _notin(x: Any, S: Any) -> bool:
    return not _in(x, S)


def _cup(a: Any, b: Any) -> Any:
    if a.__class__ is frozenset and b.__class__ is frozenset:
        return a | b
    if not (is_set(a) and is_set(b)):
        raise cannot_apply("\\cup", a, b)
    return UnionSet(a, b, "cup")


def _cap(a: Any, b: Any) -> Any:
    if a.__class__ is frozenset and b.__class__ is frozenset:
        return a & b
    if not (is_set(a) and is_set(b)):
        raise cannot_apply("\\cap", a, b)
    if a.__class__ is frozenset:
        return frozenset(x for x in a if x in b)
    if b.__class__ is frozenset:
        return frozenset(x for x in b if x in a)
    return UnionSet(a, b, "cap")


def _setminus(a: Any, b: Any) -> Any:
    if a.__class__ is frozenset and b.__class__ is frozenset:
        return a - b
    if not (is_set(a) and is_set(b)):
        raise cannot_apply("\\", a, b)
    if a.__class__ is frozenset:
        return frozenset(x for x in a if x not in b)
    return UnionSet(a, b, "minus")


def _subseteq_as(name: str) -> Callable[[Any, Any], bool]:
    def subseteq(a: Any, b: Any) -> bool:
        if a.__class__ is frozenset and b.__class__ is frozenset:
            return a <= b
        if not (is_set(a) and is_set(b)):
            raise cannot_apply(name, a, b)
        if isinstance(a, LazySet) and not a.finite:
            if isinstance(b, LazySet) and a.key() == b.key():
                return True
            raise ValueFault(f"cannot decide {format_value(a)} \\subseteq {format_value(b)}")
        return all(x in b for x in enumerate_set(a))

    return subseteq


_sub_eq = _subseteq_as("\\subseteq")
_sup_eq = _subseteq_as("\\supseteq")
_sub = _subseteq_as("\\subset")
_sup = _subseteq_as("\\supset")


def _subseteq(a: Any, b: Any) -> bool:
    return _sub_eq(a, b)


def _supseteq(a: Any, b: Any) -> bool:
    return _sup_eq(b, a)


def _subset(a: Any, b: Any) -> bool:
    return _sub(a, b) and not tla_eq(a, b)


def _supset(a: Any, b: Any) -> bool:
    return _sup(b, a) and not tla_eq(a, b)


def _powerset(S: Any) -> Any:
    if is_set(S):
        return Powerset(S)
    raise cannot_apply("SUBSET", S)


def _union(S: Any) -> Any:
    if not is_set(S):
        raise cannot_apply("UNION", S)
    parts = list(enumerate_set(S))
    for x in parts:
        if not is_set(x):
            raise ValueFault(f"UNION applied to a set with the element {type_name(x)} {format_value(x)}, "
                             "which is not a set")
    if any(isinstance(x, LazySet) and (not x.finite or len(x) > 10_000) for x in parts):
        # keep big or infinite unions lazy (membership tests each part)
        acc = parts[0]
        for x in parts[1:]:
            acc = UnionSet(acc, x, "cup")
        return acc
    out: set = set()
    for x in parts:
        out |= to_frozenset(x)
    return frozenset(out)


# ----------------------------------------------------------------------------- functions, sequences


def _domain(f: Any) -> Any:
    if f.__class__ is tuple or f.__class__ is Fn or isinstance(f, LazyFn):
        return domain(f)
    raise cannot_apply("DOMAIN", f)


def _concat(a: Any, b: Any) -> Any:
    if a.__class__ is tuple and b.__class__ is tuple:
        return a + b
    if a.__class__ is str and b.__class__ is str:
        return a + b
    raise cannot_apply("\\o", a, b)


def fn_items(f: Any) -> list[tuple[Any, Any]]:
    """A function's (argument, value) pairs (a sequence's from 1); a non-function is TLC's error."""
    if f.__class__ is tuple:
        return list(enumerate(f, 1))
    if f.__class__ is Fn:
        return list(f.items())
    if isinstance(f, LazyFn):
        return fn_items(f.materialize())
    raise ValueFault(f"expected a function, found {type_name(f)} {format_value(f)}")


def _colon_gt(a: Any, b: Any) -> Any:
    return make_fn({a: b})


def _at_at(f: Any, g: Any) -> Any:
    if not ((f.__class__ is tuple or f.__class__ is Fn or isinstance(f, LazyFn))
            and (g.__class__ is tuple or g.__class__ is Fn or isinstance(g, LazyFn))):
        raise cannot_apply("@@", f, g)
    d = dict(fn_items(g))
    d.update(fn_items(f))
    return make_fn(d)


# ----------------------------------------------------------------------------- the table

_INT2 = (int, int)
_SET2 = (frozenset, frozenset)

OPERATORS: dict[str, Operator] = {}


def _declare(*ops: Operator) -> None:
    for op in ops:
        for name in (op.name, *op.aliases):
            OPERATORS[name] = op


_declare(
    Operator("+", 2, _plus, "{0} + {1}", _INT2),
    Operator("-", 2, _minus, "{0} - {1}", _INT2),
    Operator("*", 2, _times, "{0} * {1}", _INT2),
    Operator("\\div", 2, _div),
    Operator("%", 2, _mod),
    Operator("^", 2, _power),
    Operator("-.", 1, _negate, "-{0}", (int,)),
    Operator("<", 2, _lt, "{0} < {1}", _INT2),
    Operator("<=", 2, _le, "{0} <= {1}", _INT2),
    Operator(">", 2, _gt, "{0} > {1}", _INT2),
    Operator(">=", 2, _ge, "{0} >= {1}", _INT2),
    Operator("..", 2, _interval),
    Operator("~", 1, _not, "not {0}", (bool,), aliases=("\\lnot", "\\neg")),
    Operator("<=>", 2, _equiv, "{0} is {1}", (bool, bool), aliases=("\\equiv",)),
    Operator("=", 2, _eq),
    Operator("#", 2, _neq, aliases=("/=",)),
    Operator("\\in", 2, _in, "{0} in {1}", (object, frozenset)),
    Operator("\\notin", 2, _notin, "{0} not in {1}", (object, frozenset)),
    Operator("\\cup", 2, _cup, "{0} | {1}", _SET2),
    Operator("\\cap", 2, _cap, "{0} & {1}", _SET2),
    Operator("\\", 2, _setminus, "{0} - {1}", _SET2),
    Operator("\\subseteq", 2, _subseteq, "{0} <= {1}", _SET2),
    Operator("\\supseteq", 2, _supseteq, "{0} >= {1}", _SET2),
    Operator("\\subset", 2, _subset, "{0} < {1}", _SET2),
    Operator("\\supset", 2, _supset, "{0} > {1}", _SET2),
    Operator("SUBSET", 1, _powerset),
    Operator("UNION", 1, _union),
    Operator("DOMAIN", 1, _domain),
    Operator("\\o", 2, _concat, "{0} + {1}", (tuple, tuple), aliases=("\\circ",)),
    Operator(":>", 2, _colon_gt),
    Operator("@@", 2, _at_at),
)


def operator(name: str, arity: int) -> Operator | None:
    """The value operator ``name`` of that arity (``-`` with one argument is negation)."""
    if name == "-" and arity == 1:
        name = "-."
    op = OPERATORS.get(name)
    return op if op is not None and op.arity == arity else None


# ----------------------------------------------------------------------------- standard-module natives

_NATIVE_FAULTS = (TypeError, KeyError, IndexError, ValueError, AttributeError)
_STRICT_NATIVES: dict[int, tuple[Any, Callable[..., Any]]] = {}


def strict_native(name: str, fn: Callable[..., Any], arity: int) -> Callable[..., Any]:
    """A standard-module operator's Python implementation with its errors worded once: a
    ValueFault ``Name: reason``, or ``cannot apply Name to ...`` for a Python-level fault. Both
    the closures and the generated code call this (so they fail alike)."""
    hit = _STRICT_NATIVES.get(id(fn))
    if hit is not None and hit[0] is fn:
        return hit[1]
    if arity == 1:
        def call1(x: Any) -> Any:
            try:
                return fn(x)
            except ValueFault as exc:
                raise ValueFault(f"{name}: {exc}") from None
            except _NATIVE_FAULTS:
                raise cannot_apply(name, x) from None

        call: Callable[..., Any] = call1
    elif arity == 2:
        def call2(x: Any, y: Any) -> Any:
            try:
                return fn(x, y)
            except ValueFault as exc:
                raise ValueFault(f"{name}: {exc}") from None
            except _NATIVE_FAULTS:
                raise cannot_apply(name, x, y) from None

        call = call2
    else:
        def calln(*vals: Any) -> Any:
            try:
                return fn(*vals)
            except ValueFault as exc:
                raise ValueFault(f"{name}: {exc}") from None
            except _NATIVE_FAULTS:
                raise cannot_apply(name, *vals) from None

        call = calln
    _STRICT_NATIVES[id(fn)] = (fn, call)
    return call
