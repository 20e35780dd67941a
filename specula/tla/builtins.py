"""Native implementations of standard-module operators (keyed by module and name).

:data:`NATIVES` holds standard-module operators (Naturals, Integers, Sequences, FiniteSets, TLC,
Bags, SequencesExt, Functions, FiniteSetsExt...), used in place of their TLA+ definitions when the
definition comes from one of :data:`STD_MODULES`, as TLC overrides them. The built-in operators of
the language itself (``+``, ``\\cup``, ``DOMAIN``...) are in ``operators.py``.
"""

from __future__ import annotations

import functools
import itertools
import random
import sys
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable

from specula.errors import EvalError
from specula.tla.values import (
    AnySet,
    BoolSet,
    Fn,
    IntSet,
    LazyFn,
    LazySet,
    NatSet,
    SeqSet,
    StringSet,
    ValueFault,
    enumerate_set,
    format_value,
    is_set,
    make_fn,
    make_record,
    ordered,
    sort_key,
    tla_eq,
    type_name,
)
from specula.tla.operators import fn_items

if TYPE_CHECKING:
    from specula.tla.compile import Compiler, Env

__all__ = ["Native", "NATIVES", "STD_MODULES", "INFIX_NATIVES", "native_for", "native_by_name"]

STD_MODULES = frozenset({
    "Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "TLC", "Bags", "TLCExt",
    "SequencesExt", "Functions", "FiniteSetsExt", "Json", "IOUtils", "Randomization", "Folds",
    "Relation", "Graphs", "Bitwise", "DyadicRationals", "Combinatorics", "Strings", "BagsExt",
})


@dataclass(frozen=True)
class Native:
    name: str
    arity: int
    fn: Callable[..., Any] | None = None
    op_params: frozenset = frozenset()
    impure: bool = False
    special: Callable[..., Any] | None = None
    wants_ctx: bool = False


def _int(x: Any) -> int:
    if x.__class__ is not int:
        raise ValueFault(f"expected an integer, found {type_name(x)} {format_value(x)}")
    return x


def _seq(x: Any) -> tuple:
    if x.__class__ is tuple:
        return x
    if x.__class__ is Fn or isinstance(x, LazyFn):
        raise ValueFault(f"expected a sequence, found {format_value(x)}")
    raise ValueFault(f"expected a sequence, found {type_name(x)} {format_value(x)}")


def _set(x: Any) -> Any:
    if x.__class__ is frozenset:
        return x
    if isinstance(x, LazySet):
        return x.materialize()
    raise ValueFault(f"expected a set, found {type_name(x)} {format_value(x)}")


def _not_a_set(name: str, x: Any) -> Any:
    raise ValueFault(f"expected a set, found {type_name(x)} {format_value(x)}")


# ----------------------------------------------------------------------------- sequences


def _head(s: Any) -> Any:
    s = _seq(s)
    if not s:
        raise ValueFault("Head of the empty sequence")
    return s[0]


def _tail(s: Any) -> Any:
    s = _seq(s)
    if not s:
        raise ValueFault("Tail of the empty sequence")
    return s[1:]


def _subseq(s: Any, m: Any, n: Any) -> Any:
    s = _seq(s)
    m, n = _int(m), _int(n)
    if m > n:
        return ()
    if m < 1 or n > len(s):
        raise ValueFault(f"SubSeq({format_value(s)}, {m}, {n}): indices out of range")
    return s[m - 1 : n]


def _concat(a: Any, b: Any) -> Any:
    if a.__class__ is str and b.__class__ is str:
        return a + b
    return _seq(a) + _seq(b)


def _len(s: Any) -> int:
    if s.__class__ is str:
        return len(s)
    return len(_seq(s))


def _select_seq(s: Any, test: Callable) -> Any:
    return tuple(x for x in _seq(s) if test(x) is True)


def _sort_seq(s: Any, lt: Callable) -> Any:
    def cmp(a: Any, b: Any) -> int:
        if lt(a, b) is True:
            return -1
        if lt(b, a) is True:
            return 1
        return 0

    return tuple(sorted(_seq(s), key=functools.cmp_to_key(cmp)))


