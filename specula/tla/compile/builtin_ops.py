"""The canonical built-in operators of the syntax tree as closure handlers.

Value operators (``+``, ``<``, ``\\cup``, ``DOMAIN``...) are derived from the registry in
``specula/tla/operators.py``: their closure calls the operator's strict implementation, as the
generated code does when its fast template's guards fail. The rest are special forms whose
operands are not simply values: ``=>``, ``/\\``, ``\\/`` (short-circuit), ``UNCHANGED`` and
``ENABLED`` (primed / action level), ``\\X`` (any number of operands), temporal operators.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile.env import STATE, truth
from specula.tla.operators import OPERATORS, Operator, sets
from specula.tla.values import Product, ValueFault, ordered, tla_eq

if TYPE_CHECKING:
    from specula.tla.compile.compiler import Compiler
    from specula.tla.compile.env import Env

__all__ = ["operator_table", "value_operator_closure"]


def value_operator_closure(c: "Compiler", op: Operator, node: A.OpApp, env: "Env") -> tuple:
    """``node`` (an application of the value operator ``op``) as a closure calling ``op.strict``."""
    impl = op.strict
    span = node.span
    if op.arity == 2:
        (f0, d0), (f1, d1) = c.expr(node.args[0], env), c.expr(node.args[1], env)

        def app2(s: Any, n: Any, e: list) -> Any:
            x = f0(s, n, e)
            y = f1(s, n, e)
            try:
                return impl(x, y)
            except ValueFault as exc:
                raise EvalError(str(exc), span) from None

        return c.fold(app2, d0 | d1, node)
    f0, d0 = c.expr(node.args[0], env)

    def app1(s: Any, n: Any, e: list) -> Any:
        x = f0(s, n, e)
        try:
            return impl(x)
        except ValueFault as exc:
            raise EvalError(str(exc), span) from None

    return c.fold(app1, d0, node)


def operator_table(c: "Compiler") -> dict[str, Callable]:
    """name -> handler(node, env) -> (fn, deps) for the canonical built-in operators."""

    def value_op(name: str) -> Callable:
        def h(node: A.OpApp, env: "Env") -> tuple:
            op = OPERATORS["-." if name == "-" and len(node.args) == 1 else name]
            if len(node.args) != op.arity:
                raise EvalError(f"operator {name} takes {op.arity} argument(s), got {len(node.args)}", node.span)
            return value_operator_closure(c, op, node, env)

        return h

    def implies_h(node: A.OpApp, env: "Env") -> tuple:
        (f0, d0), (f1, d1) = c.expr(node.args[0], env), c.expr(node.args[1], env)
        sp0, sp1 = node.args[0].span, node.args[1].span

        def imp(s: Any, n: Any, e: list) -> bool:
            v = f0(s, n, e)
            if v is False:
                return True
            if v is not True:
                truth(v, sp0, "the left side of =>")
            w = f1(s, n, e)
            if w is True or w is False:
                return w
            return truth(w, sp1, "the right side of =>")

        return c.fold(imp, d0 | d1, node)

    def and_h(node: A.OpApp, env: "Env") -> tuple:
        return c.expr(A.And(node.args, span=node.span), env)

    def or_h(node: A.OpApp, env: "Env") -> tuple:
        return c.expr(A.Or(node.args, span=node.span), env)

    def unchanged_h(node: A.OpApp, env: "Env") -> tuple:
        f0, d0 = c.expr(node.args[0], env)
        f1, d1 = c.expr(node.args[0], env.with_(primed=True))
        return (lambda s, n, e: tla_eq(f1(s, n, e), f0(s, n, e))), d0 | d1

    def enabled_h(node: A.OpApp, env: "Env") -> tuple:
        return c.enabled(node.args[0], env, node.span)

    def true_h(node: A.OpApp, env: "Env") -> tuple:
        v = node.name == "TRUE"
        return (lambda s, n, e: v), frozenset()

    def product_h(node: A.OpApp, env: "Env") -> tuple:
        parts = [c.expr(a, env) for a in node.args]
        fns = [p[0] for p in parts]
        deps = frozenset().union(*[p[1] for p in parts])

        span = node.span

        def prod(s: Any, n: Any, e: list) -> Any:
            try:
                ss = sets("\\X", *[f(s, n, e) for f in fns])
            except ValueFault as exc:
                raise EvalError(str(exc), span) from None
            if all(x.__class__ is frozenset for x in ss):
                return frozenset(itertools.product(*[ordered(x) for x in ss]))
            return Product(ss)

        return c.fold(prod, deps, node)

    def temporal_h(node: A.OpApp, env: "Env") -> tuple:
        span = node.span
        name = node.name

        def fail(s: Any, n: Any, e: list) -> Any:
            raise EvalError(f"temporal operator {name} cannot be evaluated in a state", span)

        return fail, frozenset({STATE})

    table: dict[str, Callable] = {name: value_op(name) for name in OPERATORS}
    table.update({
        "=>": implies_h,
        "/\\": and_h,
        "\\/": or_h,
        "TRUE": true_h,
        "FALSE": true_h,
        "\\X": product_h,
        "\\times": product_h,
        "UNCHANGED": unchanged_h,
        "ENABLED": enabled_h,
        "[]": temporal_h,
        "<>": temporal_h,
        "~>": temporal_h,
        "-+->": temporal_h,
        "\\cdot": temporal_h,
    })
    return table
