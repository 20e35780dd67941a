"""Python source generation for expression trees (the fast path of the compiler).

A maximal subtree of "simple" nodes (variables, bound names, constants, function application,
records, tuples, arithmetic, comparisons, membership, boolean connectives, IF, quantifiers and
set/function constructors over one bound name...) becomes ONE Python function generated from
source, e.g. ``<<b, v>> \\in votes[a]`` becomes ``(e[3], e[4]) in _ap(s[0], e[2])``, instead
of a tree of closures calling each other. Nodes without a generator are compiled by the closure
compiler and called from the generated code (``_k[i](s, n, e)``), and their own subtrees may be
generated again. Python exceptions from the generated code become ``EvalError`` with the span
of the generated root.

Built-in value operators come from the registry (``specula/tla/operators.py``): an operator's
fast template is emitted under its type guards, and its strict implementation is called when a
guard fails, so generated code and closures agree on values and on errors.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile.env import UNSET, STATE_ONLY, PRIME_ONLY, sizeable
from specula.tla.compile.gen_except import Excepts
from specula.tla.compile.gen_loops import Loops, is_boolish, may_be_infinite, may_be_large
from specula.tla import builtins as B
from specula.tla.operators import Operator, operator, strict_native
from specula.tla.values import (
    Fn,
    LazyFn,
    LazySet,
    ModelValue,
    ValueFault,
    apply_fn,
    enumerate_set,
    fn_set1,
    fn_setm,
    format_value,
    make_fn,
    type_name,
)

if TYPE_CHECKING:
    from specula.tla.compile.compiler import Compiler
    from specula.tla.compile.env import Env

__all__ = ["Generator", "FAULTS", "fault", "is_boolish"]

_ATOM = re.compile(r"^[sen]\[\d+\]$")
_LIT = re.compile(r"^('[^'\\]*'|-?\d+)$")
FAULTS = (TypeError, KeyError, IndexError, ValueError, AttributeError, ZeroDivisionError, ValueFault)


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




def _en(S: Any) -> Any:
    if S.__class__ is frozenset:
        return S
    return enumerate_set(S)


def _truth(v: Any, what: str = "a condition") -> bool:
    """``v`` when it is a boolean (``what`` names the place, as the closure compiler's ``truth``)."""
    if v is True or v is False:
        return v
    raise ValueFault(f"{what} must be a boolean, found {type_name(v)} {format_value(v)}")









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


def _exc2(f: Any, k0: Any, k1: Any, v: Any) -> Any:
    """``_exc`` for a path of two keys (``[f EXCEPT ![p][q] = v]``)."""
    c = f.__class__
    if c is tuple:
        if k0.__class__ is int and 0 < k0 <= len(f):
            return f[: k0 - 1] + (_set1(f[k0 - 1], k1, v),) + f[k0:]
        return f
    if c is Fn:
        if k0 in f:
            return fn_set1(f, k0, _set1(dict.__getitem__(f, k0), k1, v))
        return f
    return _exc(f, (k0, k1), v)


def _exc_at(f: Any, keys: tuple, vf: Callable, kat: int, s: Any, n: Any, e: list) -> Any:
    k = keys[0]
    c = f.__class__
    if c is tuple:
        if k.__class__ is not int or not 0 < k <= len(f):
            return f
        old = f[k - 1]
        if len(keys) == 1:
            e[kat] = old
            v = vf(s, n, e)
        else:
            v = _exc_at(old, keys[1:], vf, kat, s, n, e)
        return f[: k - 1] + (v,) + f[k:]
    if c is Fn:
        if k not in f:
            return f
        old = dict.__getitem__(f, k)
        if len(keys) == 1:
            e[kat] = old
            v = vf(s, n, e)
        else:
            v = _exc_at(old, keys[1:], vf, kat, s, n, e)
        return fn_set1(f, k, v)
    if isinstance(f, LazyFn):
        return _exc_at(f.materialize(), keys, vf, kat, s, n, e)
    raise ValueFault(f"EXCEPT applied to {type_name(f)} {format_value(f)}, which is not a function")


def _exget(f: Any, keys: tuple, e: list, kat: int) -> bool:
    """Whether the path ``keys`` of ``[f EXCEPT !...]`` is in f's domains (as ``_exc_at`` walks it);
    if so the value there (``@``) is stored in ``e[kat]``."""
    for k in keys:
        if isinstance(f, LazyFn):
            f = f.materialize()
        c = f.__class__
        if c is tuple:
            if k.__class__ is not int or not 0 < k <= len(f):
                return False
            f = f[k - 1]
        elif c is Fn:
            if k not in f:
                return False
            f = dict.__getitem__(f, k)
        else:
            raise ValueFault(f"EXCEPT applied to {type_name(f)} {format_value(f)}, which is not a function")
    e[kat] = f
    return True


def _exget1(f: Any, k: Any, e: list, kat: int) -> bool:
    """``_exget`` for a path of one key."""
    c = f.__class__
    if c is tuple:
        if k.__class__ is int and 0 < k <= len(f):
            e[kat] = f[k - 1]
            return True
        return False
    if c is Fn:
        if k in f:
            e[kat] = dict.__getitem__(f, k)
            return True
        return False
    return _exget(f, (k,), e, kat)


def _exget2(f: Any, k0: Any, k1: Any, e: list, kat: int) -> bool:
    """``_exget`` for a path of two keys."""
    c = f.__class__
    if c is tuple:
        if k0.__class__ is not int or not 0 < k0 <= len(f):
            return False
        return _exget1(f[k0 - 1], k1, e, kat)
    if c is Fn:
        if k0 not in f:
            return False
        return _exget1(dict.__getitem__(f, k0), k1, e, kat)
    return _exget(f, (k0, k1), e, kat)


def _exput2(f: Any, k0: Any, k1: Any, v: Any) -> Any:
    """``_exput`` for a path of two keys."""
    c = f.__class__
    if c is tuple:
        return f[: k0 - 1] + (_exput1(f[k0 - 1], k1, v),) + f[k0:]
    if c is Fn:
        return fn_set1(f, k0, _exput1(dict.__getitem__(f, k0), k1, v))
    return _exput(f, (k0, k1), v)


def _exput1(f: Any, k: Any, v: Any) -> Any:
    """``_exput`` for a path of one key."""
    if f.__class__ is tuple:
        return f[: k - 1] + (v,) + f[k:]
    return _exput(f, (k,), v)


def _exput(f: Any, keys: tuple, v: Any) -> Any:
    """``f`` with the value at the path ``keys`` (checked by ``_exget``) replaced by ``v``."""
    k = keys[0]
    if isinstance(f, LazyFn):
        f = f.materialize()
    if f.__class__ is tuple:
        return f[: k - 1] + ((v if len(keys) == 1 else _exput(f[k - 1], keys[1:], v)),) + f[k:]
    return fn_set1(f, k, v if len(keys) == 1 else _exput(dict.__getitem__(f, k), keys[1:], v))


def _xg(f: Any, k: Any) -> Any:
    """The value at ``k`` of the function ``f`` for an EXCEPT on it, ``_U`` when k is outside
    f's domain (the clause then leaves f as it is)."""
    c = f.__class__
    if c is tuple:
        if k.__class__ is int and 0 < k <= len(f):
            return f[k - 1]
        return UNSET
    if c is Fn:
        return dict.get(f, k, UNSET)
    if isinstance(f, LazyFn):
        return _xg(f.materialize(), k)
    raise ValueFault(f"EXCEPT applied to {type_name(f)} {format_value(f)}, which is not a function")


def _exm(f: Any, ks: tuple, vs: tuple) -> Any:
    """``f`` with the values ``vs`` at the keys ``ks`` (distinct values) that are in its domain:
    several clauses of one EXCEPT on one function, one copy (and one hash) for them all."""
    c = f.__class__
    if c is Fn:
        return fn_setm(f, ks, vs)
    if c is tuple:
        r = list(f)
        n = len(f)
        for k, v in zip(ks, vs):
            if k.__class__ is int and 0 < k <= n:
                r[k - 1] = v
        return tuple(r)
    if isinstance(f, LazyFn):
        return _exm(f.materialize(), ks, vs)
    raise ValueFault(f"EXCEPT applied to {type_name(f)} {format_value(f)}, which is not a function")


def _exa(v: Any, e: list, k: int) -> Any:
    """``v`` (an EXCEPT's ``@``), stored in the slot ``e[k]`` too."""
    e[k] = v
    return v


def _cup1(S: Any, x: Any, strict: Callable, left: bool) -> Any:
    """``S \\cup {x}`` (``{x} \\cup S`` when ``left``) when x is not known to be in S."""
    if S.__class__ is frozenset:
        return S.union((x,))  # (no one-element set built first)
    return strict(frozenset((x,)), S) if left else strict(S, frozenset((x,)))


class _TupleSetters(dict):
    """``_tu[len(t)][k](t, v)``: the tuple t with v at its k-th place (1 <= k <= len(t)), built
    as one tuple (``t[:k - 1] + (v,) + t[k:]`` builds five): one function per length and place,
    generated when a length is first met."""

    def __missing__(self, n: int) -> tuple:
        if n > 64:
            fns: tuple = (None,) + tuple(_slice_setter(k) for k in range(1, n + 1))
        else:
            src = "\n".join(
                f"def _u{k}(t, v):\n    return ({', '.join('v' if i == k - 1 else f't[{i}]' for i in range(n))},)"
                for k in range(1, n + 1))
            ns: dict = {}
            exec(compile(src, "<tuple setters>", "exec"), ns)  # noqa: S102 - fixed template
            fns = (None,) + tuple(ns[f"_u{k}"] for k in range(1, n + 1))
        self[n] = fns
        return fns


def _slice_setter(k: int) -> Callable:
    return lambda t, v: t[:k - 1] + (v,) + t[k:]


_tuple_setters = _TupleSetters()


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


_REC_MEMO_MAX = 4096  # records remembered per site (the memo is emptied when it is full)


def _recm_source(n: int) -> str:
    """The source of ``_recm<n>(memo, names, vals)``: ``_rec`` hash-consed per construction site.
    A record built again from the same field values is the one built first, its hash already
    computed. ``memo`` maps the values to (values, record); a hit counts only when each value is
    the stored one or an equal integer or string: Python's ``1 == True`` and ``{1} == {TRUE}``
    (or a lazy set equal to a finite one) never make one TLA+ value stand for another. The
    check is unrolled (``all(map(is_, ...))`` costs as much as building the record)."""
    same = " and ".join(f"((a := h[{i}]) is (b := vals[{i}]) or (c := a.__class__) is b.__class__ and "
                        f"(c is int or c is str))" for i in range(n))
    return (f"def _recm{n}(memo, names, vals):\n"
            f"    try:\n"
            f"        hit = memo.get(vals)\n"
            f"    except Exception:\n"  # (a value whose hash fails: an infinite lazy function)
            f"        return _rec(names, vals)\n"
            f"    if hit is not None:\n"
            f"        h = hit[0]\n"
            f"        if {same}:\n"
            f"            return hit[1]\n"
            f"    r = _rec(names, vals)\n"
            f"    if len(memo) >= {_REC_MEMO_MAX}:\n"
            f"        memo.clear()\n"
            f"    memo[vals] = (vals, r)\n"
            f"    return r\n")


def _recm(n: int) -> Callable:
    """The hash-consing record constructor of ``n`` fields (``_recm_source``)."""
    ns: dict = {"_rec": _rec}
    exec(compile(_recm_source(n), "<record memo>", "exec"), ns)  # noqa: S102 - fixed template
    return ns[f"_recm{n}"]


def _seq_fast() -> dict:
    out = {
        B._head: "({t}[0] if ({t} := {x}).__class__ is tuple and {t} else {k}({t}))",
        B._tail: "({t}[1:] if ({t} := {x}).__class__ is tuple and {t} else {k}({t}))",
        B._len: "(len({t}) if ({t} := {x}).__class__ is tuple else {k}({t}))",
    }
    out[B.NATIVES["Append"].fn] = \
        "({t} + ({v},) if (({t} := {x}).__class__ is tuple) & (({v} := {y}) is {v}) else {k}({t}, {v}))"
    out[B.NATIVES["Cardinality"].fn] = "(len({t}) if ({t} := {x}).__class__ is frozenset else {k}({t}))"
    return out


_SEQ_FAST = _seq_fast()

_HELPERS = {
    "_ap": _ap, "_tups": _tups, "_fld": _fld, "_eq": operator("=", 2).strict, "_in": operator("\\in", 2).strict,
    "_en": _en, "_truth": _truth, "_rec": _rec, "_st": _st, "_set1": _set1, "_exc": _exc, "_exc_at": _exc_at, "_exget": _exget, "_exput": _exput, "_exget1": _exget1, "_exput1": _exput1,
    "_exc2": _exc2, "_cup1": _cup1, "_exget2": _exget2, "_exput2": _exput2, "_xg": _xg, "_exm": _exm, "_exa": _exa, "_fs1": fn_set1,
    "_mkfn": make_fn, "_frozenset": frozenset, "_Fn": Fn, "_LazyFn": LazyFn, "_MV": ModelValue,
    "_tu": _tuple_setters,
}
# built-ins the generator leaves to the closure compiler (not functions of their operands' values)
_NOT_GENERATED = frozenset({"UNCHANGED", "ENABLED", "\\X", "\\times", "[]", "<>", "~>", "-+->", "\\cdot",
                            "TRUE", "FALSE", "/\\", "\\/"})
_GUARD_FREE = re.compile(r"^(True|False)$")
# nodes whose state-level instances an action body remembers in locals (Generator._memo)
_MEMO = frozenset({A.FuncApp, A.FieldAccess})
# nodes whose loop-invariant instances a loop function computes once (``_hoisted``)
_HOIST = frozenset({A.FuncApp, A.FieldAccess, A.OpApp, A.Name, A.Except, A.RecordCons, A.Tuple, A.SetEnum,
                    A.If, A.Quant, A.SetFilter, A.SetMap, A.FuncCons})
_CONST = re.compile(r"^_k\[\d+\]$")
_ENUM_OPEN, _ENUM_CLOSE = "_frozenset((", ",))"  # a set enumeration's source around its elements
# nodes whose constant instances are evaluated once when generated (values built at each use)
_FOLDED = frozenset({A.RecordCons, A.SetEnum, A.Tuple, A.FuncCons, A.SetMap, A.SetFilter, A.Except, A.OpApp,
                     A.FuncApp, A.FieldAccess, A.If})


class Generator:
    """Generates Python source for simple expression subtrees of one Compiler."""

    def __init__(self, compiler: "Compiler") -> None:
        self.c = compiler
        self.consts: list = []
        self.ns: dict = dict(_HELPERS)
        self.ns["_k"] = self.consts
        self.ns["_U"] = UNSET
        self.depth = 0
        self._last_fallback: tuple | None = None
        # id(lazy binding) -> (binding, code of its expression): each argument/LET definition is
        # generated once, not once per reference (nested calls were exponential: Add(Add(...)))
        self._lazy_src: dict[tuple, tuple] = {}
        self._op_names: dict[int, str] = {}  # id(Operator) -> its strict implementation in ns
        self._code: dict[str, Any] = {}  # generated source -> its code object (False: too deep)
        self._const_at: dict[Any, int] = {}  # _value_key of a plain constant value -> its slot
        self.ntmp = 0  # walrus temporaries (unique per generator: generated sources are shared)
        self.in_iterable = 0  # > 0 while generating a comprehension's iterable (no walrus there)
        # > 0 while generating a comprehension's body: a walrus there binds a cell of the enclosing
        # function (created at every call of it), so the inline forms below are not used there
        self.in_comp = 0
        self._loops = Loops(self)
        self._excepts = Excepts(self)
        # while an action body is generated (gen_action): state-level f[x] and r.f remembered in
        # locals _m<i> (one name per generated source, ``_cse``), LET and argument bindings in
        # locals _l<slot> instead of frame slots; ``cse_slots``: the slots fixed during the body
        self.cse: dict | None = None
        self.cse_slots: frozenset = frozenset()
        # the LET/argument slots read through their locals _l<k> in the body, and the memo locals
        # that depend on some of them (reset again where those bindings are: gen_action)
        self.cse_lets: set[int] = set()
        self.memo_lets: dict[str, set[int]] = {}
        self._cse: dict[str, str] = {}
        # while a loop function's body is generated (gen_loops): a subexpression that reads no
        # slot bound from ``hoist_lo`` on (the loop's binders, LETs inside it), nothing primed or
        # impure, is the same in every iteration: computed at its first use and kept in a local
        # ``_h<i>`` of the loop function (``hoist``: its source -> that name); ``hoist_id``
        # tells the loop functions apart (the lazy sources generated in one name its locals)
        self.hoist: dict[str, str] | None = None
        self.hoist_lo = 0
        self.hoist_id = 0
        self._GEN = {
            A.Name: self._name, A.Number: self._literal, A.String: self._literal, A.Bool: self._literal,
            A.OpApp: self._opapp, A.And: self._and, A.Or: self._or, A.FuncApp: self._funcapp,
            A.FieldAccess: self._field, A.Tuple: self._tuple, A.RecordCons: self._record,
            A.If: self._if, A.Quant: self._loops.quant, A.SetEnum: self._setenum,
            A.SetFilter: self._loops.setfilter, A.SetMap: self._loops.setmap, A.FuncCons: self._loops.funccons,
            A.Prime: self._prime, A.Except: self._excepts.except_, A.At: self._at,
        }

    # ------------------------------------------------------------------ entry

    def root(self, node: Any, env: "Env") -> tuple | None:
        """Compile ``node`` to one generated function, or None when not worth it."""
        self.depth += 1
        self._last_fallback = None
        # a function of its own: no locals of the action or of an enclosing loop function
        cse, self.cse = self.cse, None
        hoist, self.hoist = self.hoist, None
        try:
            r = self.gen(node, env)
        finally:
            self.depth -= 1
            self.cse, self.hoist = cse, hoist
        if r is None:
            return None
        src, deps, size = r
        last = self._last_fallback
        if last is not None and last[0] is node:
            return last[1], frozenset(last[2])
        span = getattr(node, "span", None)
        fn = self._build(src, span, node, env)
        if fn is None:
            # too deep for Python's compiler: this subtree compiles to closures, without trying
            # generation again at every level below (that retry made deep input quadratic)
            compiler, compiler.gen = self.c, None
            try:
                return compiler.expr_table[node.__class__](node, env)
            finally:
                compiler.gen = self
        return self.c.fold(fn, frozenset(deps), node)

    def _build(self, src: str, span: Any, node: Any, env: "Env | None" = None) -> Callable | None:
        """One generated function for ``src``; the span its errors point at is bound per node.
        Code objects are kept per source text: inlined definitions generate the same text at
        many sites, and Python's compiler is most of the cost of generating. With ``env``, a
        fault is located by evaluating ``node`` again with closures (``_relocator``), which
        point at the innermost failing expression, as TLC does."""
        code = self._code.get(src)
        if code is None:
            text = (
                "def _mk(_sp, _rl):\n"
                "    def _g(s, n, e):\n"
                "        try:\n"
                f"            return {src}\n"
                "        except _FAULTS as _x:\n"
                "            raise _fault(_x, _sp, _rl, s, n, e) from None\n"
                "    return _g\n"
            )
            try:
                code = compile(text, "<tla>", "exec")
            except (SyntaxError, RecursionError, MemoryError):
                code = False  # too deeply nested for Python's compiler: the closures evaluate it
            self._code[src] = code
        if code is False:
            return None
        ns = self.ns
        ns["_FAULTS"] = FAULTS
        ns["_fault"] = fault
        loc: dict = {}
        exec(code, ns, loc)  # noqa: S102 - generated from the AST
        return loc["_mk"](span, None if env is None else self._relocator(node, env))

    def _relocator(self, node: Any, env: "Env") -> Callable:
        """Evaluates ``node`` with closures only (compiled at the first fault: errors are rare),
        for the precise span of a fault of the generated function."""
        c = self.c
        box: list[Callable] = []

        def relocate(s: Any, n: Any, e: Any) -> Any:
            if not box:
                saved, c.gen = c.gen, None
                try:
                    box.append(c.expr_table[node.__class__](node, env)[0])
                finally:
                    c.gen = saved
            return box[0](s, n, e)

        return relocate

    def const(self, v: Any) -> str:
        if v.__class__ is int or v.__class__ is str or v.__class__ is bool:
            return repr(v)
        if v.__class__ is tuple and not v:
            return "()"  # (<< >>: a literal, compared without a lookup)
        return f"_k[{_const_slot(self, v)}]"

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
            if r is not None:  # (a constant subexpression: evaluated once, here)
                if not r[1] and node.__class__ in _FOLDED:
                    return _folded(self, r)
                if self.cse is not None and node.__class__ in _MEMO and not (self.in_iterable or self.in_comp):
                    return _memo(self, r)
                if self.hoist is not None and node.__class__ in _HOIST and not (self.in_iterable or self.in_comp):
                    return _hoisted(self, r)
                return r
        return self.fallback(node, env)

    def sub(self, node: Any, env: "Env") -> tuple:
        return self.gen(node, env)

    def _comp_body(self, node: Any, env: "Env") -> tuple:
        self.in_comp += 1
        try:
            return self.gen(node, env)
        finally:
            self.in_comp -= 1

    def iterable(self, node: Any, env: "Env") -> tuple:
        """``node`` generated as the iterable of a comprehension (where Python forbids ``:=``)."""
        self.in_iterable += 1
        try:
            return self.gen(node, env)
        finally:
            self.in_iterable -= 1

    # ------------------------------------------------------------------ leaves

    def _literal(self, node: A.Number | A.String | A.Bool, env: "Env") -> tuple:
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
            if env.primed and len(b) > 4 and b[4] is not None and not b[5].primed:
                return self.sub(b[4], b[5].with_(primed=True))  # a primed parameter: the argument primed
            if len(b) > 4 and b[4] is not None:
                # (generated apart inside a comprehension's iterable, where ``:=`` is not allowed)
                key = (id(b), self.in_iterable > 0, self.in_comp > 0, self.cse is not None,
                       self.hoist_id if self.hoist is not None else 0)
                hit = self._lazy_src.get(key)
                if hit is None or hit[0] is not b:
                    hit = self._lazy_src[key] = (b, self.sub(b[4], b[5]))
                arg = hit[1]
                if self.cse is not None and not (self.in_iterable or self.in_comp):
                    # in an action body: also a local, reset with the slot (gen_action); the slot
                    # holds the value too, for the closures the body calls
                    nm = f"_l{k}"
                    self.cse[nm] = True
                    self.cse_lets.add(k)
                    return (f"({nm} if {nm} is not _U else ({nm} := (e[{k}] if e[{k}] is not _U else "
                            f"_st(e, {k}, {arg[0]}))))", set(arg[1]) | {k}, 1 + arg[2])
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
                    if cdeps in (STATE_ONLY, PRIME_ONLY) and cfn is not None and sizeable(op.body):
                        return _remembered(self, cfn, cdeps)  # a definition of the state alone
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

    def _at(self, node: A.At, env: "Env") -> tuple | None:
        b = env.locals.get("@")
        if b is None or b[0] != "slot":
            return None
        return f"e[{b[1]}]", {b[1]}, 1

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
            self.consts.append(strict_native(nat.name, nat.fn, nat.arity))  # as the closures call it
            strict = f"_k[{len(self.consts) - 1}]"
            deps, size = set().union(*[p[1] for p in parts]), 1 + sum(p[2] for p in parts)
            fast = _SEQ_FAST.get(nat.fn)
            if fast is not None and not (self.in_iterable or self.in_comp):
                # Sequences' Head/Tail/Len/Append inline on a tuple (the strict native otherwise)
                t = self._walrus_tmp()
                if len(parts) == 1:
                    return fast.format(t=t, x=parts[0][0], k=strict), deps, size
                v = self._walrus_tmp()
                return fast.format(t=t, x=parts[0][0], v=v, y=parts[1][0], k=strict), deps, size
            return f"{strict}(" + ", ".join(p[0] for p in parts) + ")", deps, size
        if op.recursive or op.body is None or len(args) != len(op.params) or self.c.memo_key_slots(op, args, env) is not None:
            return None  # (a remembered application is the closure compiler's, see Operators._inline)
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
        if name in _NOT_GENERATED:
            return None
        if name == "=>":
            if len(args) != 2:
                return None
            (a, da, sa), (b, db, sb) = self.sub(args[0], env), self.sub(args[1], env)
            ta = a if is_boolish(args[0]) else self.truth(a, 'the left side of =>')
            tb = b if is_boolish(args[1]) else self.truth(b, 'the right side of =>')
            return f"(not {ta} or {tb})", da | db, 1 + sa + sb
        op = operator(name, len(args))
        if op is None:
            return None
        parts = [self.sub(a, env) for a in args]
        deps = set().union(*[p[1] for p in parts])
        if deps and name in ("\\in", "\\notin") and isinstance(args[1], A.SetEnum) and args[1].elems \
                and parts[1][0].startswith(_ENUM_OPEN) and parts[1][0].endswith(_ENUM_CLOSE):
            # x \in {a, b}: membership in the tuple of the elements (no set built and hashed)
            elems = parts[1][0][len(_ENUM_OPEN):-len(_ENUM_CLOSE)]
            test = "not in" if name == "\\notin" else "in"
            return f"(({parts[0][0]}) {test} ({elems},))", deps, 1 + sum(p[2] for p in parts)
        if deps and name == "\\cup" and not (self.in_iterable or self.in_comp):
            grown = self._cup1(op, args, parts)
            if grown is not None:
                return grown, deps, 1 + sum(p[2] for p in parts)
        src = self.apply(op, [p[0] for p in parts], args)
        return (not deps and _fold(self, src, node)) or (src, deps, 1 + sum(p[2] for p in parts))

    def _cup1(self, op: Operator, args: tuple, parts: list) -> str | None:
        """``S \\cup {e}`` (or ``{e} \\cup S``) from its operands' sources: S itself when e is
        already in it (no new set: a state keeps the stored object), else S with e added
        (``_cup1`` when S is not a finite set); operands evaluated in the written order. None for
        another union."""
        left = isinstance(args[0], A.SetEnum) and len(args[0].elems) == 1
        if not left and not (isinstance(args[1], A.SetEnum) and len(args[1].elems) == 1):
            return None
        s, one = (parts[1][0], parts[0][0]) if left else (parts[0][0], parts[1][0])
        if not (one.startswith(_ENUM_OPEN) and one.endswith(_ENUM_CLOSE)):
            return None  # (a folded constant {e})
        x = one[len(_ENUM_OPEN):-len(_ENUM_CLOSE)]
        ts, tx = self._walrus_tmp(), self._walrus_tmp()
        binds = [f"(({ts} := {s}).__class__ is _frozenset)", f"(({tx} := {x}) is {tx})"]
        if left:
            binds.reverse()  # {e} first
        strict = self._strict_name(op)
        # (the new set inline: no call of _cup1 when S is a finite set)
        return (f"(({ts} if {tx} in {ts} else {ts}.union(({tx},))) if {binds[0]} & {binds[1]} "
                f"else _cup1({ts}, {tx}, {strict}, {left}))")

    def _strict_name(self, op: Operator) -> str:
        """The name the generated code calls ``op``'s strict implementation by (bound once)."""
        strict = self._op_names.get(id(op))
        if strict is None:
            strict = self._op_names[id(op)] = f"_op{len(self._op_names)}"
            self.ns[strict] = op.strict
        return strict

    def apply(self, op: Operator, srcs: list[str], args: tuple = ()) -> str:
        """Source applying the registry operator ``op`` to operand sources: its fast template
        under its type guards, its strict implementation otherwise. An operand tested by a guard
        is evaluated once: it is an atom (slot, variable, literal) or bound by a walrus."""
        strict = self._strict_name(op)
        if op.name == "=" or op.name == "#":
            return _equality(self, op.name == "#", srcs, strict)
        if op.fast is None:
            return f"{strict}({', '.join(srcs)})"
        conds: list[str] = []
        used: list[str] = []
        for i, (src, cls) in enumerate(zip(srcs, op.guard)):
            if cls is object:
                used.append(src)
                continue
            if _literal_class(src) is cls or (i < len(args) and _node_class(args[i]) is cls):
                used.append(src)  # the operand has the class the guard asks for (or raised)
                continue
            if _ATOM.match(src) or _LIT.match(src) or _GUARD_FREE.match(src):
                conds.append(f"({src}.__class__ is {cls.__name__})")
                used.append(src)
                continue
            if self.in_iterable or self.in_comp:
                # no walrus in a comprehension's iterable (a syntax error) or body (a cell)
                return f"{strict}({', '.join(srcs)})"
            self.ntmp += 1
            tmp = f"_t{self.ntmp}"
            conds.append(f"(({tmp} := {src}).__class__ is {cls.__name__})")
            used.append(tmp)
        if not conds:
            return f"({op.fast.format(*used)})"
        # an operand used as is appears in both branches: bind it once in the test, or nested
        # operators would double the source at every level (a 20-term sum took gigabytes)
        for i, src in enumerate(used):
            if src in srcs and not (_ATOM.match(src) or _LIT.match(src) or _GUARD_FREE.match(src)):
                if self.in_iterable or self.in_comp:
                    return f"{strict}({', '.join(srcs)})"
                self.ntmp += 1
                tmp = f"_t{self.ntmp}"
                conds.insert(0, f"(({tmp} := {src}) is {tmp})")
                used[i] = tmp
        # every guard is evaluated (``&``, not ``and``): the fallback sees every operand bound
        test = conds[0] if len(conds) == 1 else " & ".join(conds)
        return f"({op.fast.format(*used)} if {test} else {strict}({', '.join(used)}))"

    def truth(self, src: str, what: str = "a condition") -> str:
        """Source testing that ``src`` is a boolean (``_truth``), inline outside comprehensions."""
        if self.in_iterable or self.in_comp:
            return f"_truth({src}, {what!r})"
        if _ATOM.match(src):
            t, bind = src, src
        else:
            t = self._walrus_tmp()
            bind = f"({t} := {src})"
        return f"({bind} is True or ({t} is not False and _truth({t}, {what!r})))"

    def _walrus_tmp(self) -> str:
        self.ntmp += 1
        return f"_t{self.ntmp}"

    def _and(self, node: A.And, env: "Env") -> tuple:
        parts = [self.sub(a, env) for a in node.args]
        src = "(" + " and ".join(self.truth(p[0], 'a conjunct') if not is_boolish(a) else p[0]
                                 for p, a in zip(parts, node.args)) + ")"
        return src, set().union(*[p[1] for p in parts]), 1 + sum(p[2] for p in parts)

    def _or(self, node: A.Or, env: "Env") -> tuple:
        parts = [self.sub(a, env) for a in node.args]
        src = "(" + " or ".join(self.truth(p[0], 'a disjunct') if not is_boolish(a) else p[0]
                                for p, a in zip(parts, node.args)) + ")"
        return src, set().union(*[p[1] for p in parts]), 1 + sum(p[2] for p in parts)

    def _if(self, node: A.If, env: "Env") -> tuple:
        c, t, f = self.sub(node.cond, env), self.sub(node.then, env), self.sub(node.else_, env)
        test = c[0] if boolish(self, node.cond, env) else self.truth(c[0], 'the IF condition')
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
            if not (self.in_iterable or self.in_comp):
                # f[x] with f (or x) computed: both bound once by walrus, then the same inline lookup
                # (every operand is bound before any test reads it: ``&``, not ``and``)
                tf = self._walrus_tmp()
                if _ATOM.match(x[0]) or _LIT.match(x[0]):
                    tx, bind_x = x[0], ""
                else:
                    tx = self._walrus_tmp()
                    bind_x = f" & (({tx} := {x[0]}) is {tx})"
                if _LIT.match(tx) and tx.startswith("'"):
                    src = (f"({tf}[{tx}] if (({tf} := {f[0]}).__class__ is _Fn){bind_x} and {tx} in {tf} "
                           f"else _ap({tf}, {tx}))")
                else:
                    src = (f"({tf}[{tx} - 1] if (({tf} := {f[0]}).__class__ is tuple){bind_x} and {tx}.__class__ is int "
                           f"and 0 < {tx} <= len({tf}) else {tf}[{tx}] if {tf}.__class__ is _Fn and {tx} in {tf} "
                           f"else _ap({tf}, {tx}))")
                return src, f[1] | x[1], 1 + f[2] + x[2]
            return f"_ap({f[0]}, {x[0]})", f[1] | x[1], 1 + f[2] + x[2]
        parts = [self.sub(a, env) for a in node.args]
        tup = "(" + ", ".join(p[0] for p in parts) + ",)"
        return f"_ap({f[0]}, {tup})", f[1].union(*[p[1] for p in parts]), 1 + f[2] + sum(p[2] for p in parts)

    def _field(self, node: A.FieldAccess, env: "Env") -> tuple:
        r = self.sub(node.expr, env)
        # (a record without the field: KeyError, a fault of the generated code, which runs the
        # closures again for TLC's error, as _fld's would)
        if _ATOM.match(r[0]):
            fl = repr(node.field)
            return f"({r[0]}[{fl}] if {r[0]}.__class__ is _Fn else _fld({r[0]}, {fl}))", r[1], 1 + r[2]
        if not (self.in_iterable or self.in_comp):
            t, fl = self._walrus_tmp(), repr(node.field)
            return (f"({t}[{fl}] if ({t} := {r[0]}).__class__ is _Fn else _fld({t}, {fl}))",
                    r[1], 1 + r[2])
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
        deps = set().union(*[p[1] for p in parts])
        if not deps or not all(_hashes_cheaply(self, x, p[0]) for (_, x), p in zip(node.fields, parts)):
            return f"_rec({names!r}, {vals})", deps, 1 + sum(p[2] for p in parts)
        helper = f"_recm{len(names)}"
        if helper not in self.ns:
            self.ns[helper] = _recm(len(names))
        self.consts.append({})  # this site's records
        return f"{helper}(_k[{len(self.consts) - 1}], {names!r}, {vals})", deps, 1 + sum(p[2] for p in parts)

    def _setenum(self, node: A.SetEnum, env: "Env") -> tuple:
        parts = [self.sub(a, env) for a in node.elems]
        if not parts:
            return "_frozenset()", set(), 1
        return (_ENUM_OPEN + ", ".join(p[0] for p in parts) + _ENUM_CLOSE, set().union(*[p[1] for p in parts]),
                1 + sum(p[2] for p in parts))

    # ------------------------------------------------------------------ binders (one simple name)

def _hashes_cheaply(g: "Generator", node: Any, src: str) -> bool:
    """Whether the values of a record field ``node`` (generated as ``src``) are not large or
    infinite lazy sets as far as the syntax tells: hashing those (the key of a record memo)
    enumerates them. (A lazy function's hash that fails sends ``_recm<n>`` to ``_rec``.)"""
    if _CONST.match(src):
        return not isinstance(g.consts[int(src[3:-1])], (LazySet, LazyFn))
    return not (may_be_large(node) or may_be_infinite(node))


def _equality(g: "Generator", negate: bool, srcs: list[str], strict: str) -> str:
    """``a = b``: against a literal (a string, an integer other than 0 and 1, TRUE/FALSE),
    ``==``/``is`` under a guard of the literal's class (another kind is TLC's error: the strict
    operator); otherwise ``==`` inline when both operands have the same class, else strict."""
    a, b = srcs
    for x, y in ((a, b), (b, a)):
        cls = "bool" if _GUARD_FREE.match(y) else ("str" if y[:1] == "'" else "int") \
            if _LIT.match(y) and y not in ("0", "1", "-0") else None
        if cls is not None and (_ATOM.match(x) or not (g.in_iterable or g.in_comp)):
            t, cx = (x, f"{x}.__class__") if _ATOM.match(x) else (t := g._walrus_tmp(), f"({t} := {x}).__class__")
            cmp = ("is not" if negate else "is") if cls == "bool" else ("!=" if negate else "==")
            return f"({t} {cmp} {y} if {cx} is {cls} else {strict}({t + ', ' + y if x is a else y + ', ' + t}))"
    if (g.in_iterable or g.in_comp) and not ((_ATOM.match(a) or _LIT.match(a) or a == "()")
                                 and (_ATOM.match(b) or _LIT.match(b) or b == "()")):
        return f"{strict}({a}, {b})"
    ta = a if _ATOM.match(a) or _LIT.match(a) or a == "()" else None
    tb = b if _ATOM.match(b) or _LIT.match(b) or b == "()" else None
    ca = _class_of(ta) if ta is not None else f"({(ta := g._walrus_tmp())} := {a}).__class__"
    cb = _class_of(tb) if tb is not None else f"({(tb := g._walrus_tmp())} := {b}).__class__"
    cmp = "!=" if negate else "=="
    return f"({ta} {cmp} {tb} if {ca} is {cb} else {strict}({ta}, {tb}))"


def _class_of(src: str) -> str:
    """The source of the class of ``src``, an atom or a literal: a literal's class by name
    (``int`` rather than ``(0).__class__``, computed again at every test)."""
    if src == "()":
        return "tuple"
    if _LIT.match(src):
        return "str" if src[:1] == "'" else "int"
    return f"({src}).__class__"


def boolish(g: "Generator", node: Any, env: "Env") -> bool:
    """``is_boolish``, or a name bound to a boolish definition (a LET value or an argument:
    ``newer == m.term > term[t]`` then ``IF newer THEN ...``): its value is a boolean."""
    if is_boolish(node):
        return True
    if isinstance(node, A.Name):
        try:
            b = g.c.resolve(node.name, env, node.span)
        except EvalError:
            return False
        if b[0] == "lazy" and len(b) > 4 and b[4] is not None:
            return is_boolish(b[4])
        if b[0] == "expr":
            return is_boolish(b[1])
    return False


def _memo(g: "Generator", r: tuple) -> tuple:
    """``r`` (a state-level ``f[x]`` or ``r.f`` of an action body) computed at its first use
    and remembered in a local for the rest of the body (a value of the state and of the
    fixed binders: the same wherever it is read)."""
    src, deps, size = r
    if not deps or any(d != "S" and d not in g.cse_slots and d not in g.cse_lets for d in deps) \
            or _ATOM.match(src):
        return r
    nm = _local_for(g._cse, "_m", src)
    g.cse[nm] = True
    lets = {d for d in deps if d != "S" and d not in g.cse_slots}
    if lets:
        # f[x] with x a LET value: valid until that LET is entered again (gen_action resets it there)
        g.memo_lets.setdefault(nm, set()).update(lets)
    return _first_use(nm, src), deps, size


def _local_for(names: dict[str, str], prefix: str, src: str) -> str:
    """The local that keeps the value of ``src`` in ``names`` (its source, walrus temporaries
    numbered in order, -> the local's name; a new one is ``prefix`` and a number)."""
    temps: dict[str, str] = {}
    key = re.sub(r"_t\d+", lambda m: temps.setdefault(m.group(0), f"_t{len(temps)}"), src)
    nm = names.get(key)
    if nm is None:
        nm = names[key] = f"{prefix}{len(names)}"
    return nm


def _first_use(nm: str, src: str) -> str:
    """``src`` computed at its first use and kept in the local ``nm`` (unset: ``_U``)."""
    return f"({nm} if {nm} is not _U else ({nm} := {src}))"


# a bare ``e`` (the frame passed to a closure, whose deps need not name every slot it reads:
# a LET RECURSIVE operator reads its enclosing parameters through the frame)
_PASSES_FRAME = re.compile(r"(?<![\w.'\"])e(?![\w\[])")


def _hoisted(g: "Generator", r: tuple) -> tuple:
    """``r``, generated in the body of a loop function (``gen_loops``), computed at its first use
    and kept in a local of the function when it reads no slot bound inside the loop (the loop's
    binders and every slot made while its body is generated: ``hoist_lo`` on), only the state
    and slots of the enclosing scopes, nothing primed or impure: the same value in every
    iteration (``\\A r \\in Proc : ... network[s][r] ...`` computes ``network[s]`` once per call).
    Not a source that passes the frame to a closure (its deps need not name the slots it reads).
    Where the first use is, nothing changes: a fault is raised there, as before."""
    src, deps, size = r
    lo = g.hoist_lo
    if not deps or _ATOM.match(src) or _LIT.match(src) \
            or any(not (d == "S" or (d.__class__ is int and d < lo)) for d in deps) \
            or _PASSES_FRAME.search(src.replace("_st(e, ", "")):
        return r
    assert g.hoist is not None
    return _first_use(_local_for(g.hoist, "_h", src), src), deps, size


def _const_slot(g: "Generator", v: Any) -> int:
    """The slot of ``g.consts`` holding ``v``: one slot per plain value, so equal constants give
    equal sources (actions whose first conjuncts are the same guard share it, model._head_guard)."""
    key = _value_key(v, [64])
    if key is not None:
        at = g._const_at.get(key)
        if at is not None:
            return at
        g._const_at[key] = len(g.consts)
    g.consts.append(v)
    return len(g.consts) - 1


def _value_key(v: Any, budget: list) -> Any:
    """A key equal for equal plain values (booleans, integers, strings, model values, tuples,
    sets and functions of those) and only for them, classes included (1 is not TRUE); None for
    anything else or a value of more than ``budget[0]`` parts."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    c = v.__class__
    if c is int or c is str or c is bool:
        return (c, v)
    if c is ModelValue:
        return (c, v[1])
    if c is tuple or c is frozenset:
        parts = []
        for x in v:
            k = _value_key(x, budget)
            if k is None:
                return None
            parts.append(k)
        return (c, tuple(parts) if c is tuple else frozenset(parts))
    if c is Fn:
        parts = []
        for a, b in dict.items(v):
            ka, kb = _value_key(a, budget), _value_key(b, budget)
            if ka is None or kb is None:
                return None
            parts.append((ka, kb))
        return (c, frozenset(parts))
    return None


def _fold(g: Generator, src: str, node: Any) -> tuple | None:
    """A constant application (``1..N`` of ``x \\in 1..N`` in a filter) evaluated once, at
    generation, instead of at each use; None for a literal or when it fails (the error is
    then reported at run time, as TLC does)."""
    if _LIT.match(src):
        return None
    fn = g._build(src, getattr(node, "span", None), node)
    if fn is None:
        return None
    try:
        return g.const(fn(None, None, g.c.frame)), set(), 1
    except Exception:  # noqa: BLE001 - kept for run time
        return None


def _folded(g: Generator, r: tuple) -> tuple:
    """A constant subexpression (``[type |-> "pl"]`` inside a definition) evaluated once, at
    generation time; one that fails is left to fail at run time, as TLC."""
    src = r[0]
    if _LIT.match(src) or _CONST.match(src) or _GUARD_FREE.match(src):
        return r
    try:
        code = compile(src, "<tla>", "eval")
        v = eval(code, g.ns, {"s": None, "n": None, "e": g.c.frame})  # noqa: S307 - generated
    except Exception:  # noqa: BLE001 - evaluated at run time instead (and fails there)
        return r
    if isinstance(v, LazyFn):
        return r
    return g.const(v), set(), 1


def _remembered(g: Generator, fn: Callable, deps: frozenset) -> tuple:
    """A call of a definition of the state (or of the next state) alone, instead of its body
    inlined: its value is remembered per state (``apply_op``'s per_state / per_next)."""
    g.consts.append(fn)
    return f"_k[{len(g.consts) - 1}](s, n, e)", set(deps), 1


def fault(exc: BaseException, span: Any, relocate: Callable | None = None, s: Any = None, n: Any = None,
          e: Any = None) -> EvalError:
    """The ``EvalError`` of a Python-level fault of generated code at ``span``; with
    ``relocate``, the error the closures raise for the same evaluation (its span is the
    innermost failing expression's), when they fail."""
    if relocate is not None:
        try:
            relocate(s, n, e)
        except EvalError as precise:
            if precise.span is not None:
                return precise
        except Exception:  # noqa: BLE001 - the closures disagree: report the fault as it is
            pass
    if isinstance(exc, ValueFault):
        return EvalError(str(exc), span)
    if isinstance(exc, KeyError):
        return EvalError(f"{exc} is not in the domain of the function", span)
    if isinstance(exc, ZeroDivisionError):
        return EvalError("division by zero", span)
    return EvalError(f"cannot evaluate this expression: {exc}", span)


def _simple_const(node: Any) -> bool:
    return isinstance(node, (A.Number, A.String))


def _literal_class(src: str) -> type | None:
    """The class of a literal operand source (``3``, ``'a'``, ``True``), else None."""
    if _GUARD_FREE.match(src):
        return bool
    if _LIT.match(src):
        return str if src.startswith("'") else int
    return None


_INT_OPS = frozenset({"+", "-", "*", "\\div", "%", "^", "-."})


def _node_class(node: Any) -> type | None:
    """The class every value of ``node`` has, when its syntax tells (a number, an arithmetic
    or boolean operator: those raise rather than return anything else), else None."""
    if isinstance(node, A.Number):
        return int
    if isinstance(node, A.String):
        return str
    if is_boolish(node):
        return bool
    if isinstance(node, A.OpApp) and not node.prefix and node.name in _INT_OPS:
        return int
    return None


def _small(node: Any) -> bool:
    """Cheap enough to re-evaluate at every use (call-by-name): a few names, field accesses and
    function applications, no operator calls."""
    nodes = list(A.walk(node))
    return len(nodes) <= 4 and all(isinstance(x, (A.Name, A.Number, A.String, A.FieldAccess, A.FuncApp))
                                   for x in nodes)