def _permutations(S: Any) -> Any:
    els = ordered(_set(S))
    return frozenset(make_fn(dict(zip(els, p))) for p in itertools.permutations(els))


def _assert(cond: Any, msg: Any) -> bool:
    if cond is not True:
        raise ValueFault(f"The first argument of Assert evaluated to FALSE; the second argument was: {format_value(msg)}")
    return True


def _print(out: Any, val: Any) -> Any:
    print(f"{format_value(out)}  {format_value(val)}", file=sys.stdout, flush=True)
    return val


def _printt(out: Any) -> bool:
    print(format_value(out), file=sys.stdout, flush=True)
    return True


def _tostring(v: Any) -> str:
    return format_value(v)


def _random_element(S: Any) -> Any:
    els = ordered(_set(S))
    if not els:
        raise ValueFault("RandomElement of the empty set")
    return random.Random(len(els)).choice(els)


def _max(S: Any) -> Any:
    els = _set(S)
    if not els:
        raise ValueFault("Max of the empty set")
    return max(_int(x) for x in els)


def _min(S: Any) -> Any:
    els = _set(S)
    if not els:
        raise ValueFault("Min of the empty set")
    return min(_int(x) for x in els)


def _fold_set(op: Callable, base: Any, S: Any) -> Any:
    # Folds.MapThenFoldSet: op(x1, op(x2, ... op(xn, base))) with x1 the first element (CHOOSE)
    acc = base
    for x in reversed(ordered(_set(S))):
        acc = op(x, acc)
    return acc


def _fold_left(op: Callable, base: Any, s: Any) -> Any:
    acc = base
    for x in _seq(s):
        acc = op(acc, x)
    return acc


def _fold_right(op: Callable, s: Any, base: Any) -> Any:
    acc = base
    for x in reversed(_seq(s)):
        acc = op(x, acc)
    return acc


def _fold_function(op: Callable, base: Any, f: Any) -> Any:
    acc = base
    for _, v in reversed(sorted(fn_items(f), key=lambda kv: sort_key(kv[0]))):
        acc = op(v, acc)
    return acc


def _range(f: Any) -> Any:
    return frozenset(v for _, v in fn_items(f))


def _restrict(f: Any, S: Any) -> Any:
    S = _set(S)
    return make_fn({k: v for k, v in fn_items(f) if k in S})


def _is_injective(f: Any) -> bool:
    vals = [v for _, v in fn_items(f)]
    return len(set(vals)) == len(vals)


def _inverse(f: Any, S: Any, T: Any) -> Any:
    items = fn_items(f)
    out = {}
    for t in ordered(_set(T)):
        cands = [k for k, v in items if tla_eq(v, t)]
        out[t] = cands[0] if cands else ordered(_set(S))[0]
    return make_fn(out)


def _set_to_seq(S: Any) -> Any:
    return tuple(ordered(_set(S)))


def _set_to_sort_seq(S: Any, lt: Callable) -> Any:
    return _sort_seq(_set_to_seq(S), lt)


def _insert_at(s: Any, i: Any, e: Any) -> Any:
    s = _seq(s)
    return s[: i - 1] + (e,) + s[i - 1 :]


def _remove_at(s: Any, i: Any) -> Any:
    s = _seq(s)
    return s[: i - 1] + s[i:]


def _replace_at(s: Any, i: Any, e: Any) -> Any:
    s = _seq(s)
    return s[: i - 1] + (e,) + s[i:]


def _last(s: Any) -> Any:
    s = _seq(s)
    if not s:
        raise ValueFault("Last of the empty sequence")
    return s[-1]


def _front(s: Any) -> Any:
    s = _seq(s)
    if not s:
        raise ValueFault("Front of the empty sequence")
    return s[:-1]


def _bag_to_set(b: Any) -> Any:
    return frozenset(k for k, v in fn_items(b) if v > 0)


def _set_to_bag(S: Any) -> Any:
    return make_fn({x: 1 for x in _set(S)})


def _bag_add(a: Any, b: Any) -> Any:
    out = dict(fn_items(a))
    for k, v in fn_items(b):
        out[k] = out.get(k, 0) + v
    return make_fn(out)


