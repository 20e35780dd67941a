"""``Model(spec, cfg)``: a loaded spec plus a TLC configuration, compiled once.

The Model is what the checker, the simulator and the phases use: initial states, successor
states per action (Next split into actions as TLC does), compiled invariants and action
predicates, VIEW, SYMMETRY, ASSUME checking, ad-hoc evaluation and ``check_step`` (step.py).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from specula.diagnostics import Diagnostic
from specula.errors import EvalError, SpecError
from specula.tla import ast as A
from specula.tla.protocol import ActionInfo
from specula.tla.step import check_step
from specula.tla.compile import IMPURE, PRIME, STATE, UNSET, CompileError, Compiler, Env, OpVal, Unassigned
from specula.tla.compile.gen_action import ActionGenerator
from specula.tla.compile.schedule import Call, Guard, Loop, fuse
from specula.tla.syntax import parse_module
from specula.tla.values import (
    Fn,
    FuncSet,
    RecordSet,
    SeqSet,
    apply_fn,
    current_string_order,
    ModelValue,
    ValueFault,
    enumerate_set,
    format_value,
    from_python,
    make_fn,
    make_record,
    ordered,
    quick_order,
    SiteOrder,
)

__all__ = ["Model", "ActionInfo", "State", "StepInfo"]

State = tuple


@dataclass(frozen=True)
class StepInfo:
    """TLC's action of an error-trace step: name, parameter values (TLC's context) and the span
    of the action's text (line 0 when unknown)."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()
    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0
    module: str = ""

    def record(self) -> Any:
        """The action as TLC's ``RecordValue(Action)``: ``[name, location, context]``."""
        loc = make_record([("beginLine", self.line), ("beginColumn", self.col), ("endLine", self.end_line),
                           ("endColumn", self.end_col), ("module", self.module)])
        fields: list[tuple[str, Any]] = [("name", self.name), ("location", loc)]
        if self.params:
            fields.append(("context", make_record(list(self.params))))
        return make_record(fields)


def _cfg_value(v: Any) -> Any:
    if v.__class__.__name__ == "CfgModelValue":
        return ModelValue(v.name)
    if isinstance(v, (frozenset, set)):
        return frozenset(_cfg_value(x) for x in v)
    if isinstance(v, (tuple, list)):
        return tuple(_cfg_value(x) for x in v)
    if isinstance(v, dict):
        return make_fn({_cfg_value(k): _cfg_value(x) for k, x in v.items()})
    return from_python(v)


