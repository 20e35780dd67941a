"""Level checking as SANY does it.

Levels: 0 constant, 1 state (reads variables), 2 action (primes, UNCHANGED, [A]_v), 3 temporal
([]/<>, ~>, fairness, \\EE). Errors (codes stable):

* E401 prime of an action- or temporal-level expression (``x''``, ``(x')'``)
* E402 UNCHANGED / ENABLED of an expression above its allowed level
* E403 ``[A]_v`` / ``<<A>>_v`` / ``WF_v(A)`` with ``v`` action-level or ``A`` temporal
* E404 ``[]`` or ``<>`` applied to an action that is not ``[A]_v`` / ``<<A>>_v``
* E405 a conjunction/disjunction/implication mixing an action and a temporal formula
* E406 ASSUME that is not constant-level
* E407 INSTANCE substitution above the level of its target (a CONSTANT needs a constant
  expression, a VARIABLE at most a state function)
* E408 a temporal formula as an argument of an operator on values (``=``, ``\\in``, ``{...}``,
  ``<<...>>``, CHOOSE, ...), e.g. ``Spec == Init = [][Next]_v``

The level of an operator application is the maximum of its body's own level and the levels
of the arguments whose parameters the body uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from specula.diagnostics import Diagnostic
from specula.tla import ast
from specula.tla.semantic.names import checked_scopes

if TYPE_CHECKING:
    from specula.tla.modules import Definition, Scope, Spec

__all__ = ["levels", "expression_level"]

CONSTANT, STATE, ACTION, TEMPORAL = 0, 1, 2, 3
_NAMES = {0: "constant", 1: "state", 2: "action", 3: "temporal"}

_HELP = {
    "E401": "prime only state-level expressions (variables and what is computed from them); "
            "x' is the next value of x, x'' does not exist",
    "E402": "UNCHANGED takes variables or a tuple of them (UNCHANGED <<x, y>>); ENABLED takes an action",
    "E403": "the subscript is the tuple of variables, e.g. [][Next]_vars with vars == <<x, y>>; "
            "the action inside must not use [] or <>",
    "E404": "a step formula under [] must be written [][Next]_vars (and under <> as <><<A>>_vars)",
    "E405": "keep actions (with primes) and temporal formulas ([], <>, WF_/SF_) in separate definitions, "
            "e.g. Spec == Init /\\ [][Next]_vars /\\ WF_vars(Next)",
    "E406": "ASSUME may only mention constants; state properties belong in invariants",
    "E407": "substitute constants with constant expressions and variables with state functions",
    "E408": "temporal formulas ([], <>, WF_/SF_) combine only with /\\, \\/, ~, =>, <=> and quantifiers; "
            "did you mean Spec == Init /\\ [][Next]_vars?",
}

_TEMPORAL_OPS = frozenset({"[]", "<>", "~>", "-+->"})
_LOGICAL = frozenset({"=>", "<=>", "~"})
# built-in operators on values: SANY allows them at most action-level arguments (E408)
_VALUE_OPS = frozenset({"=", "#", "\\in", "\\notin", "\\subseteq", "\\cup", "\\cap", "\\", "SUBSET", "UNION",
                        "DOMAIN", "\\X"})
_VALUE_NODES = {ast.SetEnum: "a set {...}", ast.Tuple: "a tuple <<...>>"}


def levels(spec: "Spec") -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    cache: dict[int, tuple[int, frozenset[int], frozenset[int]]] = {}
    for scope in checked_scopes(spec):
        _Levels(scope, diags, cache, report=True, modules=spec.scopes).run()
    return diags


def expression_level(expr: ast.Expr, scope: "Scope") -> int:
    """Level of ``expr`` evaluated at ``scope``'s top level (0..3); no diagnostics."""
    return _Levels(scope, [], {}, report=False).level(expr, {})


class _LetDef:
    __slots__ = ("node", "env")

    def __init__(self, node: ast.Node, env: dict) -> None:
        self.node = node
        self.env = env


