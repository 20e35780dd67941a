"""TLA+ values as hashable Python objects, in one canonical form per value.

* integers: ``int``; booleans: ``bool`` (kept distinct from integers by :func:`tla_eq`,
  :func:`fingerprint` and :func:`sort_key`); strings: ``str``; model values: :class:`ModelValue`.
* finite sets: ``frozenset`` (normalized by construction).
* functions: a function whose domain is ``1..n`` (``n >= 0``) is a Python ``tuple`` -- so tuples,
  sequences and such functions are one form, and the empty function is ``()``; every other
  function (records included: a record is the function over its field-name strings) is an
  :class:`Fn`, an immutable ``dict`` subclass.  Build functions with :func:`make_fn`.
* lazy sets (:class:`LazySet` subclasses): ``Nat``, ``Int``, big intervals, ``[S -> T]``,
  ``[a : S]``, ``SUBSET S``, ``S \\X T``, ``Seq(S)``, filters and unions over them; membership
  without enumeration, enumeration only when finite.
* lazy functions (:class:`LazyFn`): recursive function definitions, evaluated on demand.

Everything here is pure; evaluation errors raise :class:`ValueFault` (the compiler turns it into
an ``EvalError`` with the span of the failing expression).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import struct
from bisect import bisect_right as _bisect_right
from functools import partial as _partial
from functools import reduce as _reduce
from itertools import chain as _chain

_chain_it = _chain.from_iterable
from operator import xor as _xor
from threading import get_ident as _get_ident
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterable, Iterator

__all__ = [
    "current_string_order",
    "ModelValue",
    "Fn",
    "fn_of_items",
    "LazyFn",
    "LazySet",
    "Interval",
    "NatSet",
    "IntSet",
    "BoolSet",
    "StringSet",
    "AnySet",
    "FuncSet",
    "RecordSet",
    "Powerset",
    "Product",
    "SeqSet",
    "FilterSet",
    "UnionSet",
    "ValueFault",
    "make_fn",
    "make_record",
    "tla_eq",
    "tla_eq_op",
    "sort_key",
    "ordered",
    "quick_order",
    "SiteOrder",
    "tlc_key",
    "tlc_string_order",
    "StringOrder",
    "is_set",
    "enumerate_set",
    "to_frozenset",
    "fingerprint",
    "from_python",
    "to_python",
    "to_json",
    "format_value",
    "type_name",
    "domain",
    "apply_fn",
]


class ValueFault(Exception):
    """An operation on values is undefined (TLC would report an evaluation error)."""


class _MVTag:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<mv>"


_MV_TAG = _MVTag()


class ModelValue(tuple):
    """A TLC model value: equal only to itself (by name).

    A tuple subclass ``(tag, name)`` with a private tag, so hashing, equality and ordering run in
    C (model values are dictionary keys and set members in most specs); no TLA+ value contains
    the tag, and the class is checked by identity (``v.__class__ is ModelValue``) everywhere.
    """

    __slots__ = ()

    def __new__(cls, name: str) -> "ModelValue":
        return tuple.__new__(cls, (_MV_TAG, name))

    @property
    def name(self) -> str:
        return self[1]

    def __getnewargs__(self) -> tuple:  # pickling / copying
        return (self[1],)

    def __repr__(self) -> str:
        return f"ModelValue({self[1]!r})"


_FN_SEED = 0x5F3759DF


class _Defer(Exception):
    """Raised by a lazy value's hash while a function's hash is computed at its creation."""


# the thread computing a function's hash at its creation (see _seal), 0 when none: a lazy value
# defers its hash only to that thread (another thread hashing a lazy value meanwhile, e.g. a second
# check in the MCP server or a session, gets its hash)
_sealing = 0


def _items_hash(items: tuple) -> int:
    return _reduce(_xor, map(hash, items), _FN_SEED)


def _seal(f: "Fn", h: Any) -> None:
    """Give the new function ``f`` its hash ``h`` (None: computed now, from its items).

    The hash is the slot ``__hash__`` of the instance, a bound ``int.__int__`` of the value:
    ``hash(f)`` reads and calls it in C (no Python frame: a state's hash calls it for each record
    of the state). A lazy set or function among the items is not hashed now (that could
    enumerate it): its ``__hash__`` raises ``_Defer``, and ``f``'s hash is computed from the
    items when asked, as before."""
    global _sealing
    if h is None:
        _sealing = _get_ident()
        try:
            h = _reduce(_xor, map(hash, dict.items(f)), _FN_SEED)
        except Exception:  # (_Defer, or a hash that fails: it fails again when asked)
            f.__hash__ = _partial(_items_hash, tuple(dict.items(f)))  # type: ignore[method-assign]
            return
        finally:
            _sealing = 0
    f.__hash__ = h.__int__  # type: ignore[method-assign]


class Fn(dict):
    """An immutable TLA+ function that is not a sequence (records are Fns over strings).

    Its hash, the XOR of the items' hashes (EXCEPT updates it in O(1), see fn_set1), is computed
    when it is created (``_seal``): creators fill the dict, then set ``_h = None`` (or the hash)."""

    __slots__ = ("__hash__",)

    _h = property(lambda self: self.__hash__(), _seal)

    def _ro(self, *a: object, **k: object) -> None:
        raise TypeError("TLA+ functions are immutable")

    def __reduce__(self) -> tuple:  # pickling (states sent between worker processes)
        return (fn_of_items, (tuple(dict.items(self)),))

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _ro  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Fn({dict.__repr__(self)})"


def fn_of_items(items: tuple) -> "Fn":
    f = Fn()
    dict.update(f, items)
    _seal(f, None)
    return f


def fn_set1(f: "Fn", k: Any, v: Any) -> "Fn":
    """``[f EXCEPT ![k] = v]`` for a key of f's domain: a copy with its hash updated from f's
    (f itself when v is the value there: PlusCal's ``pc' = [pc EXCEPT ![self] = "l"]`` in a loop)."""
    old = dict.__getitem__(f, k)
    if old is v:
        return f
    r = Fn()
    dict.update(r, f)
    dict.__setitem__(r, k, v)
    h = f.__hash__
    if h.__class__ is _partial:  # (f's hash is computed when asked: r's too)
        _seal(r, None)
    else:
        _seal(r, h() ^ hash((k, old)) ^ hash((k, v)))
    return r


def fn_setm(f: "Fn", ks: tuple, vs: tuple) -> "Fn":
    """``f`` with the values ``vs`` at those of the distinct keys ``ks`` that are in its domain:
    one copy; its hash from f's when few of its items change, else from its items (in C)."""
    r = Fn()
    dict.update(r, f)
    dict.update(r, zip(ks, vs))
    if len(r) != len(f):  # (keys outside f's domain: left out)
        for k in ks:
            if k not in f:
                dict.__delitem__(r, k)
    h = f.__hash__
    if h.__class__ is _partial or 2 * len(ks) >= len(f):
        _seal(r, None)
        return r
    h = h()
    for k in ks:
        if k in f:
            h ^= hash((k, dict.__getitem__(f, k))) ^ hash((k, dict.__getitem__(r, k)))
    _seal(r, h)
    return r