class Model:
    """A spec with a configuration, compiled for evaluation and state exploration."""

    def __init__(self, spec: Any, cfg: Any, codegen: bool = True) -> None:
        """``codegen=False`` compiles with closures only (no generated Python; tests compare both)."""
        self.spec = spec
        self.cfg = cfg
        self.root = spec.root
        self.variables: tuple[str, ...] = tuple(spec.variables)
        self.var_index = {v: i for i, v in enumerate(self.variables)}
        constants = {}
        for name, v in (getattr(cfg, "constants", None) or {}).items():
            constants[name] = _cfg_value(v)
        self.constants = constants
        subst = dict(getattr(cfg, "substitutions", None) or {})
        mconst = {k: _cfg_value(v) for k, v in (getattr(cfg, "module_constants", None) or {}).items()}
        self.compiler = Compiler(self.var_index, constants, subst, root=self.root,
                                 scopes=getattr(spec, "scopes", None), module_constants=mconst,
                                 module_subst=dict(getattr(cfg, "module_substitutions", None) or {}),
                                 use_codegen=codegen)
        self.env = Env(scope=self.root)
        self.runtime = self.compiler.runtime  # TLCGet/TLCSet state: the search fills it in
        self.runtime.variables = self.variables
        self._out: list = [[]]
        self._pools: list[dict] = [dict() for _ in spec.variables]
        self.has_view = False
        self._view: Callable | None = None
        self.symmetry_perms: list = []
        self.actions: list[ActionInfo] = []
        self._init_run: Callable | None = None
        self._runs: list[Callable] = []  # per action: all its successors
        self._sched: list[Callable] = []  # all successors of Next, in TLC's order
        # TLC does not split an \E whose domain depends on the state: the actions split from it
        # are one action for TLC, named and placed as the enclosing definition and the \E
        self._owners: dict[int, tuple[str, Any]] = {}
        # per action: the formal parameters of the definition it is in, each with the \E-split
        # binder passed for it (None: another expression) -- TLC's label shows their values
        self._formals: dict[int, tuple[tuple[str, str | None], ...]] = {}
        self.init_name, self.next_name = self._init_next()
        if self.init_name is not None:
            self._compile_init()
        if self.next_name is not None:
            self._compile_next()
        if getattr(cfg, "view", None):
            f = self.compile_state_predicate(cfg.view, boolean=False)
            self._view = f
            self.has_view = True
        if getattr(cfg, "symmetry", None):
            perms = self.evaluate(cfg.symmetry)
            self.symmetry_perms = _perm_group([p for p in ordered(enumerate_set(perms))])

    # ------------------------------------------------------------------ setup

    def _def_node(self, name: str) -> Any:
        d = self.root.names.get(name)
        if d is None:
            raise SpecError([_diag(f"'{name}' (named in the .cfg file) is not defined in the spec")])
        return d

    def _init_next(self) -> tuple[Any, Any]:
        cfg = self.cfg
        init, nxt = getattr(cfg, "init", None), getattr(cfg, "next", None)
        spec_name = getattr(cfg, "specification", None)
        if spec_name and not (init or nxt):
            d = self._def_node(spec_name)
            body = d.node.body
            conj = _flatten_and(body, self.root)
            inits = []
            next_e = None
            for c in conj:
                if isinstance(c, A.OpApp) and c.name == "[]" and c.args and isinstance(c.args[0], A.BoxAction):
                    next_e = c.args[0].action
                elif isinstance(c, A.BoxAction):
                    next_e = c.action
                elif _is_temporal(c, self.root):
                    continue
                else:
                    inits.append(c)
            init_e = inits[0] if len(inits) == 1 else (A.And(tuple(inits), span=body.span) if inits else None)
            return init_e, next_e
        return (A.Name(init) if init else None), (A.Name(nxt) if nxt else None)

    def _compile_init(self) -> None:
        nv = len(self.variables)
        out = self._out
        names = self.variables
        node = self.init_name
        span = getattr(node, "span", None)

        def fin(s: Any, n: list, e: list) -> None:
            for i in range(nv):
                if n[i] is UNSET:
                    raise Unassigned(f"the initial predicate does not assign a value to variable {names[i]}", span)
            out[0].append(tuple(n))

        ienv = self.env.with_(init=True)
        run = self.compiler.action(self.init_name, ienv, fin)
        fast = None
        if self.compiler.gen is not None:
            fast = ActionGenerator(self.compiler).build(self.init_name, ienv, nv, names, out, -1, "Init", span, run,
                                                        init=True)
        self._init_run = fast or run

    def _compile_next(self) -> None:
        leaves: list = []
        self._split(self.next_name, self.env, [], None, leaves)
        nv = len(self.variables)
        out = self._out
        names = self.variables
        cores: list[Callable] = []
        for idx, (node, env, binders, name, span, label) in enumerate(leaves):
            params = tuple(b[0] for b in binders)
            info = ActionInfo(idx, name, name, params, span, node, env, binders, tlc_label=label)
            self.actions.append(info)

            def fin(s: Any, n: list, e: list, idx: int = idx, name: str = name, span: Any = span) -> None:
                for i in range(nv):
                    if n[i] is UNSET:
                        raise Unassigned(
                            f"action {name} does not assign a value to variable {names[i]}'", span
                        )
                out[0].append((idx, tuple(n)))

            run = self.compiler.action(node, env, fin)
            fast = None
            if self.compiler.gen is not None:
                fast = ActionGenerator(self.compiler).build(node, env, nv, names, out, idx, name, span, run,
                                                            fixed=tuple(b[1] for b in binders))
            cores.append(fast or run)
            self._runs.append(_with_binders(fast or run, binders, self.compiler.frame))
            self.generated_actions = getattr(self, "generated_actions", 0) + (fast is not None)
        heads = [_head_guard(self.compiler, lf[0], lf[1], {b[1] for b in lf[2]}) for lf in leaves]
        self._sched = _tlc_schedule([lf[2] for lf in leaves], cores, self._runs, self.compiler.frame, heads)

    def _split(self, node: Any, env: Env, binders: list, name: str | None, leaves: list) -> None:
        """Split Next at \\/ and constant-level \\E, through operator definitions, as TLC does."""
        c = self.compiler
        if isinstance(node, A.Or):
            for a in node.args:
                self._split(a, env, binders, name, leaves)
            return
        if isinstance(node, A.Quant) and node.kind == "E":
            try:
                bnds, benv, ddeps, slots = c.bounds(node.bounds, env)
            except CompileError:
                bnds = None
            if bnds is not None and ddeps and PRIME not in ddeps and not any(d.__class__ is int for d in ddeps):
                # TLC splits when the domain can be evaluated without a state: so do we
                try:
                    for _, _, dfn, _ in bnds:
                        enumerate_set(dfn(None, None, c.frame))
                    ddeps = frozenset()
                except Exception:
                    pass
            if bnds is not None and all(not t for _, t, _, _ in bnds) and (
                    not ddeps or PRIME not in ddeps):
                new = list(binders)
                first_leaf = len(leaves)
                b_names = [nm for b in node.bounds for nm in b.names]
                for (ks, _, dfn, dspan), nm in zip(bnds, b_names):
                    if ddeps:
                        # state-dependent domain: enumerated per state (the action keeps its name)
                        free = all(d.__class__ is int for d in ddeps)
                        new.append((nm, ks[0], _DynDomain(dfn, dspan, nm, free,
                                                          tuple(sorted(ddeps)) if free else ())))
                        continue
                    try:
                        vals = ordered(enumerate_set(dfn(None, None, c.frame)))
                    except (ValueFault, EvalError) as exc:
                        raise EvalError(f"cannot enumerate the domain of {nm}: {exc}", dspan) from None
                    new.append((nm, ks[0], vals))
                if len(new) - len(binders) > 1 and not (ddeps and any(d in set(slots or ()) for d in ddeps)):
                    # TLC enumerates the bounds of one \E with the first varying fastest
                    new[len(binders):] = new[len(binders):][::-1]
                self._split(node.body, benv, new, name, leaves)
                if ddeps and not all(d.__class__ is int for d in ddeps):  # on the state, not only on binders
                    owner = (name[0] if isinstance(name, tuple) else name) or _guess_name(node)
                    for i in range(first_leaf, len(leaves)):
                        self._owners[i] = (owner, node)
                return
        if isinstance(node, A.OpApp) and node.prefix:
            try:
                op, _ = c.instance_op(node, env)
            except CompileError:
                op = None
            if op is not None and op.native is None and not op.recursive and op.body is not None \
                    and len(node.args) == len(op.params):
                binds = {p.name: c.arg_binding(p, a, env) for p, a in zip(op.params, node.args)}
                if all(v[0] != "lazy" for v in binds.values()):
                    self._split(op.body, (op.env or Env()).bind(binds), binders,
                                (op.name, op.key, _formals(op.params, node.args, name, binders)), leaves)
                    return
        if isinstance(node, (A.Name, A.OpApp)) and not getattr(node, "prefix", ()):
            nm = node.name
            if nm not in c.builtin_ops or nm in env.locals:
                try:
                    b = c.resolve(nm, env, node.span)
                except CompileError:
                    b = None
                if b is not None and b[0] == "op" and b[1].native is None and not b[1].recursive and b[1].body is not None:
                    op: OpVal = b[1]
                    args = getattr(node, "args", ())
                    if len(args) == len(op.params):
                        binds = {p.name: c.arg_binding(p, a, env) for p, a in zip(op.params, args)}
                        if all(v[0] != "lazy" for v in binds.values()):
                            benv = (op.env or Env()).bind(binds)
                            self._split(op.body, benv, binders,
                                        (op.name, op.key, _formals(op.params, args, name, binders)), leaves)
                            return
                if b is not None and b[0] == "expr":
                    self._split(b[1], b[2], binders, name, leaves)
                    return
        if isinstance(node, A.Let) and False:
            return
        key = None
        if isinstance(name, tuple):
            self._formals[len(leaves)] = name[2]
            name, key = name[0], name[1]
        nm = name or _guess_name(node)
        leaves.append((node, env, list(binders), nm, node.span, _tlc_label(nm, key, node.span)))

    # ------------------------------------------------------------------ protocol

    def init_states(self) -> Iterator[State]:
        if self._init_run is None:
            return iter(())
        res: list = []
        self._out[0] = res
        n = [UNSET] * len(self.variables)
        try:
            self._init_run(None, n, self.compiler.frame)
        except RecursionError:
            raise EvalError("recursion too deep while computing initial states") from None
        seen = set()
        uniq = []
        for t in res:
            if t not in seen:
                seen.add(t)
                uniq.append(self.intern_state(t))
        return iter(uniq)

    def emitted(self) -> int:
        """How many successors the running next_states/successors call has generated so far."""
        return len(self._out[0])

    def next_states(self, state: State) -> Iterator[tuple[int, State]]:
        res: list = []
        self._out[0] = res
        nv = len(self.variables)
        e = self.compiler.frame
        try:
            for run in self._sched:
                run(state, [UNSET] * nv, e)
        except EvalError as exc:
            if exc.state is None:
                exc.state = state
            raise
        except RecursionError:
            raise EvalError("recursion too deep", None, state) from None
        # stored states share equal component values through intern_state (the checker interns
        # only the new states it keeps)
        return res  # type: ignore[return-value]

    def step_label(self, action: int, pre: State, post: State) -> str:
        """TLC's label for a step of an error trace: ``<Name(v1, v2) line L, col C to line L2,
        col C2 of module M>`` with the parameter values that produce ``post`` from ``pre``."""
        st = self.step_info(action, pre, post)
        vals = "(" + ",".join(format_value(v) for _, v in st.params) + ")" if st.params else ""
        where = ""
        if st.line:
            where = f" line {st.line}, col {st.col} to line {st.end_line}, col {st.end_col} of module {st.module}"
        return f"<{st.name}{vals}{where}>"

    def init_info(self) -> "StepInfo":
        """TLC's action of an initial state: the initial predicate's definition and its body's span."""
        node = self.init_name
        name = getattr(node, "name", None)
        d = self.root.names.get(name) if isinstance(name, str) and not getattr(node, "args", ()) else None
        body = getattr(getattr(d, "node", None), "body", None)
        if body is None:
            body, name = node, "Init"
        while isinstance(body, A.Let):
            body = body.body
        span, end = getattr(body, "span", None), _end_span(body)
        if span is None or end is None or not getattr(span, "line", 0):
            return StepInfo(str(name))
        el, ec = _trim_end(self.spec.sources.get(getattr(end, "file", None) or "", ""), end.end_line, end.end_col - 1)
        return StepInfo(str(name), (), span.line, span.col, el, ec, _module_of(span))

    def step_info(self, action: int, pre: State, post: State) -> "StepInfo":
        """TLC's action of a step: its name, the span of its text, and the values of its
        parameters that produce ``post`` from ``pre`` (TLC's context of the action)."""
        info = self.actions[action]
        owner = self._owners.get(action)
        if owner is not None:  # one unsplit action for TLC: the enclosing name, the \E's span
            sp = owner[1].span
            end = _end_span(owner[1]) or sp
            el, ec = _trim_end(self.spec.sources.get(getattr(end, "file", None) or "", ""), end.end_line, end.end_col - 1)
            return StepInfo(owner[0], (), sp.line, sp.col, el, ec, _module_of(sp))
        node = info.node
        while isinstance(node, A.Let):  # TLC's action is the body of a LET
            node = node.body
        span = getattr(node, "span", None) or info.span
        params: tuple[tuple[str, Any], ...] = ()
        formals = self._formals.get(action)
        if info.binders and (formals is None or formals):
            try:
                v = self.check_step(info.name, self.state_to_dict(pre), self.state_to_dict(post))
                if v.ok and v.params:
                    if formals and all(b in v.params for _, b in formals):
                        params = tuple((f, v.params[b]) for f, b in formals)
                    elif formals is None:
                        params = tuple((p, v.params[p]) for p in info.params if p in v.params)
            except EvalError:
                params = ()
        end = _end_span(node) or span
        if span is None or not getattr(span, "line", 0):
            return StepInfo(info.name, params)
        el, ec = _trim_end(self.spec.sources.get(getattr(end, "file", None) or "", ""), end.end_line, end.end_col - 1)
        return StepInfo(info.name, params, span.line, span.col, el, ec, _module_of(span))

    def intern_state(self, state: State) -> State:
        """The state with each component replaced by an equal value already seen in the same
        variable (one pool per variable, so booleans and integers of different variables never
        meet). Sharing the values of stored states halves the memory of a search."""
        return tuple(map(dict.setdefault, self._pools, state, state))  # no Python-level loop

    def action_successors(self, node: Any, env: Env) -> Callable[[State], list[State]] | None:
        """The successors of the action ``node`` from a state through its generated code."""
        return _action_successors(self, node, env)

    def successors(self, state: State, action: int) -> list[State]:
        res: list = []
        self._out[0] = res
        self._runs[action](state, [UNSET] * len(self.variables), self.compiler.frame)
        return [t for _, t in res]

    def expr_node(self, name_or_expr: str) -> Any:
        text = name_or_expr.strip()
        if text in self.root.names or (text.isidentifier() and text not in ("TRUE", "FALSE")):
            return A.Name(text)
        return parse_expression(text)

    def compile_state_predicate(self, name_or_expr: str, boolean: bool = True) -> Callable[[State], Any]:
        node = self.expr_node(name_or_expr)
        fn, _ = self.compiler.expr(node, self.env)
        e = self.compiler.frame
        label = name_or_expr
        span = getattr(node, "span", None)
        if not getattr(span, "line", 0):  # a bare name from the .cfg: point at its definition
            d = self.root.names.get(name_or_expr.strip())
            span = getattr(getattr(d, "node", None), "span", None) or span

        def pred(state: State) -> Any:
            try:
                v = fn(state, None, e)
            except EvalError as exc:
                if exc.state is None:
                    exc.state = state
                raise
            if boolean and v is not True and v is not False:
                raise EvalError(f"{label} is not a boolean (it is {format_value(v)})", span, state)
            return v

        return pred

    def compile_constraint(self, name_or_expr: str) -> Callable[[State], bool]:
        """A CONSTRAINT as an invariant is compiled (its conjuncts remember the values they held
        for), with smaller memories. It is evaluated on successors before they are interned, so
        a changed variable's value is a new object: its conjuncts also remember the values by
        equality (MCLamportMutex's ``ClockConstraint``: ~200 clock values, a new object in a third
        of the 2.7 M successors)."""
        return self.compile_invariant(name_or_expr, remember=50_000, by_value=True)

    def compile_invariant(self, name_or_expr: str, remember: int = 1_000_000,
                          by_value: bool = False) -> Callable[[State], bool]:
        """An invariant as a state predicate whose top-level conjuncts that read one variable
        remember the values of that variable they hold for (by identity: the checker interns
        stored states, so an unchanged or recurring value is the same object). Most successors
        change few variables, so most conjuncts of a TypeOK are not re-evaluated."""
        node = self.expr_node(name_or_expr)
        c = self.compiler
        conjuncts: list[tuple[Any, Env]] = []
        seen: set[int] = set()

        def flatten(n: Any, env: Env) -> None:
            if isinstance(n, A.And):
                for a in n.args:
                    flatten(a, env)
                return
            if isinstance(n, A.Name) or (isinstance(n, A.OpApp) and not n.args and not n.prefix):
                b = c.try_resolve(n.name, env)
                if b is not None and b[0] == "op" and b[1].native is None and b[1].body is not None \
                        and not b[1].params and not b[1].recursive and id(b[1].body) not in seen:
                    seen.add(id(b[1].body))
                    flatten(b[1].body, b[1].env or env)
                    return
            conjuncts.append((n, env))

        flatten(node, self.env)
        whole = self.compile_state_predicate(name_or_expr)
        e = c.frame
        # (kind, fn, variable index or indices, cache): kind 0 evaluates the conjunct, 1 remembers
        # the values of its one variable it holds for (by identity: the checker interns stored
        # states, so an unchanged or recurring value is the same object), 2 the same for a tuple
        # of variables, 3 is ``\A x \in S : P(x)`` with P reading no variable: the elements of S
        # P holds for are remembered (TypeOK's ``\A m \in msgs : m \in Messages``: a new set of
        # messages shares all but one of its elements with the old one), 4 is ``\A x \in D : P``
        # with D constant and P reading the state only as ``v[x]`` and not x otherwise: the parts
        # ``v[x]`` P holds for are remembered (``\A p, q \in Proc : Len(network[p][q]) <= 3``:
        # a new network shares all but one or two rows with the old one; not for by_value: a
        # constraint's successors are not interned, its parts are new objects), 5 is ``v \\in
        # [1..k -> R]`` with R a set of functions: v is checked row by row, and step checks only
        # the rows that are not parent's (TypeOK's ``network \\in [Proc -> [Proc -> Seq(Message)]]``;
        # a memory of the rows cost 11 % more memory and more instructions; not for by_value)
        plan: list[tuple[int, Callable, Any, dict]] = []
        for n, env in conjuncts:
            each = self._each_conjunct(n, env)
            if each is not None:
                plan.append((3, each[0], each, {}))
                continue
            fn, _ = c.expr(n, env)
            parts = None if by_value else _parts_conjunct(c, n, env)
            if parts is not None:
                plan.append((4, fn, parts, {}))
                continue
            rows = None if by_value else _rows_conjunct(c, n, env)
            if rows is not None:
                plan.append((5, fn, rows, {}))
                continue
            vs = c.state_vars(n, env)
            ix = tuple(sorted(vs)) if vs and len(vs) <= 4 else None
            if ix is None:
                plan.append((0, fn, None, {}))
            else:
                plan.append((1, fn, ix[0], {}) if len(ix) == 1 else (2, fn, ix, {}))
        if all(p[0] == 0 for p in plan):
            return whole
        return _plan_pred(plan, whole, e, remember, by_value)

    def _each_conjunct(self, n: Any, env: Env) -> tuple | None:
        """``\\A x \\in S : P(x)`` whose body reads no variable and nothing impure (a function
        of x): (domain fn, domain fn, body fn, x's slot, the body's own slots, the variables
        S reads (None: S is impure or reads more than 4), the variable S is (else None)),
        else None."""
        if not isinstance(n, A.Quant) or n.kind != "A" or len(n.bounds) != 1:
            return None
        b = n.bounds[0]
        if b.tuple or b.domain is None or len(b.names) != 1:
            return None
        c = self.compiler
        dvs = c.state_vars(b.domain, env)
        if not dvs:
            return None  # a constant domain: the whole conjunct is cached by its variables
        try:
            dfn, ddeps = c.expr(b.domain, env)
            lo = c.nslots
            slot = c.new_slot()
            benv = env.bind({b.names[0]: ("slot", slot)})
            if c.state_vars(n.body, benv) != frozenset():
                return None
            body, deps = c.expr(n.body, benv)
        except EvalError:
            return None
        if any(d in (STATE, PRIME, IMPURE) for d in deps):
            return None
        pure = len(dvs) <= 4 and not any(d in (PRIME, IMPURE) for d in ddeps)
        got = c.try_resolve(b.domain.name, env) if pure and _is_name(b.domain) else None
        dvar = got[1] if got is not None and got[0] == "var" else None
        return (dfn, dfn, body, slot, tuple(range(lo + 1, c.nslots)), tuple(sorted(dvs)) if pure else None, dvar)

    def compile_alias(self, name_or_expr: str) -> Callable[[State, State], Any]:
        """TLC's ALIAS: a record computed from a trace state and the next one (primed variables),
        printed instead of the variables."""
        node = self.expr_node(name_or_expr)
        fn, _ = self.compiler.expr(node, self.env)
        e = self.compiler.frame

        def alias(s: State, t: State) -> Any:
            try:
                return fn(s, t, e)
            except EvalError as exc:
                if exc.state is None:
                    exc.state = s
                raise

        return alias

    def compile_action_predicate(self, name_or_expr: str) -> Callable[[State, State], bool]:
        node = self.expr_node(name_or_expr)
        fn, _ = self.compiler.expr(node, self.env)
        e = self.compiler.frame

        def pred(s: State, t: State) -> bool:
            if s is None:  # no predecessor (an initial state): holds vacuously
                return True
            try:
                return fn(s, t, e) is True
            except EvalError as exc:
                if exc.state is None:
                    exc.state = s
                raise

        return pred

    def view(self, state: State) -> Any:
        if self._view is None:
            return state
        return self._view(state)

    def permute(self, state: State, perm: Any) -> State:
        return tuple(_permute(v, perm) for v in state)

    def check_assumes(self) -> list:
        diags = []
        mod = self.root.module
        for u in mod.units:
            if isinstance(u, A.Assume):
                try:
                    v = self.compiler.expr(u.expr, self.env)[0](None, None, self.compiler.frame)
                except EvalError as exc:
                    diags.append(_diag(f"evaluating the assumption failed: {exc}", exc.span or u.span))
                    continue
                if v is not True:
                    diags.append(_diag("Assumption is false", u.span))
        return diags

    def evaluate(self, expr_text: str, state: State | dict | None = None) -> Any:
        node = self.expr_node(expr_text)
        fn, _ = self.compiler.expr(node, self.env)
        if isinstance(state, dict):
            state = tuple(from_python(state[v]) if not _is_value(state[v]) else state[v] for v in self.variables)
        return fn(state, None, self.compiler.frame)

    def compile_expression(self, expr_text: str, params: Iterable[str] = ()) -> Callable[..., Any]:
        """``expr_text`` compiled once with ``params`` bound to values given at each call:
        ``f(state, *values)``. For callers that evaluate one expression under many bindings
        (a LET of the values' text would be parsed and compiled again for each)."""
        node = self.expr_node(expr_text)
        comp = self.compiler
        names = list(params)
        lo = comp.nslots
        slots = [comp.new_slot() for _ in names]
        fn, _ = comp.expr(node, self.env.bind({p: ("slot", k) for p, k in zip(names, slots)}))
        hi = comp.nslots
        frame = comp.frame

        def call(state: State | None, *values: Any) -> Any:
            for k in range(lo, hi):  # the expression's own lazy slots start unset
                frame[k] = UNSET
            for k, v in zip(slots, values):
                frame[k] = v
            return fn(state, None, frame)

        return call

    def state_from_dict(self, d: dict) -> State:
        return tuple(d[v] for v in self.variables)

    def state_to_dict(self, s: State) -> dict:
        return dict(zip(self.variables, s))

    def check_step(self, action_name: str, pre: dict, post: dict, params: dict | None = None,
                   free: dict | None = None) -> Any:
        return check_step(self, action_name, pre, post, params, free)


