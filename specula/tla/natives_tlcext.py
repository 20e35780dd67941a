"""Native implementations of TLC's module TLCExt (TLC has Java code for all its operators but
TLCGetAndSet's TLA+ definition): the operators that read or steer the search (Trace,
CounterExample, TLCDefer, TLCCache, TLCGetOrDefault, TLCEvalDefinition, PickSuccessor, AssertError)
compile specially (``special``: they see their arguments unevaluated and the model's runtime).
The table :data:`TLCEXT_NATIVES` is merged into the community natives by builtins.native_for.
"""

from __future__ import annotations

from typing import Any

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.fp64 import tlcfp
from specula.tla.natives_community import NativeSpec, expect_int, expect_set, expect_str
from specula.tla.values import (Fn, ModelValue, ValueFault, format_value, make_record,
                                tla_eq)

__all__ = ["TLCEXT_NATIVES", "counterexample_record"]

NAMED_REGISTER_PREFIX = "s:"  # TLCSet("s:name", v): a named register (TLC's TLCGetSet)


def _m(arity: int, fn: Any, impure: bool = False) -> NativeSpec:
    return NativeSpec(arity, fn, (), impure)


def _special(arity: int, special: Any) -> NativeSpec:
    return NativeSpec(arity, None, (), True, special)


def _assert_eq(a: Any, b: Any) -> bool:
    if tla_eq(a, b):
        return True
    print("Assertion failed", flush=True)
    print(format_value(a), flush=True)
    print(format_value(b), flush=True)
    return False


def _tlc_model_value(s: Any) -> Any:
    return ModelValue(expect_str(s))


def _assert_error_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """AssertError(err, exp): TRUE when exp fails with the message err, FALSE when it evaluates
    or fails with another message, as TLC (whose messages are its own: err must be specula's
    message for the same failure)."""
    f_err, d1 = c.expr(args[0], env)
    f_exp, d2 = c.expr(args[1], env)

    def assert_error(s: Any, n: Any, e: list) -> bool:
        err = f_err(s, n, e)
        try:
            f_exp(s, n, e)
        except EvalError as exc:
            got = exc.args[0] if exc.args else str(exc)
            return got == err
        return False

    return assert_error, d1 | d2 | {"I"}


def _tlc_get_and_set_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """TLCGetAndSet(key, Op, val, default): the register's value (default when unset), and the
    register set to Op(that value, val)."""
    f_key, d1 = c.expr(args[0], env)
    op = c.op_arg(args[1], env, 2)
    cf = c.op_callable(op, env, span)
    f_val, d2 = c.expr(args[2], env)
    f_def, d3 = c.expr(args[3], env)
    regs = c.runtime.registers

    def get_and_set(s: Any, n: Any, e: list) -> Any:
        k = f_key(s, n, e)
        old = regs[k] if k in regs else f_def(s, n, e)
        regs[k] = cf(s, n, e)(old, f_val(s, n, e))
        return old

    return get_and_set, d1 | d2 | d3 | {"I", "S"}


def _trace_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """TLCExt!Trace: the behaviour from an initial state to the state it is evaluated on, as a
    sequence of records of the variables (TLC reads its search's trace; so does specula's)."""
    trace = c.runtime.trace
    c.runtime.uses_trace = True

    def trace_fn(s: Any, n: Any, e: list) -> Any:
        if s is None or s.__class__ is not tuple:
            raise EvalError("In evaluating TLCExt!Trace, the state is not completely specified yet", span)
        return trace(s)

    return trace_fn, frozenset({"S", "I"})


def _counterexample_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """TLCExt!CounterExample: in POSTCONDITION, the error trace as TLC's graph record
    ``[action |-> edges, state |-> numbered states, invariant |-> {name}]`` (see
    :func:`counterexample_record`); with no violation its sets are empty."""
    rt = c.runtime

    def counterexample(s: Any, n: Any, e: list) -> Any:
        ce = rt.counterexample
        return ce if ce is not None else counterexample_record((), (), None)

    return counterexample, frozenset({"I"})