def make_fn(d: dict) -> "tuple | Fn":
    """The canonical function for the mapping ``d`` (a tuple when the domain is ``1..n``)."""
    n = len(d)
    if n == 0:
        return ()
    if 1 in d and n in d:
        try:
            out = tuple([d[i] for i in range(1, n + 1)])
        except KeyError:
            pass
        else:
            # all keys must really be ints (not True standing for 1)
            if all(k.__class__ is int for k in d):
                return out
    f = Fn()
    dict.update(f, d)
    _seal(f, None)
    return f


def make_record(pairs: Iterable[tuple[str, Any]]) -> "tuple | Fn":
    f = Fn()
    dict.update(f, pairs)
    _seal(f, None)
    return f if f else ()


# ----------------------------------------------------------------------------- lazy values


class LazySet:
    """A set known by membership; enumerable only when finite."""

    finite = True

    def __contains__(self, x: object) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def __iter__(self) -> Iterator[Any]:
        raise ValueFault(f"cannot enumerate the infinite set {format_value(self)}")

    def __len__(self) -> int:
        if not self.finite:
            raise ValueFault(f"the set {format_value(self)} is infinite")
        return sum(1 for _ in self)

    def materialize(self) -> frozenset:
        if not self.finite:
            raise ValueFault(f"the set {format_value(self)} is infinite and cannot be enumerated")
        return frozenset(iter(self))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazySet) and type(other) is type(self) and self.key() == other.key():
            return True
        if isinstance(other, (frozenset, LazySet)):
            if not self.finite or (isinstance(other, LazySet) and not other.finite):
                if isinstance(other, LazySet) and self.key() == other.key():
                    return True
                raise ValueFault(f"cannot compare the infinite set {format_value(self)} with {format_value(other)}")
            return self.materialize() == to_frozenset(other)
        return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        if _sealing and _sealing == _get_ident():
            raise _Defer
        if self.finite:
            return hash(self.materialize())
        return hash(self.key())

    def key(self) -> tuple:
        return (type(self).__name__, id(self))

    def issubset(self, other: Any) -> bool:
        return all(x in other for x in self)


class NatSet(LazySet):
    finite = False

    def __contains__(self, x: object) -> bool:
        return x.__class__ is int and x >= 0  # type: ignore[operator]

    def key(self) -> tuple:
        return ("Nat",)


class IntSet(LazySet):
    finite = False

    def __contains__(self, x: object) -> bool:
        return x.__class__ is int

    def key(self) -> tuple:
        return ("Int",)


class StringSet(LazySet):
    finite = False

    def __contains__(self, x: object) -> bool:
        return x.__class__ is str

    def key(self) -> tuple:
        return ("STRING",)


class AnySet(LazySet):
    """TLC's ``Any``: contains every value."""

    finite = False

    def __contains__(self, x: object) -> bool:
        return True

    def key(self) -> tuple:
        return ("Any",)


BoolSet = frozenset({False, True})