# ----------------------------------------------------------------------------- helpers


def _plan_pred(plan: list[tuple[int, Callable, Any, dict]], whole: Callable[[State], bool], e: list,
               remember: int, by_value: bool = False) -> Callable[[State], bool]:
    """The invariant plan of ``Model.compile_invariant`` as one generated function, one block per
    conjunct in order (no loop over the plan, no tuple unpacking per conjunct and state):
    anything but TRUE, or an error, re-evaluates the whole predicate (``whole``) for TLC's
    error and its location, or returns FALSE. ``by_value``: the conjuncts of kinds 1 and 2
    also remember their values by equality (looked up when the identity is not known).

    The function has an attribute ``step(state, parent)``: the same predicate of a successor
    of ``parent``, a state it held for; a conjunct of kinds 1, 2 and 4 whose variables are
    ``parent``'s objects holds (no memory looked up), and a kind-4 part that is ``parent``'s
    part at the same place too (most successors change one or two variables); its other parts
    are checked without the memory of parts (which _pred alone fills: -6 % peak memory and
    fewer instructions on MCLamportMutex).

    Unless ``by_value``, also ``fresh(state, parent, raw)``: ``step`` for a successor ``raw``
    of ``parent`` interned as ``state`` into pools that hold only the values of states the
    predicate held for (the checker's own pools, filled as it stores states and checks them):
    a conjunct of kinds 1, 4 and 5 (one variable) whose value is not raw's own object (an
    equal value was pooled) holds, and one whose value is raw's is evaluated without its
    memory (no identity memory read or kept: a lookup in a memory of a million values missed
    the processor's caches, and kept its values alive: MCLamportMutex -14 % CPU, -32 % peak
    memory)."""
    ns: dict[str, Any] = {"_whole": whole, "_e": e, "_R": remember, "_EvalError": EvalError, "_id": id,
                          "_U": UNSET, "_ap": apply_fn, "_NO": object(), "_Fn": Fn}

    def remember_if_true(i: int, key: str, value: str, pad: str = "") -> list[str]:
        """Evaluate conjunct i; anything but TRUE ends the predicate, TRUE is remembered."""
        out = [f"            r = _f{i}(state, None, _e)",
               "            if r is not True:",
               "                return False if r is False else _whole(state)",
               f"            if len(_c{i}) > _R:",
               f"                _c{i}.clear()"]
        if by_value:
            out += [f"                _s{i}.clear()", f"            _s{i}.add({value})"]
        out.append(f"            _c{i}[{key}] = {value}")
        return [pad + x for x in out]

    for i, (kind, fn, ix, cache) in enumerate(plan):
        ns[f"_f{i}"], ns[f"_c{i}"], ns[f"_s{i}"] = fn, cache, set()
        if kind == 3:
            ns[f"_d{i}"], ns[f"_b{i}"] = ix[1], ix[2]
        elif kind == 4:
            ns[f"_d{i}"], ns[f"_b{i}"], ns[f"_p{i}"] = ix[1], ix[2], ix[5]
        elif kind == 5:
            ns[f"_r{i}"], ns[f"_p{i}"] = ix[2], ix[3]

    def body(step: bool, fresh: bool = False) -> list[str]:
        head = "def _fresh(state, parent, raw):" if fresh else "def _step(state, parent):" if step else "def _pred(state):"
        lines = [head, "    try:"]
        for i, (kind, fn, ix, cache) in enumerate(plan):
            # by value: a value not known by identity is looked up by equality first
            pad = "    " if by_value and kind in (1, 2) else ""
            # fresh: a value of one variable that is not raw's (an equal value was interned
            # instead: a state the predicate held for had it) holds, no memory is read or kept
            known = f"v is raw[{ix if kind == 1 else ix[0]}]" if fresh and kind in (1, 4, 5) else ""
            memo = known or f"_c{i}.get(_id(v)) is not v"
            if kind == 1:
                changed = f"v is not parent[{ix}] and " if step else ""
                lines += [f"        v = state[{ix}]", f"        if {changed}{memo}:"]
                if by_value:
                    lines.append(f"          if v not in _s{i}:")
                if fresh:
                    lines += [f"            r = _f{i}(state, None, _e)",
                              "            if r is not True:",
                              "                return False if r is False else _whole(state)"]
                else:
                    lines += remember_if_true(i, "_id(v)", "v", pad)
            elif kind == 2:
                vs = ", ".join(f"state[{j}]" for j in ix)
                same = " and ".join(f"ent[{k}] is vals[{k}]" for k in range(len(ix)))
                if step:
                    lines.append("        if " + " or ".join(f"state[{j}] is not parent[{j}]" for j in ix) + ":")
                q = "  " if step else ""
                lines += [q + x for x in [f"        vals = ({vs},)", "        k = tuple(map(_id, vals))",
                                          f"        ent = _c{i}.get(k)", f"        if ent is None or not ({same}):"]]
                if by_value:
                    lines.append(q + f"          if vals not in _s{i}:")
                lines += [q + x for x in remember_if_true(i, "k", "vals", pad)]
            elif kind == 3:
                _, dfn, _, slot, rest, dvs, dvar = ix
                # step: S reads only parent's values (it is parent's S: the conjunct held), or
                # S is a variable: only the elements that are not in parent's set are checked
                part = [f"        dom = _d{i}(state, None, _e)",
                        "        if dom.__class__ is not frozenset:",
                        "            return _whole(state)"]
                if step and dvar is not None:
                    part += [f"        if (pd := parent[{dvar}]).__class__ is frozenset:", "            dom = dom - pd"]
                part += ["        for x in dom:",
                         f"            if _c{i}.get(_id(x)) is x:",
                         "                continue"] + [f"            _e[{j}] = _U" for j in rest] + [
                         f"            _e[{slot}] = x",
                         f"            if _b{i}(state, None, _e) is not True:",
                         "                return _whole(state)",
                         f"            if len(_c{i}) > _R:",
                         f"                _c{i}.clear()",
                         f"            _c{i}[_id(x)] = x"]
                if step and dvs:
                    lines.append("        if " + " or ".join(f"state[{j}] is not parent[{j}]" for j in dvs) + ":")
                    part = ["  " + x for x in part]
                lines += part
            elif kind == 4:
                vi, dfn, _, slot, rest, _, _ = ix
                changed = f"v is not (pv := parent[{vi}]) and " if step else ""
                # (a part of parent's value at the same place held: parent is a state P held for)
                same = ["                if p is (pv[x - 1] if pv.__class__ is tuple and x.__class__ is int and 0 < x <= len(pv) "
                        "else pv.get(x, _NO) if pv.__class__ is _Fn else _NO):",
                        "                    continue"] if step else []
                lines += [f"        v = state[{vi}]", f"        if {changed}{memo}:",
                          f"            dom = _d{i}(state, None, _e)",
                          "            if dom.__class__ is not frozenset:  # (a lazy domain: the conjunct as it is)",
                          f"                r = _f{i}(state, None, _e)",
                          "                if r is not True:",
                          "                    return False if r is False else _whole(state)",
                          "            else:",
                          "              for x in dom:",
                          "                try:",
                          "                    p = v[x - 1] if v.__class__ is tuple and x.__class__ is int and 0 < x <= len(v) "
                          "else _ap(v, x)",
                          "                except Exception:",
                          "                    return _whole(state)"] + same + ([] if step else [
                          f"                if _p{i}.get(_id(p)) is p:",
                          "                    continue"]) + [f"                _e[{j}] = _U" for j in rest] + [
                          f"                _e[{slot}] = p",
                          f"                if _b{i}(state, None, _e) is not True:  # the conjunct alone, as kind 1",
                          f"                    r = _f{i}(state, None, _e)",
                          "                    return False if r is False else _whole(state)"] + ([] if step else [
                          f"                if len(_p{i}) > _R:",
                          f"                    _p{i}.clear()",
                          f"                _p{i}[_id(p)] = p"]) + ([] if fresh else [
                          f"            if len(_c{i}) > _R:",
                          f"                _c{i}.clear()",
                          f"            _c{i}[_id(v)] = v"])
            elif kind == 5:
                vi, k, _, _ = ix
                changed = f"v is not (pv := parent[{vi}]) and " if step else ""
                # (parent's value is a member: a tuple of k rows, whose rows are members of R)
                same = ["                if p is pv[j]:", "                    continue"] if step else []
                lines += [f"        v = state[{vi}]", f"        if {changed}{memo}:",
                          f"            if v.__class__ is not tuple or len(v) != {k}:",
                          f"                r = _f{i}(state, None, _e)",
                          "                if r is not True:",
                          "                    return False if r is False else _whole(state)",
                          "            else:",
                          f"              for j in range({k}):",
                          "                p = v[j]"] + same + [
                          "                try:",
                          f"                    ok = p in _r{i}",
                          "                except Exception:",
                          "                    ok = False",
                          "                if ok is not True:  # the conjunct itself: FALSE or TLC's error",
                          f"                    r = _f{i}(state, None, _e)",
                          "                    if r is not True:",
                          "                        return False if r is False else _whole(state)",
                          "                    break"] + ([] if fresh else [
                          f"            if len(_c{i}) > _R:",
                          f"                _c{i}.clear()",
                          f"            _c{i}[_id(v)] = v"])
            else:
                lines += [f"        r = _f{i}(state, None, _e)", "        if r is not True:",
                          "            return False if r is False else _whole(state)"]
        lines += ["    except _EvalError:",
                  "        return _whole(state)  # re-evaluated whole, for TLC's error location and order",
                  "    return True"]
        return lines

    src = "\n".join(body(False) + [""] + body(True) + ([""] + body(True, True) if not by_value else []))
    exec(compile(src, "<invariant plan>", "exec"), ns)  # noqa: S102 - generated from the plan
    pred = ns["_pred"]
    pred.step = ns["_step"]
    if not by_value:
        pred.fresh = ns["_fresh"]
    return pred


