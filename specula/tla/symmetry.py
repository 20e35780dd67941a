"""A state's identity in the search: ``key_function(model, fingerprint, order)`` gives the key
under which a state is stored — the state itself, or its VIEW, reduced to a canonical
representative of its orbit under SYMMETRY, optionally hashed to a 64-bit fingerprint.

Both searches (``checker.check``, ``simulate.simulate``) take their key from here, through
``plan.prepare``.
"""

from __future__ import annotations

from itertools import permutations, product
from math import factorial
from operator import is_, itemgetter
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
    large states, TLC's collision risk). Under SYMMETRY the key is a canonical form of the
    state's orbit (``_symmetry_key``); with a VIEW, TLC's own representative: the
    lexicographically smallest permuted state, strings and model values ranked by ``order``
    (TLC's string order of the model, ``plan.model_string_order``; None: by first sight).
    """
    view = getattr(model, "view", None)
    has_view = bool(getattr(model, "has_view", False)) and callable(view)
    perms = list(getattr(model, "symmetry_perms", None) or ())
    permute = getattr(model, "permute", None)
    base: Callable[[State], Any] = view if has_view else identity  # type: ignore[assignment]
    if perms and callable(permute):
        return _symmetry_key(token_ranks(order), perms, permute, base, fingerprint, exact=has_view)
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
    ranks: dict[str, int], perms: list, permute: Callable, base: Callable[[State], Any], fingerprint: Callable | None,
    exact: bool = True,
) -> Callable[[State], Any]:
    """The key of a state under SYMMETRY: its orbit's representative, then its VIEW.

    ``exact`` (needed with a VIEW, whose value on a representative depends on which one is
    kept): TLC's representative, the lexicographically smallest permuted state (variables in
    order, values compared as TLC's ``compareTo``), found over every permutation. Otherwise,
    when the permutations form a group (TLC closes the SYMMETRY set into one), any canonical
    form of the orbit partitions the states exactly as TLC's does — the same distinct and
    generated counts, the same states explored (the search keeps the state it reached, not the
    representative) — so a cheaper one is used: ``_orbit_canon``.
    """
    key = _order_key(ranks)
    if not exact:
        fast = _orbit_canon(perms, permute, key)
        if fast is not None:
            if fingerprint is None:
                return fast
            fp = fingerprint
            return lambda s: fp(fast(s))

    # the identity leaves every state as it is (the search starts from the state itself)
    permuters = [_permuter(p, permute) for p in perms if not _is_identity(p)]

    def canon(s: State) -> Any:
        v = base(_lexmin(s, s, permuters, key))
        return v if fingerprint is None else fingerprint(v)

    return canon


def _order_key(ranks: dict[str, int]) -> Callable[[Any], tuple]:
    """value -> a tuple ordered as TLC's ``compareTo`` orders values (strings and model values
    by ``ranks``; a name not ranked is ranked after all others, at first sight)."""
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

    return key


def _permuter(p: Any, permute: Callable, pool: dict | None = None) -> Callable[[Any], Any]:
    """Value -> its image under the permutation ``p``; sub-values are memoised (states share
    most of them), and a value the permutation leaves as it is comes back as the same object.
    With a ``pool`` (shared by the permuters of a group), equal images are the same object."""
    get = getattr(p, "get", None)
    if not callable(get):
        return lambda v: permute((v,), p)[0]
    memo: dict[int, tuple] = {}  # id -> (value, image): the entry keeps the value alive
    vmemo: dict = {}
    mget = memo.get
    image_of = itemgetter(1)

    def images(xs: Any) -> list:
        """The images of the elements ``xs``, a call only for those not met before."""
        out = []
        for x in xs:
            c = x.__class__
            if c is ModelValue:
                x = get(x, x)
            elif c is not str and c is not int and c is not bool:
                ent = mget(id(x))
                x = ent[1] if ent is not None else pv(x)
            out.append(x)
        return out

    def pv(v: Any) -> Any:
        c = v.__class__
        if c is ModelValue:
            return get(v, v)
        if c is int or c is str or c is bool:
            return v
        ent = mget(id(v))
        if ent is not None:
            return ent[1]
        r = vmemo.get(v)  # an equal value met before as another object
        if r is not None:
            memo[id(v)] = (v, r)
            return r
        if c is tuple:
            xs = images(v)
            r = v if all(map(is_, xs, v)) else tuple(xs)
        elif c is frozenset:
            ents = list(map(mget, map(id, v)))
            if None in ents:
                xs = [pv(x) if e is None else e[1] for x, e in zip(v, ents)]
            else:
                xs = list(map(image_of, ents))
            r = v if all(map(is_, xs, v)) else frozenset(xs)
        elif c is Fn:
            ks = images(v)
            xs = images(v.values())
            r = v if all(map(is_, ks, v)) and all(map(is_, xs, v.values())) else make_fn(dict(zip(ks, xs)))
        else:
            r = permute((v,), p)[0]
        if pool is not None and r is not v:
            if len(pool) > 500_000:
                pool.clear()
            r = pool.setdefault(r, r)
        if len(memo) > 200_000:
            memo.clear()
            vmemo.clear()
        memo[id(v)] = (v, r)
        vmemo[v] = r
        return r

    return pv


def _lexmin(s: State, best: State, permuters: list, key: Callable[[Any], tuple]) -> State:
    """The lexicographically smallest of ``best`` and the images of ``s`` under ``permuters``
    (variables in order, values by ``key``), permuting each variable lazily: a permutation is
    abandoned at the first variable where it is not smaller."""
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
    return best


# salts of the structural hashes below (any constants: they only need to be the same for every
# state of a run)
_POINT, _OPAQUE, _SEQ, _SET, _FN, _FN_VAL, _FN_KEY, _VAR = 0x51ED27, 0x0A0E, 0x5E0, 0x5E7, 0xF0, 0xF1, 0xF2, 0x7A
_MASK = (1 << 48) - 1
_M64 = (1 << 64) - 1
_SET_ATOM = 0x5E7A
_POINT_IN_SET = hash((_POINT, _SET_ATOM)) & _M64
# a signature vector packed in one int, a lane per point: sums of fewer than 2**48 lanes of
# (hash & _MASK) | 1 never carry into the next lane
_LANE_BITS = 96
_LANE = (1 << _LANE_BITS) - 1


def _orbit_canon(perms: list, permute: Callable, key: Callable[[Any], tuple]) -> Callable[[State], State] | None:
    """A canonical form of a state's orbit under the group ``perms`` of permutations of model
    values, found without applying every permutation; None where it does not apply (not a
    group of permutations of model values).

    Each symmetric model value m gets a signature from the state: the structural contexts of
    its occurrences (where it sits: variable, record field, sequence position, the shape of the
    values around it with every symmetric model value blanked out). The signatures are
    equivariant — a permuted state gives p(m) the signature m had — so over an orbit, the pairs
    (signature vector of t, t) are the same set whatever state of the orbit we start from, and
    the representative is the smallest of them: the permutations that put the smallest
    signature vector in place (usually one or a few of the group's), then the lexicographically
    smallest image among those. A signature collision only costs more candidates, never a
    wrong answer.
    """
    if len(perms) < 2 or any(p.__class__ is not Fn for p in perms):
        return None
    points: list = []
    index: dict = {}
    for p in perms:
        for a, b in p.items():
            if a.__class__ is not ModelValue or b.__class__ is not ModelValue:
                return None
            if a != b and a not in index:
                index[a] = len(points)
                points.append(a)
    n = len(points)
    if n < 2:
        return None
    imgs = []
    for p in perms:
        img = tuple(index.get(p.get(m, m), -1) for m in points)
        if -1 in img or len(set(img)) != n:
            return None
        imgs.append(img)
    is_group, orbits = _group_orbits(imgs, n)
    if not is_group:
        return None
    perm_at = {img: k for k, img in enumerate(imgs)}
    getters = []
    for img in imgs:
        inv = [0] * n
        for i, k in enumerate(img):
            inv[k] = i
        getters.append(itemgetter(*inv))
    pool: dict = {}
    permuters = [(lambda v: v) if _is_identity(p) else _permuter(p, permute, pool) for p in perms]
    swaps: dict[tuple[int, int], Callable] = {}

    def swap(a: int, b: int) -> Callable:
        """The permuter of the transposition of points a and b (in the group: a product of
        symmetric groups)."""
        pv = swaps.get((a, b))
        if pv is None:
            t = list(range(n))
            t[a], t[b] = b, a
            pv = swaps[(a, b)] = permuters[perm_at[tuple(t)]]
        return pv

    def fixes(pv: Callable, s: State) -> bool:
        for x in s:
            y = pv(x)
            if y is not x and y != x:
                return False
        return True

    # A value's analysis: (its hash with the symmetric model values blanked out, its packed
    # occurrences — an int with a lane of _LANE_BITS bits per point, 0 where the point does not
    # occur, else a hash of the contexts of its occurrences). A set's lanes are the sums of its
    # elements' (an element's context does not depend on the other elements); a sequence or a
    # function re-hashes each child's lanes with the child's place and the container's shape.
    # Every step treats the points alike, so the lanes of p(v) are those of v, permuted by p.
    shifts = [_LANE_BITS * i for i in range(n)]
    point_res = [(_POINT, 1 << sh) for sh in shifts]
    memo: dict[int, tuple] = {}  # id -> (value, blank, packed): the entry keeps the value alive
    vmemo: dict = {}
    mget = memo.get
    blank_of, packed_of = itemgetter(1), itemgetter(2)

    def mix(packed: int, salt: Any) -> int:
        """Each nonzero lane of ``packed`` re-hashed with ``salt`` (never 0: it still occurs)."""
        out = 0
        if n <= 8:  # a lane at a time (cheaper than finding the occupied ones in a big int)
            for sh in shifts:
                lane = (packed >> sh) & _LANE
                if lane:
                    out |= ((hash((lane, salt)) & _MASK) | 1) << sh
            return out
        sh = 0
        while packed:
            lane = packed & _LANE
            if lane:
                out |= ((hash((lane, salt)) & _MASK) | 1) << sh
            packed >>= _LANE_BITS
            sh += _LANE_BITS
        return out

    def analyse(v: Any) -> tuple:
        """(hash of v with the symmetric model values blanked, v's packed occurrences)"""
        c = v.__class__
        if c is ModelValue:
            i = index.get(v)
            return (hash(v), 0) if i is None else point_res[i]
        if c is int or c is str or c is bool:
            return (hash(v), 0)
        ent = mget(id(v))
        if ent is not None:
            return ent[1], ent[2]
        r = vmemo.get(v)
        if r is None:
            if c is frozenset:
                r = analyse_set(v)
            elif c is tuple:
                rs = list(map(analyse, v))
                blank = hash((_SEQ, tuple(map(itemgetter(0), rs))))
                packed = 0
                for i, (_, o) in enumerate(rs):
                    if o:
                        packed += mix(o, (i, blank))
                r = (blank, packed)
            elif c is Fn:
                r = analyse_fn(v)
            else:  # lazy values: the permutations leave them as they are
                r = (_OPAQUE, 0)
            vmemo[v] = r
        if len(memo) > 300_000:
            memo.clear()
            vmemo.clear()
            pool.clear()
        memo[id(v)] = (v, r[0], r[1])
        return r

    def elem(x: Any) -> tuple | None:
        """A set element's (blank, packed) as the set sums them; None for a symmetric model
        value (its context is the whole set's shape, see analyse_set)."""
        c = x.__class__
        if c is int or c is str or c is bool:
            return hash((x, _SET_ATOM)), 0  # atoms' hashes are not random (hash(2) == 2)
        if c is ModelValue:
            if x in index:
                return None
            return hash((x, _SET_ATOM)), 0
        e = mget(id(x))
        if e is not None:
            return e[1], e[2]
        return analyse(x)

    def set_parts(v: frozenset) -> tuple:
        """(the sum of v's elements' blanks mod 2**64, the sum of their packed occurrences,
        the symmetric model values that are elements). Sums, so a set's parts follow from
        another set's and the elements that differ (set_delta)."""
        ents = list(map(mget, map(id, v)))
        if None not in ents:  # every element met before (the usual case but for one)
            return sum(map(blank_of, ents)) & _M64, sum(map(packed_of, ents)), ()
        bl = 0
        packed = 0
        direct = []
        for x, e in zip(v, ents):
            if e is None:
                e = elem(x)
                if e is None:
                    direct.append(index[x])
                    bl += _POINT_IN_SET
                    continue
                bl += e[0]
                packed += e[1]
            else:
                bl += e[1]
                packed += e[2]
        return bl & _M64, packed, direct

    def set_result(total: int, packed: int, direct: Any) -> tuple:
        blank = hash((_SET, total))
        # a model value that is itself an element takes the set's shape as its context;
        # deeper ones already have their element's
        if direct:
            h = (hash((blank, _SET)) & _MASK) | 1
            for i in direct:
                packed += h << shifts[i]
        return blank, packed

    def analyse_set(v: frozenset) -> tuple:
        return set_result(*set_parts(v))

    def set_delta(v: frozenset, ref: frozenset, re: list) -> tuple | None:
        """set_parts(v) from ``ref``'s (in its variable entry ``re``) and the elements in one
        and not the other: (total, packed, added, removed), or None (too many differ, or a
        symmetric model value is an element)."""
        parts = re[nperms + 1]
        if parts is None:
            return None
        added = v - ref
        na = len(added)
        if na > 8:
            return None
        total, packed = parts
        removed = ref - v if len(ref) + na != len(v) else ()
        for x in added:
            e = elem(x)
            if e is None:
                return None
            total += e[0]
            packed += e[1]
        for x in removed:
            e = elem(x)  # never None: ref has no symmetric model value as an element
            total -= e[0]  # type: ignore[index]
            packed -= e[1]  # type: ignore[index]
        return total & _M64, packed, added, removed

    def analyse_fn(v: Fn) -> tuple:
        bl = []
        parts = []
        for k, x in v.items():
            if k.__class__ is str:
                bk, ok = hash(k), 0
            else:
                bk, ok = analyse(k)
            cx = x.__class__
            if cx is int or cx is str or cx is bool:
                bx, ox = hash(x), 0
            else:
                ent = mget(id(x))
                bx, ox = (ent[1], ent[2]) if ent is not None else analyse(x)
            bl.append(hash((bk, bx)))
            if ok or ox:
                parts.append((bk, ok, bx, ox))
        bl.sort()
        blank = hash((_FN, tuple(bl)))
        packed = 0
        for bk, ok, bx, ox in parts:
            if ox:
                packed += mix(ox, (_FN_VAL, bk, blank))
            if ok:
                packed += mix(ok, (_FN_KEY, bx, blank))
        return blank, packed

    var_memos: list[dict] = []
    nperms = len(perms)
    part_of = itemgetter(nperms)
    fs = frozenset
    image_of = [itemgetter(k) for k in range(nperms)]

    def var_entry(j: int, x: Any) -> list:
        """Variable j's value x's entry, memoised by identity (the entry keeps x alive, so an id
        found is x's): x's images by permutation index (None: not computed yet), then the
        signatures' part from x, the n ints packed in lanes of _LANE_BITS bits (0: no
        symmetric model value occurs in x, and every permutation leaves x as it is), then for
        a set with no symmetric model value as an element, its set_parts (else None)."""
        parts = None
        if x.__class__ is frozenset:
            ent = mget(id(x))
            total, packed, direct = set_parts(x)
            if ent is None:
                r = vmemo.get(x)
                if r is None:
                    r = vmemo[x] = set_result(total, packed, direct)
                if len(memo) > 300_000:
                    memo.clear()
                    vmemo.clear()
                    pool.clear()
                memo[id(x)] = (x, r[0], r[1])
            if not direct:
                parts = (total, packed)
            part = packed if not direct else analyse(x)[1]
        else:
            part = analyse(x)[1]
        return new_entry(j, x, part, parts)

    def new_entry(j: int, x: Any, part: int, parts: Any) -> list:
        if part:
            part = mix(part, (_VAR, j))
        vm = var_memos[j]
        if len(vm) > 100_000:
            vm.clear()
        if part:
            e = [None] * (nperms + 2)
            e[identity_at] = x
        else:
            e = [x] * (nperms + 2)
        e[nperms] = part
        e[nperms + 1] = parts
        vm[id(x)] = e
        return e

    def delta_entry(j: int, x: frozenset, ref: frozenset, re: list) -> tuple | None:
        """x's variable entry from the entry ``re`` of the set ``ref`` (the parent state's value
        of variable j), and the delta; None where set_delta does not apply."""
        d = set_delta(x, ref, re)
        if d is None:
            return None
        total, packed, added, removed = d
        if mget(id(x)) is None:
            r = vmemo.get(x)
            if r is None:
                r = vmemo[x] = set_result(total, packed, ())
            if len(memo) > 300_000:
                memo.clear()
                vmemo.clear()
                pool.clear()
            memo[id(x)] = (x, r[0], r[1])
        return new_entry(j, x, packed, (total, packed)), (re, added, removed)

    def image_delta(e: list, k: int, d: tuple) -> Any:
        """The image under permutation k of the set in entry e from its parent's (entry re):
        the parent's image less the removed elements' images plus the added ones'."""
        re, added, removed = d
        y = re[k]
        if y is None:
            y = image(re, k)
        pv = permuters[k]
        if removed:
            y = y - frozenset(map(pv, removed))
        if added:
            y = y | frozenset(map(pv, added))
        if len(pool) > 500_000:
            pool.clear()
        y = e[k] = pool.setdefault(y, y)
        return y

    def candidates_by_sorting(s: State, sig: list) -> tuple[list[int], bool]:
        """The group is the product of the symmetric groups of its orbits: the smallest
        signature vector has each orbit's signatures in ascending order, put there by the
        permutations that sort each orbit's points by signature (any order within a tie).
        Points whose every order gives the same image are left in one order: those that do
        not occur, and a tie whose adjacent transpositions all leave the state as it is.
        Also whether the answer depends on ``s`` beyond ``sig`` (a tie of points that occur)."""
        img = [0] * n
        runs = []
        looked = False
        for orb in orbits:  # type: ignore[union-attr]
            ranked = sorted(orb, key=sig.__getitem__)
            for pos, pt in zip(orb, ranked):
                img[pt] = pos
            vals = [sig[pt] for pt in ranked]
            if len(set(vals)) == len(vals) or (vals[0] == 0 and vals.count(0) + len(set(vals)) - 1 == len(vals)):
                continue  # no tie, or a tie of points that do not occur
            i, k = 0, len(ranked)
            while i < k:
                v = vals[i]
                e = i + 1
                while e < k and vals[e] == v:
                    e += 1
                if e - i > 1 and v:
                    looked = True
                    if not all(fixes(swap(ranked[t], ranked[t + 1]), s) for t in range(i, e - 1)):
                        runs.append((orb[i:e], ranked[i:e]))
                i = e
        if not runs:
            return [perm_at[tuple(img)]], looked
        out = []
        for choice in product(*[permutations(pts) for _, pts in runs]):
            for (positions, _), pts in zip(runs, choice):
                for pos, pt in zip(positions, pts):
                    img[pt] = pos
            out.append(perm_at[tuple(img)])
        return out, True

    def candidates_by_search(s: State, sig: list) -> tuple[list[int], bool]:
        ts = [g(sig) for g in getters]
        low = min(ts)
        return [k for k, t in enumerate(ts) if t == low], False

    candidates = candidates_by_search if orbits is None else candidates_by_sorting
    identity_at = perm_at[tuple(range(n))]
    # packed signature vector -> the one permutation putting it in order, when that depends
    # on nothing else (most states: no tie between points that occur)
    by_sig: dict[int, int] = {}
    # the group is the symmetric group of all the points: a ranking of them -> the permutation
    single = orbits is not None and len(orbits) == 1
    by_rank: dict[tuple, int] = {}
    # the keys of the states met last, by the state's value (equal states, equal keys): the
    # successors of a level often repeat a state exactly (MultiPaxos_MC_small: 57 %, FastPaxos
    # 76 %), whose key then costs one hash of the state (no entries, signatures, candidates)
    exact: dict = {}
    nones: list = []

    def image(e: list, k: int) -> Any:
        y = e[k] = permuters[k](e[identity_at])
        return y

    def canon(s: State, parent: State | None = None, looked: bool = False) -> State:
        """The key of ``s``; ``parent`` (optional): a state whose values ``s`` mostly shares,
        already keyed (a new set's entry then follows from the parent's set's); ``looked``:
        the caller found no key for ``s`` in ``canon.recent`` (the memory of recent states)."""
        if len(var_memos) < len(s):
            var_memos.extend({} for _ in range(len(s) - len(var_memos)))
            nones[:] = [None] * len(var_memos)
        if not looked:
            best = exact.get(s)
            if best is not None:
                return best
        ents = list(map(dict.get, var_memos, map(id, s)))
        deltas = None
        if None in ents:
            if parent is None:
                ents = [var_entry(j, x) if e is None else e for j, (e, x) in enumerate(zip(ents, s))]
            else:
                for j, e in enumerate(ents):
                    if e is None:
                        x = s[j]
                        if x.__class__ is fs:
                            ref = parent[j]
                            if ref.__class__ is fs:
                                re = var_memos[j].get(id(ref))
                                if re is not None:
                                    r = delta_entry(j, x, ref, re)
                                    if r is not None:
                                        ents[j] = r[0]
                                        if deltas is None:
                                            deltas = {}
                                        deltas[j] = r[1]
                                        continue
                        ents[j] = var_entry(j, x)
        packed = sum(map(part_of, ents))
        if not packed:
            exact[s] = s
            return s  # no symmetric model value occurs: every permutation leaves s as it is
        k = by_sig.get(packed)
        cands = None
        own = False
        if k is None:
            sig = [(packed >> sh) & _LANE for sh in shifts]
            if single and len(set(sig)) == n:
                # one orbit and no tie (most states): the permutation sorting the points by signature
                ranked = tuple(sorted(range(n), key=sig.__getitem__))
                k = by_rank.get(ranked)
                if k is None:
                    img = [0] * n
                    for pos, pt in enumerate(ranked):
                        img[pt] = pos
                    k = by_rank[ranked] = perm_at[tuple(img)]
                own = False
            else:
                cands, own = candidates(s, sig)
                k = cands[0]
            if not own:
                if len(by_sig) > 200_000:
                    by_sig.clear()
                by_sig[packed] = k
        if k == identity_at:
            best = s
        else:
            best = tuple(map(image_of[k], ents))
            if True in map(is_, best, nones):  # by identity: values are never None
                if deltas is None:
                    best = tuple([image(e, k) if y is None else y for e, y in zip(ents, best)])
                else:
                    best = tuple([y if y is not None else image(e, k) if j not in deltas else image_delta(e, k, deltas[j])
                                  for j, (e, y) in enumerate(zip(ents, best))])
        if cands is not None and len(cands) > 1:
            best = _lexmin(s, best, [permuters[k] for k in cands[1:]], key)
        if len(exact) > 50_000:  # repeats come close together (a BFS level)
            exact.clear()
        exact[s] = best
        return best

    canon.takes_parent = True  # type: ignore[attr-defined]
    # the key of a state met recently, by value (None: not met), for a state not interned yet
    canon.recent = exact.get  # type: ignore[attr-defined]
    return canon


def _group_orbits(imgs: list[tuple], n: int) -> tuple[bool, list[list[int]] | None]:
    """Whether the permutations ``imgs`` (as index tuples) are closed under composition, and
    their orbits (each a sorted list of points) when they are the direct product of the
    symmetric groups of their orbits (checked by size; a smaller set is checked pair by pair)."""
    group = set(imgs)
    if tuple(range(n)) not in group:
        return False, None
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for img in imgs:
        for i, k in enumerate(img):
            a, b = find(i), find(k)
            if a != b:
                parent[a] = b
    orbits: dict[int, list[int]] = {}
    for i in range(n):
        orbits.setdefault(find(i), []).append(i)
    full = 1
    for orb in orbits.values():
        full *= factorial(len(orb))
    if full == len(group):
        return True, list(orbits.values())
    if len(group) > 2_000:
        return False, None
    return all(tuple(a[i] for i in b) in group for a in imgs for b in imgs), None


def _is_identity(p: Any) -> bool:
    if p.__class__ is Fn:
        return all(k == v for k, v in p.items())
    if p.__class__ is tuple:
        return p == tuple(range(1, len(p) + 1))
    return False
