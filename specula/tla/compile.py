"""AST -> Python closures, compiled once per model.

Every expression compiles to ``fn(s, n, e)``: ``s`` the current state (a tuple, one slot per
variable), ``n`` the next state under construction (a list; ``UNSET`` where not yet assigned),
``e`` the frame of bound variables (a list; slots are numbered at compile time). Operators are
inlined at their call sites (arguments call-by-need through cached frame slots, or call-by-name
when they mention primed variables); RECURSIVE operators are called with their parameters saved
and restored in their slots. Constant subexpressions are folded at compile time.

Actions compile in continuation-passing style: ``run(s, n, e)`` calls a continuation fixed at
compile time once for every way the action can be satisfied; ``x' = e`` assigns when ``x'`` is
unset and compares otherwise, ``x' \\in S`` enumerates, and every assignment is undone on the way
back (backtracking), exactly as TLC's ``getNextStates``.

Dispatch is by node type through tables built once per compiler (``_EXPR`` / ``_ACTION``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla import builtins as B
from specula.tla.values import (
    Fn,
    FilterSet,
    fn_set1,
    FuncSet,
    Interval,
    LazyFn,
    LazySet,
    ModelValue,
    Powerset,
    Product,
    RecordSet,
    UnionSet,
    ValueFault,
    apply_fn,
    domain,
    enumerate_set,
    format_value,
    is_set,
    make_fn,
    make_record,
    least,
    ordered,
    quick_order,
    tla_eq,
    to_frozenset,
    type_name,
)

__all__ = ["UNSET", "Compiler", "Env", "OpVal", "CompileError", "Unassigned"]


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
_NODEPS: frozenset = frozenset()
STATE, PRIME, IMPURE = "S", "P", "I"
# natives whose value or effect is not a function of the state alone
_IMPURE_NATIVES = frozenset({"TLCGet", "TLCSet", "RandomElement", "Print", "PrintT", "JavaTime",
                             "IOExec", "IOExecTemplate", "IOEnv", "ndJsonDeserialize", "JsonDeserialize"})
_FUNCDEF = "\x00funcdef:"  # hidden LET binding: the definition of a LET-defined function
EXPR_FN = Callable[[Any, Any, list], Any]


class CompileError(EvalError):
    """The spec cannot be compiled (unknown name, unsupported construct...)."""


class Unassigned(EvalError):
    """An action finished without assigning a primed variable."""


class _Found(Exception):
    pass


# ----------------------------------------------------------------------------- environments


@dataclass(frozen=True)
class OpVal:
    """A compile-time operator: a definition, a LET operator, a LAMBDA or a native builtin."""

    name: str
    params: tuple[A.Param, ...]
    body: Any  # ast.Expr, or None for natives
    env: "Env | None"
    recursive: bool = False
    native: Any = None  # builtins.Native
    key: object = None  # identity for caches

    @property
    def arity(self) -> int:
        return len(self.params) if self.native is None else self.native.arity


@dataclass(frozen=True)
class Env:
    """Compile-time environment: local bindings, the scope for global names, prime/init modes."""

    locals: dict = field(default_factory=dict)
    scope: Any = None
    primed: bool = False
    init: bool = False
    subst_locals: dict = field(default_factory=dict)  # bindings for instance substitution exprs
    no_override: bool = False  # inside a LET-level INSTANCE: cfg overrides do not apply

    def bind(self, more: dict) -> "Env":
        d = dict(self.locals)
        d.update(more)
        return Env(d, self.scope, self.primed, self.init, self.subst_locals, self.no_override)

    def with_(self, **kw: Any) -> "Env":
        vals = dict(locals=self.locals, scope=self.scope, primed=self.primed, init=self.init,
                    subst_locals=self.subst_locals, no_override=self.no_override)
        vals.update(kw)
        return Env(**vals)


# local binding kinds: ("slot", k) | ("lazy", k, fn, deps) | ("const", v) | ("expr", node, env)
#                      | ("op", OpVal) | ("var", index)


_STATE_ONLY = frozenset({STATE})


def _per_state(fn: EXPR_FN) -> EXPR_FN:
    """``fn`` (a definition that reads only the current state) evaluated once per state: the
    last state and its value are kept (the reference keeps the state's id from being reused)."""
    last: list = [None, None]

    def once(s: Any, n: Any, e: list) -> Any:
        if s is last[0] and s is not None:
            return last[1]
        v = fn(s, n, e)
        last[0], last[1] = s, v
        return v

    return once


def _sizeable(node: Any) -> bool:
    """Worth remembering per state: builds a set, function or record, quantifies, chooses, or
    calls operators (a few variable reads are cheaper to redo than to look up)."""
    for x in A.walk(node):
        if isinstance(x, (A.SetFilter, A.SetMap, A.FuncCons, A.Quant, A.Choose, A.Except, A.RecordCons,
                          A.SetEnum, A.Let)):
            return True
        if isinstance(x, A.OpApp) and x.args and x.name not in ("=", "#", "/=", "/\\", "\\/", "~", "+", "-",
                                                                  "<", ">", "<=", ">=", "=<", "\\in", "\\notin"):
            return True
    return False


_SIZED = (Powerset, FuncSet, RecordSet, Product)


def _large(d: Any) -> bool:
    """A finite lazy set too large to enumerate just to test membership (its size is cheap to
    compute for SUBSET, [S -> T], [a : S] and products)."""
    try:
        return isinstance(d, _SIZED) and len(d) > 20_000
    except (ValueFault, TypeError, OverflowError):
        return False


def _same_types(a: tuple, b: tuple) -> bool:
    """Top-level argument classes agree (Python's ``1 == True`` must not share a memo entry)."""
    for x, y in zip(a, b):
        if x.__class__ is not y.__class__:
            return False
    return True


def _raiser(message: str, span: Any) -> EXPR_FN:
    """A closure failing at run time (TLC reports such problems only when evaluated)."""

    def fail(s: Any, n: Any, e: list) -> Any:
        raise EvalError(message, span)

    return fail


def _const_fn(v: Any) -> EXPR_FN:
    return lambda s, n, e: v


def _fault(span: Any, msg: str) -> EvalError:
    return EvalError(msg, span)


def _truth(v: Any, span: Any, what: str) -> bool:
    if v is True:
        return True
    if v is False:
        return False
    raise EvalError(f"{what} must be a boolean, found {type_name(v)} {format_value(v)}", span)


class Compiler:
    """Compiles expressions, actions and definitions of one model."""

    def __init__(self, var_index: dict[str, int], constants: dict[str, Any],
                 substitutions: dict[str, str] | None = None, root: Any = None,
                 scopes: dict | None = None, module_constants: dict | None = None,
                 module_subst: dict | None = None, use_codegen: bool = True) -> None:
        self.scopes = scopes
        self.module_constants = module_constants or {}
        self.module_subst = module_subst or {}
        self.var_index = var_index
        self.var_names = list(var_index)
        self.constants = constants
        self.cfg_subst = substitutions or {}
        self.root = root
        self.nslots = 0
        self.frame: list = []
        self.def_cache: dict = {}
        self.rec_cache: dict = {}
        self.tlc_registers: dict = {}
        self.tlc_level = [0]
        # TLCGet("config"): how the model is being checked (set by the checker and simulator)
        self.tlc_config: dict = {"mode": "bfs", "deadlock": True}
        # TLCGet("stats"): filled in by the checker when the search is complete (POSTCONDITION)
        self.tlc_stats: dict = {"diameter": 0, "distinct": 0, "generated": 0, "initial": 0, "queue": 0,
                                "duration": 0, "worker": 0}
        self.probe: Any = None  # step.Probe while compiling diagnostic actions (check_step)
        self._EXPR = {
            A.Name: self._name, A.OpApp: self._opapp, A.Number: self._number, A.String: self._string,
            A.Bool: self._bool, A.And: self._and, A.Or: self._or, A.Prime: self._prime,
            A.Quant: self._quant, A.Choose: self._choose, A.SetEnum: self._setenum,
            A.SetFilter: self._setfilter, A.SetMap: self._setmap, A.FuncCons: self._funccons,
            A.FuncApp: self._funcapp, A.FuncSet: self._funcset, A.RecordCons: self._recordcons,
            A.RecordSet: self._recordset, A.FieldAccess: self._field, A.Tuple: self._tuple,
            A.Except: self._except, A.At: self._at, A.If: self._if, A.Case: self._case,
            A.Let: self._let, A.Lambda: self._lambda, A.BoxAction: self._box,
            A.AngleAction: self._angle, A.Fairness: self._temporal, A.TemporalQuant: self._temporal,
        }
        self._ACTION = {
            A.And: self._a_and, A.Or: self._a_or, A.Quant: self._a_quant, A.If: self._a_if,
            A.Case: self._a_case, A.Let: self._a_let, A.OpApp: self._a_opapp, A.Name: self._a_name,
            A.Bool: self._a_bool, A.BoxAction: self._a_box, A.AngleAction: self._a_angle, A.FuncApp: self._a_funcapp,
        }
        self._BUILTIN_OPS = B.operator_table(self)
        self.gen: Any = None
        if use_codegen:
            from specula.tla.compile_gen import Generator

            self.gen = Generator(self)

    # ------------------------------------------------------------------ slots and frames

    def new_slot(self) -> int:
        k = self.nslots
        self.nslots += 1
        while len(self.frame) < self.nslots:
            self.frame.append(UNSET)
        return k

    def fold(self, fn: EXPR_FN, deps: frozenset, node: Any) -> tuple[EXPR_FN, frozenset]:
        """Evaluate constant subexpressions once (errors are kept for run time, as TLC)."""
        if deps:
            return fn, deps
        try:
            v = fn(None, None, self.frame)
        except (EvalError, ValueFault, RecursionError):
            return fn, deps
        if isinstance(v, LazyFn):
            return fn, frozenset({IMPURE})
        return _const_fn(v), _NODEPS

    # ------------------------------------------------------------------ entry points

    def expr(self, node: Any, env: Env) -> tuple[EXPR_FN, frozenset]:
        gen = self.gen
        if gen is not None and node.__class__ in gen._GEN:
            return gen.root(node, env) or self._EXPR[node.__class__](node, env)
        try:
            h = self._EXPR[node.__class__]
        except KeyError:
            raise CompileError(f"cannot evaluate {type(node).__name__}", getattr(node, "span", None)) from None
        return h(node, env)

    def expr_fn(self, node: Any, env: Env) -> EXPR_FN:
        return self.expr(node, env)[0]

    # ------------------------------------------------------------------ name resolution

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
                return self._definition(d, env, span)
        if name in self.var_index:
            return ("var", self.var_index[name])
        if name in self.constants:
            return ("const", self.constants[name])
        nat = B.native_by_name(name)
        if nat is not None:
            return ("op", OpVal(name, (), None, None, native=nat, key=("native", name)))
        raise CompileError(f"unknown name '{name}'", span)

    def _definition(self, d: Any, env: Env, span: Any) -> tuple:
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
                        return self._definition(td, Env(scope=self.root), span)
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
                        return self._definition(td, Env(scope=self.root), span)
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
            rec = self._is_recursive(d)
            return ("op", OpVal(name, node.params, node.body, denv, recursive=rec, key=d))
        if kind in ("theorem", "assume") or isinstance(node, (A.Theorem, A.Assume)):
            return ("op", OpVal(name, (), node.expr, denv, key=d))
        if kind == "instance":
            raise CompileError(f"'{name}' is an instance; use {name}!Op", span)
        raise CompileError(f"cannot use '{name}' ({kind}) here", span)

    def _is_recursive(self, d: Any) -> bool:
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

    # ------------------------------------------------------------------ leaves

    def _number(self, node: A.Number, env: Env) -> tuple:
        return _const_fn(node.value), _NODEPS

    def _string(self, node: A.String, env: Env) -> tuple:
        return _const_fn(node.value), _NODEPS

    def _bool(self, node: A.Bool, env: Env) -> tuple:
        return _const_fn(node.value), _NODEPS

    def _at(self, node: A.At, env: Env) -> tuple:
        b = env.locals.get("@")
        if b is None:
            raise CompileError("@ used outside an EXCEPT value", node.span)
        k = b[1]
        return (lambda s, n, e: e[k]), frozenset({k})

    def _var_read(self, i: int, env: Env, span: Any) -> tuple:
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

    def _binding_value(self, b: tuple, env: Env, span: Any) -> tuple:
        kind = b[0]
        if kind == "slot":
            k = b[1]
            return (lambda s, n, e: e[k]), frozenset({k})
        if kind == "const":
            return _const_fn(b[1]), _NODEPS
        if kind == "var":
            return self._var_read(b[1], env, span)
        if kind == "lazy":
            k, fn, deps = b[1], b[2], b[3]

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
            return self._funcdef_value(b[1], b[2], b[3], env)
        raise CompileError(f"bad binding {kind}", span)

    def _name(self, node: A.Name, env: Env) -> tuple:
        return self._binding_value(self.resolve(node.name, env, node.span), env, node.span)

    # ------------------------------------------------------------------ operator application

    def _subexpr(self, node: A.OpApp, env: Env) -> Any:
        """``Def!2`` (the 2nd conjunct/disjunct of Def's body) and ``Thm!:`` -> (body node, env)."""
        if len(node.prefix) != 1 or node.args or not (node.name.isdigit() or node.name == ":"):
            return None
        b = self._try_resolve(node.prefix[0], env)
        if b is None or b[0] != "op" or b[1].body is None or b[1].params:
            return None
        body, benv = b[1].body, b[1].env or env
        if node.name == ":":
            return body, benv
        i = int(node.name)
        if isinstance(body, (A.And, A.Or)) and 1 <= i <= len(body.args):
            return body.args[i - 1], benv
        return None

    def _opapp(self, node: A.OpApp, env: Env) -> tuple:
        if node.prefix:
            sub = self._subexpr(node, env)
            if sub is not None:
                return self.expr(sub[0], sub[1].with_(primed=env.primed, init=env.init) if (env.primed or env.init) else sub[1])
            op, ienv = self._instance_op(node, env)
            return self.apply_op(op, node.args, env, node.span, ienv)
        h = self._BUILTIN_OPS.get(node.name)
        if h is not None and node.name not in env.locals:
            return h(node, env)
        b = self.resolve(node.name, env, node.span)
        if node.args:
            b = self._as_op(b)
        if b[0] == "op":
            return self.apply_op(b[1], node.args, env, node.span)
        if not node.args:
            return self._binding_value(b, env, node.span)
        raise CompileError(f"'{node.name}' is not an operator", node.span)

    def _as_op(self, b: tuple) -> tuple:
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

    def _instance_op(self, node: A.OpApp, env: Env) -> tuple[OpVal, Env]:
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
                new_locals[p.name] = self._arg_binding(p, a, env)
            subst_locals = new_locals
            scope = iscope
        ienv = Env(scope=scope, primed=env.primed, init=env.init, subst_locals=subst_locals, no_override=no_override)
        d = scope.names.get(node.name)
        if d is None:
            raise CompileError(f"instance has no operator '{node.name}'", node.span)
        b = self._definition(d, ienv, node.span)
        if b[0] == "op":
            op = b[1]
            op = OpVal(op.name, op.params, op.body, ienv if op.body is not None else None,
                       op.recursive, op.native, (op.key, id(ienv.scope), tuple(sorted(subst_locals))))
            return op, ienv
        # variables/constants/functions reached through an instance
        return OpVal(node.name, (), A.Name(node.name, span=node.span), ienv, key=None), ienv

    def _arg_binding(self, p: A.Param, a: Any, env: Env) -> tuple:
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
                return ("const", fn(None, None, self.frame))
        if PRIME in deps or isinstance(a, (A.Name, A.Number, A.String, A.Bool)) or env.init:
            return ("expr", a, env)
        k = self.new_slot()
        return ("lazy", k, fn, deps, a, env)

    def op_arg(self, a: Any, env: Env, arity: int) -> OpVal:
        """An argument passed for an operator parameter: LAMBDA or operator name."""
        if isinstance(a, A.Lambda):
            return OpVal("LAMBDA", tuple(A.Param(p) for p in a.params), a.body, env, key=a)
        if isinstance(a, A.OpApp) and not a.args and a.prefix:
            op, _ = self._instance_op(a, env)
            return op
        name = a.name if isinstance(a, (A.Name, A.OpApp)) else None
        if name is None:
            raise CompileError("expected an operator argument", getattr(a, "span", None))
        b = env.locals.get(name)
        if b is None and name in self._BUILTIN_OPS and arity in (1, 2):
            # a built-in operator passed as an argument (e.g. FoldSet(\cap, ...)): a synthetic
            # definition applying it
            ps = tuple(A.Param(f"__p{i}") for i in range(arity))
            body = A.OpApp(name, tuple(A.Name(p.name) for p in ps), span=a.span)
            return OpVal(name, ps, body, Env(), key=("builtin-op", name, arity))
        b = self._as_op(self.resolve(name, env, a.span))
        if b[0] != "op":
            raise CompileError(f"'{name}' is not an operator", a.span)
        return b[1]

    def apply_op(self, op: OpVal, args: tuple, env: Env, span: Any, ienv: Env | None = None) -> tuple:
        if op.native is not None:
            return self._apply_native(op.native, args, env, span)
        if len(args) != len(op.params):
            raise CompileError(f"operator '{op.name}' expects {len(op.params)} argument(s), got {len(args)}", span)
        if op.recursive:
            return self._call_recursive(op, args, env, span)
        if not args and op.env is not None and op.env.scope is not None and not op.env.locals and op.key is not None:
            ck = ("def", op.key, env.primed, env.init, id(op.env.scope), id(op.env.subst_locals) if op.env.subst_locals else 0)
            hit = self.def_cache.get(ck)
            if hit is not None:
                return hit
            res = self._inline(op, args, env, span)
            if res[1] == _STATE_ONLY and _sizeable(op.body):
                res = (_per_state(res[0]), res[1])
            self.def_cache[ck] = res
            return res
        return self._inline(op, args, env, span)

    def _inline(self, op: OpVal, args: tuple, env: Env, span: Any) -> tuple:
        binds: dict = {}
        lazy: list[int] = []
        for p, a in zip(op.params, args):
            b = self._arg_binding(p, a, env)
            binds[p.name] = b
            if b[0] == "lazy":
                lazy.append(b[1])
        benv = (op.env or Env()).bind(binds) if binds else (op.env or Env())
        if env.primed and not benv.primed:
            benv = benv.with_(primed=True)
        if env.init and not benv.init:
            benv = benv.with_(init=True)
        fn, deps = self.expr(op.body, benv)
        return self._wrap_lazy(fn, deps, lazy)

    @staticmethod
    def _wrap_lazy(fn: EXPR_FN, deps: frozenset, lazy: list[int]) -> tuple:
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

    def _call_recursive(self, op: OpVal, args: tuple, env: Env, span: Any) -> tuple:
        opargs = tuple(self.op_arg(a, env, p.arity) if p.arity else None for p, a in zip(op.params, args))
        ck = (op.key, env.primed, tuple(o.key if o else None for o in opargs), id(op.env.scope) if op.env else 0,
              id(op.env) if op.env is not None and (op.env.locals or op.env.subst_locals) else 0)
        entry = self.rec_cache.get(ck)
        if entry is None:
            lo = self.nslots
            slots = [self.new_slot() if p.arity == 0 else -1 for p in op.params]
            entry = {"fn": None, "slots": slots, "range": (lo, lo)}
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
            if hit is not memo and _same_types(key, hit[0]):
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
        opargs = []
        for i, a in enumerate(args):
            if i in nat.op_params:
                op = self.op_arg(a, env, 1)
                callf = self.op_callable(op, env, span)
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
            deps.add(STATE)  # operator arguments may read anything

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
        if len(fns) == 1:
            f0 = fns[0]

            def app1(s: Any, n: Any, e: list) -> Any:
                x = f0(s, n, e)
                try:
                    return impl(x)
                except ValueFault as exc:
                    raise EvalError(f"{name}: {exc}", span) from None
                except (TypeError, KeyError, IndexError, ValueError, AttributeError):
                    raise EvalError(f"{name} cannot be applied to {type_name(x)} {format_value(x)}", span) from None

            return self.fold(app1, frozenset(deps), None)
        if len(fns) == 2:
            f0, f1 = fns

            def app2(s: Any, n: Any, e: list) -> Any:
                x = f0(s, n, e)
                y = f1(s, n, e)
                try:
                    return impl(x, y)
                except ValueFault as exc:
                    raise EvalError(f"{name}: {exc}", span) from None
                except (TypeError, KeyError, IndexError, ValueError, AttributeError):
                    raise EvalError(
                        f"{name} cannot be applied to {format_value(x)} and {format_value(y)}", span
                    ) from None

            return self.fold(app2, frozenset(deps), None)

        def appn(s: Any, n: Any, e: list) -> Any:
            vals = [f(s, n, e) for f in fns]
            try:
                return impl(*vals)
            except ValueFault as exc:
                raise EvalError(f"{name}: {exc}", span) from None
            except (TypeError, KeyError, IndexError, ValueError, AttributeError):
                raise EvalError(f"{name} cannot be applied to " + ", ".join(format_value(v) for v in vals), span) from None

        return self.fold(appn, frozenset(deps), None)

    def op_callable(self, op: OpVal, env: Env, span: Any) -> Callable:
        """An operator argument as ``cf(s, n, e) -> python callable(*values)``."""
        if op.native is not None:
            impl = op.native.fn
            return lambda s, n, e: impl
        slots = [self.new_slot() for _ in op.params]
        binds = {p.name: ("slot", k) for p, k in zip(op.params, slots)}
        benv = (op.env or Env()).bind(binds)
        if env.primed:
            benv = benv.with_(primed=True)
        if op.recursive:
            args = tuple(A.Name(p.name) for p in op.params)
            body, _ = self._call_recursive(op, args, benv, span)
        else:
            body, _ = self.expr(op.body, benv)

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

    # ------------------------------------------------------------------ logic

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
                    _truth(v, sp, "a conjunct")
            return True

        if len(fns) == 2:
            f0, f1 = fns
            sp0, sp1 = spans

            def conj2(s: Any, n: Any, e: list) -> bool:
                v = f0(s, n, e)
                if v is False:
                    return False
                if v is not True:
                    _truth(v, sp0, "a conjunct")
                v = f1(s, n, e)
                if v is True or v is False:
                    return v
                return _truth(v, sp1, "a conjunct")

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
                    _truth(v, sp, "a disjunct")
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
            _truth(v, span, "the IF condition")

        return self.fold(ite, dc | dt | df, node)

    def _case(self, node: A.Case, env: Env) -> tuple:
        arms = [(self.expr(g, env), self.expr(v, env)) for g, v in node.arms]
        other = self.expr(node.other, env) if node.other is not None else None
        deps = frozenset().union(*[g[1] | v[1] for g, v in arms], other[1] if other else _NODEPS)
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

    # ------------------------------------------------------------------ binders

    def _bounds(self, bounds: tuple, env: Env) -> tuple[list, Env, frozenset, list[int]]:
        """-> (binders [(slots, tuple?, domfn, span)], env with names bound, domain deps, all slots)."""
        binders = []
        deps: set = set()
        allslots: list[int] = []
        cur = env
        for b in bounds:
            if b.domain is None:
                dfn, dd = _raiser("unbounded quantifier cannot be evaluated (TLC needs a bound)", b.span), frozenset({STATE})
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
    def _iter_binders(binders: list, s: Any, n: Any, e: list, sort: bool = False):
        """Generator setting the bound slots for each combination."""
        doms = []
        for ks, is_tuple, dfn, span in binders:
            d = dfn(s, n, e)
            try:
                els = enumerate_set(d)
            except ValueFault as exc:
                raise EvalError(str(exc), span) from None
            doms.append((ks, is_tuple, ordered(els) if sort else list(els)))
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
        binders, benv, ddeps, slots = self._bounds(node.bounds, env)
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
                            _truth(r, span, "the body of \\E")
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
                        _truth(r, span, "the body of \\A")
                return True

            return self.fold(fa, deps, node)
        it = self._iter_binders
        want = node.kind == "E"

        def q(s: Any, n: Any, e: list) -> bool:
            for _ in it(binders, s, n, e):
                r = body(s, n, e)
                if r is want:
                    return want
                if r is not (not want):
                    _truth(r, span, "a quantifier body")
            return not want

        return self.fold(q, deps, node)

    def _choose(self, node: A.Choose, env: Env) -> tuple:
        binders, benv, ddeps, slots = self._bounds((node.bound,), env)
        body, bd = self.expr(node.body, benv)
        deps = (bd - set(slots)) | ddeps
        it = self._iter_binders
        span = node.span
        get = self._bound_value_getter(node.bound, slots)

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

            def choose1(s: Any, n: Any, e: list) -> Any:
                try:
                    els = list(enumerate_set(dfn(s, n, e)))
                except ValueFault as exc:
                    raise EvalError(str(exc), dspan) from None
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
    def _bound_value_getter(b: A.Bound, slots: list[int]) -> Callable[[list], Any]:
        if b.tuple:
            return lambda e: tuple(e[k] for k in slots)
        k0 = slots[0]
        return lambda e: e[k0]

    def _setenum(self, node: A.SetEnum, env: Env) -> tuple:
        parts = [self.expr(a, env) for a in node.elems]
        fns = [p[0] for p in parts]
        deps = frozenset().union(*[p[1] for p in parts]) if parts else _NODEPS
        return self.fold(lambda s, n, e: frozenset([f(s, n, e) for f in fns]), deps, node)

    def _setfilter(self, node: A.SetFilter, env: Env) -> tuple:
        binders, benv, ddeps, slots = self._bounds((node.bound,), env)
        pred, pd = self.expr(node.pred, benv)
        deps = (pd - set(slots)) | ddeps
        get = self._bound_value_getter(node.bound, slots)
        dfn = binders[0][2]
        it = self._iter_binders
        span = node.span
        simple = not node.bound.tuple and len(slots) == 1
        k0 = slots[0]

        def filt(s: Any, n: Any, e: list) -> Any:
            d = dfn(s, n, e)
            if isinstance(d, LazySet) and (not d.finite or _large(d)):
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
                        _truth(r, span, "a set filter condition")
                return frozenset(out)
            return frozenset([get(e) for _ in it(binders, s, n, e) if pred(s, n, e) is True])

        return self.fold(filt, deps, node)

    def _setmap(self, node: A.SetMap, env: Env) -> tuple:
        binders, benv, ddeps, slots = self._bounds(node.bounds, env)
        body, bd = self.expr(node.expr, benv)
        deps = (bd - set(slots)) | ddeps
        it = self._iter_binders
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
        binders, benv, ddeps, slots = self._bounds(node.bounds, env)
        body, bd = self.expr(node.body, benv)
        deps = (bd - set(slots)) | ddeps
        it = self._iter_binders
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

    def _funcdef_value(self, fd: A.FuncDef, denv: Env, d: Any, env: Env) -> tuple:
        """A (possibly recursive) function definition ``f[x \\in S] == body`` as a value."""
        # only top-level definitions are shared between call sites: a LET-defined function
        # captures the bindings (slots) of its enclosing context
        cacheable = not denv.locals and not denv.subst_locals
        ck = ("func", id(fd), env.primed, id(denv.scope))
        hit = self.def_cache.get(ck) if cacheable else None
        if hit is not None:
            return hit
        kself = self.new_slot()
        binders, benv, ddeps, slots = self._bounds(fd.bounds, denv.bind({fd.name: ("slot", kself)}))
        if env.primed:
            benv = benv.with_(primed=True)
        lo = min(slots) if slots else self.nslots
        body, bd = self.expr(fd.body, benv)
        hi = self.nslots
        deps = (bd - set(slots) - {kself}) | ddeps
        nb = len(binders)
        name = fd.name

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
            if isinstance(dom, LazySet) and not dom.finite:
                return f
            try:
                return f.materialize()
            except ValueFault as exc:
                raise EvalError(str(exc), fd.span) from None
            except RecursionError:
                raise EvalError(f"recursion too deep in function {name}", fd.span) from None

        res = self.fold(build, frozenset(deps), fd)
        if res[1] and not (res[1] - {IMPURE}):
            res = (res[0], frozenset(deps) | {STATE})
        elif res[1] == _STATE_ONLY:
            res = (_per_state(res[0]), res[1])
        if cacheable:
            self.def_cache[ck] = res
        return res

    # ------------------------------------------------------------------ functions, records

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
        return self.fold(lambda s, n, e: FuncSet(d(s, n, e), r(s, n, e)), dd | rd, node)

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
        return self.fold(lambda s, n, e: RecordSet(tuple((nm, p[0](s, n, e)) for nm, p in parts)), deps, node)

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
        deps = frozenset().union(*[p[1] for p in parts]) if parts else _NODEPS
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
                    path.append(_const_fn(item))
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
            ups.append((path, vf, self._uses_at(u.value)))
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
    def _uses_at(node: Any) -> bool:
        return any(isinstance(x, A.At) for x in A.walk(node))

    def _let(self, node: A.Let, env: Env) -> tuple:
        lenv, lazy = self.let_env(node, env)
        body, bd = self.expr(node.body, lenv)
        return self._wrap_lazy(body, bd, lazy)

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
                    opv = OpVal(d.name, d.params, d.body, _LateEnv(holder), op.recursive, key=d)
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
                fn, deps = self._funcdef_value(d, cur, None, env)
                if not deps:
                    fb: tuple = ("const", fn(None, None, self.frame))
                else:
                    k = self.new_slot()
                    lazy.append(k)
                    fb = ("lazy", k, fn, deps)
                # the definition, for f[a] as an action (see _a_funcapp)
                cur = cur.bind({d.name: fb, _FUNCDEF + d.name: ("funcdef", d, cur, fb)})
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
        return _raiser("temporal formulas cannot be evaluated in a state", node.span), frozenset({STATE})

    # ================================================================== actions

    def action(self, node: Any, env: Env, k: Callable) -> Callable:
        """Compile ``node`` as an action: returns ``run(s, n, e)`` calling ``k(s, n, e)`` once
        per way of satisfying it (``n`` holds the primed variables, UNSET when unassigned)."""
        h = self._ACTION.get(node.__class__)
        if h is not None:
            return h(node, env, k)
        return self._a_guard(node, env, k)

    def _a_guard(self, node: Any, env: Env, k: Callable) -> Callable:
        g, _ = self.expr(node, env)
        span = node.span
        if self.probe is not None:
            return self.probe.guard(g, node, env, k)

        def guard(s: Any, n: Any, e: list) -> None:
            v = g(s, n, e)
            if v is True:
                k(s, n, e)
            elif v is not False:
                _truth(v, span, "an action conjunct")

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
                _, deps = self.expr(node, env)
            except CompileError:
                deps = frozenset({PRIME})
            if PRIME not in deps and (node.bounds[0].tuple or not self.may_branch(node.body, env)):
                return self._a_guard(node, env, k)
            return self._a_forall(node, env, k)
        binders, benv, _, _ = self._bounds(node.bounds, env)
        body = self.action(node.body, benv, k)
        it = self._iter_binders
        if len(binders) == 1 and not binders[0][1]:
            k0 = binders[0][0][0]
            dfn, dspan = binders[0][2], binders[0][3]

            def ex1(s: Any, n: Any, e: list) -> None:
                d = dfn(s, n, e)
                try:
                    els = quick_order(enumerate_set(d))
                except ValueFault as exc:
                    raise EvalError(str(exc), dspan) from None
                for v in els:
                    e[k0] = v
                    body(s, n, e)

            return ex1

        def ex(s: Any, n: Any, e: list) -> None:
            for _ in it(binders, s, n, e, True):
                body(s, n, e)

        return ex

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
                    b = self._try_resolve(x.name, env0)
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
                b = self._try_resolve(x.name, env0)
                if b is None:
                    continue
                kind = b[0]
                if kind == "var":
                    out.add(b[1])
                elif kind == "op":
                    op = b[1]
                    if op.native is not None and op.name in _IMPURE_NATIVES:
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
        binders, benv, _, _ = self._bounds(bounds, env)
        kv = binders[0][0][0]
        dfn, dspan = binders[0][2], binders[0][3]
        kc = self.new_slot()

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
        c, _ = self.expr(node.cond, env)
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
                _truth(v, span, "the IF condition")

        return ite

    def _a_case(self, node: A.Case, env: Env, k: Callable) -> Callable:
        arms = [(self.expr(g, env)[0], self.action(v, env, k)) for g, v in node.arms]
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
        fd = self._funcdef_of(node, env)
        if fd is None:
            return self._a_guard(node, env, k)
        d, denv, fb = fd
        arg, _ = self.expr(node.args[0], env)
        outside = self._a_guard(node, env, k)  # the usual "not in the domain" error
        # the body is compiled once per definition, its continuation held in a slot at run time
        ck = ("fnact", id(d), id(denv.scope), id(denv.subst_locals)) + ((id(denv.locals),) if fb is not None else ())
        ent = self.def_cache.get(ck)
        if ent is None:
            ent = self.def_cache[ck] = {"keep": denv}  # keeps the ids in the key alive
            b = d.bounds[0]
            lo = self.new_slot()  # the argument; lo + 1: the continuation
            self.new_slot()
            binds = {b.names[0]: ("slot", lo)}
            if fb is not None:
                binds.update({d.name: fb, _FUNCDEF + d.name: ("funcdef", d, denv, fb)})
            ent["mem"] = self.expr(A.OpApp("\\in", (A.Name(_FUNCDEF, span=node.span), b.domain), span=node.span),
                                   denv.bind({_FUNCDEF: ("slot", lo)}))[0]
            ent["body"] = self.action(d.body, denv.bind(binds), lambda s, n, e: e[lo + 1]())
            ent["range"] = (lo, self.nslots)

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

    def _funcdef_of(self, node: A.FuncApp, env: Env) -> tuple | None:
        """The definition ``(FuncDef, its env, binding of its name)`` applied by ``node``, when
        it is one named function of one bound variable applied to one argument."""
        if env.primed or len(node.args) != 1 or not isinstance(node.fn, A.Name):
            return None
        name = node.fn.name
        b = self._try_resolve(name, env)
        if b is None:
            return None
        if b[0] == "func":
            d, denv, fb = b[1], b[2], None
        else:
            h = env.locals.get(_FUNCDEF + name)
            if h is None or h[3] is not b:
                return None
            d, denv, fb = h[1], h[2], h[3]
        if len(d.bounds) != 1 or len(d.bounds[0].names) != 1 or d.bounds[0].tuple or d.bounds[0].domain is None:
            return None
        if not self.may_branch(d.body, denv if fb is None else denv.bind({d.name: fb})):
            return None  # one guard either way
        return d, denv, fb

    def _a_let(self, node: A.Let, env: Env, k: Callable) -> Callable:
        lenv, lazy = self.let_env(node, env)
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

    def _target_var(self, node: Any, env: Env) -> int | None:
        """The state variable an assignment writes: ``x'`` (or ``x`` in Init)."""
        if env.init:
            if isinstance(node, A.Name):
                b = self._try_resolve(node.name, env)
                if b is not None and b[0] == "var":
                    return b[1]
                if b is not None and b[0] == "expr" and isinstance(b[1], A.Name):
                    return self._target_var(b[1], b[2])
            return None
        if isinstance(node, A.Name) and not env.primed:
            b = env.locals.get(node.name)
            if b is not None and b[0] == "expr" and isinstance(b[1], A.Prime):
                return self._target_var(b[1], b[2])
            return None
        if isinstance(node, A.Prime) and isinstance(node.expr, A.Name) and not env.primed:
            b = self._try_resolve(node.expr.name, env)
            if b is not None:
                if b[0] == "var":
                    return b[1]
                if b[0] == "expr" and isinstance(b[1], A.Name):
                    return self._target_var(A.Prime(b[1], span=node.span), b[2])
        return None

    def _try_resolve(self, name: str, env: Env) -> tuple | None:
        try:
            return self.resolve(name, env, None)
        except CompileError:
            return None

    def _a_opapp(self, node: A.OpApp, env: Env, k: Callable) -> Callable:
        name = node.name
        if not node.prefix and name not in env.locals:
            if name == "=" and len(node.args) == 2:
                i = self._target_var(node.args[0], env)
                if i is not None:
                    return self._a_assign(i, node.args[1], env, k, node)
                return self._a_guard(node, env, k)
            if name == "\\in" and len(node.args) == 2:
                i = self._target_var(node.args[0], env)
                if i is not None:
                    return self._a_assign_in(i, node.args[1], env, k, node)
                return self._a_guard(node, env, k)
            if name == "UNCHANGED":
                return self._a_unchanged(node.args[0], env, k, node)
            if name == "=>" and len(node.args) == 2:
                c, _ = self.expr(node.args[0], env)
                then = self.action(node.args[1], env, k)

                def implies(s: Any, n: Any, e: list) -> None:
                    if c(s, n, e) is True:
                        then(s, n, e)
                    else:
                        k(s, n, e)

                return implies
            if name in self._BUILTIN_OPS:
                return self._a_guard(node, env, k)
        if node.prefix:
            sub = self._subexpr(node, env)  # Def!2: that conjunct/disjunct, as an action
            if sub is not None:
                return self.action(sub[0], sub[1].with_(primed=env.primed, init=env.init) if (env.primed or env.init) else sub[1], k)
            op, ienv = self._instance_op(node, env)
            return self._a_apply_op(op, node.args, env, k, node)
        b = self.resolve(name, env, node.span)
        if node.args:
            b = self._as_op(b)
        if b[0] == "op":
            return self._a_apply_op(b[1], node.args, env, k, node)
        if b[0] == "expr" and not node.args:
            benv = b[2].with_(primed=True) if env.primed else b[2]
            return self.action(b[1], benv, k)
        return self._a_guard(node, env, k)

    def _a_name(self, node: A.Name, env: Env, k: Callable) -> Callable:
        b = self.resolve(node.name, env, node.span)
        if b[0] == "op" and b[1].native is None and b[1].arity == 0:
            return self._a_apply_op(b[1], (), env, k, node)
        if b[0] == "expr":
            benv = b[2].with_(primed=True) if env.primed else b[2]
            return self.action(b[1], benv, k)
        return self._a_guard(node, env, k)

    def _a_apply_op(self, op: OpVal, args: tuple, env: Env, k: Callable, node: Any) -> Callable:
        if op.native is not None or op.recursive or (not args and self.constant_level(node, env)):
            return self._a_guard(node, env, k)
        if len(args) != len(op.params):
            raise CompileError(f"operator '{op.name}' expects {len(op.params)} argument(s), got {len(args)}", node.span)
        binds: dict = {}
        lazy: list[int] = []
        for p, a in zip(op.params, args):
            b = self._arg_binding(p, a, env)
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

    def _a_assign(self, i: int, rhs: Any, env: Env, k: Callable, node: Any) -> Callable:
        v, _ = self.expr(rhs, env)
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
        v, _ = self.expr(rhs, env)
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
            b = self._try_resolve(node.name, env)
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

    def _a_unchanged(self, sub: Any, env: Env, k: Callable, node: Any) -> Callable:
        if env.init:
            raise CompileError("UNCHANGED in an initial-state predicate", node.span)
        vs = self.unchanged_vars(sub, env)
        if vs is None:
            # general expression: e' = e
            cur, _ = self.expr(sub, env)
            nxt, _ = self.expr(sub, env.with_(primed=True))

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

    # ------------------------------------------------------------------ ENABLED

    def enabled(self, node: Any, env: Env, span: Any) -> tuple:
        nv = len(self.var_index)

        def found(s: Any, n: Any, e: list) -> None:
            raise _Found

        run = self.action(node, env.with_(primed=False), found)

        def en(s: Any, n: Any, e: list) -> bool:
            n2 = [UNSET] * nv
            try:
                run(s, n2, e)
            except _Found:
                return True
            return False

        return en, frozenset({STATE})


class _LateEnv(Env):
    """An Env filled in after creation (LET operators that see themselves)."""

    def __init__(self, holder: dict) -> None:
        object.__setattr__(self, "_holder", holder)

    def __getattribute__(self, name: str) -> Any:
        if name in ("locals", "scope", "primed", "init", "subst_locals", "no_override", "bind", "with_"):
            return getattr(object.__getattribute__(self, "_holder")["env"], name)
        return object.__getattribute__(self, name)

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other