class Interval(LazySet):
    """``lo..hi`` kept lazy (the compiler materializes small intervals)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi

    def __contains__(self, x: object) -> bool:
        return x.__class__ is int and self.lo <= x <= self.hi  # type: ignore[operator]

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.lo, self.hi + 1))

    def __len__(self) -> int:
        return max(0, self.hi - self.lo + 1)

    def key(self) -> tuple:
        return ("..", self.lo, self.hi) if self.hi >= self.lo else ("{}",)


class FuncSet(LazySet):
    """``[S -> T]``"""

    __slots__ = ("dom", "rng", "_n")

    def __init__(self, dom: Any, rng: Any) -> None:
        self.dom, self.rng = dom, rng
        # n when the domain is exactly 1..n (members are then tuples), else -1
        n = -1
        if dom.__class__ is frozenset:
            if all(x.__class__ is int for x in dom) and all(i in dom for i in range(1, len(dom) + 1)):
                n = len(dom)
        elif dom.__class__ is Interval:
            n = max(0, dom.hi) if dom.lo == 1 else (0 if dom.hi < dom.lo else -1)
        self._n = n

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return _finite(self.dom) and (_finite(self.rng) or len(to_frozenset(self.dom)) == 0)

    def __contains__(self, f: object) -> bool:
        c = f.__class__
        if c is tuple:
            if self._n >= 0:
                if len(f) != self._n:  # type: ignore[arg-type]
                    return False
            elif not set_eq(Interval(1, len(f)), self.dom):  # type: ignore[arg-type]
                return False
            vals: Iterable[Any] = f  # type: ignore[assignment]
        elif c is Fn:
            dom = self.dom
            if dom.__class__ is frozenset:
                if len(f) != len(dom) or f.keys() != dom:  # type: ignore[arg-type,union-attr]
                    return False
            elif not set_eq(frozenset(f), dom):  # type: ignore[arg-type]
                return False
            vals = f.values()  # type: ignore[union-attr]
        elif isinstance(f, LazyFn):
            d = f.dom
            if not set_eq(d, self.dom):
                return False
            return all(f.apply(x) in self.rng for x in enumerate_set(d))
        else:
            return False
        rng = self.rng
        for v in vals:
            if v not in rng:
                return False
        return True

    def __iter__(self) -> Iterator[Any]:
        dom = ordered(to_frozenset(self.dom))
        rng = ordered(to_frozenset(self.rng))
        for combo in itertools.product(rng, repeat=len(dom)):
            yield make_fn(dict(zip(dom, combo)))

    def __len__(self) -> int:
        return len(to_frozenset(self.rng)) ** len(to_frozenset(self.dom))

    def key(self) -> tuple:
        return ("->", _key_of(self.dom), _key_of(self.rng))


class RecordSet(LazySet):
    """``[a : S, b : T]``"""

    __slots__ = ("fields",)

    def __init__(self, fields: tuple[tuple[str, Any], ...]) -> None:
        self.fields = tuple(sorted(fields, key=lambda p: p[0]))

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return all(_finite(s) for _, s in self.fields)

    def __contains__(self, r: object) -> bool:
        if r.__class__ is not Fn or len(r) != len(self.fields):  # type: ignore[arg-type]
            return False
        for name, s in self.fields:
            if name not in r or r[name] not in s:  # type: ignore[operator,index]
                return False
        return True

    def __iter__(self) -> Iterator[Any]:
        names = [n for n, _ in self.fields]
        sets = [ordered(to_frozenset(s)) for _, s in self.fields]
        for combo in itertools.product(*sets):
            yield make_record(zip(names, combo))

    def __len__(self) -> int:
        n = 1
        for _, s in self.fields:
            n *= len(to_frozenset(s))
        return n

    def key(self) -> tuple:
        return ("rec",) + tuple((n, _key_of(s)) for n, s in self.fields)


class Powerset(LazySet):
    """``SUBSET S``"""

    __slots__ = ("base",)

    def __init__(self, base: Any) -> None:
        self.base = base

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return _finite(self.base)

    def __contains__(self, x: object) -> bool:
        base = self.base
        if x.__class__ is frozenset:
            if base.__class__ is frozenset:
                return x <= base  # type: ignore[operator]
            for e in x:  # type: ignore[attr-defined]
                if e not in base:
                    return False
            return True
        if not is_set(x):
            return False
        return all(e in base for e in enumerate_set(x))

    def __iter__(self) -> Iterator[frozenset]:
        elems = ordered(to_frozenset(self.base))
        for r in range(len(elems) + 1):
            for c in itertools.combinations(elems, r):
                yield frozenset(c)

    def __len__(self) -> int:
        return 2 ** len(to_frozenset(self.base))

    def key(self) -> tuple:
        return ("SUBSET", _key_of(self.base))


class Product(LazySet):
    """``S1 \\X S2 \\X ...``"""

    __slots__ = ("sets",)

    def __init__(self, sets: tuple[Any, ...]) -> None:
        self.sets = sets

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return all(_finite(s) for s in self.sets)

    def __contains__(self, t: object) -> bool:
        return (
            t.__class__ is tuple
            and len(t) == len(self.sets)  # type: ignore[arg-type]
            and all(v in s for v, s in zip(t, self.sets))  # type: ignore[call-overload]
        )

    def __iter__(self) -> Iterator[tuple]:
        # TLC's order (SetOfTuplesValue, and its normalized order of tuples): the last component
        # varies fastest, each component in TLC's order of values
        return itertools.product(*[ordered(to_frozenset(s)) for s in self.sets])

    def __len__(self) -> int:
        n = 1
        for s in self.sets:
            n *= len(to_frozenset(s))
        return n

    def key(self) -> tuple:
        return ("X",) + tuple(_key_of(s) for s in self.sets)


class SeqSet(LazySet):
    """``Seq(S)``: all finite sequences over S (infinite unless S is empty)."""

    __slots__ = ("base",)
    finite = False

    def __init__(self, base: Any) -> None:
        self.base = base

    def __contains__(self, t: object) -> bool:
        if t.__class__ is not tuple:
            return False
        base = self.base
        for v in t:  # type: ignore[attr-defined]
            if v not in base:
                return False
        return True

    def key(self) -> tuple:
        return ("Seq", _key_of(self.base))


class FilterSet(LazySet):
    """``{x \\in S : P(x)}`` over a lazy S."""

    __slots__ = ("base", "pred")

    def __init__(self, base: Any, pred: Callable[[Any], bool]) -> None:
        self.base, self.pred = base, pred

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return _finite(self.base)

    def __contains__(self, x: object) -> bool:
        return x in self.base and self.pred(x)

    def __iter__(self) -> Iterator[Any]:
        return (x for x in enumerate_set(self.base) if self.pred(x))


class UnionSet(LazySet):
    """``S \\cup T`` (and ``\\cap``, ``\\``) when one side is infinite."""

    __slots__ = ("a", "b", "op")

    def __init__(self, a: Any, b: Any, op: str = "cup") -> None:
        self.a, self.b, self.op = a, b, op

    @property
    def finite(self) -> bool:  # type: ignore[override]
        if self.op == "cup":
            return _finite(self.a) and _finite(self.b)
        if self.op == "cap":
            return _finite(self.a) or _finite(self.b)
        return _finite(self.a)

    def __contains__(self, x: object) -> bool:
        if self.op == "cup":
            return x in self.a or x in self.b
        if self.op == "cap":
            return x in self.a and x in self.b
        return x in self.a and x not in self.b

    def __iter__(self) -> Iterator[Any]:
        if self.op == "cup":
            return iter(to_frozenset(self.a) | to_frozenset(self.b))
        src, other = (self.a, self.b) if _finite(self.a) else (self.b, self.a)
        if self.op == "cap":
            return (x for x in enumerate_set(src) if x in other)
        return (x for x in enumerate_set(self.a) if x not in self.b)

    def key(self) -> tuple:
        return (self.op, _key_of(self.a), _key_of(self.b))


class LazyFn:
    """A function given by a domain and a rule, evaluated on demand and memoized
    (recursive function definitions ``f[n \\in Nat] == ...``)."""

    __slots__ = ("dom", "rule", "memo", "name")

    def __init__(self, dom: Any, rule: Callable[[Any], Any], name: str = "") -> None:
        self.dom, self.rule, self.memo, self.name = dom, rule, {}, name

    def apply(self, x: Any) -> Any:
        try:
            return self.memo[x]
        except KeyError:
            pass
        if x not in self.dom:
            raise ValueFault(f"{format_value(x)} is not in the domain of the function {self.name}")
        v = self.rule(x)
        self.memo[x] = v
        return v

    def materialize(self) -> Any:
        if not _finite(self.dom):
            raise ValueFault(f"the function {self.name} has an infinite domain")
        return make_fn({x: self.apply(x) for x in enumerate_set(self.dom)})

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyFn):
            if other is self:
                return True
            other = other.materialize()
        return self.materialize() == other

    def __hash__(self) -> int:
        if _sealing and _sealing == _get_ident():
            raise _Defer
        return hash(self.materialize())


# ----------------------------------------------------------------------------- helpers


def _finite(s: Any) -> bool:
    return s.finite if isinstance(s, LazySet) else True


def _key_of(s: Any) -> Any:
    if isinstance(s, LazySet):
        return s.key()
    return ("set", fingerprint(s))


def is_set(x: object) -> bool:
    return x.__class__ is frozenset or isinstance(x, LazySet)


def to_frozenset(s: Any) -> frozenset:
    if s.__class__ is frozenset:
        return s
    if isinstance(s, LazySet):
        return s.materialize()
    raise ValueFault(f"expected a set, found {type_name(s)} {format_value(s)}")


def enumerate_set(s: Any) -> Iterable[Any]:
    """Elements of a finite set (raises ValueFault for infinite or non-set values)."""
    if s.__class__ is frozenset:
        return s
    if isinstance(s, LazySet):
        if not s.finite:
            raise ValueFault(f"cannot enumerate the infinite set {format_value(s)}")
        return s
    raise ValueFault(f"expected a set, found {type_name(s)} {format_value(s)}")


def set_eq(a: Any, b: Any) -> bool:
    if a.__class__ is frozenset and b.__class__ is frozenset:
        return a == b
    if isinstance(a, Interval) and isinstance(b, Interval):
        return a.key() == b.key()
    if isinstance(a, LazySet):
        return a == b
    if isinstance(b, LazySet):
        return b == a
    return False


_RANK = {bool: 0, int: 1, str: 2, ModelValue: 3, tuple: 4, Fn: 5, frozenset: 6}


def sort_key(v: Any) -> tuple:
    """A total order on values close to TLC's normalization order."""
    c = v.__class__
    r = _RANK.get(c)
    if r is None:
        if isinstance(v, LazySet):
            if v.finite:
                return sort_key(v.materialize())
            return (7, repr(v.key()))
        if isinstance(v, LazyFn):
            return sort_key(v.materialize())
        return (8, repr(v))
    if r <= 2:
        return (r, v)
    if r == 3:
        return (3, v.name)
    if r == 4:
        return (4, len(v), tuple(sort_key(x) for x in v))
    if r == 5:
        items = sorted(((sort_key(k), sort_key(x)) for k, x in v.items()))
        return (5, len(v), tuple(items))
    return (6, len(v), tuple(sorted(sort_key(x) for x in v)))


