"""Static analysis (part of the Compiler): questions asked of an expression before compiling it."""

from __future__ import annotations

from typing import Any

from specula.tla import ast as A
from specula.tla.compile.env import STATE, PRIME, IMPURE, Env, CompileError, IMPURE_NATIVES, FUNCDEF


class Analysis:
    """Static questions about expressions (levels, branching, variables read, assignment targets)."""

    def constant_level(self, node: Any, env: Env) -> bool:
        """Whether ``node`` depends on no variable: TLC evaluates constant-level definitions
        of arity 0 once, so used as an action conjunct they are one guard (never split)."""
        try:
            deps = self.expr(node, env)[1]
        except CompileError:
            return False
        return STATE not in deps and PRIME not in deps

    def may_branch(self, node: Any, env: Env) -> bool:
        """Whether ``node``, taken as an action, might satisfy its continuation more than once
        (a disjunction or an existential somewhere in it or in the definitions it uses).
        Conservative: TLC splits such conjuncts, e.g. under a state-level ``\\A``."""
        seen: set[int] = set()
        todo: list[tuple[Any, Env | None]] = [(node, env)]
        while todo:
            n0, env0 = todo.pop()
            for x in A.walk(n0):
                if isinstance(x, A.Or) or (isinstance(x, A.Quant) and x.kind == "E"):
                    return True
                if isinstance(x, A.OpApp) and x.prefix:
                    return True
                if env0 is not None and isinstance(x, (A.Name, A.OpApp)):
                    b = self.try_resolve(x.name, env0)
                    if b is None:
                        continue
                    if b[0] == "op" and b[1].native is None and b[1].body is not None and id(b[1].body) not in seen:
                        seen.add(id(b[1].body))
                        todo.append((b[1].body, b[1].env))
                    elif b[0] == "expr" and id(b[1]) not in seen:
                        seen.add(id(b[1]))
                        todo.append((b[1], b[2]))
        return False

    def state_vars(self, node: Any, env: Env) -> frozenset[int] | None:
        """The state variables ``node`` reads (through the definitions it uses), or None when
        that cannot be told statically (instance prefixes, ENABLED, primes, unknown bindings)."""
        seen: set[int] = set()
        out: set[int] = set()
        todo: list[tuple[Any, Env]] = [(node, env)]
        while todo:
            n0, env0 = todo.pop()
            for x in A.walk(n0):
                if isinstance(x, (A.Prime, A.BoxAction, A.AngleAction, A.Fairness, A.TemporalQuant)):
                    return None
                if isinstance(x, A.OpApp) and (x.prefix or x.name in ("ENABLED", "UNCHANGED", "'")):
                    return None
                if not isinstance(x, (A.Name, A.OpApp)):
                    continue
                b = self.try_resolve(x.name, env0)
                if b is None:
                    continue
                kind = b[0]
                if kind == "var":
                    out.add(b[1])
                elif kind == "op":
                    op = b[1]
                    if op.native is not None and op.name in IMPURE_NATIVES:
                        return None
                    if op.native is None and op.body is not None and id(op.body) not in seen:
                        seen.add(id(op.body))
                        # parameters shadow variables of the same name
                        oenv = op.env or env0
                        if op.params:
                            oenv = oenv.bind({p.name: ("slot", -1) for p in op.params})
                        todo.append((op.body, oenv))
                elif kind == "expr":
                    if id(b[1]) not in seen:
                        seen.add(id(b[1]))
                        todo.append((b[1], b[2]))
                elif kind == "func":
                    if id(b[1]) not in seen:
                        seen.add(id(b[1]))
                        todo.append((b[1], b[2]))
                elif kind == "lazy":
                    deps = b[3]
                    if STATE in deps or PRIME in deps or IMPURE in deps:
                        return None
                elif kind not in ("slot", "const"):
                    return None
        return frozenset(out)

    def funcdef_of(self, node: A.FuncApp, env: Env) -> tuple | None:
        """The definition ``(FuncDef, its env, binding of its name)`` applied by ``node``, when
        it is one named function of one bound variable applied to one argument."""
        if env.primed or len(node.args) != 1 or not isinstance(node.fn, A.Name):
            return None
        name = node.fn.name
        b = self.try_resolve(name, env)
        if b is None:
            return None
        if b[0] == "func":
            d, denv, fb = b[1], b[2], None
        else:
            h = env.locals.get(FUNCDEF + name)
            if h is None or h[3] is not b:
                return None
            d, denv, fb = h[1], h[2], h[3]
        if len(d.bounds) != 1 or len(d.bounds[0].names) != 1 or d.bounds[0].tuple or d.bounds[0].domain is None:
            return None
        if not self.may_branch(d.body, denv if fb is None else denv.bind({d.name: fb})):
            return None  # one guard either way
        return d, denv, fb

    def target_var(self, node: Any, env: Env) -> int | None:
        """The state variable an assignment writes: ``x'`` (or ``x`` in Init)."""
        if env.init:
            if isinstance(node, A.Name):
                b = self.try_resolve(node.name, env)
                if b is not None and b[0] == "var":
                    return b[1]
                if b is not None and b[0] == "expr" and isinstance(b[1], A.Name):
                    return self.target_var(b[1], b[2])
            return None
        if isinstance(node, A.Name) and not env.primed:
            b = env.locals.get(node.name)
            if b is not None and b[0] == "expr" and isinstance(b[1], A.Prime):
                return self.target_var(b[1], b[2])
            return None
        if isinstance(node, A.Prime) and isinstance(node.expr, A.Name) and not env.primed:
            b = self.try_resolve(node.expr.name, env)
            if b is not None:
                if b[0] == "var":
                    return b[1]
                if b[0] == "expr" and isinstance(b[1], A.Name):
                    return self.target_var(A.Prime(b[1], span=node.span), b[2])
        return None

    def unchanged_vars(self, node: Any, env: Env) -> list[int] | None:
        """Variables of ``UNCHANGED node`` when it is a (nested) tuple of variables."""
        if isinstance(node, A.Tuple):
            out: list[int] = []
            for x in node.elems:
                r = self.unchanged_vars(x, env)
                if r is None:
                    return None
                out += r
            return out
        if isinstance(node, (A.Name, A.OpApp)) and not getattr(node, "args", ()) and not getattr(node, "prefix", ()):
            b = self.try_resolve(node.name, env)
            if b is None:
                return None
            if b[0] == "var":
                return [b[1]]
            if b[0] == "op" and b[1].native is None and b[1].arity == 0 and not b[1].recursive:
                return self.unchanged_vars(b[1].body, b[1].env or Env())
            if b[0] == "expr":
                return self.unchanged_vars(b[1], b[2])
            if b[0] == "const":
                return []
        return None
