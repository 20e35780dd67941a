"""Expressions that bind variables (part of the Compiler): ``\\E``, ``\\A``, CHOOSE, ``{x \\in S : P}``,
``{e : x \\in S}``, ``[x \\in S |-> e]`` and ``f[x \\in S] == e``."""

from __future__ import annotations

import itertools
from typing import Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile.env import STATE, IMPURE, Env, NODEPS, STATE_ONLY, const_fn, per_state, large, raiser, truth
from specula.tla.values import FilterSet, LazyFn, LazySet, Product, ValueFault, enumerate_set, format_value, make_fn, least, ordered


class Binders:
    """Bound variables: quantifiers, CHOOSE, set comprehensions, function constructors and definitions."""

    def bounds(self, bounds: tuple, env: Env) -> tuple[list, Env, frozenset, list[int]]:
        """-> (binders [(slots, tuple?, domfn, span)], env with names bound, domain deps, all slots)."""
        binders = []
        deps: set = set()
        allslots: list[int] = []
        cur = env
        for b in bounds:
            if b.domain is None:
                dfn, dd = raiser("unbounded quantifier cannot be evaluated (TLC needs a bound)", b.span), frozenset({STATE})
            else:
                dfn, dd = self.expr(b.domain, env)
            deps |= dd
            if b.tuple:
                ks = [self.new_slot() for _ in b.names]
                allslots += ks
                binders.append((ks, True, dfn, (b.domain or b).span))
                cur = cur.bind({nm: ("slot", k) for nm, k in zip(b.names, ks)})
            else:
                for nm in b.names:
                    k = self.new_slot()
                    allslots.append(k)
                    binders.append(([k], False, dfn, (b.domain or b).span))
                    cur = cur.bind({nm: ("slot", k)})
        return binders, cur, frozenset(deps), allslots

    @staticmethod
    def iter_binders(binders: list, s: Any, n: Any, e: list, sort: bool = False):
        """Generator setting the bound slots for each combination, the first bound varying fastest
        (TLC's ContextEnumerator: ``\\E a \\in {1, 2}, b \\in {3, 4}`` tries a = 1, 2 with b = 3 first)."""
        doms = []
        for ks, is_tuple, dfn, span in binders:
            d = dfn(s, n, e)
            try:
                els = enumerate_set(d)
            except ValueFault as exc:
                raise EvalError(str(exc), span) from None
            doms.append((ks, is_tuple, ordered(els) if sort else list(els)))
        doms.reverse()
        for combo in itertools.product(*[d[2] for d in doms]):
            for (ks, is_tuple, _), v in zip(doms, combo):
                if is_tuple:
                    if v.__class__ is not tuple or len(v) != len(ks):
                        raise EvalError(f"cannot match {format_value(v)} against a tuple of {len(ks)} names", None)
                    for k, x in zip(ks, v):
                        e[k] = x
                else:
                    e[ks[0]] = v
            yield None

    def _quant(self, node: A.Quant, env: Env) -> tuple:
        binders, benv, ddeps, slots = self.bounds(node.bounds, env)
        body, bd = self.expr(node.body, benv)
        deps = (bd - set(slots)) | ddeps
        span = node.body.span
        if len(binders) == 1 and not binders[0][1]:
            k = binders[0][0][0]
            dfn, dspan = binders[0][2], binders[0][3]
            if node.kind == "E":
                def ex(s: Any, n: Any, e: list) -> bool:
                    d = dfn(s, n, e)
                    if d.__class__ is not frozenset:
                        try:
                            d = enumerate_set(d)
                        except ValueFault as exc:
                            raise EvalError(str(exc), dspan) from None
                    for v in d:
                        e[k] = v
                        r = body(s, n, e)
                        if r is True:
                            return True
                        if r is not False:
                            truth(r, span, "the body of \\E")
                    return False

                return self.fold(ex, deps, node)

            def fa(s: Any, n: Any, e: list) -> bool:
                d = dfn(s, n, e)
                if d.__class__ is not frozenset:
                    try:
                        d = enumerate_set(d)
                    except ValueFault as exc:
                        raise EvalError(str(exc), dspan) from None
                for v in d:
                    e[k] = v
                    r = body(s, n, e)
                    if r is False:
                        return False
                    if r is not True:
                        truth(r, span, "the body of \\A")
                return True

            return self.fold(fa, deps, node)
        it = self.iter_binders
        want = node.kind == "E"

        def q(s: Any, n: Any, e: list) -> bool:
            for _ in it(binders, s, n, e):
                r = body(s, n, e)
                if r is want:
                    return want
                if r is not (not want):
                    truth(r, span, "a quantifier body")
            return not want

        return self.fold(q, deps, node)

    def _choose(self, node: A.Choose, env: Env) -> tuple:
        binders, benv, ddeps, slots = self.bounds((node.bound,), env)
        body, bd = self.expr(node.body, benv)
        deps = (bd - set(slots)) | ddeps
        it = self.iter_binders
        span = node.span
        get = self.bound_value_getter(node.bound, slots)

        if not node.bound.tuple and len(slots) == 1 and isinstance(node.body, A.Bool) and node.body.value:
            dfn, dspan = binders[0][2], binders[0][3]

            seen: dict = {}  # set -> its least element: the same sets recur across states

            def choose_any(s: Any, n: Any, e: list) -> Any:
                """``CHOOSE x \\in S : TRUE``: the least element in TLC's order."""
                try:
                    els = enumerate_set(dfn(s, n, e))
                except ValueFault as exc:
                    raise EvalError(str(exc), dspan) from None
                if not els:
                    raise EvalError("CHOOSE: no value satisfies the condition", span)
                if els.__class__ is not frozenset:
                    return least(els)
                r = seen.get(els, seen)
                # (1 == TRUE in Python: the element classes must agree too)
                if r is not seen and r.__class__ is next(iter(els)).__class__:
                    return r
                r = least(els)
                if len(seen) > 50_000:
                    seen.clear()
                seen[els] = r
                return r

            return self.fold(choose_any, deps, node)
        if not node.bound.tuple and len(slots) == 1:
            k0 = slots[0]
            dfn, dspan = binders[0][2], binders[0][3]

            pure = IMPURE not in bd

            def choose1(s: Any, n: Any, e: list) -> Any:
                try:
                    els = list(enumerate_set(dfn(s, n, e)))
                except ValueFault as exc:
                    raise EvalError(str(exc), dspan) from None
                if pure and len(els) > 1 and els[0].__class__ is not int:
                    # ordering records or sets in TLC's order costs more than the condition:
                    # test every element, then order only those that satisfy it (most often
                    # one). An error on an element TLC would not have reached (it stops at the
                    # first that satisfies) sends us to TLC's own order below.
                    hits = []
                    try:
                        for v in els:
                            e[k0] = v
                            if body(s, n, e) is True:
                                hits.append(v)
                    except (EvalError, RecursionError):
                        hits = None
                    if hits is not None:
                        if len(hits) == 1:
                            return hits[0]
                        if hits:
                            return least(hits)
                        raise EvalError("CHOOSE: no value satisfies the condition", span)
                if els:
                    # most often the least element satisfies the condition (CHOOSE x \in S : TRUE)
                    e[k0] = first = least(els)
                    if body(s, n, e) is True:
                        return first
                    for v in ordered(els):
                        e[k0] = v
                        if body(s, n, e) is True:
                            return v
                raise EvalError("CHOOSE: no value satisfies the condition", span)

            return self.fold(choose1, deps, node)

        def choose(s: Any, n: Any, e: list) -> Any:
            for _ in it(binders, s, n, e, True):
                if body(s, n, e) is True:
                    return get(e)
            raise EvalError("CHOOSE: no value satisfies the condition", span)

        return self.fold(choose, deps, node)

    @staticmethod
    def bound_value_getter(b: A.Bound, slots: list[int]) -> Callable[[list], Any]:
        if b.tuple:
            return lambda e: tuple(e[k] for k in slots)
        k0 = slots[0]
        return lambda e: e[k0]

    def _setenum(self, node: A.SetEnum, env: Env) -> tuple:
        parts = [self.expr(a, env) for a in node.elems]
        fns = [p[0] for p in parts]
        deps = frozenset().union(*[p[1] for p in parts]) if parts else NODEPS
        return self.fold(lambda s, n, e: frozenset([f(s, n, e) for f in fns]), deps, node)

    def _setfilter(self, node: A.SetFilter, env: Env) -> tuple:
        binders, benv, ddeps, slots = self.bounds((node.bound,), env)
        pred, pd = self.expr(node.pred, benv)
        deps = (pd - set(slots)) | ddeps
        get = self.bound_value_getter(node.bound, slots)
        dfn = binders[0][2]
        it = self.iter_binders
        span = node.span
        simple = not node.bound.tuple and len(slots) == 1
        k0 = slots[0]

        def filt(s: Any, n: Any, e: list) -> Any:
            d = dfn(s, n, e)
            if isinstance(d, LazySet) and (not d.finite or large(d)):
                # lazy, as TLC: membership tests the predicate on one value; enumerating
                # happens only if something needs the elements
                e2 = list(e)

                def p(x: Any) -> bool:
                    if node.bound.tuple:
                        for k, v in zip(slots, x):
                            e2[k] = v
                    else:
                        e2[k0] = x
                    return pred(s, n, e2) is True

                return FilterSet(d, p)
            if simple:
                out = []
                if d.__class__ is not frozenset:
                    try:
                        d = enumerate_set(d)
                    except ValueFault as exc:
                        raise EvalError(str(exc), span) from None
                for v in d:
                    e[k0] = v
                    r = pred(s, n, e)
                    if r is True:
                        out.append(v)
                    elif r is not False:
                        truth(r, span, "a set filter condition")
                return frozenset(out)
            return frozenset([get(e) for _ in it(binders, s, n, e) if pred(s, n, e) is True])

        return self.fold(filt, deps, node)

    def _setmap(self, node: A.SetMap, env: Env) -> tuple:
        binders, benv, ddeps, slots = self.bounds(node.bounds, env)
        body, bd = self.expr(node.expr, benv)
        deps = (bd - set(slots)) | ddeps
        it = self.iter_binders
        if len(binders) == 1 and not binders[0][1]:
            k0 = slots[0]
            dfn = binders[0][2]
            span = node.span

            def smap1(s: Any, n: Any, e: list) -> Any:
                d = dfn(s, n, e)
                if d.__class__ is not frozenset:
                    try:
                        d = enumerate_set(d)
                    except ValueFault as exc:
                        raise EvalError(str(exc), span) from None
                out = []
                for v in d:
                    e[k0] = v
                    out.append(body(s, n, e))
                return frozenset(out)

            return self.fold(smap1, deps, node)
        return self.fold(lambda s, n, e: frozenset([body(s, n, e) for _ in it(binders, s, n, e)]), deps, node)

    def _funccons(self, node: A.FuncCons, env: Env) -> tuple:
        binders, benv, ddeps, slots = self.bounds(node.bounds, env)
        body, bd = self.expr(node.body, benv)
        deps = (bd - set(slots)) | ddeps
        it = self.iter_binders
        nb = len(binders)
        key_slots = [ks for ks, _, _, _ in binders]
        tuple_flags = [t for _, t, _, _ in binders]
        span = node.span

        def key_of(e: list) -> Any:
            if nb == 1:
                ks = key_slots[0]
                return tuple(e[k] for k in ks) if tuple_flags[0] else e[ks[0]]
            return tuple(tuple(e[k] for k in ks) if t else e[ks[0]] for ks, t in zip(key_slots, tuple_flags))

        if nb == 1 and not tuple_flags[0]:
            k0 = slots[0]
            dfn = binders[0][2]

            def fcons1(s: Any, n: Any, e: list) -> Any:
                d = dfn(s, n, e)
                if isinstance(d, LazySet) and not d.finite:
                    e2 = list(e)

                    def rule(x: Any) -> Any:
                        e2[k0] = x
                        return body(s, n, e2)

                    return LazyFn(d, rule)
                if d.__class__ is not frozenset:
                    try:
                        d = enumerate_set(d)
                    except ValueFault as exc:
                        raise EvalError(str(exc), span) from None
                out = {}
                for v in d:
                    e[k0] = v
                    out[v] = body(s, n, e)
                return make_fn(out)

            return self.fold(fcons1, deps, node)

        def fcons(s: Any, n: Any, e: list) -> Any:
            out = {}
            for _ in it(binders, s, n, e):
                out[key_of(e)] = body(s, n, e)
            return make_fn(out)

        return self.fold(fcons, deps, node)

    def funcdef_value(self, fd: A.FuncDef, denv: Env, d: Any, env: Env, only_applied: bool = False) -> tuple:
        """A (possibly recursive) function definition ``f[x \\in S] == body`` as a value;
        ``only_applied`` (a LET-defined function never used but as ``f[e]``): evaluated at the
        points applied, as TLC, not on its whole domain (ReduceSet's ``f[s \\in SUBSET S]``)."""
        # only top-level definitions are shared between call sites: a LET-defined function
        # captures the bindings (slots) of its enclosing context
        cacheable = not denv.locals and not denv.subst_locals
        ck = ("func", id(fd), env.primed, id(denv.scope))
        hit = self.def_cache.get(ck) if cacheable else None
        if hit is not None:
            return hit
        kself = self.new_slot()
        binders, benv, ddeps, slots = self.bounds(fd.bounds, denv.bind({fd.name: ("slot", kself)}))
        if env.primed:
            benv = benv.with_(primed=True)
        lo = min(slots) if slots else self.nslots
        body, bd = self.expr(fd.body, benv)
        hi = self.nslots
        deps = (bd - set(slots) - {kself}) | ddeps
        nb = len(binders)
        name = fd.name
        lazy = only_applied

        def build(s: Any, n: Any, e: list) -> Any:
            e2 = list(e)
            if nb == 1 and not binders[0][1]:
                dom = binders[0][2](s, n, e2)
                k0 = binders[0][0][0]

                def rule(x: Any) -> Any:
                    saved = e2[lo:hi]
                    e2[k0] = x
                    try:
                        return body(s, n, e2)
                    finally:
                        e2[lo:hi] = saved
            else:
                doms = [b[2](s, n, e2) for b in binders]
                dom = doms[0] if nb == 1 else Product(tuple(doms))
                flat = [(ks, t) for ks, t, _, _ in binders]

                def rule(x: Any) -> Any:
                    vals = (x,) if nb == 1 else x
                    saved = list(e2)
                    try:
                        for (ks, t), v in zip(flat, vals):
                            if t:
                                for k, xv in zip(ks, v):
                                    e2[k] = xv
                            else:
                                e2[ks[0]] = v
                        return body(s, n, e2)
                    finally:
                        e2[:] = saved

            f = LazyFn(dom, rule, name)
            e2[kself] = f
            if lazy or (isinstance(dom, LazySet) and not dom.finite):
                return f
            try:
                return f.materialize()
            except ValueFault as exc:
                raise EvalError(str(exc), fd.span) from None
            except RecursionError:
                raise EvalError(f"recursion too deep in function {name}", fd.span) from None

        res = None
        if lazy and not deps:  # a constant function: one value, its points evaluated when applied
            try:
                res = (const_fn(build(None, None, self.frame)), NODEPS)
            except (EvalError, ValueFault, RecursionError):
                pass
        if res is None:
            res = self.fold(build, frozenset(deps), fd)
        if res[1] and not (res[1] - {IMPURE}):
            res = (res[0], frozenset(deps) | {STATE})
        elif res[1] == STATE_ONLY:
            res = (per_state(res[0]), res[1])
        if cacheable:
            self.def_cache[ck] = res
        return res