def _rows_conjunct(c: Compiler, n: Any, env: Env) -> tuple | None:
    """``v \\in [1..k -> R]`` (a variable v; a constant set of functions whose members are
    tuples, R a set of functions or sequences): (v's index, k, R, unused), else None. TypeOK's ``network \\in [Proc -> [Proc -> Seq(Message)]]``: a new network shares
    all but one or two rows with the old one."""
    if not (isinstance(n, A.OpApp) and n.name == "\\in" and not n.prefix and len(n.args) == 2
            and _is_name(n.args[0])):
        return None
    got = c.try_resolve(n.args[0].name, env)
    if got is None or got[0] != "var":
        return None
    try:
        if c.state_vars(n.args[1], env) != frozenset():
            return None
        sfn, deps = c.expr(n.args[1], env)
        if any(d in (STATE, PRIME, IMPURE) for d in deps):
            return None
        s = sfn(None, None, c.frame)
    except Exception:
        return None
    if s.__class__ is not FuncSet or s._n <= 0 or s.rng.__class__ not in (FuncSet, SeqSet, RecordSet):
        return None
    return (got[1], s._n, s.rng, {})


def _parts_conjunct(c: Compiler, n: Any, env: Env) -> tuple | None:
    """``\\A x \\in D : P`` (the first of its names; the rest stay a ``\\A`` in P) with D
    reading no variable, P reading the state only as ``v[x]`` (one variable v) and x nowhere
    else, nothing impure: (v's index, D's fn, P's fn with ``v[x]`` in a slot, that slot, P's
    own slots, the parts remembered, the rewritten P), else None."""
    if not isinstance(n, A.Quant) or n.kind != "A" or not n.bounds:
        return None
    b = n.bounds[0]
    if b.tuple or b.domain is None:
        return None
    if c.state_vars(b.domain, env) != frozenset():
        return None
    x = b.names[0]
    rest = ((replace(b, names=b.names[1:]),) if len(b.names) > 1 else ()) + n.bounds[1:]
    body = replace(n, bounds=rest) if rest else n.body
    var = _part_var(body, x)
    if var is None:
        return None
    got = c.try_resolve(var, env)
    if got is None or got[0] != "var":
        return None
    body = _with_part(body, var, x)
    if any(isinstance(y, (A.Name, A.OpApp)) and y.name in (x, var) for y in A.walk(body)):
        return None
    try:
        dfn, _ = c.expr(b.domain, env)
        lo = c.nslots
        slot = c.new_slot()
        benv = env.bind({_PART: ("slot", slot)})
        if c.state_vars(body, benv) != frozenset():
            return None
        bfn, deps = c.expr(body, benv)
    except (EvalError, CompileError):
        return None
    if any(d in (STATE, PRIME, IMPURE) for d in deps):
        return None
    # (the rewritten body is kept: compile-time caches may key on its nodes' ids)
    return (got[1], dfn, bfn, slot, tuple(range(lo + 1, c.nslots)), {}, body)