def _bag_sub(a: Any, b: Any) -> Any:
    out = dict(fn_items(a))
    for k, v in fn_items(b):
        if k in out:
            out[k] -= v
    return make_fn({k: v for k, v in out.items() if v > 0})


def _copies_in(e: Any, b: Any) -> Any:
    for k, v in fn_items(b):
        if tla_eq(k, e):
            return v
    return 0


def _mk(name: str, arity: int, fn: Callable | None = None, op_params: tuple = (), impure: bool = False,
        special: Callable | None = None) -> Native:
    return Native(name, arity, fn, frozenset(op_params), impure, special)


# TLCGet("-Dname"): the Java system properties TLC would be run with for what specula implements
# (action composition \cdot is always on); any other name reads as TLC's default, "-Dname" itself
JAVA_PROPERTIES = MappingProxyType({"tlc2.tool.impl.Tool.cdot": "true"})


def _tlcget_special(c: "Compiler", args: tuple, env: "Env", span: Any) -> tuple:
    f, deps = c.expr(args[0], env)
    rt = c.runtime
    regs, config, stats = rt.registers, rt.config, rt.stats
    state_level = rt.state_level

    def tlcget(s: Any, n: Any, e: list) -> Any:
        k = f(s, n, e)
        if k == "level":  # the position in the behaviour of the state TLCGet is evaluated on
            return state_level(s)
        if k.__class__ is str and k in ("diameter", "distinct", "queue", "duration", "generated"):
            return stats[k]
        if k == "stats":  # final figures once the search is complete (read by POSTCONDITION)
            return make_record(sorted(stats.items()))
        if k == "config":  # the fields TLC 2.18 reports (seed and fingerprint as TLC prints them)
            return make_record(sorted({"install": "specula", "mode": config["mode"], "deadlock": config["deadlock"],
                                       "seed": "0", "fingerprint": "0", "worker": 1}.items()))
        if k in regs:
            return regs[k]
        if k.__class__ is str and k.startswith("-D"):  # a Java system property of TLC's JVM
            return JAVA_PROPERTIES.get(k[2:], k)
        raise EvalError(f"TLCGet({format_value(k)}): no such register", span)

    return tlcget, deps | {"I"}


def _tlcset_special(c: "Compiler", args: tuple, env: "Env", span: Any) -> tuple:
    f, d1 = c.expr(args[0], env)
    g, d2 = c.expr(args[1], env)
    regs = c.runtime.registers

    def tlcset(s: Any, n: Any, e: list) -> bool:
        regs[f(s, n, e)] = g(s, n, e)
        return True

    return tlcset, d1 | d2 | {"I"}


