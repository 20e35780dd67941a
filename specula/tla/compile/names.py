"""Name resolution (part of the Compiler): what a name denotes where it is used."""

from __future__ import annotations

from typing import Any

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla import builtins as B
from specula.tla.compile.env import UNSET, STATE, PRIME, OpVal, Env, CompileError, NODEPS, const_fn
from specula.tla.values import ValueFault


class Names:
    """Name resolution: local bindings, definitions, .cfg overrides, instances, operator arguments."""

    def resolve(self, name: str, env: Env, span: Any) -> tuple:
        b = env.locals.get(name)
        if b is not None:
            return b
        scope = env.scope
        if scope is not None:
            if scope is self.root and name in self.cfg_subst:
                target = self.cfg_subst[name]
                if target != name:
                    return self.resolve(target, env.with_(locals={}), span)
            subs = getattr(scope, "substitutions", None) or {}
            if name in subs:
                expr, sscope = subs[name]
                senv = Env(dict(env.subst_locals), sscope, env.primed, env.init, {}, env.no_override)
                return ("expr", expr, senv)
            d = scope.names.get(name) if getattr(scope, "names", None) is not None else None
            if d is not None:
                return self.definition(d, env, span)
        if name in self.var_index:
            return ("var", self.var_index[name])
        if name in self.constants:
            return ("const", self.constants[name])
        nat = B.native_by_name(name)
        if nat is not None:
            return ("op", OpVal(name, (), None, None, native=nat, key=("native", name)))
        raise CompileError(f"unknown name '{name}'", span)

    def definition(self, d: Any, env: Env, span: Any) -> tuple:
        kind = d.kind
        name = d.name
        if not env.no_override and self.root is not None:
            # .cfg overrides (TLC): N = [Mod] v, N <-[Mod] Def, X = v / X <- Def over a definition X
            # (not inside a LET-level INSTANCE, whose definitions are fresh copies)
            use_mod = getattr(getattr(env.scope, "module", None), "name", None)
            for mk in ((d.module, name), (use_mod, name)):
                if mk in self.module_constants:
                    return ("const", self.module_constants[mk])
                if mk in self.module_subst:
                    td = self.root.names.get(self.module_subst[mk])
                    if td is not None and td is not d:
                        return self.definition(td, Env(scope=self.root), span)
            # overrides of definitions apply to the definition the root module sees (its own,
            # EXTENDed and INSTANCEd ones, the same definition wherever it is used), not to
            # other same-named definitions of instantiated modules
            rd = self.root.names.get(name)
            visible = kind == "constant" or rd is d or (rd is not None and rd.node is d.node)
            if visible and kind in ("op", "func", "builtin-module-op", "constant"):
                if kind != "constant" and name in self.constants and not getattr(d.node, "params", ()):
                    return ("const", self.constants[name])
                target = self.cfg_subst.get(name)
                if target is not None and target != name:
                    td = self.root.names.get(target)
                    if td is not None and td is not d:
                        return self.definition(td, Env(scope=self.root), span)
                    return self.resolve(target, Env(scope=self.root), span)
        if kind == "variable":
            if name in self.var_index:
                return ("var", self.var_index[name])
            raise CompileError(f"variable '{name}' of module {d.module} is not a variable of the model", span)
        if kind == "constant":
            if name in self.constants:
                return ("const", self.constants[name])
            raise CompileError(f"constant '{name}' has no value (give it one in the .cfg file)", span)
        nat = B.native_for(d.module, name)
        if nat is not None:
            return ("op", OpVal(name, (), None, None, native=nat, key=("native", d.module, name)))
        node = d.node
        denv = Env(scope=d.scope, subst_locals=env.subst_locals, no_override=env.no_override)
        if kind == "func" or isinstance(node, A.FuncDef):
            return ("func", node, denv, d)
        if kind == "op" or isinstance(node, A.OpDef):
            rec = self.is_recursive(d)
            return ("op", OpVal(name, node.params, node.body, denv, recursive=rec, key=d))
        if kind in ("theorem", "assume") or isinstance(node, (A.Theorem, A.Assume)):
            return ("op", OpVal(name, (), node.expr, denv, key=d))
        if kind == "instance":
            raise CompileError(f"'{name}' is an instance; use {name}!Op", span)
        raise CompileError(f"cannot use '{name}' ({kind}) here", span)

    def is_recursive(self, d: Any) -> bool:
        mod = getattr(d.scope, "module", None)
        if mod is None:
            return False
        key = ("rec", id(mod))
        names = self.def_cache.get(key)
        if names is None:
            names = set()
            for u in mod.units:
                if isinstance(u, A.RecursiveDecl):
                    names.update(p.name for p in u.params)
            self.def_cache[key] = names
        return d.name in names

    def try_resolve(self, name: str, env: Env) -> tuple | None:
        try:
            return self.resolve(name, env, None)
        except CompileError:
            return None

    def var_read(self, i: int, env: Env, span: Any) -> tuple:
        if env.primed or env.init:
            vname = self.var_names[i]
            mark = "'" if env.primed else ""

            def rd(s: Any, n: Any, e: list) -> Any:
                v = n[i]
                if v is UNSET:
                    raise EvalError(f"the value of {vname}{mark} is not defined yet here", span)
                return v

            return rd, frozenset({PRIME})
        return (lambda s, n, e: s[i]), frozenset({STATE})

    def binding_value(self, b: tuple, env: Env, span: Any) -> tuple:
        kind = b[0]
        if kind == "slot":
            k = b[1]
            return (lambda s, n, e: e[k]), frozenset({k})
        if kind == "const":
            return const_fn(b[1]), NODEPS
        if kind == "var":
            return self.var_read(b[1], env, span)
        if kind == "lazy":
            k, fn, deps = b[1], b[2], b[3]
            if env.primed and len(b) > 4 and b[4] is not None and not b[5].primed:
                # a parameter primed in the body (Op(a) == a' ... with Op(x + 1)): the argument
                # primed, (x + 1)', evaluated where it is read
                return self.expr(b[4], b[5].with_(primed=True))

            def lazy(s: Any, n: Any, e: list) -> Any:
                v = e[k]
                if v is UNSET:
                    v = e[k] = fn(s, n, e)
                return v

            return lazy, deps | {k}
        if kind == "expr":
            node, denv = b[1], b[2]
            if env.primed and not denv.primed:
                denv = denv.with_(primed=True)
            return self.expr(node, denv)
        if kind == "op":
            op = b[1]
            if op.arity == 0:
                return self.apply_op(op, (), env, span)
            raise CompileError(f"operator '{op.name}' takes {op.arity} argument(s)", span)
        if kind == "func":
            return self.funcdef_value(b[1], b[2], b[3], env)
        raise CompileError(f"bad binding {kind}", span)

    def _name(self, node: A.Name, env: Env) -> tuple:
        return self.binding_value(self.resolve(node.name, env, node.span), env, node.span)

    def subexpr(self, node: A.OpApp, env: Env) -> Any:
        """``Def!2`` (the 2nd conjunct/disjunct of Def's body) and ``Thm!:`` -> (body node, env)."""
        if len(node.prefix) != 1 or node.args or not (node.name.isdigit() or node.name == ":"):
            return None
        b = self.try_resolve(node.prefix[0], env)
        if b is None or b[0] != "op" or b[1].body is None or b[1].params:
            return None
        body, benv = b[1].body, b[1].env or env
        if node.name == ":":
            return body, benv
        i = int(node.name)
        if isinstance(body, (A.And, A.Or)) and 1 <= i <= len(body.args):
            return body.args[i - 1], benv
        return None

    def as_op(self, b: tuple) -> tuple:
        """Follow substitutions ``F <- G`` / ``F <- LAMBDA ...`` to the operator they denote."""
        for _ in range(16):
            if b[0] != "expr":
                return b
            node, env = b[1], b[2]
            if isinstance(node, A.Lambda):
                return ("op", OpVal("LAMBDA", tuple(A.Param(p) for p in node.params), node.body, env, key=node))
            if isinstance(node, (A.Name, A.OpApp)) and not getattr(node, "args", ()) and not getattr(node, "prefix", ()):
                b = self.resolve(node.name, env, node.span)
                continue
            return b
        return b

    def instance_op(self, node: A.OpApp, env: Env) -> tuple[OpVal, Env]:
        scope = env.scope
        subst_locals: dict = {}
        no_override = env.no_override
        for i, iname in enumerate(node.prefix):
            ref = None
            if i == 0 and iname in env.locals and env.locals[iname][0] == "instance":
                ref = env.locals[iname][1]
                no_override = True
            insts = getattr(scope, "instances", None) or {}
            ref = ref or insts.get(iname)
            if ref is None and scope is not None:
                d = scope.names.get(iname)
                if d is not None and d.kind == "instance":
                    ref = getattr(d, "instance", None) or d
            if ref is None:
                raise CompileError(f"unknown instance '{iname}'", node.span)
            iscope = getattr(ref, "scope", ref)
            params = getattr(ref, "params", None)
            if params is None:
                inode = getattr(ref, "node", None)
                params = getattr(inode, "params", ()) if inode is not None else ()
            pargs = node.prefix_args[i] if i < len(node.prefix_args) else ()
            new_locals: dict = {}
            for p, a in zip(params, pargs):
                new_locals[p.name] = self.arg_binding(p, a, env)
            subst_locals = new_locals
            scope = iscope
        ienv = Env(scope=scope, primed=env.primed, init=env.init, subst_locals=subst_locals, no_override=no_override)
        d = scope.names.get(node.name)
        if d is None:
            raise CompileError(f"instance has no operator '{node.name}'", node.span)
        b = self.definition(d, ienv, node.span)
        if b[0] == "op":
            op = b[1]
            op = OpVal(op.name, op.params, op.body, ienv if op.body is not None else None,
                       op.recursive, op.native, (op.key, id(ienv.scope), tuple(sorted(subst_locals))))
            return op, ienv
        # variables/constants/functions reached through an instance
        return OpVal(node.name, (), A.Name(node.name, span=node.span), ienv, key=None), ienv

    def arg_binding(self, p: A.Param, a: Any, env: Env) -> tuple:
        if p.arity > 0:
            return ("op", self.op_arg(a, env, p.arity))
        if isinstance(a, (A.Name,)) and a.name in env.locals and env.locals[a.name][0] in ("slot", "const", "var"):
            return env.locals[a.name]
        try:
            fn, deps = self.expr(a, env)
        except CompileError:
            return ("expr", a, env)
        if not deps:
            fn, deps = self.fold(fn, deps, a)
            if not deps:
                try:
                    return ("const", fn(None, None, self.frame))
                except (EvalError, ValueFault, RecursionError):
                    pass  # a constant that fails: evaluated where the body uses it (as TLC), if at all
        if PRIME in deps or isinstance(a, (A.Name, A.Number, A.String, A.Bool)) or env.init:
            return ("expr", a, env)
        k = self.new_slot()
        return ("lazy", k, fn, deps, a, env)

    def op_arg(self, a: Any, env: Env, arity: int) -> OpVal:
        """An argument passed for an operator parameter: LAMBDA or operator name."""
        if isinstance(a, A.Lambda):
            return OpVal("LAMBDA", tuple(A.Param(p) for p in a.params), a.body, env, key=a)
        if isinstance(a, A.OpApp) and not a.args and a.prefix:
            op, _ = self.instance_op(a, env)
            return op
        name = a.name if isinstance(a, (A.Name, A.OpApp)) else None
        if name is None:
            raise CompileError("expected an operator argument", getattr(a, "span", None))
        b = env.locals.get(name)
        if b is None and name in self.builtin_ops and arity in (1, 2):
            # a built-in operator passed as an argument (e.g. FoldSet(\cap, ...)): a synthetic
            # definition applying it
            ps = tuple(A.Param(f"__p{i}") for i in range(arity))
            body = A.OpApp(name, tuple(A.Name(p.name) for p in ps), span=a.span)
            return OpVal(name, ps, body, Env(), key=("builtin-op", name, arity))
        b = self.as_op(self.resolve(name, env, a.span))
        if b[0] != "op":
            raise CompileError(f"'{name}' is not an operator", a.span)
        return b[1]
