"""Actions (part of the compiler), in continuation-passing style: ``run(s, n, e)`` calls a
continuation fixed at compile time once for every way the action can be satisfied; ``x' = e``
assigns when ``x'`` is unset and compares otherwise, ``x' \\in S`` enumerates, and every assignment
is undone on the way back (backtracking), exactly as TLC's ``getNextStates``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile.env import UNSET, PRIME, OpVal, Env, CompileError, FUNCDEF, truth
from specula.tla.values import ValueFault, enumerate_set, format_value, is_set, ordered, quick_order, tla_eq, type_name

if TYPE_CHECKING:
    from specula.tla.compile.compiler import Compiler


class ActionCompiler:
    """Compiles actions in continuation-passing style over a Compiler (which compiles the
    expressions inside them). With a ``probe`` (step.py's diagnostics), guards and assignments
    report what they see instead of running silently."""

    def __init__(self, compiler: "Compiler", probe: Any = None) -> None:
        self.c = compiler
        self.probe = probe
        self.table: dict[type, Callable] = {
            A.And: self._a_and, A.Or: self._a_or, A.Quant: self._a_quant, A.If: self._a_if,
            A.Case: self._a_case, A.Let: self._a_let, A.OpApp: self._a_opapp, A.Name: self._a_name,
            A.Bool: self._a_bool, A.BoxAction: self._a_box, A.AngleAction: self._a_angle, A.FuncApp: self._a_funcapp,
        }

    def action(self, node: Any, env: Env, k: Callable) -> Callable:
        """Compile ``node`` as an action: returns ``run(s, n, e)`` calling ``k(s, n, e)`` once
        per way of satisfying it (``n`` holds the primed variables, UNSET when unassigned)."""
        h = self.table.get(node.__class__)
        if h is not None:
            return h(node, env, k)
        return self._a_guard(node, env, k)

    def _a_guard(self, node: Any, env: Env, k: Callable) -> Callable:
        g, _ = self.c.expr(node, env)
        span = node.span
        if self.probe is not None:
            return self.probe.guard(g, node, env, k)

        def guard(s: Any, n: Any, e: list) -> None:
            v = g(s, n, e)
            if v is True:
                k(s, n, e)
            elif v is not False:
                truth(v, span, "an action conjunct")

        guard.node = node  # type: ignore[attr-defined]
        return guard

    def _a_bool(self, node: A.Bool, env: Env, k: Callable) -> Callable:
        if node.value:
            return k
        return lambda s, n, e: None

    def _a_and(self, node: A.And, env: Env, k: Callable) -> Callable:
        run = k
        for a in reversed(node.args):
            run = self.action(a, env, run)
        return run

    def _a_or(self, node: A.Or, env: Env, k: Callable) -> Callable:
        runs = [self.action(a, env, k) for a in node.args]

        def any_of(s: Any, n: Any, e: list) -> None:
            for r in runs:
                r(s, n, e)

        return any_of

    def _a_quant(self, node: A.Quant, env: Env, k: Callable) -> Callable:
        if node.kind != "E":
            try:
                _, deps = self.c.expr(node, env)
            except CompileError:
                deps = frozenset({PRIME})
            if PRIME not in deps and (node.bounds[0].tuple or not self.c.may_branch(node.body, env)):
                return self._a_guard(node, env, k)
            return self._a_forall(node, env, k)
        binders, benv, _, _ = self.c.bounds(node.bounds, env)
        body = self.action(node.body, benv, k)
        it = self.c.iter_binders
        if len(binders) == 1 and not binders[0][1]:
            k0 = binders[0][0][0]
            dfn, dspan = binders[0][2], binders[0][3]

            last: list = [None, None]  # the last domain and its elements in TLC's order

            def ex1(s: Any, n: Any, e: list) -> None:
                d = dfn(s, n, e)
                if d is last[0]:  # a constant domain (AllReqs): ordered once, not per state
                    els = last[1]
                else:
                    try:
                        els = quick_order(enumerate_set(d))
                    except ValueFault as exc:
                        raise EvalError(str(exc), dspan) from None
                    last[0], last[1] = d, els
                for v in els:
                    e[k0] = v
                    body(s, n, e)

            return ex1

        def ex(s: Any, n: Any, e: list) -> None:
            for _ in it(binders, s, n, e, True):
                body(s, n, e)

        return ex

    def _a_forall(self, node: A.Quant, env: Env, k: Callable) -> Callable:
        """``\\A x \\in S : A(x)`` with primes: the conjunction of A(x) over S, as TLC does."""
        bounds = node.bounds
        if len(bounds) > 1 or len(bounds[0].names) > 1 or bounds[0].tuple:
            if bounds[0].tuple:
                raise CompileError("tuple bounds in a \\A action are not supported", node.span)
            first = A.Bound(bounds[0].names[:1], bounds[0].domain, span=bounds[0].span)
            rest_b = ((A.Bound(bounds[0].names[1:], bounds[0].domain, span=bounds[0].span),) if len(bounds[0].names) > 1 else ()) + bounds[1:]
            inner = A.Quant("A", rest_b, node.body, span=node.span)
            return self._a_forall(A.Quant("A", (first,), inner, span=node.span), env, k)
        binders, benv, _, _ = self.c.bounds(bounds, env)
        kv = binders[0][0][0]
        dfn, dspan = binders[0][2], binders[0][3]
        kc = self.c.new_slot()

        def next_elem(s: Any, n: Any, e: list) -> None:
            e[kc]()

        body = self.action(node.body, benv, next_elem)

        def forall(s: Any, n: Any, e: list) -> None:
            try:
                elems = ordered(enumerate_set(dfn(s, n, e)))
            except ValueFault as exc:
                raise EvalError(str(exc), dspan) from None
            m = len(elems)

            def step(i: int) -> None:
                if i == m:
                    k(s, n, e)
                    return
                old_v, old_c = e[kv], e[kc]
                e[kv] = elems[i]
                e[kc] = lambda: step(i + 1)
                try:
                    body(s, n, e)
                finally:
                    e[kv], e[kc] = old_v, old_c

            step(0)

        return forall

    def _a_if(self, node: A.If, env: Env, k: Callable) -> Callable:
        c, _ = self.c.expr(node.cond, env)
        t = self.action(node.then, env, k)
        f = self.action(node.else_, env, k)
        span = node.cond.span

        def ite(s: Any, n: Any, e: list) -> None:
            v = c(s, n, e)
            if v is True:
                t(s, n, e)
            elif v is False:
                f(s, n, e)
            else:
                truth(v, span, "the IF condition")

        return ite

    def _a_case(self, node: A.Case, env: Env, k: Callable) -> Callable:
        arms = [(self.c.expr(g, env)[0], self.action(v, env, k)) for g, v in node.arms]
        other = self.action(node.other, env, k) if node.other is not None else None
        span = node.span

        def case(s: Any, n: Any, e: list) -> None:
            for g, r in arms:
                if g(s, n, e) is True:
                    r(s, n, e)
                    return
            if other is None:
                raise EvalError("no CASE arm is true and there is no OTHER", span)
            other(s, n, e)

        return case

    def _a_funcapp(self, node: A.FuncApp, env: Env, k: Callable) -> Callable:
        """``f[a]`` as an action, ``f`` defined by ``f[x \\in S] == body``: TLC takes ``body``
        with ``x = a`` as the action (its disjuncts and witnesses split), not as one guard; so
        are the applications of ``f`` in action position inside ``body`` (recursion)."""
        fd = self.c.funcdef_of(node, env)
        if fd is None:
            return self._a_guard(node, env, k)
        d, denv, fb = fd
        arg, _ = self.c.expr(node.args[0], env)
        outside = self._a_guard(node, env, k)  # the usual "not in the domain" error
        # the body is compiled once per definition, its continuation held in a slot at run time
        ck = ("fnact", id(d), id(denv.scope), id(denv.subst_locals)) + ((id(denv.locals),) if fb is not None else ())
        ent = self.c.def_cache.get(ck)
        if ent is None:
            ent = self.c.def_cache[ck] = {"keep": denv}  # keeps the ids in the key alive
            b = d.bounds[0]
            lo = self.c.new_slot()  # the argument; lo + 1: the continuation
            self.c.new_slot()
            binds = {b.names[0]: ("slot", lo)}
            if fb is not None:
                binds.update({d.name: fb, FUNCDEF + d.name: ("funcdef", d, denv, fb)})
            ent["mem"] = self.c.expr(A.OpApp("\\in", (A.Name(FUNCDEF, span=node.span), b.domain), span=node.span),
                                   denv.bind({FUNCDEF: ("slot", lo)}))[0]
            ent["body"] = self.action(d.body, denv.bind(binds), lambda s, n, e: e[lo + 1]())
            ent["range"] = (lo, self.c.nslots)

        def fnapp(s: Any, n: Any, e: list) -> None:
            lo, hi = ent["range"]  # known once the body is compiled (recursive applications)
            x = arg(s, n, e)
            outer = e[lo:hi]  # an enclosing application of the same function is in progress

            def cont() -> None:
                inner = e[lo:hi]
                e[lo:hi] = outer
                try:
                    k(s, n, e)
                finally:
                    e[lo:hi] = inner

            e[lo] = x
            e[lo + 1] = cont
            try:
                inside = ent["mem"](s, n, e) is True
                if inside:
                    ent["body"](s, n, e)
            finally:
                e[lo:hi] = outer
            if not inside:
                outside(s, n, e)

        return fnapp

    def _a_let(self, node: A.Let, env: Env, k: Callable) -> Callable:
        lenv, lazy = self.c.let_env(node, env)
        body = self.action(node.body, lenv, k)
        if not lazy:
            return body

        def let(s: Any, n: Any, e: list) -> None:
            for kk in lazy:
                e[kk] = UNSET
            body(s, n, e)

        return let

    def _a_box(self, node: A.BoxAction, env: Env, k: Callable) -> Callable:
        return self._a_or(A.Or((node.action, A.OpApp("UNCHANGED", (node.sub,), span=node.span)), span=node.span), env, k)

    def _a_angle(self, node: A.AngleAction, env: Env, k: Callable) -> Callable:
        """``<<A>>_v`` as an action: A, then the guard that v changes."""
        changed = A.OpApp("~", (A.OpApp("UNCHANGED", (node.sub,), span=node.span),), span=node.span)
        return self._a_and(A.And((node.action, changed), span=node.span), env, k)

    def _a_opapp(self, node: A.OpApp, env: Env, k: Callable) -> Callable:
        name = node.name
        if not node.prefix and name not in env.locals:
            if name == "=" and len(node.args) == 2:
                i = self.c.target_var(node.args[0], env)
                if i is not None:
                    return self._a_assign(i, node.args[1], env, k, node)
                return self._a_guard(node, env, k)
            if name == "\\in" and len(node.args) == 2:
                i = self.c.target_var(node.args[0], env)
                if i is not None:
                    return self._a_assign_in(i, node.args[1], env, k, node)
                return self._a_guard(node, env, k)
            if name == "UNCHANGED":
                return self._a_unchanged(node.args[0], env, k, node)
            if name == "\\cdot" and len(node.args) == 2:
                return self._a_cdot(node, env, k)
            if name == "=>" and len(node.args) == 2:
                c, _ = self.c.expr(node.args[0], env)
                then = self.action(node.args[1], env, k)

                def implies(s: Any, n: Any, e: list) -> None:
                    if c(s, n, e) is True:
                        then(s, n, e)
                    else:
                        k(s, n, e)

                return implies
            if name in self.c.builtin_ops:
                return self._a_guard(node, env, k)
        if node.prefix:
            sub = self.c.subexpr(node, env)  # Def!2: that conjunct/disjunct, as an action
            if sub is not None:
                return self.action(sub[0], sub[1].with_(primed=env.primed, init=env.init) if (env.primed or env.init) else sub[1], k)
            op, ienv = self.c.instance_op(node, env)
            return self._a_apply_op(op, node.args, env, k, node)
        b = self.c.resolve(name, env, node.span)
        if node.args:
            b = self.c.as_op(b)
        if b[0] == "op":
            return self._a_apply_op(b[1], node.args, env, k, node)
        if b[0] == "expr" and not node.args:
            benv = b[2].with_(primed=True) if env.primed else b[2]
            return self.action(b[1], benv, k)
        return self._a_guard(node, env, k)

    def _a_name(self, node: A.Name, env: Env, k: Callable) -> Callable:
        b = self.c.resolve(node.name, env, node.span)
        if b[0] == "op" and b[1].native is None and b[1].arity == 0:
            return self._a_apply_op(b[1], (), env, k, node)
        if b[0] == "expr":
            benv = b[2].with_(primed=True) if env.primed else b[2]
            return self.action(b[1], benv, k)
        return self._a_guard(node, env, k)

    def _a_apply_op(self, op: OpVal, args: tuple, env: Env, k: Callable, node: Any) -> Callable:
        if op.native is not None or op.recursive or (not args and self.c.constant_level(node, env)):
            return self._a_guard(node, env, k)
        if len(args) != len(op.params):
            raise CompileError(f"operator '{op.name}' expects {len(op.params)} argument(s), got {len(args)}", node.span)
        binds: dict = {}
        lazy: list[int] = []
        for p, a in zip(op.params, args):
            b = self.c.arg_binding(p, a, env)
            binds[p.name] = b
            if b[0] == "lazy":
                lazy.append(b[1])
        benv = (op.env or Env()).bind(binds)
        if env.primed and not benv.primed:
            benv = benv.with_(primed=True)
        if env.init and not benv.init:
            benv = benv.with_(init=True)
        body = self.action(op.body, benv, k)
        if not lazy:
            return body

        def inl(s: Any, n: Any, e: list) -> None:
            for kk in lazy:
                e[kk] = UNSET
            body(s, n, e)

        return inl

    def _a_cdot(self, node: A.OpApp, env: Env, k: Callable) -> Callable:
        """``A \\cdot B`` (action composition), as TLC with ``-Dtlc2.tool.impl.Tool.cdot=true``:
        every state t that A leads to from s, then every way B leads from t; s's successors are
        B's. The primed variables already assigned when the composition starts keep s's values
        in t (TLC's ``s0.copyWith(s1)``). Each t of a composition that is not inside another one
        counts as a generated state, as in TLC (whose nested compositions count theirs nowhere)."""
        nv = len(self.c.var_index)
        var_names = self.c.var_names
        # s of the composition; A's states; the nesting depth of compositions around it
        ks, kl, kd = self.c.new_slot(), self.c.new_slot(), self.c.new_slot()
        composed = self.c.runtime.composed
        span = node.span

        def middle(s: Any, t: Any, e: list) -> None:
            for i in range(nv):
                if t[i] is UNSET:
                    raise EvalError(f"the left side of \\cdot does not assign a value to variable {var_names[i]}'",
                                    span)
            e[kl].append(tuple(t))

        def after(t: Any, u: Any, e: list) -> None:
            depth = composed[1]
            composed[1] = e[kd]  # the rest of the action is outside this composition
            try:
                k(e[ks], u, e)
            finally:
                composed[1] = depth

        run_a = self.action(node.args[0], env, middle)
        run_b = self.action(node.args[1], env, after)

        def cdot(s: Any, n: Any, e: list) -> None:
            saved = e[ks], e[kl], e[kd]
            ts: list = []
            e[kl] = ts
            depth = e[kd] = composed[1]
            composed[1] = depth + 1
            try:
                run_a(s, [s[i] if n[i] is not UNSET else UNSET for i in range(nv)], e)
                if depth == 0:
                    composed[0] += len(ts)
                e[ks] = s
                for t in ts:
                    run_b(t, list(n), e)
            finally:
                composed[1] = depth
                e[ks], e[kl], e[kd] = saved

        return cdot

    def _a_assign(self, i: int, rhs: Any, env: Env, k: Callable, node: Any) -> Callable:
        v, _ = self.c.expr(rhs, env)
        if self.probe is not None:
            return self.probe.assign(i, v, node, k, "=")

        def assign(s: Any, n: Any, e: list) -> None:
            x = v(s, n, e)
            old = n[i]
            if old is UNSET:
                n[i] = x
                try:
                    k(s, n, e)
                finally:
                    n[i] = UNSET
            elif old == x and tla_eq(old, x):
                k(s, n, e)

        assign.node = node  # type: ignore[attr-defined]
        return assign

    def _a_assign_in(self, i: int, rhs: Any, env: Env, k: Callable, node: Any) -> Callable:
        v, _ = self.c.expr(rhs, env)
        span = rhs.span
        if self.probe is not None:
            return self.probe.assign(i, v, node, k, "in")

        def assign_in(s: Any, n: Any, e: list) -> None:
            S = v(s, n, e)
            old = n[i]
            if old is UNSET:
                try:
                    els = quick_order(enumerate_set(S))
                except ValueFault as exc:
                    raise EvalError(str(exc), span) from None
                try:
                    for x in els:
                        n[i] = x
                        k(s, n, e)
                finally:
                    n[i] = UNSET
            else:
                if not is_set(S):
                    raise EvalError(f"\\in applied to {type_name(S)} {format_value(S)}", span)
                if old in S:
                    k(s, n, e)

        assign_in.node = node  # type: ignore[attr-defined]
        return assign_in

    def _a_unchanged(self, sub: Any, env: Env, k: Callable, node: Any) -> Callable:
        if env.init:
            raise CompileError("UNCHANGED in an initial-state predicate", node.span)
        vs = self.c.unchanged_vars(sub, env)
        if vs is None:
            # general expression: e' = e
            cur, _ = self.c.expr(sub, env)
            nxt, _ = self.c.expr(sub, env.with_(primed=True))

            def unch_expr(s: Any, n: Any, e: list) -> None:
                if tla_eq(nxt(s, n, e), cur(s, n, e)):
                    k(s, n, e)

            return unch_expr
        run = k
        for i in reversed(vs):
            if self.probe is not None:
                run = self.probe.assign(i, (lambda s, n, e, i=i: s[i]), node, run, "=")
            else:
                run = self._unch1(i, run)
        return run

    @staticmethod
    def _unch1(i: int, k: Callable) -> Callable:
        def unch(s: Any, n: Any, e: list) -> None:
            old = n[i]
            x = s[i]
            if old is UNSET:
                n[i] = x
                try:
                    k(s, n, e)
                finally:
                    n[i] = UNSET
            elif old == x and tla_eq(old, x):
                k(s, n, e)

        return unch
