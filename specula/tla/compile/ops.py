"""Operator application (part of the Compiler): user operators are inlined at their call sites;
RECURSIVE ones are called with their slots saved and restored; natives are applied to values."""

from __future__ import annotations

from typing import Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from operator import itemgetter

from specula.tla.compile.env import UNSET, STATE, PRIME, IMPURE, EXPR_FN, OpVal, Env, CompileError, STATE_ONLY, PRIME_ONLY, StateMemo, per_state, per_next, sizeable, same_types, const_fn
from specula.tla.operators import strict_native
from specula.tla.values import ValueFault


# built-in operators that take one argument (as operator arguments of natives)
_PREFIX_SYMBOLS = frozenset({"SUBSET", "UNION", "DOMAIN", "~", "\\lnot", "\\neg", "-.", "ENABLED", "UNCHANGED",
                             "[]", "<>"})


def _env_key(env: Env | None) -> tuple[int, int]:
    """What tells the bindings of ``env`` apart for the memo's analysis: its LET bindings and its
    INSTANCE substitutions (dicts shared by the definitions resolved in one instance); 0 for
    none, so the definitions of a module share one key whatever Env object they were given."""
    if env is None:
        return (0, 0)
    return (id(env.locals) if env.locals else 0, id(env.subst_locals) if env.subst_locals else 0)


def _visit_body(o: OpVal, seen: set, todo: list) -> None:
    """Queue the body of the user operator ``o`` (its parameters as unknown slots) for an analysis
    walking the definitions an expression uses, once per body and binding environment."""
    sk = (id(o.body),) + _env_key(o.env)
    if o.native is None and o.body is not None and sk not in seen:
        seen.add(sk)
        oenv = o.env or Env()
        if o.params:
            oenv = oenv.bind({p.name: ("slot", -1) for p in o.params})
        todo.append((o.body, oenv))


