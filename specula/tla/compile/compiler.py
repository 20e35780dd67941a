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

Dispatch is by node type through tables built once per compiler (``Compiler.expr_table``,
``ActionCompiler.table``).
"""

from __future__ import annotations

from typing import Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile.env import UNSET, STATE, IMPURE, EXPR_FN, Env, CompileError, Found, NODEPS, const_fn
from specula.tla.values import LazyFn, ValueFault
from specula.tla.compile.action import ActionCompiler
from specula.tla.compile.analysis import Analysis
from specula.tla.compile.builtin_ops import operator_table
from specula.tla.compile.binders import Binders
from specula.tla.compile.expr import Expressions
from specula.tla.compile.gen import Generator
from specula.tla.compile.names import Names
from specula.tla.compile.runtime import TLCRuntime
from specula.tla.compile.ops import Operators


class Compiler(Names, Operators, Expressions, Binders, Analysis):
    """Compiles expressions, actions and definitions of one model (its parts are the mixins,
    one module each; actions are compiled by an ActionCompiler over this compiler)."""

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
        self.runtime = TLCRuntime()  # TLCGet/TLCSet state, filled in by the search
        self.unset = UNSET  # a primed variable not assigned yet (for natives that must tell)
        self.expr_table: dict[type, Callable] = {
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
        self.action_compiler = ActionCompiler(self)
        self.builtin_ops = operator_table(self)
        self.gen: Generator | None = Generator(self) if use_codegen else None

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
        return const_fn(v), NODEPS

    def expr(self, node: Any, env: Env) -> tuple[EXPR_FN, frozenset]:
        gen = self.gen
        if gen is not None and node.__class__ in gen._GEN:
            return gen.root(node, env) or self.expr_table[node.__class__](node, env)
        try:
            h = self.expr_table[node.__class__]
        except KeyError:
            raise CompileError(f"cannot evaluate {type(node).__name__}", getattr(node, "span", None)) from None
        return h(node, env)

    def expr_fn(self, node: Any, env: Env) -> EXPR_FN:
        return self.expr(node, env)[0]

    def action(self, node: Any, env: Env, k: Callable) -> Callable:
        """Compile ``node`` as an action: returns ``run(s, n, e)`` calling ``k(s, n, e)`` once
        per way of satisfying it (``n`` holds the primed variables, UNSET when unassigned)."""
        return self.action_compiler.action(node, env, k)

    def enabled(self, node: Any, env: Env, span: Any) -> tuple:
        nv = len(self.var_index)

        def found(s: Any, n: Any, e: list) -> None:
            raise Found

        run = self.action(node, env.with_(primed=False), found)

        def en(s: Any, n: Any, e: list) -> bool:
            n2 = [UNSET] * nv
            try:
                run(s, n2, e)
            except Found:
                return True
            return False

        return en, frozenset({STATE})