NATIVES: dict[str, Native] = {
    n.name: n
    for n in [
        _mk("Nat", 0, lambda: NatSet()),
        _mk("Int", 0, lambda: IntSet()),
        _mk("Real", 0, lambda: IntSet()),
        _mk("BOOLEAN", 0, lambda: BoolSet),
        _mk("STRING", 0, lambda: StringSet()),
        _mk("Seq", 1, lambda S: SeqSet(S) if is_set(S) else _not_a_set("Seq", S)),
        _mk("Len", 1, _len),
        _mk("Append", 2, lambda s, x: _seq(s) + (x,)),
        _mk("Head", 1, _head),
        _mk("Tail", 1, _tail),
        _mk("SubSeq", 3, _subseq),
        _mk("SelectSeq", 2, _select_seq, (1,)),
        _mk("IsFiniteSet", 1, lambda S: not isinstance(S, LazySet) or S.finite),
        _mk("Cardinality", 1, lambda S: len(S) if S.__class__ is frozenset else len(_set(S))),
        _mk("Print", 2, _print, impure=True),
        _mk("PrintT", 1, _printt, impure=True),
        _mk("Assert", 2, _assert),
        _mk("ToString", 1, _tostring),
        _mk("TLCGet", 1, special=_tlcget_special),
        _mk("TLCSet", 2, special=_tlcset_special),
        _mk("Permutations", 1, _permutations),
        _mk("SortSeq", 2, _sort_seq, (1,)),
        _mk("RandomElement", 1, _random_element, impure=True),
        _mk("Any", 0, lambda: AnySet()),
        _mk("JavaTime", 0, lambda: 0, impure=True),
        _mk("TLCEval", 1, lambda v: v),
        _mk("EmptyBag", 0, lambda: ()),
        _mk("IsABag", 1, lambda b: all(v.__class__ is int and v > 0 for _, v in fn_items(b))),
        _mk("BagToSet", 1, _bag_to_set),
        _mk("SetToBag", 1, _set_to_bag),
        _mk("BagIn", 2, lambda e, b: _copies_in(e, b) > 0),
        _mk("CopiesIn", 2, _copies_in),
        _mk("BagCardinality", 1, lambda b: sum(v for _, v in fn_items(b))),
        _mk("(+)", 2, _bag_add),
        _mk("(-)", 2, _bag_sub),
        _mk("\\oplus", 2, _bag_add),
        _mk("\\ominus", 2, _bag_sub),
        _mk("ToSet", 1, lambda s: frozenset(v for _, v in fn_items(s))),
        _mk("SetToSeq", 1, _set_to_seq),
        _mk("SetToSortSeq", 2, _set_to_sort_seq, (1,)),
        _mk("Reverse", 1, lambda s: tuple(reversed(_seq(s)))),
        _mk("Remove", 2, lambda s, e: tuple(x for x in _seq(s) if not tla_eq(x, e))),
        _mk("Cons", 2, lambda e, s: (e,) + _seq(s)),
        _mk("Front", 1, _front),
        _mk("Last", 1, _last),
        _mk("IsPrefix", 2, lambda s, t: _seq(t)[: len(_seq(s))] == s),
        _mk("IsSuffix", 2, lambda s, t: len(_seq(s)) <= len(_seq(t)) and (not s or _seq(t)[-len(s):] == s)),
        _mk("Contains", 2, lambda s, e: any(tla_eq(x, e) for x in _seq(s))),
        _mk("InsertAt", 3, _insert_at),
        _mk("RemoveAt", 2, _remove_at),
        _mk("ReplaceAt", 3, _replace_at),
        _mk("FoldLeft", 3, _fold_left, (0,)),
        _mk("FoldRight", 3, _fold_right, (0,)),
        _mk("FoldSeq", 3, lambda op, b, s: _fold_right(op, s, b), (0,)),
        _mk("FoldSet", 3, _fold_set, (0,)),
        _mk("FoldFunction", 3, _fold_function, (0,)),
        _mk("Range", 1, _range),
        _mk("Restrict", 2, _restrict),
        _mk("IsInjective", 1, _is_injective),
        _mk("Inverse", 3, _inverse),
        _mk("Max", 1, _max),
        _mk("Min", 1, _min),
        _mk("Sum", 1, lambda S: sum(_int(x) for x in _set(S))),
        _mk("SymDiff", 2, lambda a, b: _set(a) ^ _set(b)),
        _mk("Quantify", 2, lambda S, p: sum(1 for x in _set(S) if p(x) is True), (1,)),
    ]
}

INFIX_NATIVES: dict[str, Native] = {}


def native_for(module: str | None, name: str) -> Native | None:
    """The native implementation of ``module``'s operator ``name``, if TLC-style override exists."""
    hit = _community_native(module, name)
    if hit is not None:
        return hit
    if module in STD_MODULES:
        return NATIVES.get(name)
    return None


@functools.lru_cache(maxsize=None)
def _community_native(module: str | None, name: str) -> Native | None:
    """The community modules' natives (specula/tla/natives_community.py, natives_tlcext.py), keyed
    by module."""
    if module == "TLCExt":
        # lazy: the natives modules cost ~25 ms (CPU) to import, paid only by specs using them
        from specula.tla.natives_tlcext import TLCEXT_NATIVES as table
    else:
        # lazy: as above
        from specula.tla.natives_community import COMMUNITY_NATIVES as table

    spec = table.get((module or "", name))
    if spec is None:
        return None
    return Native(name, spec.arity, spec.fn, frozenset(spec.op_params), spec.impure, spec.special)


def native_by_name(name: str) -> Native | None:
    return NATIVES.get(name)