# ----------------------------------------------------------------------------- TLC's value order
#
# TLC enumerates a set in its normalized order (``Value.compareTo``): integers by value; strings
# and model values by the order in which TLC interned them (its UniqueString table: a fixed
# prelude, the .cfg, then the spec's text as parsed); sequences by length, then element by
# element; records field by field (name, then value) with the names in that same order; other
# functions by size, then domain, then values; sets by size, then elements. The string order of
# the model being checked is set for the duration of a check with :func:`tlc_string_order`;
# without one strings compare as text.

# What TLC 2.18 interns before the .cfg and the spec (measured: a set of these strings printed
# by TLC); the .cfg's words come between the two parts.
TLC_PRELUDE_HEAD = ("STRING", "FALSE", "TRUE", "BOOLEAN", "DOMAIN")
TLC_PRELUDE = (
    "TLC", "Sequences", "val", "Naturals", "FiniteSets", "Print", "Assert", "CHOOSE", "v", "JavaTime", "n",
    "Nat", "TLCGet", "i", "TLCSet", "d", "e", "x", "f", "g", "Permutations", "S", "w", "SortSeq", "s", "p",
    "Len", "j", "RandomElement", "Any", "ToString", "a", "b", "Integers", "key", "Int", "Seq", "t", "Append",
    "Head", "Tail", "SubSeq", "m", "F", "IsFiniteSet", "seq", "Cardinality", "T",
)