_PART = "\x00part"  # the name of ``v[x]`` in the body of a kind-4 conjunct (no TLA+ name)


def _is_name(n: Any, name: str | None = None) -> bool:
    return (isinstance(n, A.Name) or (isinstance(n, A.OpApp) and not n.args and not n.prefix)) \
        and (name is None or n.name == name)


def _part_var(body: Any, x: str) -> str | None:
    """The name v of the first ``v[x]`` in ``body``, else None."""
    for y in A.walk(body):
        if isinstance(y, A.FuncApp) and len(y.args) == 1 and _is_name(y.args[0], x) and _is_name(y.fn):
            return y.fn.name
    return None


def _with_part(node: Any, var: str, x: str) -> Any:
    """``node`` with each ``var[x]`` replaced by the name ``_PART``."""
    if isinstance(node, tuple):
        return tuple(_with_part(y, var, x) for y in node)
    if not isinstance(node, A.Node):
        return node
    if isinstance(node, A.FuncApp) and len(node.args) == 1 and _is_name(node.args[0], x) \
            and _is_name(node.fn, var):
        return A.Name(_PART, span=node.span)
    return replace(node, **{f.name: _with_part(getattr(node, f.name), var, x)
                            for f in fields(node) if f.init and f.name != "span"})


def _action_successors(model: Model, node: Any, env: Env) -> Callable[[State], list[State]] | None:
    """The successors of the action ``node`` (read in ``env``) from a state, through the
    generated code of the action (as the split actions of Next run); None when the
    generator does not take it. A variable it leaves unassigned raises ``Unassigned``."""
    if model.compiler.gen is None:
        return None
    nv = len(model.variables)
    out = model._out
    aenv = env.with_(primed=False)
    span = getattr(node, "span", None)

    def fin(s: Any, n: list, e: list) -> None:
        if any(x is UNSET for x in n):
            raise Unassigned("the action leaves a variable unassigned", span)
        out[0].append((0, tuple(n)))

    try:
        slow = model.compiler.action(node, aenv, fin)
        fast = ActionGenerator(model.compiler).build(node, aenv, nv, model.variables, out, 0, "ENABLED", span, slow)
    except (CompileError, EvalError, RecursionError):
        return None
    if fast is None:
        return None
    frame = model.compiler.frame

    def succ(state: State) -> list[State]:
        saved = out[0]
        res: list = []
        out[0] = res
        try:
            fast(state, [UNSET] * nv, frame)
        finally:
            out[0] = saved
        return [t for _, t in res]

    return succ


