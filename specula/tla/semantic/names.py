"""Name resolution as SANY does it: unknown identifiers and operators (E301), wrong number of
arguments (E302), ``@`` outside EXCEPT (E303), RECURSIVE operators never defined (E304),
operators used as values (E305), and bound names that redeclare a visible symbol (E203).

Definitions must precede their use (RECURSIVE declarations excepted); a function defined with
``f[x \\in S] == ...`` may refer to itself.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Callable

from specula.diagnostics import Diagnostic
from specula.tla import ast
from specula.tla.modules import STDLIB_DIR
from specula.tla.builtin_names import BUILTIN_NAMES, BUILTIN_OPS, VARIADIC

if TYPE_CHECKING:
    from specula.tla.modules import Definition, Scope, Spec

__all__ = ["names", "checked_scopes"]

Env = dict[str, int]  # locally bound name -> arity (0 for values)


def checked_scopes(spec: "Spec") -> list["Scope"]:
    """Base scopes of every module the user wrote (specula's standard library is trusted)."""
    std = str(STDLIB_DIR)
    out = []
    for name, scope in spec.scopes.items():
        if scope.module.span.file.startswith(std):
            continue
        out.append(scope)
    return out


def names(spec: "Spec") -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for scope in checked_scopes(spec):
        _ModuleNames(scope, diags).run()
    return diags


def _describe(d: "Definition") -> str:
    return {"variable": "variable", "constant": "constant", "instance": "instance",
            "func": "function", "theorem": "theorem"}.get(d.kind, "operator")


class _ModuleNames:
    def __init__(self, scope: "Scope", diags: list[Diagnostic]) -> None:
        self.scope = scope
        self.diags = diags
        self.pos = {n: i for i, n in enumerate(scope.names)}
        self.limit = 0
        self.table: dict[type, Callable[[ast.Node, Env, bool], None]] = {
            ast.Name: self.name,
            ast.OpApp: self.op_app,
            ast.Number: self.leaf,
            ast.String: self.leaf,
            ast.Bool: self.leaf,
            ast.At: self.at,
            ast.Quant: self.quant,
            ast.Choose: self.choose,
            ast.SetFilter: self.set_filter,
            ast.SetMap: self.set_map,
            ast.FuncCons: self.func_cons,
            ast.Let: self.let,
            ast.Lambda: self.lambda_,
            ast.TemporalQuant: self.temporal_quant,
            ast.Except: self.except_,
        }
        self.in_except = 0
        self.let_refs: dict[str, object] = {}  # LET-defined instance name -> InstanceRef

    # ------------------------------------------------------------------ reporting

    def error(self, code: str, message: str, node: ast.Node, help: str | None = None) -> None:
        sp = node.span
        self.diags.append(Diagnostic("error", code, message, sp.file, sp.line or None, sp.col or None,
                                     sp.end_line or None, sp.end_col or None, help))

    # ------------------------------------------------------------------ lookup

    def lookup(self, name: str) -> "Definition | None":
        d = self.scope.names.get(name)
        if d is None or self.pos[name] >= self.limit:
            return None
        return d

    def declare(self, name: str, node: ast.Node, env: Env, arity: int = 0) -> None:
        """Bind a local name, reporting a clash with a visible symbol as SANY does."""
        if name in env or self.lookup(name) is not None:
            d = self.lookup(name)
            where = f" (already {_describe(d)} of module {d.module})" if d is not None else ""
            self.error("E203", f"multiply defined symbol '{name}'{where}", node,
                       help="TLA+ does not allow a bound name to hide another definition; rename it")
        env[name] = arity

    # ------------------------------------------------------------------ module

    def run(self) -> None:
        module = self.scope.module
        defined_recursive: dict[str, ast.Param] = {}
        for unit in module.units:
            self.limit = self.scope.unit_starts.get(id(unit), len(self.pos))
            if isinstance(unit, ast.OpDef):
                env: Env = {}
                for p in unit.params:
                    self.declare(p.name, p, env, p.arity)
                self.expr(unit.body, env)
                defined_recursive.pop(unit.name, None)
            elif isinstance(unit, ast.FuncDef):
                env = {}
                self.bounds(unit.bounds, env)
                env[unit.name] = 0
                self.expr(unit.body, env)
                defined_recursive.pop(unit.name, None)
            elif isinstance(unit, ast.RecursiveDecl):
                for p in unit.params:
                    defined_recursive[p.name] = p
            elif isinstance(unit, ast.InstanceDef):
                env = {}
                for p in unit.params:
                    self.declare(p.name, p, env, p.arity)
                for sub in unit.substitutions:
                    self.expr(sub.expr, env, as_arg=True)
            elif isinstance(unit, ast.Assume):
                self.expr(unit.expr, {})
            elif isinstance(unit, ast.Theorem) and unit.expr is not None:
                self.expr(unit.expr, {})
        for name, p in defined_recursive.items():
            d = self.scope.names.get(name)
            if d is None or d.kind == "recursive":
                self.error("E304", f"RECURSIVE operator '{name}' is declared but never defined", p)

    # ------------------------------------------------------------------ expressions

    def expr(self, node: ast.Node, env: Env, as_arg: bool = False) -> None:
        fn = self.table.get(type(node))
        if fn is not None:
            fn(node, env, as_arg)
            return
        for child in ast.children(node):
            self.expr(child, env)

    def leaf(self, node: ast.Node, env: Env, as_arg: bool) -> None:
        return None

    def at(self, node: ast.Node, env: Env, as_arg: bool) -> None:
        if not self.in_except:
            self.error("E303", "'@' can only appear in the value of an EXCEPT clause", node)

    def except_(self, node: ast.Except, env: Env, as_arg: bool) -> None:
        self.expr(node.fn, env)
        for upd in node.updates:
            for step in upd.path:
                if isinstance(step, tuple):
                    for e in step:
                        self.expr(e, env)
            self.in_except += 1
            self.expr(upd.value, env)
            self.in_except -= 1

    def name(self, node: ast.Name, env: Env, as_arg: bool) -> None:
        n = node.name
        if n in env:
            if env[n] > 0 and not as_arg:
                self.error("E305", f"operator '{n}' takes {env[n]} argument(s) but is used without any", node)
            return
        d = self.lookup(n)
        if d is not None:
            if d.kind == "instance":
                self.error("E305", f"'{n}' is a module instance: refer to its definitions as {n}!Name", node)
            elif d.arity > 0 and not as_arg:
                self.error("E302", f"operator '{n}' takes {d.arity} argument(s) but is used without any", node,
                           help=f"write {n}({', '.join('_' * 1 for _ in range(d.arity))})")
            return
        if n in BUILTIN_NAMES or (as_arg and n in BUILTIN_OPS):
            return
        self.unknown(n, node, "identifier")

    def unknown(self, n: str, node: ast.Node, what: str) -> None:
        hint = _suggest(n, [*self.scope.names])
        msg = f"unknown {what} '{n}'"
        module_hint = _MODULE_HINTS.get(n)
        help_text = None
        if module_hint:
            help_text = f"'{n}' is defined in module {module_hint}: add it to EXTENDS"
        elif hint:
            help_text = f"did you mean '{hint}'?"
        self.error("E301", msg, node, help=help_text)

    def op_app(self, node: ast.OpApp, env: Env, as_arg: bool) -> None:
        if node.prefix:
            self.prefixed(node, env)
        else:
            n = node.name
            count = len(node.args)
            if n in env:
                if env[n] != count:
                    self.arity_error(n, env[n], count, node)
            else:
                d = self.lookup(n)
                if d is not None:
                    if d.kind == "func":
                        self.error("E302", f"'{n}' is a function: apply it with {n}[...], not {n}(...)", node)
                    elif d.kind == "instance":
                        self.error("E305", f"'{n}' is a module instance: refer to its definitions as {n}!Name", node)
                    elif d.arity != count:
                        self.arity_error(n, d.arity, count, node)
                elif n in BUILTIN_OPS:
                    want = BUILTIN_OPS[n]
                    if want != VARIADIC and want != count:
                        self.arity_error(n, want, count, node)
                else:
                    self.unknown(n, node, "operator")
        op_params = self._op_param_arities(node, env)
        for i, a in enumerate(node.args):
            want = op_params[i] if op_params is not None and i < len(op_params) else None
            self.expr(a, env, as_arg=want is None or want > 0)
            if want:
                got = self._operator_arity(a, env)
                if got is not None and got != want:
                    what = "an expression is given" if got == 0 else f"this one takes {got}"
                    self.error("E302", f"argument {i + 1} of '{node.name}' must be an operator with {want} "
                               f"argument(s), but {what}", a)

    def _operator_arity(self, a: ast.Node, env: Env) -> int | None:
        """Arity of an operator passed as an argument (None when unknown)."""
        if isinstance(a, ast.Lambda):
            return len(a.params)
        if isinstance(a, ast.Name):
            if a.name in env:
                return env[a.name]
            d = self.lookup(a.name)
            if d is not None and d.kind in ("op", "builtin-module-op", "constant", "recursive"):
                return d.arity
            if a.name in BUILTIN_OPS and BUILTIN_OPS[a.name] != VARIADIC:
                return BUILTIN_OPS[a.name]
            if d is not None and d.kind in ("variable", "func"):
                return 0
            return None
        if isinstance(a, ast.OpApp) and (a.prefix or not a.args):
            return None  # I!Op (an instance's operator) or a name: resolved elsewhere
        return 0  # an expression (a number, an application, a set...) where an operator is required

    def _op_param_arities(self, node: ast.OpApp, env: Env) -> list[int] | None:
        """Arity of each parameter of the applied operator (an argument may be an operator only
        where the parameter is one); None when unknown (operator parameters, instances)."""
        if node.prefix or node.name in env:
            return None
        d = self.lookup(node.name)
        if d is None:
            return [0] * len(node.args) if node.name in BUILTIN_OPS else None
        if isinstance(d.node, ast.OpDef):
            return [p.arity for p in d.node.params]
        return None

    def arity_error(self, n: str, want: int, got: int, node: ast.Node) -> None:
        self.error("E302", f"operator '{n}' takes {want} argument(s) but is given {got}", node)

    def prefixed(self, node: ast.OpApp, env: Env) -> None:
        for pa in node.prefix_args:
            for a in pa:
                self.expr(a, env, as_arg=True)
        first = node.prefix[0]
        if first in env:
            ref = self.let_refs.get(first)
            if ref is None:
                return
        else:
            d = self.lookup(first)
            if d is None:
                self.unknown(first, node, "module instance")
                return
            if d.kind != "instance":
                return  # subexpression reference such as Op!lbl or Op!1: not resolved further
            ref = self.scope.instances.get(first)
        if ref is None:
            return
        if len(node.prefix_args[0]) != len(ref.params):
            self.arity_error(first, len(ref.params), len(node.prefix_args[0]), node)
        target = ref.scope
        for i, comp in enumerate(node.prefix[1:], start=1):
            inner = target.names.get(comp)
            if inner is None or inner.local:
                self.error("E301", f"module instance {'!'.join(node.prefix[:i])} has no definition '{comp}'", node)
                return
            if inner.kind != "instance":
                return  # subexpression navigation inside an instantiated definition
            nxt = target.instances.get(comp)
            if nxt is None:
                return
            target = nxt.scope
        d2 = target.names.get(node.name)
        path = "!".join(node.prefix)
        if d2 is None or d2.local:
            if node.name.isdigit() or node.name in (":", "<<", ">>", "@"):
                return
            self.error("E301", f"module instance {path} has no definition '{node.name}'", node,
                       help=f"{path} is module {target.module.name}")
            return
        if d2.kind in ("op", "builtin-module-op", "constant") and d2.arity != len(node.args):
            self.arity_error(f"{path}!{node.name}", d2.arity, len(node.args), node)

    # ------------------------------------------------------------------ binders

    def bounds(self, bounds: tuple[ast.Bound, ...], env: Env) -> None:
        """Domains are evaluated outside the new names; then the names are declared."""
        outer = dict(env)
        for b in bounds:
            if b.domain is not None:
                self.expr(b.domain, outer)
        for b in bounds:
            for n in b.names:
                self.declare(n, b, env)

    def quant(self, node: ast.Quant, env: Env, as_arg: bool) -> None:
        inner = dict(env)
        self.bounds(node.bounds, inner)
        self.expr(node.body, inner)

    def choose(self, node: ast.Choose, env: Env, as_arg: bool) -> None:
        inner = dict(env)
        self.bounds((node.bound,), inner)
        self.expr(node.body, inner)

    def set_filter(self, node: ast.SetFilter, env: Env, as_arg: bool) -> None:
        inner = dict(env)
        self.bounds((node.bound,), inner)
        self.expr(node.pred, inner)

    def set_map(self, node: ast.SetMap, env: Env, as_arg: bool) -> None:
        inner = dict(env)
        self.bounds(node.bounds, inner)
        self.expr(node.expr, inner)

    def func_cons(self, node: ast.FuncCons, env: Env, as_arg: bool) -> None:
        inner = dict(env)
        self.bounds(node.bounds, inner)
        self.expr(node.body, inner)

    def temporal_quant(self, node: ast.TemporalQuant, env: Env, as_arg: bool) -> None:
        inner = dict(env)
        for n in node.names:
            self.declare(n, node, inner)
        self.expr(node.body, inner)

    def lambda_(self, node: ast.Lambda, env: Env, as_arg: bool) -> None:
        inner = dict(env)
        for n in node.params:
            self.declare(n, node, inner)
        self.expr(node.body, inner)

    def let(self, node: ast.Let, env: Env, as_arg: bool) -> None:
        inner = dict(env)
        pending: dict[str, ast.Param] = {}
        for d in node.defs:
            if isinstance(d, ast.RecursiveDecl):
                for p in d.params:
                    self.declare(p.name, p, inner, p.arity)
                    pending[p.name] = p
            elif isinstance(d, ast.OpDef):
                body_env = dict(inner)
                for p in d.params:
                    self.declare(p.name, p, body_env, p.arity)
                self.expr(d.body, body_env)
                if d.name in pending:
                    pending.pop(d.name)
                else:
                    self.declare(d.name, d, inner, len(d.params))
            elif isinstance(d, ast.FuncDef):
                body_env = dict(inner)
                self.bounds(d.bounds, body_env)
                body_env[d.name] = 0
                self.expr(d.body, body_env)
                self.declare(d.name, d, inner, 0)
            elif isinstance(d, ast.InstanceDef) and d.name:
                body_env = dict(inner)
                for p in d.params:
                    self.declare(p.name, p, body_env, p.arity)
                for sub in d.substitutions:
                    self.expr(sub.expr, body_env, as_arg=True)
                self.declare(d.name, d, inner, len(d.params))
                ref = self.scope.let_instances.get(id(d))
                if ref is not None:
                    self.let_refs[d.name] = ref
        for name, p in pending.items():
            self.error("E304", f"RECURSIVE operator '{name}' is declared but never defined", p)
        self.expr(node.body, inner)


_MODULE_HINTS = {
    "Nat": "Naturals", "+": "Naturals", "-": "Naturals", "*": "Naturals", "<": "Naturals",
    ">": "Naturals", "<=": "Naturals", ">=": "Naturals", "..": "Naturals", "%": "Naturals",
    "\\div": "Naturals", "^": "Naturals", "Int": "Integers", "-.": "Integers", "Real": "Reals",
    "Seq": "Sequences", "Len": "Sequences", "Append": "Sequences", "Head": "Sequences",
    "Tail": "Sequences", "SubSeq": "Sequences", "SelectSeq": "Sequences", "\\o": "Sequences",
    "Cardinality": "FiniteSets", "IsFiniteSet": "FiniteSets", ":>": "TLC", "@@": "TLC",
    "Print": "TLC", "PrintT": "TLC", "Assert": "TLC", "ToString": "TLC", "Permutations": "TLC",
    "SortSeq": "TLC", "TLCGet": "TLC", "TLCSet": "TLC", "RandomElement": "TLC",
    "Range": "Functions", "Max": "FiniteSetsExt", "Min": "FiniteSetsExt", "SumSet": "FiniteSetsExt",
    "ToSet": "SequencesExt", "Last": "SequencesExt", "Front": "SequencesExt",
}


def _suggest(name: str, candidates: list[str]) -> str | None:
    close = difflib.get_close_matches(name, [c for c in candidates if c.isidentifier()], n=1, cutoff=0.75)
    return close[0] if close else None