class StringOrder:
    """Ranks of strings (and model-value names) in TLC's interning order, and a memo of order
    keys. A string not ranked yet is ranked after all others when first compared (TLC interns
    strings made at run time, e.g. by ToString, when they are made)."""

    __slots__ = ("rank", "memo", "mv")

    def __init__(self, words: Iterable[str] = (), model_values: Iterable[str] = ()) -> None:
        self.rank: dict[str, int] = {}
        for w in words:
            self.rank.setdefault(w, len(self.rank))
        self.memo: dict[Any, tuple] = {}
        # model values compare by creation order (the .cfg's order), not by their names' ranks
        self.mv: dict[str, int] = {}
        for w in model_values:
            self.mv.setdefault(w, len(self.mv))

    def of_mv(self, name: str) -> int:
        r = self.mv.get(name)
        return r if r is not None else 1_000_000 + self.of(name)

    def of(self, w: str) -> int:
        r = self.rank.get(w)
        if r is None:
            r = self.rank[w] = len(self.rank)
        return r


_ORDER: ContextVar[StringOrder | None] = ContextVar("specula_tlc_string_order", default=None)


@contextmanager
def tlc_string_order(order: StringOrder | None) -> Iterator[None]:
    """Enumerate and compare values in TLC's order with ``order``'s string ranks meanwhile."""
    token = _ORDER.set(order)
    try:
        yield
    finally:
        _ORDER.reset(token)


def current_string_order() -> StringOrder | None:
    """The string order set by ``tlc_string_order`` (None outside it)."""
    return _ORDER.get()


def _tk(v: Any, so: StringOrder | None) -> tuple:
    c = v.__class__
    if c is int:
        return (1, v)
    if c is str:
        return (2, v) if so is None else (2, so.of(v))
    if c is bool:
        return (0, v)
    if c is ModelValue:
        return (-1, v[1]) if so is None else (-1, so.of_mv(v[1]))
    if so is not None:
        try:
            k = so.memo.get(v)
        except TypeError:
            k = None
        if k is not None:
            return k
    if c is tuple:
        k = (4, len(v), _flat([_tk(x, so) for x in v]))
    elif c is Fn:
        if all(x.__class__ is str for x in v):
            # a record: TLC normalizes it (fields sorted by their names' order), then compares the
            # names, then the values (RecordValue.compareTo)
            pairs = sorted([(_tk(n, so), x) for n, x in v.items()], key=_first)
            k = (5, len(v), 0, _flat([n for n, _ in pairs]), _flat([_tk(x, so) for _, x in pairs]))
        else:
            items = sorted([(_tk(d, so), x) for d, x in v.items()], key=_first)
            k = (5, len(v), 1, _flat([d for d, _ in items]), _flat([_tk(x, so) for _, x in items]))
    elif c is frozenset:
        k = (6, len(v), _flat(sorted([_tk(x, so) for x in v])))
    elif isinstance(v, LazySet) and v.finite:
        return _tk(v.materialize(), so)
    elif isinstance(v, LazyFn):
        return _tk(v.materialize(), so)
    else:
        return (8, repr(v))
    if so is not None:
        memo = so.memo
        if len(memo) > 400_000:
            memo.clear()
        try:
            memo[v] = k
        except TypeError:
            pass
    return k


def _flat(keys: list) -> tuple:
    """Keys of the parts of a value as one flat tuple, each key its class rank then the rest (the
    value of an atom, the tuple of the rest of a composite's key): compared in the same order as
    the tuple of the keys (parts of one class have keys of one shape), with cheaper comparisons
    (sorting a set of records compared nested tuples of pairs)."""
    out = []
    for k in keys:
        out.append(k[0])
        out.append(k[1] if len(k) == 2 else k[1:])
    return tuple(out)