class _DynDomain:
    """The domain of a split ``\\E`` that depends on the state (evaluated per state)."""

    __slots__ = ("dfn", "span", "name", "state_free", "slots", "memo", "memo_order", "by_id", "site")

    def __init__(self, dfn: Callable, span: Any, name: str, state_free: bool = False,
                 slots: tuple[int, ...] = ()) -> None:
        # state_free: depends only on the values of earlier binders (e.g. ``q \\in Proc \\ {p}``),
        # held in the frame slots ``slots``: the values are remembered per values of those
        self.dfn, self.span, self.name, self.state_free = dfn, span, name, state_free
        self.slots = slots
        self.memo: dict | None = {} if state_free and slots else None
        self.memo_order: Any = None  # the string order the memo was filled under (TLC's order)
        # a domain read from the state (``m \\in msgs``): its order remembered per set object
        # (stored states share equal values, so a set recurs as the same object)
        self.by_id: dict[int, tuple[Any, list]] = {}
        self.site = SiteOrder()  # a new set object ordered from its elements' ranks

    def table(self, outer: list, e: list) -> dict | None:
        """The values per value of the one earlier binder this domain depends on, computed now
        (``outer``: the enclosing binders, fixed values); None unless each value list holds only
        integers (whose order does not depend on the string order of the search)."""
        if self.memo is None or len(self.slots) != 1:
            return None
        vals = next((b[2] for b in outer if b[1] == self.slots[0]), None)
        if vals is None or isinstance(vals, _DynDomain):
            return None
        out = {}
        try:
            for v in vals:
                e[self.slots[0]] = v
                got = self.values(None, None, e)
                if not all(x.__class__ is int for x in got):
                    return None
                out[v] = tuple(got)
        except (EvalError, ValueFault, RecursionError):
            return None
        finally:
            self.memo.clear()
        return out if len(out) == len(vals) else None  # (1 and TRUE would share a key)

    def values(self, s: Any, n: Any, e: list) -> list:
        memo = self.memo
        order = current_string_order()
        if order is not self.memo_order:
            if memo is not None:
                memo.clear()
            self.by_id.clear()
            self.site = SiteOrder()
            self.memo_order = order
        if memo is not None:
            key = tuple([e[k] for k in self.slots])
            hit = memo.get(key)
            if hit is not None:
                return hit
        try:
            dom = self.dfn(s, n, e)
            if memo is None and dom.__class__ is frozenset:
                got = self.by_id.get(id(dom))
                if got is not None and got[0] is dom:
                    return got[1]
                vals = self.site.order(dom)
                if len(self.by_id) >= 100_000:
                    self.by_id.clear()
                self.by_id[id(dom)] = (dom, vals)
                return vals
            vals = quick_order(enumerate_set(dom))
        except ValueFault as exc:
            raise EvalError(str(exc), self.span) from None
        if memo is not None and len(memo) < 10_000:
            memo[key] = vals
        return vals