def counterexample_record(states: Any, actions: Any, violated: str | None, loop: tuple | None = None) -> Any:
    """TLC 2.18's CounterExample value: ``state`` the set of ``<<i, record>>`` for the trace's
    states (1-based), ``action`` the set of edges ``<<from, action record, to>>`` between
    consecutive states (plus ``loop``: the edge of a lasso's step back), ``invariant`` the set
    holding the violated property's name ("default" when there is none)."""
    numbered = [(i + 1, st) for i, st in enumerate(states)]
    edges = [(numbered[i], act, numbered[i + 1]) for i, act in enumerate(actions)]
    if loop is not None:
        act, back = loop
        edges.append((numbered[-1], act, numbered[back - 1]))
    return make_record([("action", frozenset(edges)), ("state", frozenset(numbered)),
                        ("invariant", frozenset({violated or "default"}))])


def _to_trace(ce: Any) -> tuple:
    """ToTrace(CE): the states of a CounterExample as a sequence, in their numbers' order."""
    if ce.__class__ is not Fn or "state" not in ce or "action" not in ce:
        raise ValueFault(f"The argument of ToTrace should be a CounterExample, but instead it is {format_value(ce)}")
    pairs = expect_set(ce["state"])
    out: list = [None] * len(pairs)
    for p in pairs:
        i = expect_int(p[0]) if p.__class__ is tuple and len(p) == 2 else 0
        if not 1 <= i <= len(out):
            raise ValueFault(f"ToTrace: {format_value(ce)} is not a CounterExample")
        out[i - 1] = p[1]
    return tuple(out)


def _pick_successor_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """PickSuccessor(exp): TRUE when exp holds, and in a constant or state context, or while the
    successor is not fully assigned; otherwise TLC asks its user on the console whether to take
    the step, which specula does not do (an error says so)."""
    f, deps = c.expr(args[0], env)
    unset = c.unset

    def pick(s: Any, n: Any, e: list) -> bool:
        v = f(s, n, e)
        if v is not True and v is not False:
            raise EvalError(f"In evaluating TLCExt!PickSuccessor, a non-boolean expression ({format_value(v)}) "
                            "was used as the condition of an IF", span)
        if v or n is None or s is None or any(x is unset for x in n):
            return True
        raise EvalError("PickSuccessor: TLC picks successors interactively here (exp is FALSE); "
                        "specula does not", span)

    return pick, deps | {"I"}


def _tlc_get_or_default_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """TLCGetOrDefault(key, default): register ``key``'s value (an integer key, or a named
    register "s:..."), ``default`` when it is unset or ``key`` names no register (TLC's "level",
    "stats", ... are not registers: default)."""
    f_key, d1 = c.expr(args[0], env)
    f_def, d2 = c.expr(args[1], env)
    regs = c.runtime.registers

    def get_or_default(s: Any, n: Any, e: list) -> Any:
        k = f_key(s, n, e)
        if k.__class__ is int or (k.__class__ is str and k.startswith(NAMED_REGISTER_PREFIX)):
            if k in regs:
                return regs[k]
        return f_def(s, n, e)

    return get_or_default, d1 | d2 | {"I"}


def _tlc_defer_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """TLCDefer(expression): TRUE; in simulation, ``expression`` is evaluated once the simulator
    has picked the successor being generated (with the successor complete), and not for the
    successors it does not pick; when model checking, never (TLC runs the deferred expressions of
    the states its simulator picks only)."""
    f, _ = c.expr(args[0], env)
    rt = c.runtime

    def defer(s: Any, n: Any, e: list) -> bool:
        if rt.deferred is not None:
            rt.defer(f, s, list(e))
        return True

    return defer, frozenset({"I"})