class _Levels:
    def __init__(self, scope: "Scope", diags: list[Diagnostic], cache: dict, report: bool,
                 modules: "dict[str, Scope] | None" = None) -> None:
        self.modules = modules or {}
        self.scope = scope
        self.diags = diags
        self.cache = cache
        self.report = report
        self.used: list[set[str]] = []  # stack: parameter names used by the definition being computed
        self.primed: list[set[str]] = []  # stack: parameter names used under a prime / UNCHANGED
        self.prime_depth = 0

    def error(self, code: str, message: str, node: ast.Node) -> None:
        if not self.report:
            return
        sp = node.span
        self.diags.append(Diagnostic("error", code, message, sp.file, sp.line or None, sp.col or None,
                                     sp.end_line or None, sp.end_col or None, _HELP.get(code)))

    def run(self) -> None:
        for unit in self.scope.module.units:
            if isinstance(unit, (ast.OpDef, ast.FuncDef)):
                self.definition(unit, self.scope)
            elif isinstance(unit, ast.Assume):
                lvl = self.level(unit.expr, {})
                if lvl > CONSTANT:
                    self.error("E406", f"ASSUME must be constant-level, but this one is {_NAMES[lvl]}-level "
                               "(it reads variables or uses primes)", unit)
            elif isinstance(unit, ast.Theorem) and unit.expr is not None:
                self.level(unit.expr, {})
            elif isinstance(unit, ast.InstanceDef):
                target = self.modules.get(unit.module)
                # SANY: a constant module (no VARIABLE) may take expressions of any level for
                # its constants; otherwise constants need constant-level expressions
                has_vars = target is not None and any(d.kind == "variable" for d in target.names.values())
                explicit = {sub.name: sub for sub in unit.substitutions}
                subs = list(unit.substitutions)
                if target is not None:  # implicit substitutions: the same name where INSTANCE is
                    for n, d in target.names.items():
                        if d.kind in ("constant", "variable") and n not in explicit and n in self.scope.names:
                            subs.append(ast.Substitution(n, ast.Name(n, span=unit.span), span=unit.span))
                for sub in subs:
                    lvl = self.level(sub.expr, {p.name: CONSTANT for p in unit.params})
                    d = target.names.get(sub.name) if target is not None else None
                    if d is None:
                        continue
                    if d.kind == "constant" and not has_vars:
                        continue
                    limit = CONSTANT if d.kind == "constant" else STATE
                    if lvl > limit:
                        self.error("E407", f"INSTANCE {unit.module}: '{sub.name}' is a {d.kind}, so the expression "
                                   f"substituted for it must be {_NAMES[limit]}-level, but it is {_NAMES[lvl]}-level",
                                   sub)

    # ------------------------------------------------------------------ definitions

    def definition(self, node: ast.Node, scope: "Scope") -> tuple[int, frozenset[int], frozenset[int]]:
        """(own level, indices of parameters whose arguments raise the level, indices of
        parameters the body primes: their arguments must be at most state-level)."""
        key = id(node)
        if key in self.cache:
            return self.cache[key]
        self.cache[key] = (CONSTANT, frozenset(), frozenset())  # recursion guard
        checker = self if scope is self.scope else _Levels(scope, self.diags, self.cache, report=False)
        if isinstance(node, ast.OpDef):
            env = {p.name: CONSTANT for p in node.params}
            checker.used.append(set())
            checker.primed.append(set())
            saved, checker.prime_depth = checker.prime_depth, 0
            lvl = checker.level(node.body, env)
            checker.prime_depth = saved
            used = checker.used.pop()
            primed = checker.primed.pop()
            result = (lvl, frozenset(i for i, p in enumerate(node.params) if p.name in used),
                      frozenset(i for i, p in enumerate(node.params) if p.name in primed))
        elif isinstance(node, ast.FuncDef):
            env = {node.name: CONSTANT}
            lvl = checker.bounds_level(node.bounds, env)
            result = (max(lvl, checker.level(node.body, env)), frozenset(), frozenset())
        else:
            result = (CONSTANT, frozenset(), frozenset())
        self.cache[key] = result
        return result

    def apply(self, own: int, used: frozenset[int], primed: frozenset[int], args: tuple, env: dict,
              node: ast.Node | None, name: str) -> int:
        lvl = own
        for i, a in enumerate(args):
            if i in used and not isinstance(a, ast.Lambda):
                al = self.level(a, env)
                lvl = max(lvl, al)
                if i in primed and al >= ACTION and node is not None:
                    self.error("E401", f"argument {i + 1} of '{name}' is {_NAMES[al]}-level, but '{name}' primes "
                               "that parameter", node)
        return lvl

    def def_level(self, d: "Definition", args: tuple, env: dict, node: ast.Node | None = None) -> int:
        if d.kind == "variable":
            return STATE
        if d.kind in ("constant", "recursive", "theorem", "instance"):
            return max((self.level(a, env) for a in args if not isinstance(a, ast.Lambda)), default=CONSTANT)
        if d.kind == "builtin-module-op":
            # standard-library bodies are placeholders for native code: every argument counts
            return max((self.level(a, env) for a in args if not isinstance(a, ast.Lambda)), default=CONSTANT)
        own, used, primed = self.definition(d.node, d.scope)
        return self.apply(own, used, primed, args, env, node, d.name)

    # ------------------------------------------------------------------ expressions

    def level(self, node: ast.Node, env: dict) -> int:
        t = type(node)
        if t is ast.Name:
            return self.name_level(node, env)
        if t in (ast.Number, ast.String, ast.Bool, ast.At):
            return CONSTANT
        if t is ast.OpApp:
            return self.op_app(node, env)
        if t is ast.Prime:
            self.prime_depth += 1
            try:
                inner = self.level(node.expr, env)
            finally:
                self.prime_depth -= 1
            if inner >= ACTION:
                self.error("E401", f"cannot prime {'an' if inner == ACTION else 'a'} {_NAMES[inner]}-level expression", node)
            return ACTION
        if t is ast.And or t is ast.Or:
            lv = [self.level(a, env) for a in node.args]
            if ACTION in lv and TEMPORAL in lv:
                op = "conjunction" if t is ast.And else "disjunction"
                self.error("E405", f"{op} mixes an action and a temporal formula", node)
            return max(lv, default=CONSTANT)
        if t is ast.BoxAction or t is ast.AngleAction:
            a = self.level(node.action, env)
            v = self.level(node.sub, env)
            if v >= ACTION:
                self.error("E403", f"the subscript of {'[A]_v' if t is ast.BoxAction else '<<A>>_v'} must be "
                           f"a state function, but it is {_NAMES[v]}-level", node)
            if a >= TEMPORAL:
                self.error("E403", "the action of [A]_v / <<A>>_v cannot be a temporal formula", node)
            return ACTION
        if t is ast.Fairness:
            v = self.level(node.sub, env)
            a = self.level(node.action, env)
            if v >= ACTION:
                self.error("E403", f"the subscript of {node.kind}_v must be a state function, "
                           f"but it is {_NAMES[v]}-level", node)
            if a >= TEMPORAL:
                self.error("E403", f"the action of {node.kind}_v(A) cannot be a temporal formula", node)
            return TEMPORAL
        if t is ast.TemporalQuant:
            inner = dict(env)
            for n in node.names:
                inner[n] = STATE
            self.level(node.body, inner)
            return TEMPORAL
        if t is ast.Quant:
            inner = dict(env)
            lvl = self.bounds_level(node.bounds, inner)
            return max(lvl, self.level(node.body, inner))
        if t is ast.Choose:
            inner = dict(env)
            lvl = max(self.bounds_level((node.bound,), inner), self.level(node.body, inner))
            if lvl == TEMPORAL:
                self.error("E408", "CHOOSE takes a predicate on values, not a temporal formula", node)
            return lvl
        if t is ast.SetFilter:
            inner = dict(env)
            lvl = self.bounds_level((node.bound,), inner)
            return max(lvl, self.level(node.pred, inner))
        if t is ast.SetMap:
            inner = dict(env)
            lvl = self.bounds_level(node.bounds, inner)
            return max(lvl, self.level(node.expr, inner))
        if t is ast.FuncCons:
            inner = dict(env)
            lvl = self.bounds_level(node.bounds, inner)
            return max(lvl, self.level(node.body, inner))
        if t is ast.Let:
            inner = dict(env)
            for d in node.defs:
                if isinstance(d, (ast.OpDef, ast.FuncDef)):
                    inner[d.name] = _LetDef(d, inner)
            return self.level(node.body, inner)
        if t is ast.Lambda:
            inner = dict(env)
            for n in node.params:
                inner[n] = CONSTANT
            return self.level(node.body, inner)
        if t is ast.Except:
            lvl = self.level(node.fn, env)
            for upd in node.updates:
                for step in upd.path:
                    if isinstance(step, tuple):
                        for e in step:
                            lvl = max(lvl, self.level(e, env))
                lvl = max(lvl, self.level(upd.value, env))
            return lvl
        lvl = CONSTANT
        for child in ast.children(node):
            lvl = max(lvl, self.level(child, env))
        if lvl == TEMPORAL and t in _VALUE_NODES:
            self.error("E408", f"{_VALUE_NODES[t]} holds values, not temporal formulas", node)
        return lvl

    def bounds_level(self, bounds: tuple[ast.Bound, ...], env: dict) -> int:
        lvl = CONSTANT
        for b in bounds:
            if b.domain is not None:
                lvl = max(lvl, self.level(b.domain, env))
        for b in bounds:
            for n in b.names:
                env[n] = CONSTANT
        return lvl

    def name_level(self, node: ast.Name, env: dict) -> int:
        n = node.name
        if n in env:
            v = env[n]
            if isinstance(v, _LetDef):
                return self.let_level(v, (), env)
            if self.used:
                self.used[-1].add(n)
                if self.prime_depth:
                    self.primed[-1].add(n)
            return v
        d = self.scope.names.get(n)
        if d is None:
            return CONSTANT
        return self.def_level(d, (), env)

    def let_level(self, let: _LetDef, args: tuple, env: dict) -> int:
        node = let.node
        key = id(node)
        if key not in self.cache:
            self.cache[key] = (CONSTANT, frozenset(), frozenset())
            if isinstance(node, ast.OpDef):
                inner = dict(let.env)
                for p in node.params:
                    inner[p.name] = CONSTANT
                self.used.append(set())
                lvl = self.level(node.body, inner)
                used = self.used.pop()
                # parameters of enclosing definitions used inside the LET count for them too
                if self.used:
                    self.used[-1].update(u for u in used if u not in {p.name for p in node.params})
                self.cache[key] = (lvl, frozenset(i for i, p in enumerate(node.params) if p.name in used),
                                   frozenset())
            else:
                inner = dict(let.env)
                inner[node.name] = CONSTANT
                lvl = self.bounds_level(node.bounds, inner)
                self.cache[key] = (max(lvl, self.level(node.body, inner)), frozenset(), frozenset())
        own, used_idx, _ = self.cache[key]
        return self.apply(own, used_idx, frozenset(), args, env, None, node.name)

    def op_app(self, node: ast.OpApp, env: dict) -> int:
        name = node.name
        args = node.args
        if node.prefix:
            d = self.resolve_prefixed(node)
            arg_lvl = max((self.level(a, env) for a in args if not isinstance(a, ast.Lambda)), default=CONSTANT)
            for pa in node.prefix_args:
                for a in pa:
                    arg_lvl = max(arg_lvl, self.level(a, env))
            if d is None:
                return arg_lvl
            return max(arg_lvl, self.definition(d.node, d.scope)[0]) if d.kind in ("op", "func", "builtin-module-op") \
                else max(arg_lvl, STATE if d.kind == "variable" else CONSTANT)
        if name in env:
            v = env[name]
            if isinstance(v, _LetDef):
                return self.let_level(v, args, env)
            if self.used:
                self.used[-1].add(name)
            return max((self.level(a, env) for a in args if not isinstance(a, ast.Lambda)), default=CONSTANT)
        d = self.scope.names.get(name)
        if d is not None:
            return self.def_level(d, args, env, node)
        if name == "ENABLED":  # ENABLED A is state-level: primes inside it do not count outside
            saved, self.prime_depth = self.prime_depth, 0
            try:
                lv = [self.level(a, env) for a in args]
            finally:
                self.prime_depth = saved
        else:
            lv = [self.level(a, env) for a in args]
        top = max(lv, default=CONSTANT)
        if name in _TEMPORAL_OPS:
            wanted = ast.BoxAction if name == "[]" else ast.AngleAction
            if name in ("[]", "<>") and lv and lv[0] == ACTION and not isinstance(args[0], wanted):
                form = "[A]_v" if name == "[]" else "<<A>>_v"
                self.error("E404", f"{name} applied to an action that is not of the form {form}", node)
            return TEMPORAL
        if name == "UNCHANGED":
            if top >= ACTION:
                self.error("E402", f"UNCHANGED takes a state function, but its argument is {_NAMES[top]}-level", node)
            return ACTION
        if name == "ENABLED":
            if top >= TEMPORAL:
                self.error("E402", "ENABLED takes an action, but its argument is a temporal formula", node)
            return STATE
        if name == "\\cdot":
            return ACTION
        if name in _LOGICAL and ACTION in lv and TEMPORAL in lv:
            self.error("E405", f"'{name}' mixes an action and a temporal formula", node)
        if name in _VALUE_OPS and TEMPORAL in lv:
            self.error("E408", f"'{name}' takes values, but its argument {lv.index(TEMPORAL) + 1} is a temporal "
                       "formula", node)
        return top

    def resolve_prefixed(self, node: ast.OpApp) -> "Definition | None":
        ref = self.scope.instances.get(node.prefix[0])
        if ref is None:
            return None
        target = ref.scope
        for comp in node.prefix[1:]:
            nxt = target.instances.get(comp)
            if nxt is None:
                return None
            target = nxt.scope
        return target.names.get(node.name)
