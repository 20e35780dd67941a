"""A state's identity in the search: ``key_function(model, fingerprint, order)`` gives the key
under which a state is stored — the state itself, or its VIEW, reduced to TLC's representative
of its orbit under SYMMETRY, optionally hashed to a 64-bit fingerprint.

Both searches (``checker.check``, ``simulate.simulate``) take their key from here, through
``plan.prepare``.
"""

from __future__ import annotations

from operator import is_
from typing import Any, Callable

from specula.tla.values import Fn, ModelValue, StringOrder, make_fn

__all__ = ["identity", "key_function", "token_ranks"]

State = tuple


def identity(s: State) -> State:
    """The key of a state when there is no VIEW, no SYMMETRY and no fingerprint: itself."""
    return s


def key_function(
    model: Any, fingerprint: Callable[[Any], int] | None = None, order: StringOrder | None = None
) -> Callable[[State], Any]:
    """state -> identity key: the VIEW of the state, reduced under SYMMETRY.

    By default the key is the (view of the) state itself: exact, collision-free, and much faster
    in Python than serialising each state for a 64-bit fingerprint (``values.fingerprint``);
    pass ``fingerprint`` to ``check`` to store 64-bit fingerprints instead (less memory for
    large states, TLC's collision risk). Under SYMMETRY the representative of a state's orbit is
    the lexicographically smallest permuted state, strings and model values ranked by ``order``
    (TLC's string order of the model, ``plan.model_string_order``; None: by first sight).
    """
    view = getattr(model, "view", None)
    has_view = bool(getattr(model, "has_view", False)) and callable(view)
    perms = list(getattr(model, "symmetry_perms", None) or ())
    permute = getattr(model, "permute", None)
    base: Callable[[State], Any] = view if has_view else identity  # type: ignore[assignment]
    if perms and callable(permute):
        return _symmetry_key(token_ranks(order), perms, permute, base, fingerprint)
    if fingerprint is not None:
        fp = fingerprint
        return (lambda s: fp(view(s))) if has_view else fp
    return base


def token_ranks(order: StringOrder | None) -> dict[str, int]:
    """Ranks of strings and model values in TLC's order (model values first, in the .cfg's
    order); empty without an order."""
    if order is None:
        return {}
    ranks = dict(order.rank)
    for name, r in order.mv.items():
        ranks[name] = r - len(order.mv)
    return ranks


def _symmetry_key(
    ranks: dict[str, int], perms: list, permute: Callable, base: Callable[[State], Any], fingerprint: Callable | None
) -> Callable[[State], Any]:
    """TLC's representative of a state under SYMMETRY: the lexicographically smallest permuted
    state (variables in order, values compared as TLC's ``compareTo``), then its VIEW.

    For a symmetry group (``Permutations(S)``, or products) any total order gives the same orbit
    count; for a union of permutation sets (not a group) TLC's count depends on its order, which
    is reproduced here (model values and strings ranked by TLC's interning order, approximated).
    """
    # memos by identity (entries keep their value alive, so an id is never reused while its
    # entry exists): the search interns stored states per variable and a permuted value equal to
    # its original is the original object, so most values recur as the same objects
    key_cache: dict[int, tuple] = {}
    vkey_cache: dict = {}

    def rank(name: str) -> int:
        r = ranks.get(name)
        if r is None:
            r = ranks[name] = len(ranks) + 1_000_000
        return r

    def key(v: Any) -> tuple:
        c = v.__class__
        if c is bool:
            return (0, int(v))
        if c is int:
            return (1, v)
        if c is str:
            return (2, rank(v))
        if c is ModelValue:
            return (3, rank(v.name))
        ent = key_cache.get(id(v))
        if ent is not None and ent[0] is v:
            return ent[1]
        k = vkey_cache.get(v)
        if k is not None:
            key_cache[id(v)] = (v, k)
            return k
        if c is tuple:  # a function with domain 1..n
            k = (5, len(v), tuple((1, i) for i in range(1, len(v) + 1)), tuple(key(x) for x in v))
        elif isinstance(v, (frozenset, set)):
            k = (4, len(v), tuple(sorted(key(x) for x in v)))
        elif isinstance(v, (Fn, dict)):
            items = sorted(((key(d), x) for d, x in v.items()), key=lambda t: t[0])
            k = (5, len(items), tuple(d for d, _ in items), tuple(key(x) for _, x in items))
        else:
            k = (9, repr(v))
        if len(key_cache) > 500_000:
            key_cache.clear()
            vkey_cache.clear()
        key_cache[id(v)] = (v, k)
        vkey_cache[v] = k
        return k

    def make_permuter(p: Any) -> Callable[[Any], Any]:
        """Value -> permuted value; sub-values are memoised (states share most of them)."""
        get = getattr(p, "get", None)
        if not callable(get):
            return lambda v: permute((v,), p)[0]
        memo: dict[int, tuple] = {}
        vmemo: dict = {}
        scalar = (int, str, bool)

        def pv(v: Any) -> Any:
            c = v.__class__
            if c is ModelValue:
                return get(v, v)
            if c in scalar:
                return v
            ent = memo.get(id(v))
            if ent is not None and ent[0] is v:
                return ent[1]
            r = vmemo.get(v)  # an equal value met before as another object
            if r is not None:
                memo[id(v)] = (v, r)
                return r
            if c is tuple:
                xs = [pv(x) for x in v]
                r = v if all(map(is_, xs, v)) else tuple(xs)
            elif c is frozenset:
                xs = [pv(x) for x in v]
                r = v if all(map(is_, xs, v)) else frozenset(xs)
            elif c is Fn:
                ks = [pv(k) for k in v]
                xs = [pv(x) for x in v.values()]
                r = v if all(map(is_, ks, v)) and all(map(is_, xs, v.values())) else make_fn(dict(zip(ks, xs)))
            else:
                r = permute((v,), p)[0]
            if len(memo) > 200_000:
                memo.clear()
                vmemo.clear()
            memo[id(v)] = (v, r)
            vmemo[v] = r
            return r

        return pv

    # the identity leaves every state as it is (the search starts from the state itself)
    permuters = [make_permuter(p) for p in perms if not _is_identity(p)]

    def canon(s: State) -> Any:
        # lexicographic minimum over the permuted states, permuting each variable lazily: a
        # permutation is abandoned at the first variable where it is not smaller
        best = s
        n = len(s)
        best_keys: list = [None] * n
        for pv in permuters:
            for j in range(n):
                a = pv(s[j])
                b = best[j]
                if a is b or a == b:
                    continue
                ka = key(a)
                kb = best_keys[j]
                if kb is None:
                    kb = best_keys[j] = key(b)
                if ka < kb:
                    best = best[:j] + (a,) + tuple([pv(x) for x in s[j + 1 :]])
                    best_keys = [None] * n
                    best_keys[j] = ka
                break
        v = base(best)
        return v if fingerprint is None else fingerprint(v)

    return canon


def _is_identity(p: Any) -> bool:
    if p.__class__ is Fn:
        return all(k == v for k, v in p.items())
    if p.__class__ is tuple:
        return p == tuple(range(1, len(p) + 1))
    return False