def _first(t: tuple) -> Any:
    return t[0]


def tlc_key(v: Any) -> tuple:
    """A sort key giving TLC's order of values (see above)."""
    return _tk(v, _ORDER.get())


def _order_key(items: list) -> Any:
    """A cheaper key than :func:`tlc_key` giving the same order for common homogeneous sets
    (None: the items compare directly), else tlc_key."""
    c = items[0].__class__
    if c is int:
        if set(map(type, items)) == {c}:
            return None
    elif c is str or c is ModelValue:
        if set(map(type, items)) == {c}:
            so = _ORDER.get()
            if so is None:
                return None
            return so.of if c is str else (lambda mv, of=so.of_mv: of(mv[1]))
    elif c is tuple:
        # tuples of integers: TLC orders by length, then element by element
        if set(map(type, items)) == {tuple} and set(map(type, _chain(*items))) <= {int}:
            return _len_then_tuple
    return tlc_key


def _len_then_tuple(t: tuple) -> tuple:
    return (len(t), t)


def ordered(s: Iterable[Any]) -> list:
    """Elements of a set in TLC-like order (deterministic across runs)."""
    items = list(s)
    if len(items) < 2:
        return items
    key = _order_key(items)
    so = _ORDER.get()
    if key is tlc_key and so is not None:
        # composite values (a set of records): their keys are mostly in the memo, looked up
        # without a Python call per item; sorted by index (keys never compare the items)
        ks = list(map(so.memo.get, items))
        if None in ks:
            ks = [_tk(x, so) for x in items]
        return list(map(items.__getitem__, sorted(range(len(items)), key=ks.__getitem__)))
    items.sort(key=key)
    return items


_TUPLE_T = frozenset({tuple})
_INT_T = frozenset({int})


def least(s: Iterable[Any]) -> Any:
    """The first element of a non-empty set in TLC's order (what ``ordered(s)[0]`` is)."""
    items = s if s.__class__ is list else list(s)
    if len(items) < 2:
        return items[0]
    if items[0].__class__ is tuple and set(map(type, items)) == _TUPLE_T \
            and set(map(type, _chain_it(items))) <= _INT_T:
        # tuples of integers (CHOOSE p \in Points : TRUE): C-level comparisons only
        if len(set(map(len, items))) == 1:
            return min(items)
        return min(items, key=_len_then_tuple)
    key = _order_key(items)
    return min(items) if key is None else min(items, key=key)


def quick_order(s: Iterable[Any]) -> Any:
    r"""Elements of a set in TLC's order, for enumeration in actions (``x \in S``, ``\E``): the
    order in which successors are generated decides which of the equally short counterexamples
    is found and the counts at a violation, as in TLC. Integers sort directly."""
    if s.__class__ is not frozenset:
        if isinstance(s, (UnionSet, FilterSet)):
            return ordered(s)  # normalized, as TLC enumerates them
        return list(s)  # intervals, [S -> T], records, \X, SUBSET: their own order (TLC's)
    if len(s) < 2:
        return s
    for x in s:
        c = x.__class__
        break
    if c is int:
        try:
            return sorted(s)
        except TypeError:
            pass
    return ordered(s)


class SiteOrder:
    r"""TLC's order of the sets one enumeration site meets (``\E m \in msgs`` per state), from
    ranks of their elements by identity: a state's set is mostly the elements of an earlier one
    (the very objects: records are hash-consed per site, states interned), so the order of a new
    set is a sort of small integers, not of order keys. Elements are ranked by :func:`tlc_key`
    when first met (the ranked objects are kept, so an identity is never reused); after
    ``LIMIT`` elements the site orders by ``quick_order``. One per site and string order."""

    __slots__ = ("objs", "keys", "rank")
    LIMIT = 1_000

    def __init__(self) -> None:
        self.objs: list = []  # the elements met, in TLC's order
        self.keys: list = []  # their order keys
        self.rank: dict[int, int] = {}  # id(element) -> its index in objs

    def order(self, s: frozenset) -> Any:
        """The elements of ``s`` in TLC's order (what ``quick_order(s)`` is)."""
        if len(s) < 2:
            return quick_order(s)
        for x in s:
            c = x.__class__
            break
        if c is int or c is str:
            return quick_order(s)
        # a rank is the element's index in ``objs`` (the elements met, in TLC's order): the
        # sorted ranks index the elements in order (an int sort, no key function)
        try:
            ranks = sorted(map(self.rank.__getitem__, map(id, s)))
        except KeyError:
            if not self._learn(list(s)):
                return quick_order(s)
            ranks = sorted(map(self.rank.__getitem__, map(id, s)))
        return list(map(self.objs.__getitem__, ranks))

    def _learn(self, items: list) -> bool:
        rank = self.rank
        new = [x for x in items if id(x) not in rank]
        if len(self.objs) + len(new) > self.LIMIT:
            return False
        so = _ORDER.get()
        objs, keys = self.objs, self.keys
        for k, x in [(_tk(x, so), x) for x in new]:  # (every key first: one may fail)
            i = _bisect_right(keys, k)
            keys.insert(i, k)
            objs.insert(i, x)
        self.rank = {id(x): i for i, x in enumerate(objs)}
        return True


