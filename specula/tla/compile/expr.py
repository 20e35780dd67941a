"""Expression handlers (part of the Compiler): each AST node type -> ``fn(s, n, e)``."""

from __future__ import annotations

from typing import Any

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile.env import STATE, PRIME, EXPR_FN, OpVal, Env, LateEnv, CompileError, NODEPS, FUNCDEF, raiser, const_fn, truth
from specula.tla.operators import sets
from specula.tla.values import Fn, fn_set1, FuncSet, LazyFn, RecordSet, ValueFault, apply_fn, format_value, tla_eq, type_name


class Expressions:
    """Expression handlers: leaves, logic, IF/CASE, functions, records, EXCEPT, LET."""

    def _number(self, node: A.Number, env: Env) -> tuple:
        return const_fn(node.value), NODEPS

    def _string(self, node: A.String, env: Env) -> tuple:
        return const_fn(node.value), NODEPS

    def _bool(self, node: A.Bool, env: Env) -> tuple:
        return const_fn(node.value), NODEPS

    def _at(self, node: A.At, env: Env) -> tuple:
        b = env.locals.get("@")
        if b is None:
            raise CompileError("@ used outside an EXCEPT value", node.span)
        k = b[1]
        return (lambda s, n, e: e[k]), frozenset({k})

    def _and(self, node: A.And, env: Env) -> tuple:
        parts = [self.expr(a, env) for a in node.args]
        fns = [p[0] for p in parts]
        deps = frozenset().union(*[p[1] for p in parts])
        spans = [a.span for a in node.args]

        def conj(s: Any, n: Any, e: list) -> bool:
            for f, sp in zip(fns, spans):
                v = f(s, n, e)
                if v is not True:
                    if v is False:
                        return False
                    truth(v, sp, "a conjunct")
            return True

        if len(fns) == 2:
            f0, f1 = fns
            sp0, sp1 = spans

            def conj2(s: Any, n: Any, e: list) -> bool:
                v = f0(s, n, e)
                if v is False:
                    return False
                if v is not True:
                    truth(v, sp0, "a conjunct")
                v = f1(s, n, e)
                if v is True or v is False:
                    return v
                return truth(v, sp1, "a conjunct")

            return self.fold(conj2, deps, node)
        return self.fold(conj, deps, node)

    def _or(self, node: A.Or, env: Env) -> tuple:
        parts = [self.expr(a, env) for a in node.args]
        fns = [p[0] for p in parts]
        deps = frozenset().union(*[p[1] for p in parts])
        spans = [a.span for a in node.args]

        def disj(s: Any, n: Any, e: list) -> bool:
            for f, sp in zip(fns, spans):
                v = f(s, n, e)
                if v is not False:
                    if v is True:
                        return True
                    truth(v, sp, "a disjunct")
            return False

        return self.fold(disj, deps, node)

    def _prime(self, node: A.Prime, env: Env) -> tuple:
        if env.primed:
            raise CompileError("double prime", node.span)
        return self.expr(node.expr, env.with_(primed=True))

    def _if(self, node: A.If, env: Env) -> tuple:
        c, dc = self.expr(node.cond, env)
        t, dt = self.expr(node.then, env)
        f, df = self.expr(node.else_, env)
        span = node.cond.span

        def ite(s: Any, n: Any, e: list) -> Any:
            v = c(s, n, e)
            if v is True:
                return t(s, n, e)
            if v is False:
                return f(s, n, e)
            truth(v, span, "the IF condition")

        return self.fold(ite, dc | dt | df, node)

    def _case(self, node: A.Case, env: Env) -> tuple:
        arms = [(self.expr(g, env), self.expr(v, env)) for g, v in node.arms]
        other = self.expr(node.other, env) if node.other is not None else None
        deps = frozenset().union(*[g[1] | v[1] for g, v in arms], other[1] if other else NODEPS)
        pairs = [(g[0], v[0]) for g, v in arms]
        ofn = other[0] if other else None
        span = node.span

        def case(s: Any, n: Any, e: list) -> Any:
            for g, v in pairs:
                if g(s, n, e) is True:
                    return v(s, n, e)
            if ofn is not None:
                return ofn(s, n, e)
            raise EvalError("no CASE arm is true and there is no OTHER", span)

        return self.fold(case, deps, node)

    def _funcapp(self, node: A.FuncApp, env: Env) -> tuple:
        f, fd = self.expr(node.fn, env)
        span = node.span
        if len(node.args) == 1:
            a, ad = self.expr(node.args[0], env)
        else:
            parts = [self.expr(x, env) for x in node.args]
            afns = [p[0] for p in parts]
            a = lambda s, n, e: tuple([g(s, n, e) for g in afns])  # noqa: E731
            ad = frozenset().union(*[p[1] for p in parts])

        def app(s: Any, n: Any, e: list) -> Any:
            fv = f(s, n, e)
            x = a(s, n, e)
            c = fv.__class__
            if c is Fn:
                try:
                    return fv[x]
                except (KeyError, TypeError):
                    pass
            elif c is tuple:
                if x.__class__ is int and 0 < x <= len(fv):
                    return fv[x - 1]
            try:
                return apply_fn(fv, x)
            except ValueFault as exc:
                raise EvalError(f"{exc}", span) from None

        return self.fold(app, fd | ad, node)

    def _funcset(self, node: A.FuncSet, env: Env) -> tuple:
        d, dd = self.expr(node.domain, env)
        r, rd = self.expr(node.range, env)
        span = node.span

        def fset(s: Any, n: Any, e: list) -> Any:
            try:
                return FuncSet(*sets("[S -> T]", d(s, n, e), r(s, n, e)))
            except ValueFault as exc:
                raise EvalError(str(exc), span) from None

        return self.fold(fset, dd | rd, node)

    def _recordcons(self, node: A.RecordCons, env: Env) -> tuple:
        parts = [(nm, self.expr(x, env)) for nm, x in node.fields]
        names = [nm for nm, _ in parts]
        fns = [p[0] for _, p in parts]
        deps = frozenset().union(*[p[1] for _, p in parts])

        def rec(s: Any, n: Any, e: list) -> Any:
            r = Fn()
            dict.update(r, zip(names, [f(s, n, e) for f in fns]))
            r._h = None
            return r

        return self.fold(rec, deps, node)

    def _recordset(self, node: A.RecordSet, env: Env) -> tuple:
        parts = [(nm, self.expr(x, env)) for nm, x in node.fields]
        deps = frozenset().union(*[p[1] for _, p in parts])
        names = [nm for nm, _ in parts]
        fns = [p[0] for _, p in parts]
        span = node.span

        def rset(s: Any, n: Any, e: list) -> Any:
            try:
                return RecordSet(tuple(zip(names, sets("[a : S]", *[f(s, n, e) for f in fns]))))
            except ValueFault as exc:
                raise EvalError(str(exc), span) from None

        return self.fold(rset, deps, node)

    def _field(self, node: A.FieldAccess, env: Env) -> tuple:
        r, rd = self.expr(node.expr, env)
        fname = node.field
        span = node.span

        def get(s: Any, n: Any, e: list) -> Any:
            v = r(s, n, e)
            if v.__class__ is Fn:
                try:
                    return v[fname]
                except KeyError:
                    pass
            try:
                return apply_fn(v, fname)
            except ValueFault:
                raise EvalError(f"the record {format_value(v)} has no field '{fname}'", span) from None

        return self.fold(get, rd, node)

    def _tuple(self, node: A.Tuple, env: Env) -> tuple:
        parts = [self.expr(a, env) for a in node.elems]
        fns = [p[0] for p in parts]
        deps = frozenset().union(*[p[1] for p in parts]) if parts else NODEPS
        if len(fns) == 2:
            f0, f1 = fns
            return self.fold(lambda s, n, e: (f0(s, n, e), f1(s, n, e)), deps, node)
        return self.fold(lambda s, n, e: tuple([f(s, n, e) for f in fns]), deps, node)

    def _except(self, node: A.Except, env: Env) -> tuple:
        base, deps = self.expr(node.fn, env)
        kat = self.new_slot()
        aenv = env.bind({"@": ("slot", kat)})
        ups = []
        for u in node.updates:
            path = []
            for item in u.path:
                if isinstance(item, str):
                    path.append(const_fn(item))
                else:
                    parts = [self.expr(x, env) for x in item]
                    deps = deps | frozenset().union(*[p[1] for p in parts])
                    if len(parts) == 1:
                        path.append(parts[0][0])
                    else:
                        pf = [p[0] for p in parts]
                        path.append(lambda s, n, e, pf=pf: tuple([g(s, n, e) for g in pf]))
            vf, vd = self.expr(u.value, aenv)
            deps = deps | (vd - {kat})
            ups.append((path, vf, self.uses_at(u.value)))
        span = node.span

        def upd(f: Any, keys: list, i: int, vf: EXPR_FN, uses_at: bool, s: Any, n: Any, e: list) -> Any:
            k = keys[i]
            c = f.__class__
            if c is tuple:
                if k.__class__ is not int or not (0 < k <= len(f)):
                    return f
                old = f[k - 1]
            elif c is Fn:
                if k not in f or (k.__class__ is bool) != (next(x for x in f if x == k).__class__ is bool):
                    return f
                old = f[k]
            elif isinstance(f, LazyFn):
                f = f.materialize()
                return upd(f, keys, i, vf, uses_at, s, n, e)
            else:
                raise EvalError(f"EXCEPT applied to {type_name(f)} {format_value(f)}, which is not a function", span)
            if i + 1 < len(keys):
                new = upd(old, keys, i + 1, vf, uses_at, s, n, e)
            else:
                if uses_at:
                    e[kat] = old
                new = vf(s, n, e)
            if c is tuple:
                lst = list(f)
                lst[k - 1] = new
                return tuple(lst)
            return fn_set1(f, k, new)

        def exc(s: Any, n: Any, e: list) -> Any:
            f = base(s, n, e)
            for path, vf, uses_at in ups:
                keys = [p(s, n, e) for p in path]
                f = upd(f, keys, 0, vf, uses_at, s, n, e)
            return f

        return self.fold(exc, deps, node)

    @staticmethod
    def uses_at(node: Any) -> bool:
        return any(isinstance(x, A.At) for x in A.walk(node))

    def _let(self, node: A.Let, env: Env) -> tuple:
        lenv, lazy = self.let_env(node, env)
        body, bd = self.expr(node.body, lenv)
        return self.wrap_lazy(body, bd, lazy)

    def let_env(self, node: A.Let, env: Env) -> tuple[Env, list[int]]:
        recursive = set()
        for d in node.defs:
            if isinstance(d, A.RecursiveDecl):
                recursive.update(p.name for p in d.params)
        cur = env
        lazy: list[int] = []
        for d in node.defs:
            if isinstance(d, A.RecursiveDecl):
                continue
            if isinstance(d, A.OpDef):
                if d.params or d.name in recursive:
                    op = OpVal(d.name, d.params, d.body, None, recursive=d.name in recursive, key=d)
                    # the operator's own env includes itself (recursion) and earlier LET defs
                    holder: dict = {}
                    opv = OpVal(d.name, d.params, d.body, LateEnv(holder), op.recursive, key=d)
                    cur = cur.bind({d.name: ("op", opv)})
                    holder["env"] = cur
                    continue
                try:
                    fn, deps = self.expr(d.body, cur)
                except CompileError:
                    cur = cur.bind({d.name: ("expr", d.body, cur)})
                    continue
                if not deps:
                    fn, deps = self.fold(fn, deps, d)
                if not deps:
                    cur = cur.bind({d.name: ("const", fn(None, None, self.frame))})
                elif PRIME in deps or env.init:
                    cur = cur.bind({d.name: ("expr", d.body, cur)})
                else:
                    k = self.new_slot()
                    lazy.append(k)
                    cur = cur.bind({d.name: ("lazy", k, fn, deps, d.body, cur)})
            elif isinstance(d, A.InstanceDef):
                base = (self.scopes or {}).get(d.module)
                if base is None:
                    raise CompileError(f"module {d.module} (instantiated in a LET) is not loaded", d.span)
                if d.substitutions:
                    raise CompileError("LET-level INSTANCE ... WITH is not supported yet", d.span)
                cur = cur.bind({d.name: ("instance", base)})
            elif isinstance(d, A.FuncDef):
                fn, deps = self.funcdef_value(d, cur, None, env, only_applied(d, node))
                if not deps:
                    fb: tuple = ("const", fn(None, None, self.frame))
                else:
                    k = self.new_slot()
                    lazy.append(k)
                    fb = ("lazy", k, fn, deps)
                # the definition, for f[a] as an action (see _a_funcapp)
                cur = cur.bind({d.name: fb, FUNCDEF + d.name: ("funcdef", d, cur, fb)})
        return cur, lazy

    def _lambda(self, node: A.Lambda, env: Env) -> tuple:
        raise CompileError("LAMBDA can only be passed as an operator argument", node.span)

    def _box(self, node: A.BoxAction, env: Env) -> tuple:
        a, ad = self.expr(node.action, env)
        v, vd = self.expr(node.sub, env)
        vp, vpd = self.expr(node.sub, env.with_(primed=True))

        def box(s: Any, n: Any, e: list) -> bool:
            return a(s, n, e) is True or tla_eq(vp(s, n, e), v(s, n, e))

        return box, ad | vd | vpd

    def _angle(self, node: A.AngleAction, env: Env) -> tuple:
        a, ad = self.expr(node.action, env)
        v, vd = self.expr(node.sub, env)
        vp, vpd = self.expr(node.sub, env.with_(primed=True))

        def angle(s: Any, n: Any, e: list) -> bool:
            return a(s, n, e) is True and not tla_eq(vp(s, n, e), v(s, n, e))

        return angle, ad | vd | vpd

    def _temporal(self, node: Any, env: Env) -> tuple:
        return raiser("temporal formulas cannot be evaluated in a state", node.span), frozenset({STATE})


def only_applied(d: A.FuncDef, let: A.Let) -> bool:
    """Whether the LET-defined function ``d`` is only ever applied (``f[e]``) in its LET: in
    its own body, the definitions after it and the LET's body. Its value then never escapes,
    and it is evaluated at the points applied only (TLC's FcnLambdaValue), not on its domain."""
    name = d.name
    heads: set[int] = set()
    named: list[Any] = []
    parts = [d.body] + [x for x in let.defs[let.defs.index(d) + 1:]] + [let.body]
    for part in parts:
        for x in A.walk(part):
            if isinstance(x, A.FuncApp) and isinstance(x.fn, (A.Name, A.OpApp)):
                heads.add(id(x.fn))
            if isinstance(x, (A.Name, A.OpApp)) and x.name == name:
                named.append(x)
    return all(id(x) in heads and not getattr(x, "args", ()) and not getattr(x, "prefix", ())
               for x in named)