def _static_combos(binders: list, e: list) -> list[tuple] | None:
    """All value combinations of binders whose dynamic domains depend only on earlier binders,
    enumerated once (None when a domain depends on the state or cannot be enumerated now)."""
    if not all(b[2].state_free for b in binders if isinstance(b[2], _DynDomain)):
        return None
    out: list[tuple] = []

    def walk(i: int, acc: tuple) -> None:
        if i == len(binders):
            out.append(acc)
            return
        _, k, vals = binders[i]
        if isinstance(vals, _DynDomain):
            vals = vals.values(None, None, e)
        for v in vals:
            e[k] = v
            walk(i + 1, acc + (v,))

    try:
        walk(0, ())
    except (EvalError, ValueFault, RecursionError):
        return None
    return out


def _with_binders(run: Callable, binders: list, frame: list | None = None) -> Callable:
    if not binders:
        return run
    dyn = any(isinstance(b[2], _DynDomain) for b in binders)
    if dyn:
        # domains that depend only on earlier binders are enumerated once, here
        combos = _static_combos(binders, frame) if frame is not None else None
        if combos is None:
            return _nested(run, list(binders))
    elif len(binders) == 1:
        _, k, vals = binders[0]

        def one(s: Any, n: list, e: list) -> None:
            for v in vals:
                e[k] = v
                run(s, n, e)

        return one
    else:
        combos = list(itertools.product(*[b[2] for b in binders]))
    ks = [b[1] for b in binders]
    if len(ks) == 2:
        k0, k1 = ks

        def two(s: Any, n: list, e: list) -> None:
            for v0, v1 in combos:
                e[k0] = v0
                e[k1] = v1
                run(s, n, e)

        return two

    def many(s: Any, n: list, e: list) -> None:
        for combo in combos:
            for k, v in zip(ks, combo):
                e[k] = v
            run(s, n, e)

    return many


def _head_guard(compiler: Compiler, node: Any, env: Env, slots: set[int]) -> tuple | None:
    """(key, fn, source) of an action's first conjunct when it is a state-level guard that reads only
    variables and the action's split binders, nothing impure: actions under one ``\\E``
    whose first conjuncts have one key (the same generated code) test it once per binder
    value (LamportMutex's ReceiveRequest/Ack/Release all begin ``network[q][p] # <<>>``)."""
    gen = compiler.gen
    if gen is None or not isinstance(node, A.And) or len(node.args) < 2 or env.primed or env.init:
        return None
    first = node.args[0]
    try:
        fn, deps = compiler.expr(first, env)
        # (its values remembered in the locals the actions read them from, when the schedule
        # runs the guard and the actions inline: Generator._memo)
        gen.cse, gen.cse_slots = {}, frozenset(slots)
        try:
            src = gen.sub(first, env)[0]
        finally:
            gen.cse = None
    except Exception:  # noqa: BLE001 - an action the generator cannot take keeps its own guard
        return None
    if PRIME in deps or IMPURE in deps or any(d.__class__ is int and d not in slots for d in deps):
        return None
    temps: dict[str, str] = {}
    raw = src
    src = re.sub(r"_t\d+", lambda m: temps.setdefault(m.group(0), f"_t{len(temps)}"), src)
    consts = tuple(id(gen.consts[int(k)]) for k in re.findall(r"_k\[(\d+)\]", src))
    return (src, consts), fn, raw


def _tlc_schedule(binders: list[list], cores: list[Callable], runs: list[Callable], frame: list,
                  heads: list | None = None) -> list[Callable]:
    r"""Runners that generate the successors of Next in TLC's order: TLC splits ``\E t \in S :
    A(t) \/ B(t)`` per value first, then per disjunct (A(1), B(1), A(2), B(2)). ``binders[i]`` are
    action i's split binders; actions split from the same ``\E`` share the binder objects (and
    are consecutive). The schedule is one generated function (``compile.schedule.fuse``: the
    loops over binder values and the shared guards inline), closures where it cannot be."""

    def build(ids: list[int], depth: int) -> list:
        out: list = []
        outer = binders[ids[0]][:depth] if ids else []
        i = 0
        while i < len(ids):
            b = binders[ids[i]]
            if len(b) == depth:
                out.append(Call(cores[ids[i]]))
                i += 1
                continue
            j = i + 1
            while j < len(ids) and len(binders[ids[j]]) > depth and binders[ids[j]][depth] is b[depth]:
                j += 1
            if j == i + 1:  # one action under this binder: its own loop over the rest
                rest = b[depth:]
                dyn = any(isinstance(x[2], _DynDomain) for x in rest)
                out.append(Call(runs[ids[i]] if depth == 0 else
                                (_nested(cores[ids[i]], rest) if dyn else _with_binders(cores[ids[i]], rest))))
            else:
                _, k, vals = b[depth]
                kids = tuple(build_heads(ids[i:j], depth + 1))
                if isinstance(vals, _DynDomain):
                    table = vals.table(outer, frame)
                    out.append(Loop(k, None, vals.values, kids, table, vals.slots[0]) if table is not None
                               else Loop(k, None, vals.values, kids))
                else:
                    out.append(Loop(k, tuple(vals), None, kids))
            i = j
        return out

    def build_heads(ids: list[int], depth: int) -> list:
        # consecutive actions run at this depth whose first conjuncts are one guard: tested once
        if heads is None:
            return build(ids, depth)
        out: list = []
        rest: list[int] = []  # ids between such runs, built together (they may share binders)
        i = 0
        while i < len(ids):
            h = heads[ids[i]]
            j = i + 1
            if h is not None and len(binders[ids[i]]) == depth:
                while j < len(ids) and len(binders[ids[j]]) == depth and heads[ids[j]] is not None \
                        and heads[ids[j]][0] == h[0]:
                    j += 1
            if j - i > 1:
                if rest:
                    out += build(rest, depth)
                    rest = []
                out.append(Guard(h[1], tuple(Call(cores[x]) for x in ids[i:j]), h[2]))
            else:
                rest.append(ids[i])
            i = j
        if rest:
            out += build(rest, depth)
        return out

    tree = tuple(build_heads(list(range(len(binders))), 0))
    if all(isinstance(x, Call) for x in tree):
        return [x.fn for x in tree]
    fused = fuse(tree)
    return [fused] if fused is not None else [_closure(x) for x in tree]


def _closure(node: Any) -> Callable:
    """A schedule node (``compile.schedule``) as closures."""
    if isinstance(node, Call):
        return node.fn
    if isinstance(node, Guard):
        return _guarded(node.test, [_closure(x) for x in node.body])
    subs = [_closure(x) for x in node.body]
    k = node.slot
    if node.domain is not None:
        values = node.domain

        def group_dyn(s: Any, n: list, e: list) -> None:
            for v in values(s, n, e):
                e[k] = v
                for r in subs:
                    r(s, n, e)

        return group_dyn
    vals = node.values or ()

    def group(s: Any, n: list, e: list) -> None:
        for v in vals:
            e[k] = v
            for r in subs:
                r(s, n, e)

    return group


def _guarded(guard: Callable, subs: list[Callable]) -> Callable:
    """The actions ``subs`` share their first conjunct ``guard``: none runs when it is FALSE (when
    it is anything else or fails, each runs and reports as it would alone)."""

    def run(s: Any, n: list, e: list) -> None:
        try:
            ok = guard(s, n, e) is not False
        except Exception:  # noqa: BLE001 - the actions raise it with their own context
            ok = True
        if ok:
            for r in subs:
                r(s, n, e)

    return run


def _nested(run: Callable, bs: list) -> Callable:
    """Binders some of whose domains depend on the state: enumerated per state."""

    def nested(s: Any, n: list, e: list, i: int = 0) -> None:
        if i == len(bs):
            run(s, n, e)
            return
        _, k, vals = bs[i]
        if isinstance(vals, _DynDomain):
            vals = vals.values(s, n, e)
        for v in vals:
            e[k] = v
            nested(s, n, e, i + 1)

    return nested