def _eq_kind(v: Any) -> int:
    c = v.__class__
    if c is bool:
        return 0
    if c is int:
        return 1
    if c is str:
        return 2
    if c is ModelValue:
        return 3
    if c is tuple or c is Fn or isinstance(v, LazyFn):
        return 4
    if c is frozenset or isinstance(v, LazySet):
        return 5
    return 6


def tla_eq(a: Any, b: Any) -> bool:
    """Equality of two values as a comparison (never an error): booleans never equal integers,
    values of different kinds differ; structural otherwise. TLA+'s ``=`` is :func:`tla_eq_op`."""
    if a.__class__ is not b.__class__:
        ca, cb = a.__class__, b.__class__
        if ca is bool or cb is bool:
            return False
        if isinstance(a, (LazySet, LazyFn)) or isinstance(b, (LazySet, LazyFn)):
            return a == b if isinstance(a, (LazySet, LazyFn)) else b == a
        return False
    # containers: structural (a bool nested where an int is expected cannot occur in a spec TLC
    # accepts: TLC reports comparing a boolean with an integer as an error)
    return a == b


def tla_eq_op(a: Any, b: Any) -> bool:
    """TLA+'s ``=`` as TLC evaluates it: values of different kinds (a boolean and an integer, a
    string and a set, a record and an integer, ...) are an error ("Attempted to check equality
    of ..."); a model value differs from every other value."""
    if a.__class__ is not b.__class__:
        ka, kb = _eq_kind(a), _eq_kind(b)
        if ka != kb and 3 not in (ka, kb) and 6 not in (ka, kb):
            raise ValueFault(f"Attempted to check equality of {type_name(a)} {format_value(a)} with "
                             f"{type_name(b)} {format_value(b)}")
        mv, other = (a, b) if ka == 3 else (b, a) if kb == 3 else (None, None)
        if mv is not None and other.__class__ is not ModelValue and is_typed_model_value(mv):
            the = "" if mv is a else "the "  # TLC's two messages: the model value left or right of =
            raise ValueFault(f"Attempted to check equality of {the}typed model value {mv[1]} and {the}non-model "
                             f"value\n{format_value(other)}")
    return tla_eq(a, b)


def is_typed_model_value(v: ModelValue) -> bool:
    """TLC's typed model value: a name ``x_str`` (any character x, a non-empty str) has type x,
    and comparing it with a value that is not a model value is an error."""
    name = v[1]
    return len(name) > 2 and name[1] == "_"


def type_name(v: Any) -> str:
    c = v.__class__
    if c is bool:
        return "boolean"
    if c is int:
        return "integer"
    if c is str:
        return "string"
    if c is ModelValue:
        return "model value"
    if c is tuple:
        return "sequence"
    if c is Fn:
        return "record" if all(k.__class__ is str for k in v) else "function"
    if c is frozenset or isinstance(v, LazySet):
        return "set"
    if isinstance(v, LazyFn):
        return "function"
    return c.__name__


def domain(f: Any) -> Any:
    c = f.__class__
    if c is tuple:
        return frozenset(range(1, len(f) + 1))
    if c is Fn:
        return frozenset(f.keys())
    if isinstance(f, LazyFn):
        return f.dom
    raise ValueFault(f"DOMAIN applied to {type_name(f)} {format_value(f)}, which is not a function")


def apply_fn(f: Any, x: Any) -> Any:
    c = f.__class__
    if c is tuple:
        if x.__class__ is int and 0 < x <= len(f):
            return f[x - 1]
        raise ValueFault(f"index {format_value(x)} is out of the domain 1..{len(f)} of {format_value(f)}")
    if c is Fn:
        try:
            v = f[x]
        except (KeyError, TypeError):
            raise ValueFault(
                f"{format_value(x)} is not in the domain of {format_value(f)}"
            ) from None
        return v
    if isinstance(f, LazyFn):
        return f.apply(x)
    raise ValueFault(f"applying {type_name(f)} {format_value(f)} to an argument: it is not a function")


# ----------------------------------------------------------------------------- fingerprints


def _fp_bytes(v: Any, out: bytearray) -> None:
    c = v.__class__
    if c is bool:
        out += b"B1" if v else b"B0"
    elif c is int:
        s = str(v).encode()
        out += b"I" + struct.pack("<I", len(s)) + s
    elif c is str:
        s = v.encode("utf-8")
        out += b"S" + struct.pack("<I", len(s)) + s
    elif c is ModelValue:
        s = v.name.encode("utf-8")
        out += b"M" + struct.pack("<I", len(s)) + s
    elif c is tuple:
        out += b"T" + struct.pack("<I", len(v))
        for x in v:
            _fp_bytes(x, out)
    elif c is Fn:
        parts = []
        for k, x in v.items():
            b = bytearray()
            _fp_bytes(k, b)
            _fp_bytes(x, b)
            parts.append(bytes(b))
        parts.sort()
        out += b"F" + struct.pack("<I", len(parts))
        for p in parts:
            out += p
    elif c is frozenset:
        parts = []
        for x in v:
            b = bytearray()
            _fp_bytes(x, b)
            parts.append(bytes(b))
        parts.sort()
        out += b"E" + struct.pack("<I", len(parts))
        for p in parts:
            out += p
    elif isinstance(v, LazySet):
        if v.finite:
            _fp_bytes(v.materialize(), out)
        else:
            out += b"L" + repr(v.key()).encode()
    elif isinstance(v, LazyFn):
        _fp_bytes(v.materialize(), out)
    else:
        raise ValueFault(f"not a TLA+ value: {v!r}")