def _tlc_cache_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """TLCCache(expression, closure): expression's value; a constant expression is evaluated once
    per value of closure, later evaluations return the cached value (their side effects, e.g.
    TLCSet or PrintT, are not repeated), as TLC's. An expression of the state or of primed
    variables is evaluated each time, as TLC 2.18 does when model checking."""
    f, d1 = c.expr(args[0], env)
    g, d2 = c.expr(args[1], env)
    deps = d1 | d2 | {"I"}
    if "S" in d1 or "P" in d1:
        return (lambda s, n, e: f(s, n, e)), deps
    # one cache per TLCCache expression of the spec (TLC keeps it on the expression's node)
    cache: dict = c.def_cache.setdefault(("TLCCache", id(args[0])), {})

    def cached(s: Any, n: Any, e: list) -> Any:
        key = g(s, n, e)
        try:
            return cache[key]
        except KeyError:
            pass
        except TypeError:  # an unhashable closure value: nothing to key the cache by
            return f(s, n, e)
        v = cache[key] = f(s, n, e)
        return v

    return cached, deps


def _tlc_eval_definition_special(c: Any, args: tuple, env: Any, span: Any) -> tuple:
    """TLCEvalDefinition(name): the value of the root module's zero-arity definition called
    ``name`` (its own or one it EXTENDS), evaluated on the current state(s)."""
    f_name, deps = c.expr(args[0], env)
    root_env = env.with_(locals={}, scope=c.root, primed=False, init=False, subst_locals={}, no_override=False)
    compiled: dict = {}

    def definition(name: Any) -> Any:
        fn = compiled.get(name)
        if fn is None:
            if name.__class__ is not str:
                raise EvalError("The argument of TLCEvalDefinition should be a string, but instead it is "
                                f"{format_value(name)}", span)
            d = c.root.names.get(name) if c.root is not None else None
            node = getattr(d, "node", None)
            if d is None or d.kind not in ("op", "func", "builtin-module-op") or not isinstance(node, (A.OpDef, A.FuncDef)):
                raise EvalError("The argument of TLCEvalDefinition should be the name of a definition "
                                f"reachable from the root module, but instead it is {format_value(name)}", span)
            if isinstance(node, A.OpDef) and node.params:
                raise EvalError("The argument of TLCEvalDefinition should be a zero-arity definition, but "
                                f"{name} takes {len(node.params)} argument(s)", span)
            fn = compiled[name] = c.expr(A.Name(name, span=getattr(node, "span", None)), root_env)[0]
        return fn

    def eval_definition(s: Any, n: Any, e: list) -> Any:
        return definition(f_name(s, n, e))(s, n, e)

    return eval_definition, deps | {"S", "P", "I"}


TLCEXT_NATIVES: dict[tuple[str, str], NativeSpec] = {
    ("TLCExt", "AssertEq"): _m(2, _assert_eq, impure=True),
    ("TLCExt", "TLCModelValue"): _m(1, _tlc_model_value),
    ("TLCExt", "TLCNoOp"): _m(1, lambda v: v),
    ("TLCExt", "TLCFP"): _m(1, tlcfp),
    ("TLCExt", "AssertError"): _special(2, _assert_error_special),
    ("TLCExt", "TLCGetAndSet"): _special(4, _tlc_get_and_set_special),
    ("TLCExt", "TLCGetOrDefault"): _special(2, _tlc_get_or_default_special),
    ("TLCExt", "Trace"): _special(0, _trace_special),
    ("TLCExt", "CounterExample"): _special(0, _counterexample_special),
    ("TLCExt", "ToTrace"): _m(1, _to_trace),
    ("TLCExt", "PickSuccessor"): _special(1, _pick_successor_special),
    ("TLCExt", "TLCDefer"): _special(1, _tlc_defer_special),
    ("TLCExt", "TLCCache"): _special(2, _tlc_cache_special),
    ("TLCExt", "TLCEvalDefinition"): _special(1, _tlc_eval_definition_special),
}