def _is_temporal(node: Any, root: Any = None, _seen: set | None = None) -> bool:
    """Whether node has temporal operators (through the definitions it uses when root is given,
    e.g. ``\\A p \\in P : Fair(p)`` with ``Fair(p) == WF_v(A(p))``)."""
    seen = _seen if _seen is not None else set()
    for x in A.walk(node):
        if isinstance(x, (A.BoxAction, A.AngleAction, A.Fairness, A.TemporalQuant)):
            return True
        if isinstance(x, A.OpApp) and x.name in ("[]", "<>", "~>", "-+->"):
            return True
        if root is not None and isinstance(x, (A.Name, A.OpApp)) and not getattr(x, "prefix", ()) \
                and x.name not in seen and getattr(root, "names", None) is not None:
            d = root.names.get(x.name)
            body = getattr(getattr(d, "node", None), "body", None) if d is not None and d.kind == "op" else None
            if body is not None:
                seen.add(x.name)
                if _is_temporal(body, getattr(d, "scope", None) or root, seen):
                    return True
    return False


def _flatten_and(node: Any, root: Any, depth: int = 0) -> list:
    """Conjuncts of a SPECIFICATION formula, unfolding definitions that hold temporal parts."""
    if isinstance(node, A.And):
        out = []
        for a in node.args:
            out += _flatten_and(a, root, depth)
        return out
    if isinstance(node, (A.Name, A.OpApp)) and not getattr(node, "args", ()) and depth < 8:
        d = root.names.get(node.name)
        body = getattr(d.node, "body", None) if d is not None and d.kind == "op" else None
        if body is not None and not d.node.params and _is_temporal(body, getattr(d, "scope", None) or root):
            return _flatten_and(body, getattr(d, "scope", root), depth + 1)
    return [node]


def _formals(params: Any, args: Any, name: Any, binders: list) -> tuple:
    r"""(formal, \E-split binder passed for it or None) for a call of a definition; binders are
    followed through enclosing calls (``name`` carries the caller's formals)."""
    outer = dict(name[2]) if isinstance(name, tuple) and len(name) > 2 else {}
    bnames = {b[0] for b in binders}
    out = []
    for p, a in zip(params, args):
        src = a.name if isinstance(a, A.Name) else None
        out.append((p.name, outer.get(src) if src in outer else (src if src in bnames else None)))
    return tuple(out)


def _trim_end(text: str, line: int, col: int) -> tuple[int, int]:
    """The last character of a span's text (1-based line and column, inclusive), with trailing
    blanks and comments left out as TLC's spans end at the last token."""
    lines = text.splitlines()
    if not lines or not 1 <= line <= len(lines):
        return line, col
    i, j = line - 1, min(col, len(lines[line - 1]))  # j: characters of line i that are kept
    for _ in range(10_000):
        cur = lines[i][:j]
        k = cur.find("\\*")
        if k >= 0 and cur.count('"', 0, k) % 2 == 0:
            cur = cur[:k]
        stripped = cur.rstrip()
        if stripped.endswith("*)"):  # a block comment: back to its opening
            depth, a, b = 0, i, len(stripped)
            while a >= 0:
                seg = lines[a][:b] if a == i else lines[a]
                p = len(seg)
                while p > 0:
                    if seg[p - 2:p] == "*)" and p >= 2:
                        depth += 1
                        p -= 2
                    elif seg[p - 2:p] == "(*" and p >= 2:
                        depth -= 1
                        p -= 2
                        if depth == 0:
                            break
                    else:
                        p -= 1
                if depth == 0:
                    break
                a -= 1
            if a < 0:
                return line, col
            i, j = a, p
            continue
        if stripped:
            return i + 1, len(stripped)
        if i == 0:
            return line, col
        i -= 1
        j = len(lines[i])
    return line, col


def _end_span(node: Any) -> Any:
    """The span whose end is the end of ``node``'s text (a junction list ends at its last item)."""
    while isinstance(node, (A.And, A.Or)) and node.args:
        node = node.args[-1]
    return getattr(node, "span", None)


def _module_of(span: Any) -> str:
    return Path(getattr(span, "file", "") or "spec").stem


def _tlc_label(name: str, key: Any, body_span: Any) -> str:
    """TLC's coverage label: ``<Name line L, col C to line L, col C2 of module M>`` (the
    definition's header), or the action's own span when it is not a definition."""
    node = getattr(key, "node", key)
    sp = getattr(node, "span", None)
    if isinstance(node, A.OpDef) and sp is not None and getattr(sp, "line", 0):
        header = name + (f"({', '.join(p.name for p in node.params)})" if node.params else "")
        mod = getattr(key, "module", None) or _module_of(sp)
        return f"<{name} line {sp.line}, col {sp.col} to line {sp.line}, col {sp.col + len(header) - 1} of module {mod}>"
    if body_span is not None and getattr(body_span, "line", 0):
        return (f"<{name} line {body_span.line}, col {body_span.col} to line {body_span.end_line}, "
                f"col {body_span.end_col - 1} of module {_module_of(body_span)}>")
    return name


def _guess_name(node: Any) -> str:
    if isinstance(node, (A.Name, A.OpApp)) and node.name.isidentifier():
        return node.name
    return "Next"


def _perm_group(gens: list) -> list:
    """The permutation group generated by ``gens`` (TLC's ``permutationSubgroup``)."""
    def as_dict(p: Any) -> dict:
        if p.__class__ is Fn:
            return {k: v for k, v in p.items() if k != v}
        if p.__class__ is tuple:
            return {k: v for k, v in enumerate(p, 1) if k != v}
        return {}

    def key(d: dict) -> frozenset:
        return frozenset(d.items())

    group = {key({}): {}}
    frontier = [{}]
    gds = [as_dict(g) for g in gens]
    while frontier:
        nxt = []
        for a in frontier:
            for g in gds:
                comp = {}
                for x in set(a) | set(g):
                    y = g.get(a.get(x, x), a.get(x, x))
                    if y != x:
                        comp[x] = y
                k = key(comp)
                if k not in group:
                    group[k] = comp
                    nxt.append(comp)
        frontier = nxt
        if len(group) > 100_000:
            break
    out = []
    for d in group.values():
        f = Fn()
        dict.update(f, d)
        f._h = None
        out.append(f)
    return out


def _permute(v: Any, perm: Any) -> Any:
    c = v.__class__
    if c is ModelValue:
        try:
            return perm[v]
        except (KeyError, TypeError):
            return v
    if c is tuple:
        return tuple(_permute(x, perm) for x in v)
    if c is frozenset:
        return frozenset(_permute(x, perm) for x in v)
    if c is Fn:
        return make_fn({_permute(k, perm): _permute(x, perm) for k, x in v.items()})
    return v


def _is_value(v: Any) -> bool:
    return v.__class__ in (int, bool, str, ModelValue, tuple, frozenset, Fn)


def _diag(message: str, span: Any = None) -> Any:
    if span is not None and getattr(span, "line", 0):
        return Diagnostic("error", "E500", message, span.file, span.line, span.col, span.end_line, span.end_col)
    return Diagnostic("error", "E500", message)


def parse_expression(text: str) -> Any:
    """Parse a standalone TLA+ expression with the front end."""
    mod = parse_module(f"---- MODULE __Expr__ ----\n__Expr__ ==\n  {text}\n====\n", "<expr>")
    for u in mod.units:
        if isinstance(u, A.OpDef) and u.name == "__Expr__":
            return u.body
    raise EvalError(f"cannot parse expression: {text}")
