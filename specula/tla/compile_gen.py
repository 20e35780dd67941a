"""Python source generation for expression trees (the fast path of the compiler).

A maximal subtree of "simple" nodes (variables, bound names, constants, function application,
records, tuples, arithmetic, comparisons, membership, boolean connectives, IF, quantifiers and
set/function constructors over one bound name...) becomes ONE Python function generated from
source, e.g. ``<<b, v>> \\in votes[a]`` becomes ``(e[3], e[4]) in _ap(s[0], e[2])``, instead
of a tree of closures calling each other. Nodes without a generator are compiled by the closure
compiler and called from the generated code (``_k[i](s, n, e)``), and their own subtrees may be
generated again. Python exceptions from the generated code become ``EvalError`` with the span
of the generated root.

Known simplification: ``+ - * < <= > >=`` use Python's operators directly, so ill-typed uses
that TLC rejects (``TRUE + 1``, ``"a" < "b"``) are not reported as errors here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.values import (
    Fn,
    Interval,
    LazyFn,
    LazySet,
    ModelValue,
    ValueFault,
    apply_fn,
    domain,
    enumerate_set,
    fn_set1,
    format_value,
    make_fn,
    tla_eq,
    type_name,
)

if TYPE_CHECKING:
    from specula.tla.compile import Compiler, Env

__all__ = ["Generator"]

_ATOM = re.compile(r"^[sen]\[\d+\]$")
_LIT = re.compile(r"^('[^'\\]*'|-?\d+)$")
_FAULTS = (TypeError, KeyError, IndexError, ValueError, AttributeError, ZeroDivisionError, ValueFault)


def _ap(f: Any, x: Any) -> Any:
    c = f.__class__
    if c is tuple:
        if x.__class__ is int and 0 < x <= len(f):
            return f[x - 1]
    elif c is Fn:
        try:
            return f[x]
        except KeyError:
            pass
    return apply_fn(f, x)


def _fld(r: Any, name: str) -> Any:
    if r.__class__ is Fn:
        try:
            return r[name]
        except KeyError:
            pass
    try:
        return apply_fn(r, name)
    except ValueFault:
        raise ValueFault(f"the record {format_value(r)} has no field '{name}'") from None


def _eq(a: Any, b: Any) -> bool:
    if a.__class__ is b.__class__:
        return a == b
    return tla_eq(a, b)


def _in(x: Any, S: Any) -> bool:
    if S.__class__ is frozenset or isinstance(S, LazySet):
        return x in S
    raise ValueFault(f"\\in applied to {type_name(S)} {format_value(S)}, which is not a set")


def _en(S: Any) -> Any:
    if S.__class__ is frozenset:
        return S
    return enumerate_set(S)


def _truth(v: Any) -> bool:
    if v is True or v is False:
        return v
    raise ValueFault(f"expected a boolean, found {type_name(v)} {format_value(v)}")


def _div(a: int, b: int) -> int:
    if b == 0:
        raise ValueFault("division by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b <= 0:
        raise ValueFault(f"the second argument of % must be positive, found {b}")
    return a % b


def _range(a: int, b: int) -> Any:
    if a.__class__ is not int or b.__class__ is not int:
        raise ValueFault("the bounds of .. must be integers")
    if b - a < 200_000:
        return frozenset(range(a, b + 1))
    return Interval(a, b)


def _cup(a: Any, b: Any) -> Any:
    if a.__class__ is frozenset and b.__class__ is frozenset:
        return a | b
    return _SLOW["\\cup"](a, b)


def _cap(a: Any, b: Any) -> Any:
    if a.__class__ is frozenset and b.__class__ is frozenset:
        return a & b
    return _SLOW["\\cap"](a, b)


def _minus(a: Any, b: Any) -> Any:
    if a.__class__ is frozenset and b.__class__ is frozenset:
        return a - b
    return _SLOW["\\"](a, b)


def _concat(a: Any, b: Any) -> Any:
    if a.__class__ is tuple and b.__class__ is tuple:
        return a + b
    if a.__class__ is str and b.__class__ is str:
        return a + b
    raise ValueFault(f"\\o applied to {format_value(a)} and {format_value(b)}")


def _set1(f: Any, k: Any, v: Any) -> Any:
    """``[f EXCEPT ![k] = v]`` for one key (unchanged when k is outside the domain)."""
    c = f.__class__
    if c is Fn:
        if k in f:
            return fn_set1(f, k, v)
        return f
    if c is tuple:
        if k.__class__ is int and 0 < k <= len(f):
            return f[: k - 1] + (v,) + f[k:]
        return f
    if isinstance(f, LazyFn):
        return _set1(f.materialize(), k, v)
    raise ValueFault(f"EXCEPT applied to {type_name(f)} {format_value(f)}, which is not a function")


def _has(f: Any, k: Any) -> bool:
    if f.__class__ is Fn:
        return k in f
    if f.__class__ is tuple:
        return k.__class__ is int and 0 < k <= len(f)
    return False


def _exc(f: Any, keys: tuple, v: Any) -> Any:
    if len(keys) == 1:
        return _set1(f, keys[0], v)
    k = keys[0]
    if not _has(f, k):
        return f
    return _set1(f, k, _exc(_ap(f, k), keys[1:], v))


def _exc_at(f: Any, keys: tuple, vf: Callable, kat: int, s: Any, n: Any, e: list) -> Any:
    k = keys[0]
    if isinstance(f, LazyFn):
        f = f.materialize()
    if not _has(f, k):
        if f.__class__ is not Fn and f.__class__ is not tuple:
            raise ValueFault(f"EXCEPT applied to {type_name(f)} {format_value(f)}, which is not a function")
        return f
    old = _ap(f, k)
    if len(keys) == 1:
        e[kat] = old
        return _set1(f, k, vf(s, n, e))
    return _set1(f, k, _exc_at(old, keys[1:], vf, kat, s, n, e))


def _tups(S: Any, n: int) -> Any:
    """The elements of S, each checked to be an n-tuple (a ``<<x, y>> \\in S`` pattern)."""
    for v in S:
        if v.__class__ is not tuple or len(v) != n:
            raise ValueFault(f"cannot match {format_value(v)} against a tuple of {n} names")
        yield v


def _st(e: list, k: int, v: Any) -> Any:
    e[k] = v
    return v


def _rec(names: tuple, vals: tuple) -> Fn:
    r = Fn()
    dict.update(r, zip(names, vals))
    r._h = None
    return r


_SLOW: dict[str, Callable] = {}

_HELPERS = {
    "_ap": _ap, "_tups": _tups, "_fld": _fld, "_eq": _eq, "_in": _in, "_en": _en, "_truth": _truth, "_div": _div,
    "_mod": _mod, "_range": _range, "_cup": _cup, "_cap": _cap, "_minus": _minus, "_concat": _concat,
    "_rec": _rec, "_st": _st, "_set1": _set1, "_exc": _exc, "_exc_at": _exc_at, "_mkfn": make_fn, "_dom": domain, "_frozenset": frozenset, "_Fn": Fn,
    "_LazyFn": LazyFn, "_MV": ModelValue,
}

_ARITH = {"+": "+", "*": "*", "<": "<", ">": ">", "<=": "<=", ">=": ">="}


class Generator:
    """Generates Python source for simple expression subtrees of one Compiler."""

    def __init__(self, compiler: "Compiler") -> None:
        self.c = compiler
        self.consts: list = []
        self.ns: dict = dict(_HELPERS)
        self.ns["_k"] = self.consts
        from specula.tla.compile import UNSET

        self.ns["_U"] = UNSET
        self.depth = 0
        self._last_fallback: tuple | None = None
        # id(lazy binding) -> (binding, code of its expression): each argument/LET definition is
        # generated once, not once per reference (nested calls were exponential: Add(Add(...)))
        self._lazy_src: dict[int, tuple] = {}
        if not _SLOW:
            from specula.tla.builtins import operator_table  # noqa: F401  (slow paths below)

            _SLOW.update(_slow_set_ops())
        self._GEN = {
            A.Name: self._name, A.Number: self._number, A.String: self._string, A.Bool: self._bool,
            A.OpApp: self._opapp, A.And: self._and, A.Or: self._or, A.FuncApp: self._funcapp,
            A.FieldAccess: self._field, A.Tuple: self._tuple, A.RecordCons: self._record,
            A.If: self._if, A.Quant: self._quant, A.SetEnum: self._setenum,
            A.SetFilter: self._setfilter, A.SetMap: self._setmap, A.FuncCons: self._funccons,
            A.Prime: self._prime, A.Except: self._except,
        }

    # ------------------------------------------------------------------ entry

    def root(self, node: Any, env: "Env") -> tuple | None:
        """Compile ``node`` to one generated function, or None when not worth it."""
        self.depth += 1
        self._last_fallback = None
        try:
            r = self.gen(node, env)
        finally:
            self.depth -= 1
        if r is None:
            return None
        src, deps, size = r
        last = self._last_fallback
        if last is not None and last[0] is node:
            return last[1], frozenset(last[2])
        span = getattr(node, "span", None)
        fn = self._build(src, span, node)
        return self.c.fold(fn, frozenset(deps), node)

    def _build(self, src: str, span: Any, node: Any) -> Callable:
        k = len(self.consts)
        self.consts.append(span)
        code = (
            "def _g(s, n, e):\n"
            "    try:\n"
            f"        return {src}\n"
            "    except _FAULTS as _x:\n"
            f"        raise _fault(_x, _k[{k}]) from None\n"
        )
        ns = self.ns
        ns["_FAULTS"] = _FAULTS
        ns["_fault"] = _fault
        loc: dict = {}
        exec(compile(code, "<tla>", "exec"), ns, loc)  # noqa: S102 - generated from the AST
        return loc["_g"]

    def const(self, v: Any) -> str:
        if v.__class__ is int or v.__class__ is str or v.__class__ is bool:
            return repr(v)
        self.consts.append(v)
        return f"_k[{len(self.consts) - 1}]"

    def fallback(self, node: Any, env: "Env") -> tuple:
        h = self.c.expr_table[node.__class__]
        fn, deps = h(node, env)
        self._last_fallback = (node, fn, deps)
        if not deps:
            try:
                v = fn(None, None, self.c.frame)
                return self.const(v), set(), 1
            except Exception:  # noqa: BLE001 - keep the closure, fail at run time like TLC
                pass
        self.consts.append(fn)
        return f"_k[{len(self.consts) - 1}](s, n, e)", set(deps), 1

    def gen(self, node: Any, env: "Env") -> tuple:
        h = self._GEN.get(node.__class__)
        if h is not None:
            r = h(node, env)
            if r is not None:
                return r
        return self.fallback(node, env)

    def sub(self, node: Any, env: "Env") -> tuple:
        return self.gen(node, env)

    # ------------------------------------------------------------------ leaves

    def _number(self, node: A.Number, env: "Env") -> tuple:
        return repr(node.value), set(), 1

    def _string(self, node: A.String, env: "Env") -> tuple:
        return repr(node.value), set(), 1

    def _bool(self, node: A.Bool, env: "Env") -> tuple:
        return repr(node.value), set(), 1

    def _var(self, i: int, env: "Env") -> tuple:
        if env.primed or env.init:
            # unassigned primed variable: fall back to the closure (it raises the right error)
            return f"(n[{i}] if n[{i}] is not _U else _k[{self._unset_reader(i, env)}](s, n, e))", {"P"}, 1
        return f"s[{i}]", {"S"}, 1

    def _unset_reader(self, i: int, env: "Env") -> int:
        fn, _ = self.c.var_read(i, env, None)
        self.consts.append(fn)
        return len(self.consts) - 1

    def _binding(self, b: tuple, env: "Env", node: Any) -> tuple | None:
        kind = b[0]
        if kind == "slot":
            return f"e[{b[1]}]", {b[1]}, 1
        if kind == "const":
            return self.const(b[1]), set(), 1
        if kind == "var":
            return self._var(b[1], env)
        if kind == "lazy":
            k, fn, deps = b[1], b[2], b[3]
            if len(b) > 4 and b[4] is not None:
                hit = self._lazy_src.get(id(b))
                if hit is None or hit[0] is not b:
                    hit = self._lazy_src[id(b)] = (b, self.sub(b[4], b[5]))
                arg = hit[1]
                return f"(e[{k}] if e[{k}] is not _U else _st(e, {k}, {arg[0]}))", set(arg[1]) | {k}, 1 + arg[2]
            lz, _ = self.c.binding_value(b, env, None)
            self.consts.append(lz)
            return f"(e[{k}] if e[{k}] is not _U else _k[{len(self.consts) - 1}](s, n, e))", set(deps) | {k}, 1
        if kind == "expr":
            node2, denv = b[1], b[2]
            if env.primed and not denv.primed:
                denv = denv.with_(primed=True)
            return self.sub(node2, denv)
        if kind == "op":
            op = b[1]
            if op.native is None and not op.recursive and op.arity == 0 and op.body is not None:
                benv = op.env
                if benv is None:
                    return None
                if not benv.locals:
                    # a top-level definition: constant ones are compiled and folded once (cached)
                    try:
                        cfn, cdeps = self.c.apply_op(op, (), env, getattr(node, "span", None))
                    except EvalError:
                        cfn, cdeps = None, frozenset({"S"})
                    if not cdeps:
                        return self.const(cfn(None, None, self.c.frame)), set(), 1
                if env.primed and not benv.primed:
                    benv = benv.with_(primed=True)
                if env.init and not benv.init:
                    benv = benv.with_(init=True)
                return self.sub(op.body, benv)
        return None

    def _name(self, node: A.Name, env: "Env") -> tuple | None:
        try:
            b = self.c.resolve(node.name, env, node.span)
        except EvalError:
            return None
        return self._binding(b, env, node)

    def _prime(self, node: A.Prime, env: "Env") -> tuple | None:
        if env.primed:
            return None
        return self.sub(node.expr, env.with_(primed=True))

    # ------------------------------------------------------------------ operators

    def _opapp(self, node: A.OpApp, env: "Env") -> tuple | None:
        if node.prefix:
            return None
        name = node.name
        args = node.args
        if name in self.c.builtin_ops and name not in env.locals:
            return self._builtin(name, args, env, node)
        try:
            b = self.c.resolve(name, env, node.span)
        except EvalError:
            return None
        if not args:
            return self._binding(b, env, node)
        if b[0] != "op":
            return None
        op = b[1]
        if op.native is not None:
            nat = op.native
            if nat.special is not None or nat.op_params or nat.impure or nat.fn is None or len(args) != nat.arity:
                return None
            parts = [self.sub(a, env) for a in args]
            self.consts.append(nat.fn)
            src = f"_k[{len(self.consts) - 1}](" + ", ".join(p[0] for p in parts) + ")"
            return src, set().union(*[p[1] for p in parts]), 1 + sum(p[2] for p in parts)
        if op.recursive or op.body is None or len(args) != len(op.params):
            return None
        # inline only when every argument is trivially cheap (re-evaluated by name at each use);
        # otherwise the closure compiler binds the arguments once (call-by-need). Deciding on the
        # syntax, before compiling anything, keeps every argument compiled (and folded) once.
        binds = {}
        for p, a in zip(op.params, args):
            if p.arity > 0:
                binds[p.name] = ("op", self.c.op_arg(a, env, p.arity))
            elif _small(a):
                binds[p.name] = ("expr", a, env)
            else:
                return None
        benv = (op.env or env.with_(locals={})).bind(binds)
        if env.primed and not benv.primed:
            benv = benv.with_(primed=True)
        if env.init and not benv.init:
            benv = benv.with_(init=True)
        return self.sub(op.body, benv)

    def _builtin(self, name: str, args: tuple, env: "Env", node: A.OpApp) -> tuple | None:
        if name in ("UNCHANGED", "ENABLED", "\\X", "SUBSET", "UNION", "[]", "<>", "~>", "-+->", "\\cdot",
                    ":>", "@@", "^", "\\subseteq", "\\subset", "\\supseteq", "\\supset", "<=>", "\\equiv",
                    "TRUE", "FALSE", "/\\", "\\/", "\\times"):
            return None
        parts = [self.sub(a, env) for a in args]
        deps = set().union(*[p[1] for p in parts]) if parts else set()
        size = 1 + sum(p[2] for p in parts)
        srcs = [p[0] for p in parts]
        if len(srcs) == 2:
            a, b = srcs
            if name == "=":
                if _simple_const(args[0]) or _simple_const(args[1]):
                    return f"({a} == {b})", deps, size
                return f"_eq({a}, {b})", deps, size
            if name in ("#", "/="):
                if _simple_const(args[0]) or _simple_const(args[1]):
                    return f"({a} != {b})", deps, size
                return f"(not _eq({a}, {b}))", deps, size
            if name == "\\in":
                return f"_in({a}, {b})", deps, size
            if name == "\\notin":
                return f"(not _in({a}, {b}))", deps, size
            if name == "=>":
                ta = a if _is_boolish(args[0]) else f"_truth({a})"
                tb = b if _is_boolish(args[1]) else f"_truth({b})"
                return f"(not {ta} or {tb})", deps, size
            if name in _ARITH:
                return f"({a} {_ARITH[name]} {b})", deps, size
            if name == "-":
                return f"({a} - {b})", deps, size
            if name == "\\div":
                return f"_div({a}, {b})", deps, size
            if name == "%":
                return f"_mod({a}, {b})", deps, size
            if name == "..":
                return f"_range({a}, {b})", deps, size
            if name == "\\cup":
                return f"_cup({a}, {b})", deps, size
            if name == "\\cap":
                return f"_cap({a}, {b})", deps, size
            if name == "\\":
                return f"_minus({a}, {b})", deps, size
            if name in ("\\o", "\\circ"):
                return f"_concat({a}, {b})", deps, size
            return None
        if len(srcs) == 1:
            a = srcs[0]
            if name in ("~", "\\lnot", "\\neg"):
                return (f"(not {a})" if _is_boolish(args[0]) else f"(not _truth({a}))"), deps, size
            if name in ("-.", "-"):
                return f"(-{a})", deps, size
            if name == "DOMAIN":
                return f"_dom({a})", deps, size
        return None

    def _and(self, node: A.And, env: "Env") -> tuple:
        parts = [self.sub(a, env) for a in node.args]
        src = "(" + " and ".join(f"_truth({p[0]})" if not _is_boolish(a) else p[0]
                                 for p, a in zip(parts, node.args)) + ")"
        return src, set().union(*[p[1] for p in parts]), 1 + sum(p[2] for p in parts)

    def _or(self, node: A.Or, env: "Env") -> tuple:
        parts = [self.sub(a, env) for a in node.args]
        src = "(" + " or ".join(f"_truth({p[0]})" if not _is_boolish(a) else p[0]
                                for p, a in zip(parts, node.args)) + ")"
        return src, set().union(*[p[1] for p in parts]), 1 + sum(p[2] for p in parts)

    def _if(self, node: A.If, env: "Env") -> tuple:
        c, t, f = self.sub(node.cond, env), self.sub(node.then, env), self.sub(node.else_, env)
        test = c[0] if _is_boolish(node.cond) else f"_truth({c[0]})"
        return (f"({t[0]} if {test} else {f[0]})", c[1] | t[1] | f[1], 1 + c[2] + t[2] + f[2])

    def _funcapp(self, node: A.FuncApp, env: "Env") -> tuple:
        f = self.sub(node.fn, env)
        if len(node.args) == 1:
            x = self.sub(node.args[0], env)
            if _ATOM.match(f[0]) and (_ATOM.match(x[0]) or _LIT.match(x[0])):
                # inline lookup for sequences and functions/records held in a slot
                fs, xs = f[0], x[0]
                if _LIT.match(xs) and not xs.startswith("'"):
                    tup = f"{fs}[{int(xs) - 1}] if {fs}.__class__ is tuple and 0 < {xs} <= len({fs}) else " \
                        if int(xs) > 0 else ""
                elif _LIT.match(xs):
                    tup = ""
                else:
                    tup = f"{fs}[{xs} - 1] if {fs}.__class__ is tuple and {xs}.__class__ is int and 0 < {xs} <= len({fs}) else "
                src = f"({tup}{fs}[{xs}] if {fs}.__class__ is _Fn and {xs} in {fs} else _ap({fs}, {xs}))"
                return src, f[1] | x[1], 1 + f[2] + x[2]
            return f"_ap({f[0]}, {x[0]})", f[1] | x[1], 1 + f[2] + x[2]
        parts = [self.sub(a, env) for a in node.args]
        tup = "(" + ", ".join(p[0] for p in parts) + ",)"
        return f"_ap({f[0]}, {tup})", f[1].union(*[p[1] for p in parts]), 1 + f[2] + sum(p[2] for p in parts)

    def _except(self, node: A.Except, env: "Env") -> tuple | None:
        cur = self.sub(node.fn, env)
        src, deps, size = cur
        for u in node.updates:
            keys = []
            for item in u.path:
                if isinstance(item, str):
                    keys.append(repr(item))
                    continue
                parts = [self.sub(x, env) for x in item]
                deps = deps.union(*[p[1] for p in parts])
                size += sum(p[2] for p in parts)
                keys.append(parts[0][0] if len(parts) == 1 else "(" + ", ".join(p[0] for p in parts) + ",)")
            if any(isinstance(x, A.At) for x in A.walk(u.value)):
                kat = self.c.new_slot()
                venv = env.bind({"@": ("slot", kat)})
                vfn, vdeps = self.c.expr(u.value, venv)
                self.consts.append(vfn)
                deps = deps | (set(vdeps) - {kat})
                src = f"_exc_at({src}, ({', '.join(keys)},), _k[{len(self.consts) - 1}], {kat}, s, n, e)"
            else:
                v = self.sub(u.value, env)
                deps = deps | v[1]
                size += v[2]
                if len(keys) == 1:
                    src = f"_set1({src}, {keys[0]}, {v[0]})"
                else:
                    src = f"_exc({src}, ({', '.join(keys)},), {v[0]})"
            size += 1
        return src, deps, size

    def _field(self, node: A.FieldAccess, env: "Env") -> tuple:
        r = self.sub(node.expr, env)
        if _ATOM.match(r[0]):
            fl = repr(node.field)
            return f"({r[0]}[{fl}] if {r[0]}.__class__ is _Fn and {fl} in {r[0]} else _fld({r[0]}, {fl}))", r[1], 1 + r[2]
        return f"_fld({r[0]}, {node.field!r})", r[1], 1 + r[2]

    def _tuple(self, node: A.Tuple, env: "Env") -> tuple:
        parts = [self.sub(a, env) for a in node.elems]
        if not parts:
            return "()", set(), 1
        return ("(" + ", ".join(p[0] for p in parts) + ",)", set().union(*[p[1] for p in parts]),
                1 + sum(p[2] for p in parts))

    def _record(self, node: A.RecordCons, env: "Env") -> tuple:
        parts = [self.sub(x, env) for _, x in node.fields]
        names = tuple(nm for nm, _ in node.fields)
        vals = "(" + ", ".join(p[0] for p in parts) + ",)"
        return f"_rec({names!r}, {vals})", set().union(*[p[1] for p in parts]), 1 + sum(p[2] for p in parts)

    def _setenum(self, node: A.SetEnum, env: "Env") -> tuple:
        parts = [self.sub(a, env) for a in node.elems]
        if not parts:
            return "_frozenset()", set(), 1
        return ("_frozenset((" + ", ".join(p[0] for p in parts) + ",))", set().union(*[p[1] for p in parts]),
                1 + sum(p[2] for p in parts))

    # ------------------------------------------------------------------ binders (one simple name)

    def _one_bound(self, bounds: tuple, env: "Env") -> tuple | None:
        if len(bounds) != 1 or bounds[0].tuple or len(bounds[0].names) != 1 or bounds[0].domain is None:
            return None
        b = bounds[0]
        d = self.sub(b.domain, env)
        k = self.c.new_slot()
        return d, k, env.bind({b.names[0]: ("slot", k)})

    def _bounds(self, bounds: tuple, env: "Env") -> tuple | None:
        """``for`` clauses binding every name of ``bounds`` (no tuple patterns): ``(clauses, deps,
        size, env, slots)``. Each domain is evaluated in the outer environment, as TLA+ scopes it."""
        if not bounds or any(b.domain is None for b in bounds):
            return None
        clauses: list[str] = []
        deps: frozenset = frozenset()
        size = 0
        slots: list[int] = []
        binds: dict = {}
        for b in bounds:
            dsrc, ddeps, dsize = self.sub(b.domain, env)
            deps |= ddeps
            size += dsize
            if b.tuple:  # <<x, y>> \in S: Python unpacks the tuple (a mismatch is a fault)
                ks = []
                for nm in b.names:
                    k = self.c.new_slot()
                    slots.append(k)
                    ks.append(k)
                    binds[nm] = ("slot", k)
                clauses.append(f"for ({', '.join(f'e[{k}]' for k in ks)},) in _tups(_en({dsrc}), {len(ks)})")
                continue
            for nm in b.names:
                k = self.c.new_slot()
                slots.append(k)
                binds[nm] = ("slot", k)
                clauses.append(f"for e[{k}] in _en({dsrc})")
        return " ".join(clauses), deps, size, env.bind(binds), slots

    def _quant(self, node: A.Quant, env: "Env") -> tuple | None:
        r = self._bounds(node.bounds, env)
        if r is None:
            return None
        clauses, ddeps, dsize, benv, slots = r
        body = self.sub(node.body, benv)
        fn = "any" if node.kind == "E" else "all"
        test = body[0] if _is_boolish(node.body) else f"_truth({body[0]})"
        src = f"{fn}({test} {clauses})"
        return src, (body[1] - set(slots)) | ddeps, 1 + dsize + body[2]

    def _setfilter(self, node: A.SetFilter, env: "Env") -> tuple | None:
        r = self._one_bound((node.bound,), env)
        if r is None:
            return None
        (dsrc, ddeps, dsize), k, benv = r
        if _may_be_infinite(node.bound.domain) or _may_be_large(node.bound.domain):
            return None  # the closure compiler keeps such filters lazy
        p = self.sub(node.pred, benv)
        test = p[0] if _is_boolish(node.pred) else f"_truth({p[0]})"
        src = f"_frozenset([e[{k}] for e[{k}] in _en({dsrc}) if {test}])"
        return src, (p[1] - {k}) | ddeps, 1 + dsize + p[2]

    def _setmap(self, node: A.SetMap, env: "Env") -> tuple | None:
        r = self._bounds(node.bounds, env)
        if r is None:
            return None
        clauses, ddeps, dsize, benv, slots = r
        x = self.sub(node.expr, benv)
        src = f"_frozenset([{x[0]} {clauses}])"
        return src, (x[1] - set(slots)) | ddeps, 1 + dsize + x[2]

    def _funccons(self, node: A.FuncCons, env: "Env") -> tuple | None:
        if _may_be_infinite(node.bounds[0].domain if node.bounds else None):
            return None
        r = self._one_bound(node.bounds, env)
        if r is None:
            return None
        (dsrc, ddeps, dsize), k, benv = r
        x = self.sub(node.body, benv)
        src = f"_mkfn({{e[{k}]: {x[0]} for e[{k}] in _en({dsrc})}})"
        return src, (x[1] - {k}) | ddeps, 1 + dsize + x[2]


def _fault(exc: BaseException, span: Any) -> EvalError:
    if isinstance(exc, ValueFault):
        return EvalError(str(exc), span)
    if isinstance(exc, KeyError):
        return EvalError(f"{exc} is not in the domain of the function", span)
    if isinstance(exc, ZeroDivisionError):
        return EvalError("division by zero", span)
    return EvalError(f"cannot evaluate this expression: {exc}", span)


def _simple_const(node: Any) -> bool:
    return isinstance(node, (A.Number, A.String))


def _is_boolish(node: Any) -> bool:
    if isinstance(node, (A.And, A.Or, A.Bool, A.Quant)):
        return True
    return isinstance(node, A.OpApp) and not node.prefix and node.name in (
        "=", "#", "/=", "\\in", "\\notin", "<", ">", "<=", ">=", "~", "\\lnot", "\\neg", "=>")


def _small(node: Any) -> bool:
    """Cheap enough to re-evaluate at every use (call-by-name): a few names, field accesses and
    function applications, no operator calls."""
    nodes = list(A.walk(node))
    return len(nodes) <= 4 and all(isinstance(x, (A.Name, A.Number, A.String, A.FieldAccess, A.FuncApp))
                                   for x in nodes)


def _may_be_large(node: Any) -> bool:
    """SUBSET, function and record sets or products: possibly too large to enumerate."""
    for x in A.walk(node):
        if isinstance(x, (A.FuncSet, A.RecordSet)):
            return True
        if isinstance(x, A.OpApp) and x.name in ("SUBSET", "\\X", "\\times"):
            return True
    return False


def _may_be_infinite(node: Any) -> bool:
    if node is None:
        return True
    for x in A.walk(node):
        if isinstance(x, (A.Name, A.OpApp)) and x.name in ("Nat", "Int", "Real", "STRING", "Seq", "Any"):
            return True
    return False


def _slow_set_ops() -> dict[str, Callable]:
    from specula.tla.values import UnionSet, is_set, to_frozenset

    def fin(x: Any) -> bool:
        return x.finite if isinstance(x, LazySet) else True

    def cup(a: Any, b: Any) -> Any:
        if not (is_set(a) and is_set(b)):
            raise ValueFault(f"\\cup applied to {format_value(a)} and {format_value(b)}")
        if a.__class__ is frozenset and b.__class__ is frozenset:
            return a | b
        return UnionSet(a, b, "cup")

    def cap(a: Any, b: Any) -> Any:
        if not (is_set(a) and is_set(b)):
            raise ValueFault(f"\\cap applied to {format_value(a)} and {format_value(b)}")
        if a.__class__ is frozenset:
            return frozenset(x for x in a if x in b)
        if b.__class__ is frozenset:
            return frozenset(x for x in b if x in a)
        return UnionSet(a, b, "cap")

    def minus(a: Any, b: Any) -> Any:
        if not (is_set(a) and is_set(b)):
            raise ValueFault(f"\\ applied to {format_value(a)} and {format_value(b)}")
        if a.__class__ is frozenset:
            return frozenset(x for x in a if x not in b)
        return UnionSet(a, b, "minus")

    return {"\\cup": cup, "\\cap": cap, "\\": minus}


# ============================================================================ actions as source


class _Abort(Exception):
    """The action uses a construct the action generator does not handle: keep the CPS closures."""


class ActionGenerator:
    """Generates one Python function per action of Next (successor enumeration only).

    Which primed variables are assigned is known statically along each path of the generated
    code, so ``x' = e`` becomes an assignment or a comparison at generation time, ``x' \\in S`` a
    ``for`` loop, disjunctions separate code paths (the continuation is generated once per path).
    Python faults inside the generated function re-run the action through the closures, which
    report the precise span.
    """

    MAX_LINES = 4000

    def __init__(self, compiler: "Compiler") -> None:
        self.c = compiler
        self.g = compiler.gen
        self.lines = 0
        self.ntmp = 0

    def build(self, node: Any, env: "Env", nvars: int, var_names: tuple, out: list, idx: int,
              name: str, span: Any, slow: Callable, init: bool = False) -> Callable | None:
        """The generated successor function of one action (``init``: of the initial predicate,
        whose states are appended without an action index)."""
        if self.g is None:
            return None
        self.lines = 0
        from specula.tla.compile import Unassigned

        g = self.g
        errs: list = []

        def final(assigned: frozenset, ind: int) -> list[str]:
            pad = "    " * ind
            missing = [i for i in range(nvars) if i not in assigned]
            if missing:
                what = (f"the initial predicate does not assign a value to variable {var_names[missing[0]]}" if init
                        else f"action {name} does not assign a value to variable {var_names[missing[0]]}'")
                g.consts.append(Unassigned(what, span))
                return [f"{pad}raise _k[{len(g.consts) - 1}]"]
            if init:
                return [f"{pad}_out[0].append(tuple(n))"]
            return [f"{pad}_out[0].append(({idx}, tuple(n)))"]

        try:
            body = self.act(node, env, frozenset(), final, 2)
        except (_Abort, EvalError, RecursionError):
            return None
        g.consts.append(slow)
        ks = len(g.consts) - 1
        g.consts.append(span)
        # on a Python-level fault, run the closures (they raise with the precise span); if they
        # do not fail, report the fault at the action
        src = ["def _act(s, n, e):", "    try:"] + (body or ["        pass"]) + [
            "    except _FAULTS as _x:",
            "        _mark = len(_out[0])",
            f"        _k[{ks}](s, [_U] * {nvars}, e)",
            "        del _out[0][_mark:]",
            f"        raise _fault(_x, _k[{ks + 1}]) from None",
        ]
        ns = g.ns
        ns["_out"] = out
        ns["_FAULTS"] = _FAULTS
        ns["_fault"] = _fault
        ns["_qo"] = _qo
        loc: dict = {}
        try:
            exec(compile("\n".join(src), f"<action {name}>", "exec"), ns, loc)  # noqa: S102
        except (SyntaxError, RecursionError):
            return None
        return loc["_act"]

    # ------------------------------------------------------------------ nodes

    def expr(self, node: Any, env: "Env") -> str:
        return self.g.sub(node, env)[0]

    def act(self, node: Any, env: "Env", assigned: frozenset, k: Callable, ind: int) -> list[str]:
        self.lines += 1
        if self.lines > self.MAX_LINES:
            raise _Abort
        pad = "    " * ind
        c = self.c
        if isinstance(node, A.And):
            return self._chain(list(node.args), env, assigned, k, ind)
        if isinstance(node, A.Or):
            out: list[str] = []
            for a in node.args:
                out += self.act(a, env, assigned, k, ind)
            return out
        if isinstance(node, A.Bool):
            return k(assigned, ind) if node.value else []
        if isinstance(node, A.Quant):
            if node.kind != "E":
                from specula.tla.compile import PRIME

                if env.init:
                    # in Init, variables read are assigned earlier on this path (else it assigns)
                    vs = c.state_vars(node, env)
                    if vs is None or not vs <= assigned:
                        raise _Abort
                elif PRIME in c.expr(node, env)[1]:
                    raise _Abort  # \A over actions: conjunction over the elements (closures)
                if not node.bounds[0].tuple and c.may_branch(node.body, env):
                    # state-level, but TLC takes each element's body as an action: every way it
                    # holds (a true disjunct, an \E witness) runs the rest of the action again
                    var = self._tmp()
                    rep = self._tmp()
                    return self._count(node, env, var, ind) + [f"{pad}for {rep} in range({var}):"] + (
                        k(assigned, ind + 1) or [pad + "    pass"])
                return self._guard(node, env, assigned, k, ind)
            lines: list[str] = []
            cur = env
            depth = ind
            for b in node.bounds:
                if b.tuple or b.domain is None:
                    raise _Abort
                dsrc = self.expr(b.domain, env)
                for nm in b.names:
                    slot = c.new_slot()
                    lines.append("    " * depth + f"for e[{slot}] in _qo({dsrc}):")
                    cur = cur.bind({nm: ("slot", slot)})
                    depth += 1
            return lines + self.act(node.body, cur, assigned, k, depth)
        if isinstance(node, A.If):
            cond = self.expr(node.cond, env)
            return ([f"{pad}if _truth({cond}):"] + (self.act(node.then, env, assigned, k, ind + 1) or [pad + "    pass"])
                    + [f"{pad}else:"] + (self.act(node.else_, env, assigned, k, ind + 1) or [pad + "    pass"]))
        if isinstance(node, A.Case):
            lines = []
            for j, (gd, v) in enumerate(node.arms):
                kw = "if" if j == 0 else "elif"
                lines.append(f"{pad}{kw} {self.expr(gd, env)} is True:")
                lines += self.act(v, env, assigned, k, ind + 1) or [pad + "    pass"]
            lines.append(f"{pad}else:")
            if node.other is not None:
                lines += self.act(node.other, env, assigned, k, ind + 1) or [pad + "    pass"]
            else:
                err = EvalError("no CASE arm is true and there is no OTHER", node.span)
                self.g.consts.append(err)
                lines.append(f"{pad}    raise _k[{len(self.g.consts) - 1}]")
            return lines
        if isinstance(node, A.Let):
            lenv, lazy = c.let_env(node, env)
            return [f"{pad}e[{s}] = _U" for s in lazy] + self.act(node.body, lenv, assigned, k, ind)
        if isinstance(node, A.BoxAction):
            return self.act(A.Or((node.action, A.OpApp("UNCHANGED", (node.sub,), span=node.span)), span=node.span),
                            env, assigned, k, ind)
        if isinstance(node, A.OpApp):
            return self._opapp(node, env, assigned, k, ind)
        if isinstance(node, A.Name):
            b = c.resolve(node.name, env, node.span)
            if b[0] == "op" and b[1].native is None and b[1].arity == 0 and not b[1].recursive and b[1].body is not None:
                return self._inline(b[1], (), env, assigned, k, ind, node)
            if b[0] == "expr":
                benv = b[2].with_(primed=True) if env.primed else b[2]
                if env.init and not benv.init:
                    benv = benv.with_(init=True)
                return self.act(b[1], benv, assigned, k, ind)
            return self._guard(node, env, assigned, k, ind)
        if isinstance(node, (A.AngleAction, A.Prime)):
            raise _Abort
        if isinstance(node, A.FuncApp) and c.funcdef_of(node, env) is not None:
            raise _Abort  # f[a] with f[x \in S] == body splitting: body as the action (closures)
        return self._guard(node, env, assigned, k, ind)

    def _tmp(self) -> str:
        self.ntmp += 1
        return f"_c{self.ntmp}"

    def _count(self, node: Any, env: "Env", var: str, ind: int) -> list[str]:
        """Lines setting ``var`` to the number of ways TLC's action evaluation satisfies the
        state-level ``node`` (disjuncts and ``\\E`` witnesses add, conjuncts and ``\\A``
        elements multiply; anything else is a guard counting 1 or 0)."""
        self.lines += 1
        if self.lines > self.MAX_LINES:
            raise _Abort
        c = self.c
        pad = "    " * ind
        if env.primed:
            raise _Abort
        if not c.may_branch(node, env):
            test = self.expr(node, env)
            if not _is_boolish(node):
                test = f"_truth({test})"
            return [f"{pad}{var} = 1 if {test} else 0"]
        if isinstance(node, (A.And, A.Or)):
            t = self._tmp()
            conj = isinstance(node, A.And)
            lines = [f"{pad}{var} = {1 if conj else 0}"]
            for a in node.args:
                if conj:
                    lines += [f"{pad}if {var}:"] + self._count(a, env, t, ind + 1) + [f"{pad}    {var} *= {t}"]
                else:
                    lines += self._count(a, env, t, ind) + [f"{pad}{var} += {t}"]
            return lines
        if isinstance(node, A.Quant):
            if any(b.tuple or b.domain is None for b in node.bounds):
                raise _Abort
            names = [(nm, b) for b in node.bounds for nm in b.names]
            if node.kind == "A" and len(names) > 1:
                nm, b = names[0]
                first = A.Bound((nm,), b.domain, span=b.span)
                rest = tuple(A.Bound((nm2,), b2.domain, span=b2.span) for nm2, b2 in names[1:])
                inner = A.Quant("A", rest, node.body, span=node.span)
                return self._count(A.Quant("A", (first,), inner, span=node.span), env, var, ind)
            t = self._tmp()
            lines = [f"{pad}{var} = {1 if node.kind == 'A' else 0}"]
            cur, depth = env, ind
            for nm, b in names:
                dsrc = self.expr(b.domain, env)
                slot = c.new_slot()
                lines.append("    " * depth + f"for e[{slot}] in _qo({dsrc}):")
                cur = cur.bind({nm: ("slot", slot)})
                depth += 1
            inner_pad = "    " * depth
            lines += self._count(node.body, cur, t, depth)
            if node.kind == "A":
                lines += [f"{inner_pad}{var} *= {t}", f"{inner_pad}if not {var}:", f"{inner_pad}    break"]
            else:
                lines += [f"{inner_pad}{var} += {t}"]
            return lines
        if isinstance(node, A.If):
            return ([f"{pad}if _truth({self.expr(node.cond, env)}):"] + self._count(node.then, env, var, ind + 1)
                    + [f"{pad}else:"] + self._count(node.else_, env, var, ind + 1))
        if isinstance(node, A.Case):
            lines = []
            for j, (gd, v) in enumerate(node.arms):
                kw = "if" if j == 0 else "elif"
                lines.append(f"{pad}{kw} {self.expr(gd, env)} is True:")
                lines += self._count(v, env, var, ind + 1)
            lines.append(f"{pad}else:")
            if node.other is not None:
                lines += self._count(node.other, env, var, ind + 1)
            else:
                err = EvalError("no CASE arm is true and there is no OTHER", node.span)
                self.g.consts.append(err)
                lines.append(f"{pad}    raise _k[{len(self.g.consts) - 1}]")
            return lines
        if isinstance(node, A.Let):
            lenv, lazy = c.let_env(node, env)
            return [f"{pad}e[{sl}] = _U" for sl in lazy] + self._count(node.body, lenv, var, ind)
        if isinstance(node, A.OpApp) and not node.prefix and node.name == "=>" and len(node.args) == 2 \
                and "=>" not in env.locals:
            return ([f"{pad}if {self.expr(node.args[0], env)} is True:"] + self._count(node.args[1], env, var, ind + 1)
                    + [f"{pad}else:", f"{pad}    {var} = 1"])
        if isinstance(node, (A.OpApp, A.Name)) and not getattr(node, "prefix", ()):
            args = node.args if isinstance(node, A.OpApp) else ()
            if isinstance(node, A.OpApp) and node.name in c.builtin_ops and node.name not in env.locals:
                return self._count_guard(node, env, var, ind)  # e.g. ~, <=>: the operands are values
            b = c.resolve(node.name, env, node.span)
            if args:
                b = c.as_op(b)
            if b[0] == "expr" and not args:
                benv = b[2].with_(init=True) if env.init and not b[2].init else b[2]
                return self._count(b[1], benv, var, ind)
            if b[0] != "op":
                raise _Abort
            op = b[1]
            if op.native is not None or op.recursive or op.body is None or len(args) != len(op.params):
                raise _Abort
            if not args and c.constant_level(node, env):
                test = self.expr(node, env)
                return [f"{pad}{var} = 1 if _truth({test}) else 0"]
            benv, lazy = self._op_env(op, args, env)
            return [f"{pad}e[{sl}] = _U" for sl in lazy] + self._count(op.body, benv, var, ind)
        raise _Abort

    def _op_env(self, op: Any, args: tuple, env: "Env") -> tuple["Env", list[int]]:
        """The environment of an inlined operator body (arguments bound, primed/init mode
        carried) and the argument slots to reset before it runs."""
        binds = {}
        lazy = []
        for p, a in zip(op.params, args):
            b = self.c.arg_binding(p, a, env)
            binds[p.name] = b
            if b[0] == "lazy":
                lazy.append(b[1])
        benv = (op.env or env.with_(locals={})).bind(binds)
        if env.primed and not benv.primed:
            benv = benv.with_(primed=True)
        if env.init and not benv.init:
            benv = benv.with_(init=True)
        return benv, lazy

    def _count_guard(self, node: Any, env: "Env", var: str, ind: int) -> list[str]:
        test = self.expr(node, env)
        if not _is_boolish(node):
            test = f"_truth({test})"
        return [f"{'    ' * ind}{var} = 1 if {test} else 0"]

    def _chain(self, args: list, env: "Env", assigned: frozenset, k: Callable, ind: int) -> list[str]:
        if not args:
            return k(assigned, ind)
        first, rest = args[0], args[1:]
        return self.act(first, env, assigned, lambda a, i: self._chain(rest, env, a, k, i), ind)

    def _guard(self, node: Any, env: "Env", assigned: frozenset, k: Callable, ind: int) -> list[str]:
        if env.primed:
            raise _Abort
        src = self.expr(node, env)
        pad = "    " * ind
        test = src if _is_boolish(node) else f"_truth({src})"
        return [f"{pad}if {test}:"] + (k(assigned, ind + 1) or [pad + "    pass"])

    def _inline(self, op: Any, args: tuple, env: "Env", assigned: frozenset, k: Callable, ind: int,
                node: Any) -> list[str]:
        c = self.c
        if len(args) != len(op.params):
            raise _Abort
        if not args and c.constant_level(node, env):
            return self._guard(node, env, assigned, k, ind)
        benv, lazy = self._op_env(op, args, env)
        pad = "    " * ind
        return [f"{pad}e[{s}] = _U" for s in lazy] + self.act(op.body, benv, assigned, k, ind)

    def _opapp(self, node: A.OpApp, env: "Env", assigned: frozenset, k: Callable, ind: int) -> list[str]:
        c = self.c
        name = node.name
        pad = "    " * ind
        if node.prefix:
            if c.subexpr(node, env) is not None:
                raise _Abort  # Def!2 may assign variables: the closures take it as an action
            op, _ = c.instance_op(node, env)
            if op.native is not None or op.recursive or op.body is None:
                return self._guard(node, env, assigned, k, ind)
            return self._inline(op, node.args, env, assigned, k, ind, node)
        if name not in env.locals:
            if name in ("=", "\\in") and len(node.args) == 2:
                i = c.target_var(node.args[0], env)
                if i is not None:
                    rhs = self.expr(node.args[1], env)
                    if name == "=":
                        if i in assigned:
                            return [f"{pad}if _eq(n[{i}], {rhs}):"] + (k(assigned, ind + 1) or [pad + "    pass"])
                        return [f"{pad}n[{i}] = {rhs}"] + k(assigned | {i}, ind)
                    if i in assigned:
                        return [f"{pad}if _in(n[{i}], {rhs}):"] + (k(assigned, ind + 1) or [pad + "    pass"])
                    return [f"{pad}for n[{i}] in _qo({rhs}):"] + (k(assigned | {i}, ind + 1) or [pad + "    pass"])
                return self._guard(node, env, assigned, k, ind)
            if name == "UNCHANGED":
                vs = c.unchanged_vars(node.args[0], env)
                if vs is None:
                    return self._guard(node, env, assigned, k, ind)
                lines = []
                conds = []
                cur = set(assigned)
                for i in vs:
                    if i in cur:
                        conds.append(f"_eq(n[{i}], s[{i}])")
                    else:
                        lines.append(f"{pad}n[{i}] = s[{i}]")
                        cur.add(i)
                if conds:
                    return lines + [f"{pad}if {' and '.join(conds)}:"] + (k(frozenset(cur), ind + 1) or [pad + "    pass"])
                return lines + k(frozenset(cur), ind)
            if name == "=>" and len(node.args) == 2:
                cond = self.expr(node.args[0], env)
                return ([f"{pad}if {cond} is True:"] + (self.act(node.args[1], env, assigned, k, ind + 1) or [pad + "    pass"])
                        + [f"{pad}else:"] + (k(assigned, ind + 1) or [pad + "    pass"]))
            if name in c.builtin_ops:
                return self._guard(node, env, assigned, k, ind)
        b = c.resolve(name, env, node.span)
        if node.args:
            b = c.as_op(b)
        if b[0] == "op":
            op = b[1]
            if op.native is not None or op.recursive or op.body is None:
                return self._guard(node, env, assigned, k, ind)
            return self._inline(op, node.args, env, assigned, k, ind, node)
        if b[0] == "expr" and not node.args:
            benv = b[2].with_(primed=True) if env.primed else b[2]
            if env.init and not benv.init:
                benv = benv.with_(init=True)
            return self.act(b[1], benv, assigned, k, ind)
        return self._guard(node, env, assigned, k, ind)


def _qo(S: Any) -> Any:
    from specula.tla.values import quick_order

    try:
        return quick_order(enumerate_set(S))
    except ValueFault as exc:
        raise EvalError(str(exc), None) from None