def fingerprint(v: Any) -> int:
    """A 64-bit fingerprint of a value (or of a state tuple), stable across runs and machines."""
    out = bytearray()
    _fp_bytes(v, out)
    return int.from_bytes(hashlib.blake2b(bytes(out), digest_size=8).digest(), "little")


# ----------------------------------------------------------------------------- conversion


def from_python(obj: Any) -> Any:
    """int, bool, str, list/tuple -> sequence, dict -> record/function, set -> set, ModelValue."""
    if obj is None:
        raise ValueFault("None has no TLA+ value")
    c = obj.__class__
    if c in (bool, int, str, ModelValue):
        return obj
    if isinstance(obj, (list, tuple)):
        return tuple(from_python(x) for x in obj)
    if isinstance(obj, dict):
        return make_fn({from_python(k): from_python(v) for k, v in obj.items()})
    if isinstance(obj, (set, frozenset)):
        return frozenset(from_python(x) for x in obj)
    if isinstance(obj, (LazySet, LazyFn)):
        return obj
    if hasattr(obj, "name") and obj.__class__.__name__ == "CfgModelValue":
        return ModelValue(obj.name)
    raise ValueFault(f"cannot convert {c.__name__} {obj!r} to a TLA+ value")


def to_python(v: Any) -> Any:
    """Sequences -> list, functions/records -> dict, sets -> frozenset (sets of unhashables -> list)."""
    c = v.__class__
    if c in (bool, int, str, ModelValue):
        return v
    if c is tuple:
        return [to_python(x) for x in v]
    if c is Fn:
        return {_py_key(k): to_python(x) for k, x in v.items()}
    if isinstance(v, LazyFn):
        return to_python(v.materialize())
    if c is frozenset or isinstance(v, LazySet):
        items = [to_python(x) for x in ordered(enumerate_set(v))]
        try:
            return frozenset(items)
        except TypeError:
            return items
    raise ValueFault(f"not a TLA+ value: {v!r}")


def _py_key(k: Any) -> Any:
    if k.__class__ in (bool, int, str, ModelValue):
        return k
    return format_value(k)


def to_json(v: Any) -> Any:
    """A JSON-compatible form: sequences and sets -> lists (sets sorted), records -> objects,
    other functions -> objects keyed by the formatted key, model values -> their name."""
    c = v.__class__
    if c in (bool, int, str):
        return v
    if c is ModelValue:
        return v.name
    if c is tuple:
        return [to_json(x) for x in v]
    if c is Fn:
        out = {}
        for k in ordered(v.keys()):
            key = k if k.__class__ is str else (k.name if k.__class__ is ModelValue else format_value(k))
            out[key] = to_json(v[k])
        return out
    if isinstance(v, LazyFn):
        return to_json(v.materialize())
    if c is frozenset or isinstance(v, LazySet):
        return [to_json(x) for x in ordered(enumerate_set(v))]
    raise ValueFault(f"not a TLA+ value: {v!r}")


def _fmt_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def format_value(v: Any) -> str:
    """TLA+ syntax as TLC prints values."""
    c = v.__class__
    if c is bool:
        return "TRUE" if v else "FALSE"
    if c is int:
        return str(v)
    if c is str:
        return _fmt_str(v)
    if c is ModelValue:
        return v.name
    if c is tuple:
        return "<<" + ", ".join(format_value(x) for x in v) + ">>"
    if c is Fn:
        keys = ordered(v.keys())
        if all(k.__class__ is str for k in keys):
            # fields in TLC's string order (a record in a state is normalized: TLC prints
            # [c |-> ..., type |-> ...] when c was interned first)
            return "[" + ", ".join(f"{k} |-> {format_value(v[k])}" for k in keys) + "]"
        return "(" + " @@ ".join(f"{format_value(k)} :> {format_value(v[k])}" for k in keys) + ")"
    if c is frozenset:
        return "{" + ", ".join(format_value(x) for x in ordered(v)) + "}"
    if isinstance(v, Interval):
        return f"{v.lo}..{v.hi}"
    if isinstance(v, NatSet):
        return "Nat"
    if isinstance(v, IntSet):
        return "Int"
    if isinstance(v, StringSet):
        return "STRING"
    if isinstance(v, AnySet):
        return "Any"
    if isinstance(v, LazySet) and v.finite:
        try:
            return format_value(v.materialize())
        except ValueFault:
            pass
    if isinstance(v, FuncSet):
        return f"[{format_value(v.dom)} -> {format_value(v.rng)}]"
    if isinstance(v, RecordSet):
        return "[" + ", ".join(f"{n} : {format_value(s)}" for n, s in v.fields) + "]"
    if isinstance(v, Powerset):
        return f"SUBSET {format_value(v.base)}"
    if isinstance(v, Product):
        return " \\X ".join(format_value(s) for s in v.sets)
    if isinstance(v, SeqSet):
        return f"Seq({format_value(v.base)})"
    if isinstance(v, LazySet):
        if v.finite:
            try:
                return format_value(v.materialize())
            except ValueFault:
                pass
        return "<set>"
    if isinstance(v, LazyFn):
        try:
            return format_value(v.materialize())
        except ValueFault:
            return f"<function {v.name}>"
    return repr(v)