class Operators:
    """Operator application: inlining, RECURSIVE calls, natives, operator arguments."""

    def _opapp(self, node: A.OpApp, env: Env) -> tuple:
        if node.prefix:
            sub = self.subexpr(node, env)
            if sub is not None:
                return self.expr(sub[0], sub[1].with_(primed=env.primed, init=env.init) if (env.primed or env.init) else sub[1])
            op, ienv = self.instance_op(node, env)
            return self.apply_op(op, node.args, env, node.span, ienv)
        h = self.builtin_ops.get(node.name)
        if h is not None and node.name not in env.locals:
            return h(node, env)
        b = self.resolve(node.name, env, node.span)
        if node.args:
            b = self.as_op(b)
        if b[0] == "op":
            return self.apply_op(b[1], node.args, env, node.span)
        if not node.args:
            return self.binding_value(b, env, node.span)
        raise CompileError(f"'{node.name}' is not an operator", node.span)

    def apply_op(self, op: OpVal, args: tuple, env: Env, span: Any, ienv: Env | None = None) -> tuple:
        if op.native is not None:
            return self._apply_native(op.native, args, env, span)
        if len(args) != len(op.params):
            raise CompileError(f"operator '{op.name}' expects {len(op.params)} argument(s), got {len(args)}", span)
        if op.recursive:
            return self.call_recursive(op, args, env, span)
        if not args and op.env is not None and op.env.scope is not None and not op.env.locals and op.key is not None:
            where = (op.key, id(op.env.scope), id(op.env.subst_locals) if op.env.subst_locals else 0)
            if op.env.subst_locals and ("pin", where[2]) not in self.def_cache:
                self.def_cache[("pin", where[2])] = op.env.subst_locals  # its id is in keys: kept alive
            hit = self.def_cache.get(("const",) + where)  # a constant: one value in actions, Init, invariants
            if hit is not None:
                return hit
            ck = ("def", env.primed, env.init) + where
            hit = self.def_cache.get(ck)
            if hit is not None:
                return hit
            res = self._inline(op, args, env, span)
            if not env.init and res[1] in (STATE_ONLY, PRIME_ONLY) and sizeable(op.body):
                mk = ("memo",) + where
                memo = self.def_cache.get(mk)
                if memo is None:
                    memo = self.def_cache[mk] = StateMemo()
                    # keyed by the variables the definition reads, when it reads only some
                    vs = self.state_vars(op.body, op.env)
                    if vs and len(vs) < len(self.var_index):
                        memo.part = itemgetter(*sorted(vs))
                if res[1] == STATE_ONLY:
                    res = (per_state(res[0], memo), res[1])
                elif self.apply_op(op, (), env.with_(primed=False), span)[1] == STATE_ONLY:
                    # Def' reads only the next state, as Def only the state: one function of a state
                    res = (per_next(res[0], memo), res[1])
                else:
                    res = (per_next(res[0]), res[1])
            elif res[1] == STATE_ONLY and sizeable(op.body):
                res = (per_state(res[0]), res[1])
            self.def_cache[("const",) + where if not res[1] else ck] = res
            return res
        return self._inline(op, args, env, span)

    def _inline(self, op: OpVal, args: tuple, env: Env, span: Any) -> tuple:
        binds: dict = {}
        lazy: list[int] = []
        for p, a in zip(op.params, args):
            b = self.arg_binding(p, a, env)
            binds[p.name] = b
            if b[0] == "lazy":
                lazy.append(b[1])
        benv = (op.env or Env()).bind(binds) if binds else (op.env or Env())
        if env.primed and not benv.primed:
            benv = benv.with_(primed=True)
        if env.init and not benv.init:
            benv = benv.with_(init=True)
        fn, deps = self.expr(op.body, benv)
        plain, pdeps = self.wrap_lazy(fn, deps, lazy)
        key_slots = self.memo_key_slots(op, args, env)
        if key_slots is None or not pdeps or PRIME in pdeps:
            return plain, pdeps
        for b in binds.values():
            if b[0] == "expr" and PRIME in self.expr(b[1], b[2])[1]:
                return plain, pdeps
        return self._memo_call(op, binds, env, fn, plain, key_slots), pdeps

    def memo_key_slots(self, op: OpVal, args: tuple, env: Env) -> tuple[int, ...] | None:
        """Whether an application of the user operator ``op`` is worth remembering, and then the
        frame slots its body reads besides its parameters (bindings of the LET or INSTANCE it
        comes from), which join the argument values in the memo's key; None when not: the body
        is cheap, reads a variable, a primed or impure value, or takes operator arguments."""
        if not args or env.primed or env.init or op.native is not None or op.body is None or op.recursive:
            return None
        if any(p.arity for p in op.params):
            return None
        ck = ("memo-plan", id(op.body)) + _env_key(op.env)
        hit = self.def_cache.get(ck, self)
        if hit is not self:
            return hit[1]
        plan = None
        aenv = (op.env or Env()).bind({p.name: ("slot", -1) for p in op.params})
        if self._costly(op.body, aenv):
            if self.state_vars(op.body, aenv) == frozenset():
                # a definition of the module (no LET, no INSTANCE substitution around it) reads
                # no slot but its parameters
                plan = self._free_slots(op.body, aenv) if _env_key(op.env) != (0, 0) else ()
        # the env is kept in the entry so that the ids in the key are not reused while it lives
        self.def_cache[ck] = (op.env, plan)
        return plan

    def _costly(self, body: Any, env: Env) -> bool:
        """Whether ``body`` loops: a quantifier, CHOOSE, a set filter or map, in it or in the
        user operators it applies (a record built or a sequence sliced is cheaper to redo than
        to look up, and each remembered application is one more compiled function)."""
        seen: set[tuple] = set()
        todo: list[tuple[Any, Env]] = [(body, env)]
        while todo and len(seen) < 200:
            n0, env0 = todo.pop()
            for x in A.walk(n0):
                if isinstance(x, (A.Quant, A.Choose, A.SetFilter, A.SetMap)):
                    return True
                if isinstance(x, (A.Name, A.OpApp)) and not (isinstance(x, A.OpApp) and x.prefix):
                    if x.name in self.builtin_ops and x.name not in env0.locals:
                        continue  # applied natively (Naturals' <= is not its TLA+ definition)
                    b = self.try_resolve(x.name, env0)
                    if b is None or b[0] != "op":
                        continue
                    o = b[1]
                    if o.recursive:
                        return True
                    _visit_body(o, seen, todo)
        return False

    def _free_slots(self, body: Any, env: Env) -> tuple[int, ...] | None:
        """Frame slots read by ``body`` through its environment's bindings (following the
        definitions it uses), or None when it reads something else than constants and slots."""
        out: set[int] = set()
        seen: set[tuple[int, int]] = set()
        todo: list[tuple[Any, Env]] = [(body, env)]
        while todo:
            n0, env0 = todo.pop()
            for x in A.walk(n0):
                if not isinstance(x, (A.Name, A.OpApp)) or (isinstance(x, A.OpApp) and x.prefix):
                    continue
                b = self.try_resolve(x.name, env0)
                if b is None:
                    continue
                kind = b[0]
                if kind == "slot":
                    if b[1] >= 0:
                        out.add(b[1])
                elif kind == "lazy":
                    out.add(b[1])
                    for d in b[3]:
                        if d.__class__ is not int:
                            return None
                        out.add(d)
                elif kind == "expr":
                    sk = (id(b[1]),) + _env_key(b[2])
                    if sk not in seen:
                        seen.add(sk)
                        todo.append((b[1], b[2]))
                elif kind == "op":
                    _visit_body(b[1], seen, todo)
                elif kind == "func":
                    sk = (id(b[1]),) + _env_key(b[2])
                    if sk not in seen:
                        seen.add(sk)
                        todo.append((b[1].body, b[2]))
                elif kind not in ("const", "instance", "funcdef"):
                    return None
        return tuple(sorted(out))

    def _memo_call(self, op: OpVal, binds: dict, env: Env, body: EXPR_FN, plain: EXPR_FN,
                   key_slots: tuple[int, ...]) -> EXPR_FN:
        """``plain`` (the inlined application) with its values remembered by argument values (and
        the values of ``key_slots``): the body reads no variable and nothing impure, so it is a
        function of those. The arguments are evaluated first; one that fails leaves the
        application to ``plain``, where it is evaluated only if the body uses it (as TLC)."""
        getters: list[EXPR_FN] = []
        lazy_slots: list[int] = []  # per argument: the slot its value is stored in, or -1
        for p in op.params:
            b = binds[p.name]
            kind = b[0]
            if kind == "lazy":
                getters.append(b[2])
                lazy_slots.append(b[1])
                continue
            if kind == "slot":
                k = b[1]
                getters.append(lambda s, n, e, k=k: e[k])
            elif kind == "const":
                getters.append(const_fn(b[1]))
            elif kind == "var":
                i = b[1]
                getters.append(lambda s, n, e, i=i: s[i])
            else:  # "expr": a name or a literal, by name
                getters.append(self.expr(b[1], b[2])[0])
            lazy_slots.append(-1)
        stores = [(i, k) for i, k in enumerate(lazy_slots) if k >= 0]
        memo: dict = {}
        stats = [0, 0]  # calls, hits: the memo turns itself off after 5,000 calls that hit
        # less than 2% of the time (arguments that never recur); at most 50,000 entries are kept
        # one argument and no key slot (the common case): no list comprehension (a frame of its
        # own), and the class test of the one value inline
        g0 = getters[0] if len(getters) == 1 and not key_slots else None

        def memo_call(s: Any, n: Any, e: list) -> Any:
            if stats[0] >= 5_000 and stats[1] * 50 < stats[0]:
                if memo:
                    memo.clear()
                return plain(s, n, e)
            stats[0] += 1
            try:
                vals = [g0(s, n, e)] if g0 is not None else [g(s, n, e) for g in getters]
            except EvalError:
                return plain(s, n, e)
            if key_slots:
                vals.extend([e[k] for k in key_slots])
            key = tuple(vals)
            try:
                hit = memo.get(key)
            except TypeError:  # a value without a hash (e.g. an infinite lazy function)
                return plain(s, n, e)
            if hit is not None and (hit[0][0].__class__ is vals[0].__class__ if g0 is not None
                                    else same_types(key, hit[0])):
                stats[1] += 1
                return hit[1]
            for i, k in stores:
                e[k] = vals[i]
            r = body(s, n, e)
            if len(memo) >= 50_000:
                memo.clear()
            memo[key] = (key, r)
            return r

        return memo_call

    @staticmethod
    def wrap_lazy(fn: EXPR_FN, deps: frozenset, lazy: list[int]) -> tuple:
        if not lazy:
            return fn, deps
        deps = deps - set(lazy)
        if len(lazy) == 1:
            k0 = lazy[0]

            def w1(s: Any, n: Any, e: list) -> Any:
                e[k0] = UNSET
                return fn(s, n, e)

            return w1, deps

        def w(s: Any, n: Any, e: list) -> Any:
            for k in lazy:
                e[k] = UNSET
            return fn(s, n, e)

        return w, deps

    def call_recursive(self, op: OpVal, args: tuple, env: Env, span: Any) -> tuple:
        opargs = tuple(self.op_arg(a, env, p.arity) if p.arity else None for p, a in zip(op.params, args))
        ck = (op.key, env.primed, tuple(o.key if o else None for o in opargs), id(op.env.scope) if op.env else 0,
              id(op.env) if op.env is not None and (op.env.locals or op.env.subst_locals) else 0)
        entry = self.rec_cache.get(ck)
        if entry is None:
            lo = self.nslots
            slots = [self.new_slot() if p.arity == 0 else -1 for p in op.params]
            # op.env is kept in the entry: its id is in the key, and a LET-defined RECURSIVE
            # operator's env is made per application (CaptR(10), CaptR(20)), so a freed one's id
            # could be given to the next and return the first one's compiled body
            entry = {"fn": None, "slots": slots, "range": (lo, lo), "keep": op.env}
            self.rec_cache[ck] = entry
            binds = {}
            for p, k, o in zip(op.params, slots, opargs):
                binds[p.name] = ("slot", k) if p.arity == 0 else ("op", o)
            benv = (op.env or Env()).bind(binds)
            if env.primed:
                benv = benv.with_(primed=True)
            entry["fn"] = self.expr(op.body, benv)[0]
            # every slot the body uses (parameters, LET values, bound names) is saved and
            # restored around a call: a recursive call must not clobber its caller's frame
            entry["range"] = (lo, self.nslots)
            # a body that reads no variable (and no operator argument) is a function of its
            # arguments: results are remembered across calls and states
            # (a LET-defined RECURSIVE operator also reads the enclosing bindings: not memoised)
            top_level = op.env is None or not (op.env.locals or op.env.subst_locals)
            if top_level and not env.primed and not any(opargs) and self.state_vars(op.body, benv) == frozenset():
                entry["memo"] = {}
        slots = [k for k in entry["slots"] if k >= 0]
        argfns = []
        deps = {STATE}
        for p, a in zip(op.params, args):
            if p.arity == 0:
                f, d = self.expr(a, env)
                argfns.append(f)
                deps |= d
        holder = entry
        name = op.name
        memo = entry.get("memo")

        def call(s: Any, n: Any, e: list) -> Any:
            vals = [f(s, n, e) for f in argfns]
            lo, hi = holder["range"]
            saved = e[lo:hi]
            for k, v in zip(slots, vals):
                e[k] = v
            try:
                return holder["fn"](s, n, e)
            except RecursionError:
                raise EvalError(f"recursion too deep in operator {name}", span) from None
            finally:
                e[lo:hi] = saved

        if len(argfns) == 2 and len(slots) == 2:
            f0, f1 = argfns
            k0, k1 = slots

            def call(s: Any, n: Any, e: list) -> Any:  # noqa: F811 - two arguments, unrolled
                v0 = f0(s, n, e)
                v1 = f1(s, n, e)
                lo, hi = holder["range"]
                saved = e[lo:hi]
                e[k0] = v0
                e[k1] = v1
                try:
                    return holder["fn"](s, n, e)
                except RecursionError:
                    raise EvalError(f"recursion too deep in operator {name}", span) from None
                finally:
                    e[lo:hi] = saved

        if memo is None:
            return call, frozenset(deps)

        stats = entry.setdefault("memo_stats", [0, 0])  # calls, hits: the memo turns itself off
        # after 20,000 calls that hit less than 2% of the time (arguments that never recur)

        def call_memo(s: Any, n: Any, e: list) -> Any:
            if stats[0] >= 20_000 and stats[1] * 50 < stats[0]:
                memo.clear()
                return call(s, n, e)
            stats[0] += 1
            key = tuple([f(s, n, e) for f in argfns])
            try:
                hit = memo.get(key, memo)
            except TypeError:  # an argument without a hash (e.g. an infinite lazy function)
                return call(s, n, e)
            if hit is not memo and same_types(key, hit[0]):
                stats[1] += 1
                return hit[1]
            lo, hi = holder["range"]
            saved = e[lo:hi]
            for k, v in zip(slots, key):
                e[k] = v
            try:
                r = holder["fn"](s, n, e)
            except RecursionError:
                raise EvalError(f"recursion too deep in operator {name}", span) from None
            finally:
                e[lo:hi] = saved
            if len(memo) > 100_000:
                memo.clear()
            memo[key] = (key, r)
            return r

        return call_memo, frozenset(deps)

    def _apply_native(self, nat: Any, args: tuple, env: Env, span: Any) -> tuple:
        if nat.arity >= 0 and len(args) != nat.arity:
            raise CompileError(f"operator '{nat.name}' expects {nat.arity} argument(s), got {len(args)}", span)
        if nat.special is not None:
            return nat.special(self, args, env, span)
        fns = []
        deps: set = set()
        op_deps: set = set()
        opargs = []
        for i, a in enumerate(args):
            if i in nat.op_params:
                # a built-in operator symbol passed as the argument (SortSeq(s, <)) is binary
                # unless it is a prefix operator
                name = getattr(a, "name", None)
                op = self.op_arg(a, env, 1 if name in _PREFIX_SYMBOLS else 2)
                callf = self.op_callable(op, env, span, op_deps)
                fns.append(None)
                opargs.append((i, callf))
            else:
                f, d = self.expr(a, env)
                fns.append(f)
                deps |= d
        if nat.impure:
            deps.add(IMPURE)
        impl = nat.fn
        name = nat.name
        if opargs:
            deps |= op_deps  # what the operator arguments read

            def app_op(s: Any, n: Any, e: list) -> Any:
                vals = [f(s, n, e) if f is not None else None for f in fns]
                for i, cf in opargs:
                    vals[i] = cf(s, n, e)
                try:
                    return impl(*vals)
                except ValueFault as exc:
                    raise EvalError(f"{name}: {exc}", span) from None
                except (TypeError, KeyError, IndexError, ValueError, AttributeError) as exc:
                    raise EvalError(f"{name} applied to unsuitable arguments ({exc})", span) from None

            return app_op, frozenset(deps)
        if len(fns) == 0:
            v_ctx = self

            def app0(s: Any, n: Any, e: list) -> Any:
                try:
                    return impl() if not nat.wants_ctx else impl(v_ctx)
                except ValueFault as exc:
                    raise EvalError(f"{name}: {exc}", span) from None

            return self.fold(app0, frozenset(deps), None)
        call = strict_native(name, impl, len(fns))  # the generated code calls the same
        if len(fns) == 1:
            f0 = fns[0]

            def app1(s: Any, n: Any, e: list) -> Any:
                x = f0(s, n, e)
                try:
                    return call(x)
                except ValueFault as exc:
                    raise EvalError(str(exc), span) from None

            return self.fold(app1, frozenset(deps), None)
        if len(fns) == 2:
            f0, f1 = fns

            def app2(s: Any, n: Any, e: list) -> Any:
                x = f0(s, n, e)
                y = f1(s, n, e)
                try:
                    return call(x, y)
                except ValueFault as exc:
                    raise EvalError(str(exc), span) from None

            return self.fold(app2, frozenset(deps), None)

        def appn(s: Any, n: Any, e: list) -> Any:
            vals = [f(s, n, e) for f in fns]
            try:
                return call(*vals)
            except ValueFault as exc:
                raise EvalError(str(exc), span) from None

        return self.fold(appn, frozenset(deps), None)

    def op_callable(self, op: OpVal, env: Env, span: Any, deps_out: set | None = None) -> Callable:
        """An operator argument as ``cf(s, n, e) -> python callable(*values)``; ``deps_out``
        receives what its body reads besides its parameters (so a native applied to a LAMBDA
        over constants is a constant, e.g. a trace spec's SelectSeq over the log)."""
        if op.native is not None:
            impl = op.native.fn
            if deps_out is not None and op.native.impure:
                deps_out.add(IMPURE)
            return lambda s, n, e: impl
        slots = [self.new_slot() for _ in op.params]
        binds = {p.name: ("slot", k) for p, k in zip(op.params, slots)}
        benv = (op.env or Env()).bind(binds)
        if env.primed:
            benv = benv.with_(primed=True)
        if op.recursive:
            args = tuple(A.Name(p.name) for p in op.params)
            body, _ = self.call_recursive(op, args, benv, span)
            if deps_out is not None:
                deps_out.add(STATE)
        else:
            body, bdeps = self.expr(op.body, benv)
            if deps_out is not None:
                deps_out.update(d for d in bdeps if d not in slots)

        if len(slots) == 1:  # the common case (SelectSeq's test): no tuples, no loops
            k0 = slots[0]

            def make1(s: Any, n: Any, e: list) -> Callable:
                def call1(v: Any) -> Any:
                    old = e[k0]
                    e[k0] = v
                    try:
                        return body(s, n, e)
                    finally:
                        e[k0] = old

                return call1

            return make1

        def make(s: Any, n: Any, e: list) -> Callable:
            def call(*vals: Any) -> Any:
                old = [e[k] for k in slots]
                for k, v in zip(slots, vals):
                    e[k] = v
                try:
                    return body(s, n, e)
                finally:
                    for k, v in zip(slots, old):
                        e[k] = v

            return call

        return make
