"""Actions as Python source (the fast path of successor enumeration): see ActionGenerator."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile.dominance import bind_once, paren_end
from specula.tla.compile.env import PRIME, UNSET, Unassigned
from specula.tla.compile.gen import FAULTS, boolish, fault, is_boolish
from specula.tla.values import ValueFault, current_string_order, enumerate_set, quick_order

if TYPE_CHECKING:
    from specula.tla.compile.compiler import Compiler
    from specula.tla.compile.env import Env

__all__ = ["ActionGenerator", "Inline"]


@dataclass(frozen=True)
class Inline:
    """A generated action's body (lines at two levels of indentation, inside the ``try`` of
    ``_act``), the lines reading its locals at entry (``_s3 = s[3]``, ``_e19 = e[19]``), the
    number of variables and the constant slot of its closures (``_k[ks]``; ``_k[ks + 1]`` its
    span): the schedule runs it inline instead of calling ``_act``."""

    body: tuple[str, ...]
    reads: tuple[str, ...]
    nvars: int
    ks: int
    uses_n: bool = True  # False: the next values are locals _n<i> (no list ``n`` to make)


class _Abort(Exception):
    """The action uses a construct the action generator does not handle: keep the CPS closures."""


class ActionGenerator:
    """Generates one Python function per action of Next (successor enumeration only).

    Which primed variables are assigned is known statically along each path of the generated
    code, so ``x' = e`` becomes an assignment or a comparison at generation time, ``x' \\in S`` a
    ``for`` loop, disjunctions separate code paths (the continuation is generated once per path).
    Python faults inside the generated function re-run the action through the closures, which
    report the precise span.
    """

    MAX_LINES = 4000

    def __init__(self, compiler: "Compiler") -> None:
        self.c = compiler
        self.g = compiler.gen
        self.lines = 0
        self.ntmp = 0

    def build(self, node: Any, env: "Env", nvars: int, var_names: tuple, out: list, idx: int,
              name: str, span: Any, slow: Callable, init: bool = False,
              fixed: tuple[int, ...] = ()) -> Callable | None:
        """The generated successor function of one action (``init``: of the initial predicate,
        whose states are appended without an action index). ``fixed``: the frame slots of the
        action's split binders (set by the caller, never written by the action)."""
        if self.g is None:
            return None
        self.lines = 0
        self.out = out

        g = self.g
        errs: list = []

        def final(assigned: frozenset, ind: int) -> list[str]:
            pad = "    " * ind
            missing = [i for i in range(nvars) if i not in assigned]
            if missing:
                what = (f"the initial predicate does not assign a value to variable {var_names[missing[0]]}" if init
                        else f"action {name} does not assign a value to variable {var_names[missing[0]]}'")
                g.consts.append(Unassigned(what, span))
                return [f"{pad}raise _k[{len(g.consts) - 1}]"]
            if init:
                return [f"{pad}_out[0].append(tuple(n))"]
            return [f"{pad}_out[0].append(({idx}, tuple(n)))"]

        for cse in ((True, False) if not init else (False,)):
            # first with the body's values remembered in locals (Generator._memo), again
            # without when one of those would be a cell (read inside a comprehension)
            g.cse, g.cse_slots = ({} if cse else None), frozenset(fixed)
            g.cse_lets, g.memo_lets = set(), {}
            try:
                body = self.act(node, env, frozenset(), final, 2)
            except (_Abort, EvalError, RecursionError):
                return None
            finally:
                g.cse = None
            fn = self._compile(body, fixed, init, nvars, name, slow, span)
            if fn is not None or not cse:
                return fn
        return None

    def _compile(self, body: list[str] | None, fixed: tuple[int, ...], init: bool, nvars: int, name: str,
                 slow: Callable, span: Any) -> Callable | None:
        """The action function of the generated ``body`` lines (None: a local remembered by the
        body would be a cell, or Python cannot compile it)."""
        g = self.g
        out = self.out
        g.consts.append(slow)
        ks = len(g.consts) - 1
        g.consts.append(span)
        # on a Python-level fault, run the closures (they raise with the precise span); if they
        # do not fail, report the fault at the action.
        # The caller's n (every variable unassigned) is left as it came, as the closures leave
        # it: a closure action run next on the same list (an action the generator could not
        # take, under the same \E) would otherwise take the assignments left here for its own.
        # The generated code assigns a list of its own (cheaper than restoring the caller's).
        ns = g.ns
        ns["_out"] = out
        ns["_FAULTS"] = FAULTS
        ns["_fault"] = fault
        nested: set[str] = set()
        for _ in range(2):
            # a local read inside a comprehension or lambda is a cell, made at every call: those
            # are read from s and e where they are used (the second round)
            lbody, reads = _localize(bind_once(_local_lets(_memo_inits(body or ["        pass"], g.memo_lets))),
                                     fixed, init, nested)
            direct = None if init else _direct_next(lbody, nvars)
            if direct is not None:
                lbody = direct
            text = "\n".join(lbody)
            # (a binding reset where its LET or operator begins is set before any read of it)
            # (a binding every read of which is its assignment or follows one needs none)
            reads += [f"    {m} = _U" for m in sorted({m for m in _MEMO_NAME.findall(text) if m[1] == "l"
                                                       and not re.search(rf"^ *{m} = _U$", text, re.M)
                                                       and f"({m} if {m} is not _U else" in text})]
            src = ["def _act(s, n, e):"] + ([] if direct is not None else [f"    n = [_U] * {nvars}"]) + reads + [
                "    try:"] + lbody + [
                "    except _FAULTS as _x:",
                "        _mark = len(_out[0])",
                f"        _k[{ks}](s, [_U] * {nvars}, e)",
                "        del _out[0][_mark:]",
                f"        raise _fault(_x, _k[{ks + 1}]) from None",
            ]
            loc: dict = {}
            try:
                code = compile("\n".join(src), f"<action {name}>", "exec")
            except (SyntaxError, RecursionError):
                return None
            fcode = next(c for c in code.co_consts if hasattr(c, "co_cellvars"))
            if any(_MEMO_NAME.fullmatch(v) for v in fcode.co_cellvars):
                return None
            cells = {v for v in fcode.co_cellvars if v[:2] in ("_s", "_e") and v[2:].isdigit()}
            if not cells or nested:
                break
            nested = cells
        exec(code, ns, loc)  # noqa: S102
        fn = loc["_act"]
        if not init:
            # what the schedule needs to run this action inline (compile.schedule.fuse)
            fn._inline = Inline(tuple(lbody), tuple(reads), nvars, ks, direct is None)
        return fn

    # ------------------------------------------------------------------ nodes

    def expr(self, node: Any, env: "Env") -> str:
        return self.g.sub(node, env)[0]

    def _qo(self) -> str:
        """The enumerator of one ``x \\in S`` of the action (its own memo of set orders)."""
        return self.g.const(SiteOrder())

    def _domain(self, node: Any, env: "Env") -> str:
        """The source of the elements of ``x \\in node`` in TLC's order. A domain that reads one
        binder of the action and nothing else (``q \\in Proc \\ {p}``) is remembered per value
        of that binder (an integer; when its elements are integers too, whose order does not
        depend on the search's string order): looked up, not computed and ordered again."""
        src, deps, _ = self.g.sub(node, env)
        qo = self._qo()
        if len(deps) != 1 or next(iter(deps)).__class__ is not int:
            return f"{qo}({src})"
        k = next(iter(deps))
        memo = DomainTable()
        self.g.consts.append(memo.table)
        tab = f"_k[{len(self.g.consts) - 1}]"
        self.g.consts.append(memo.fill)
        fill = f"_k[{len(self.g.consts) - 1}]"
        t = self.g._walrus_tmp()
        return f"({tab}[{t}] if ({t} := e[{k}]).__class__ is int and {t} in {tab} else {fill}({t}, {qo}({src})))"

    def act(self, node: Any, env: "Env", assigned: frozenset, k: Callable, ind: int) -> list[str]:
        self.lines += 1
        if self.lines > self.MAX_LINES:
            raise _Abort
        pad = "    " * ind
        c = self.c
        if isinstance(node, A.And):
            return self._chain(list(node.args), env, assigned, k, ind)
        if isinstance(node, A.Or):
            out: list[str] = []
            for a in node.args:
                out += self.act(a, env, assigned, k, ind)
            return out
        if isinstance(node, A.Bool):
            return k(assigned, ind) if node.value else []
        if isinstance(node, A.Quant):
            if node.kind != "E":
                if env.init:
                    # in Init, variables read are assigned earlier on this path (else it assigns)
                    vs = c.state_vars(node, env)
                    if vs is None or not vs <= assigned:
                        raise _Abort
                elif PRIME in c.expr(node, env)[1]:
                    raise _Abort  # \A over actions: conjunction over the elements (closures)
                if not node.bounds[0].tuple and c.may_branch(node.body, env):
                    # state-level, but TLC takes each element's body as an action: every way it
                    # holds (a true disjunct, an \E witness) runs the rest of the action again
                    var = self._tmp()
                    rep = self._tmp()
                    return self._count(node, env, var, ind) + [f"{pad}for {rep} in range({var}):"] + (
                        k(assigned, ind + 1) or [pad + "    pass"])
                return self._guard(node, env, assigned, k, ind)
            lines: list[str] = []
            loops: list[str] = []
            cur = env
            for b in node.bounds:
                if b.tuple or b.domain is None:
                    raise _Abort
                dsrc = self._domain(b.domain, env)
                for nm in b.names:
                    slot = c.new_slot()
                    if len(node.bounds) == 1 and len(b.names) == 1:
                        loops.append(f"for e[{slot}] in {dsrc}:")
                    else:
                        # the domains are evaluated first, then enumerated with the first bound
                        # varying fastest (TLC's ContextEnumerator)
                        dom = self._tmp()
                        lines.append(f"{pad}{dom} = {dsrc}")
                        loops.append(f"for e[{slot}] in {dom}:")
                    cur = cur.bind({nm: ("slot", slot)})
            loops.reverse()
            lines += ["    " * (ind + j) + lp for j, lp in enumerate(loops)]
            return lines + self.act(node.body, cur, assigned, k, ind + len(loops))
        if isinstance(node, A.If):
            cond = self.expr(node.cond, env)
            if not boolish(self.g, node.cond, env):
                cond = self.g.truth(cond)
            return ([f"{pad}if {cond}:"] + (self.act(node.then, env, assigned, k, ind + 1) or [pad + "    pass"])
                    + [f"{pad}else:"] + (self.act(node.else_, env, assigned, k, ind + 1) or [pad + "    pass"]))
        if isinstance(node, A.Case):
            lines = []
            for j, (gd, v) in enumerate(node.arms):
                kw = "if" if j == 0 else "elif"
                lines.append(f"{pad}{kw} {self.expr(gd, env)} is True:")
                lines += self.act(v, env, assigned, k, ind + 1) or [pad + "    pass"]
            lines.append(f"{pad}else:")
            if node.other is not None:
                lines += self.act(node.other, env, assigned, k, ind + 1) or [pad + "    pass"]
            else:
                err = EvalError("no CASE arm is true and there is no OTHER", node.span)
                self.g.consts.append(err)
                lines.append(f"{pad}    raise _k[{len(self.g.consts) - 1}]")
            return lines
        if isinstance(node, A.Let):
            lenv, lazy = c.let_env(node, env)
            return _resets(lazy, pad) + self.act(node.body, lenv, assigned, k, ind)
        if isinstance(node, A.BoxAction):
            return self.act(A.Or((node.action, A.OpApp("UNCHANGED", (node.sub,), span=node.span)), span=node.span),
                            env, assigned, k, ind)
        if isinstance(node, A.OpApp):
            return self._opapp(node, env, assigned, k, ind)
        if isinstance(node, A.Name):
            b = c.resolve(node.name, env, node.span)
            if b[0] == "op" and b[1].native is None and b[1].arity == 0 and not b[1].recursive and b[1].body is not None:
                return self._inline(b[1], (), env, assigned, k, ind, node)
            if b[0] == "expr":
                benv = b[2].with_(primed=True) if env.primed else b[2]
                if env.init and not benv.init:
                    benv = benv.with_(init=True)
                return self.act(b[1], benv, assigned, k, ind)
            return self._guard(node, env, assigned, k, ind)
        if isinstance(node, (A.AngleAction, A.Prime)):
            raise _Abort
        if isinstance(node, A.FuncApp) and c.funcdef_of(node, env) is not None:
            raise _Abort  # f[a] with f[x \in S] == body splitting: body as the action (closures)
        return self._guard(node, env, assigned, k, ind)

    def _tmp(self) -> str:
        self.ntmp += 1
        return f"_c{self.ntmp}"

    def _count(self, node: Any, env: "Env", var: str, ind: int) -> list[str]:
        """Lines setting ``var`` to the number of ways TLC's action evaluation satisfies the
        state-level ``node`` (disjuncts and ``\\E`` witnesses add, conjuncts and ``\\A``
        elements multiply; anything else is a guard counting 1 or 0)."""
        self.lines += 1
        if self.lines > self.MAX_LINES:
            raise _Abort
        c = self.c
        pad = "    " * ind
        if env.primed:
            raise _Abort
        if not c.may_branch(node, env):
            test = self.expr(node, env)
            if not is_boolish(node):
                test = self.g.truth(test)
            return [f"{pad}{var} = 1 if {test} else 0"]
        if isinstance(node, (A.And, A.Or)):
            t = self._tmp()
            conj = isinstance(node, A.And)
            lines = [f"{pad}{var} = {1 if conj else 0}"]
            for a in node.args:
                if conj:
                    lines += [f"{pad}if {var}:"] + self._count(a, env, t, ind + 1) + [f"{pad}    {var} *= {t}"]
                else:
                    lines += self._count(a, env, t, ind) + [f"{pad}{var} += {t}"]
            return lines
        if isinstance(node, A.Quant):
            if any(b.tuple or b.domain is None for b in node.bounds):
                raise _Abort
            names = [(nm, b) for b in node.bounds for nm in b.names]
            if node.kind == "A" and len(names) > 1:
                nm, b = names[0]
                first = A.Bound((nm,), b.domain, span=b.span)
                rest = tuple(A.Bound((nm2,), b2.domain, span=b2.span) for nm2, b2 in names[1:])
                inner = A.Quant("A", rest, node.body, span=node.span)
                return self._count(A.Quant("A", (first,), inner, span=node.span), env, var, ind)
            t = self._tmp()
            lines = [f"{pad}{var} = {1 if node.kind == 'A' else 0}"]
            cur, depth = env, ind
            for nm, b in names:
                dsrc = self._domain(b.domain, env)
                slot = c.new_slot()
                lines.append("    " * depth + f"for e[{slot}] in {dsrc}:")
                cur = cur.bind({nm: ("slot", slot)})
                depth += 1
            inner_pad = "    " * depth
            lines += self._count(node.body, cur, t, depth)
            if node.kind == "A":
                lines += [f"{inner_pad}{var} *= {t}", f"{inner_pad}if not {var}:", f"{inner_pad}    break"]
            else:
                lines += [f"{inner_pad}{var} += {t}"]
            return lines
        if isinstance(node, A.If):
            return ([f"{pad}if {self.g.truth(self.expr(node.cond, env))}:"] + self._count(node.then, env, var, ind + 1)
                    + [f"{pad}else:"] + self._count(node.else_, env, var, ind + 1))
        if isinstance(node, A.Case):
            lines = []
            for j, (gd, v) in enumerate(node.arms):
                kw = "if" if j == 0 else "elif"
                lines.append(f"{pad}{kw} {self.expr(gd, env)} is True:")
                lines += self._count(v, env, var, ind + 1)
            lines.append(f"{pad}else:")
            if node.other is not None:
                lines += self._count(node.other, env, var, ind + 1)
            else:
                err = EvalError("no CASE arm is true and there is no OTHER", node.span)
                self.g.consts.append(err)
                lines.append(f"{pad}    raise _k[{len(self.g.consts) - 1}]")
            return lines
        if isinstance(node, A.Let):
            lenv, lazy = c.let_env(node, env)
            return _resets(lazy, pad) + self._count(node.body, lenv, var, ind)
        if isinstance(node, A.OpApp) and not node.prefix and node.name == "=>" and len(node.args) == 2 \
                and "=>" not in env.locals:
            return ([f"{pad}if {self.expr(node.args[0], env)} is True:"] + self._count(node.args[1], env, var, ind + 1)
                    + [f"{pad}else:", f"{pad}    {var} = 1"])
        if isinstance(node, (A.OpApp, A.Name)) and not getattr(node, "prefix", ()):
            args = node.args if isinstance(node, A.OpApp) else ()
            if isinstance(node, A.OpApp) and node.name in c.builtin_ops and node.name not in env.locals:
                return self._count_guard(node, env, var, ind)  # e.g. ~, <=>: the operands are values
            b = c.resolve(node.name, env, node.span)
            if args:
                b = c.as_op(b)
            if b[0] == "expr" and not args:
                benv = b[2].with_(init=True) if env.init and not b[2].init else b[2]
                return self._count(b[1], benv, var, ind)
            if b[0] != "op":
                raise _Abort
            op = b[1]
            if op.native is not None or op.recursive or op.body is None or len(args) != len(op.params):
                raise _Abort
            if not args and c.constant_level(node, env):
                test = self.expr(node, env)
                return [f"{pad}{var} = 1 if {self.g.truth(test)} else 0"]
            benv, lazy = self._op_env(op, args, env)
            return _resets(lazy, pad) + self._count(op.body, benv, var, ind)
        raise _Abort

    def _op_env(self, op: Any, args: tuple, env: "Env") -> tuple["Env", list[int]]:
        """The environment of an inlined operator body (arguments bound, primed/init mode
        carried) and the argument slots to reset before it runs."""
        binds = {}
        lazy = []
        for p, a in zip(op.params, args):
            b = self.c.arg_binding(p, a, env)
            binds[p.name] = b
            if b[0] == "lazy":
                lazy.append(b[1])
        benv = (op.env or env.with_(locals={})).bind(binds)
        if env.primed and not benv.primed:
            benv = benv.with_(primed=True)
        if env.init and not benv.init:
            benv = benv.with_(init=True)
        return benv, lazy

    def _count_guard(self, node: Any, env: "Env", var: str, ind: int) -> list[str]:
        test = self.expr(node, env)
        if not is_boolish(node):
            test = self.g.truth(test)
        return [f"{'    ' * ind}{var} = 1 if {test} else 0"]

    def _chain(self, args: list, env: "Env", assigned: frozenset, k: Callable, ind: int) -> list[str]:
        if not args:
            return k(assigned, ind)
        first, rest = args[0], args[1:]
        return self.act(first, env, assigned, lambda a, i: self._chain(rest, env, a, k, i), ind)

    def _guard(self, node: Any, env: "Env", assigned: frozenset, k: Callable, ind: int) -> list[str]:
        if env.primed:
            raise _Abort
        src = self.expr(node, env)
        pad = "    " * ind
        test = src if boolish(self.g, node, env) else self.g.truth(src)
        return [f"{pad}if {test}:"] + (k(assigned, ind + 1) or [pad + "    pass"])

    def _inline(self, op: Any, args: tuple, env: "Env", assigned: frozenset, k: Callable, ind: int,
                node: Any) -> list[str]:
        c = self.c
        if len(args) != len(op.params):
            raise _Abort
        if not args and c.constant_level(node, env):
            return self._guard(node, env, assigned, k, ind)
        benv, lazy = self._op_env(op, args, env)
        pad = "    " * ind
        return _resets(lazy, pad) + self.act(op.body, benv, assigned, k, ind)

    def _opapp(self, node: A.OpApp, env: "Env", assigned: frozenset, k: Callable, ind: int) -> list[str]:
        c = self.c
        name = node.name
        pad = "    " * ind
        if node.prefix:
            if c.subexpr(node, env) is not None:
                raise _Abort  # Def!2 may assign variables: the closures take it as an action
            op, _ = c.instance_op(node, env)
            if op.native is not None or op.recursive or op.body is None:
                return self._guard(node, env, assigned, k, ind)
            return self._inline(op, node.args, env, assigned, k, ind, node)
        if name not in env.locals:
            if name in ("=", "\\in") and len(node.args) == 2:
                i = c.target_var(node.args[0], env)
                if i is not None:
                    rhs = self.expr(node.args[1], env)
                    if name == "=":
                        if i in assigned:
                            return [f"{pad}if _eq(n[{i}], {rhs}):"] + (k(assigned, ind + 1) or [pad + "    pass"])
                        return [f"{pad}n[{i}] = {rhs}"] + k(assigned | {i}, ind)
                    if i in assigned:
                        return [f"{pad}if _in(n[{i}], {rhs}):"] + (k(assigned, ind + 1) or [pad + "    pass"])
                    return [f"{pad}for n[{i}] in {self._qo()}({rhs}):"] + (k(assigned | {i}, ind + 1) or [pad + "    pass"])
                return self._guard(node, env, assigned, k, ind)
            if name == "\\cdot":
                raise _Abort  # action composition: the closures
            if name == "UNCHANGED":
                vs = c.unchanged_vars(node.args[0], env)
                if vs is None:
                    return self._guard(node, env, assigned, k, ind)
                lines = []
                conds = []
                cur = set(assigned)
                for i in vs:
                    if i in cur:
                        conds.append(f"_eq(n[{i}], s[{i}])")
                    else:
                        lines.append(f"{pad}n[{i}] = s[{i}]")
                        cur.add(i)
                if conds:
                    return lines + [f"{pad}if {' and '.join(conds)}:"] + (k(frozenset(cur), ind + 1) or [pad + "    pass"])
                return lines + k(frozenset(cur), ind)
            if name == "=>" and len(node.args) == 2:
                cond = self.expr(node.args[0], env)
                return ([f"{pad}if {cond} is True:"] + (self.act(node.args[1], env, assigned, k, ind + 1) or [pad + "    pass"])
                        + [f"{pad}else:"] + (k(assigned, ind + 1) or [pad + "    pass"]))
            if name in c.builtin_ops:
                return self._guard(node, env, assigned, k, ind)
        b = c.resolve(name, env, node.span)
        if node.args:
            b = c.as_op(b)
        if b[0] == "op":
            op = b[1]
            if op.native is not None or op.recursive or op.body is None:
                return self._guard(node, env, assigned, k, ind)
            return self._inline(op, node.args, env, assigned, k, ind, node)
        if b[0] == "expr" and not node.args:
            benv = b[2].with_(primed=True) if env.primed else b[2]
            if env.init and not benv.init:
                benv = benv.with_(init=True)
            return self.act(b[1], benv, assigned, k, ind)
        return self._guard(node, env, assigned, k, ind)


_MEMO_NAME = re.compile(r"\b_[ml]\d+\b")
_MEMO_SITE = re.compile(r"\((_m\d+) if \1 is not _U else \(\1 := ")
_MEMO_READ = re.compile(r"\((_m\d+) if \1 is not _U else (?!\(\1 := )")


def _memo_inits(body: list[str], lets: dict[str, set[int]] | None = None) -> list[str]:
    """``body`` without the remembering of values read at one place outside any loop (nothing
    to share: the local would cost its reset and test alone), and with each remaining memo
    local reset at the start of the innermost block holding all its reads (not at entry: most
    calls of an action fail its first guards). A memo of a value depending on LET or argument
    bindings (``lets``: memo local -> their slots) is reset again after each reset of those."""
    lines = "\n".join(body).split("\n")
    sites: dict[str, list[bool]] = {}
    loops: list[int] = []  # indentation of the enclosing ``for`` lines
    for ln in lines:
        ind = len(ln) - len(ln.lstrip())
        while loops and ind <= loops[-1]:
            loops.pop()
        for m in _MEMO_SITE.finditer(ln):
            sites.setdefault(m.group(1), []).append(bool(loops))
        if ln.lstrip().startswith("for "):
            loops.append(ind)
    single = {nm for nm, at in sites.items() if len(at) == 1 and not at[0]}
    # a read of a memo local that does not compute it (an EXCEPT's value at a path: gen_except)
    # is the read alone when the local is not kept
    for nm in {m.group(1) for ln in lines for m in _MEMO_READ.finditer(ln)}:
        if nm not in sites or nm in single:
            lines = [ln.replace(f"({nm} if {nm} is not _U else ", "(") for ln in lines]
    out = []
    for ln in lines:
        pos = 0
        while (m := _MEMO_SITE.search(ln, pos)) is not None:
            if m.group(1) in single:
                ln = _unwrap(ln, m.start())
                pos = m.start() + 1
            else:
                pos = m.end()
        out.append(ln)
    out = _place_inits(out, set(sites) - single)
    again: dict[str, list[str]] = {}
    for nm, ks in (lets or {}).items():
        if nm in sites and nm not in single:
            for k in ks:
                again.setdefault(f"_l{k} = _U", []).append(nm)
    if not again:
        return out
    res = []
    for ln in out:
        res.append(ln)
        got = again.get(ln.strip())
        if got:
            pad = ln[:len(ln) - len(ln.lstrip())]
            res.extend(f"{pad}{nm} = _U" for nm in sorted(set(got), key=lambda m: int(m[2:])))
    return res


def _place_inits(lines: list[str], names: set[str]) -> list[str]:
    """``lines`` with ``name = _U`` first in the innermost block holding every line reading it."""
    if not names:
        return lines
    stack: list[tuple[int, int]] = []  # (indentation, line) of the enclosing block openers
    chains: list[tuple[int, ...]] = []
    for i, ln in enumerate(lines):
        ind = len(ln) - len(ln.lstrip())
        while stack and stack[-1][0] >= ind:
            stack.pop()
        chains.append(tuple(j for _, j in stack))
        stack.append((ind, i))
    where: dict[int, list[str]] = {}
    for nm in sorted(names, key=lambda m: int(m[2:])):
        pat = re.compile(rf"\b{nm}\b")
        common: tuple[int, ...] | None = None
        for i, ln in enumerate(lines):
            if pat.search(ln):
                c = chains[i]
                if common is None:
                    common = c
                else:
                    k = 0
                    while k < min(len(common), len(c)) and common[k] == c[k]:
                        k += 1
                    common = common[:k]
        where.setdefault(common[-1] if common else -1, []).append(nm)
    out = [f"{' ' * (len(lines[0]) - len(lines[0].lstrip()))}{nm} = _U" for nm in where.get(-1, ())]
    for i, ln in enumerate(lines):
        out.append(ln)
        if i in where:
            pad = " " * (len(lines[i + 1]) - len(lines[i + 1].lstrip()))
            out.extend(f"{pad}{nm} = _U" for nm in where[i])
    return out


def _local_lets(lines: list[str]) -> list[str]:
    """``lines`` with the LET/argument locals ``_l<k>`` not storing into their slot ``e[k]``
    when nothing else reads the slot (no closure called, no comprehension reading it), and
    without the slot's resets then (the closures that run the action again after a fault reset
    the slots of their LETs and arguments themselves)."""
    text = "\n".join(lines)
    if "(s, n, e)" in text:
        return lines
    names = set(re.findall(r"\(_l(\d+) if _l\1 is not _U else", text))
    dead: set[str] = set()
    for k in names:
        pre = f"(e[{k}] if e[{k}] is not _U else _st(e, {k}, "
        n = text.count(f"(_l{k} := {pre}")
        if n != text.count(pre) or text.count(f"e[{k}]") != 2 * n + text.count(f"e[{k}] = _U"):
            continue
        out = []
        for ln in text.split("\n"):
            while (at := ln.find(pre)) >= 0:
                ln = _unwrap(ln, at, len(pre))
            out.append(ln)
        text = "\n".join(out)
        dead.add(f"e[{k}] = _U")
    return [ln for ln in text.split("\n") if ln.strip() not in dead]


def _unwrap(ln: str, at: int, skip: int = 0) -> str:
    """``ln`` with the memo ``(_mN if _mN is not _U else (_mN := SRC))`` at ``at`` as ``(SRC)``
    (with ``skip``: the ``skip`` characters at ``at`` then SRC then ``))``)."""
    start = at + skip if skip else _MEMO_SITE.match(ln, at).end()
    i = paren_end(ln, start, 1)  # the end of SRC
    return ln[:at] + "(" + ln[start:i] + ")" + ln[i + 2:]


_NEXT = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|(?<![\w.\])])n\[(\d+)\]|(?<![\w.])n\b""")


def _direct_next(lines: list[str], nvars: int) -> list[str] | None:
    """``lines`` with the next values in locals ``_n<i>`` and each successor built as a tuple of
    them, when the body reads ``n`` only as ``n[i]`` (no closure or primed read taking the list:
    each ``n[i]`` the generator reads is assigned before on its path); else None."""
    text = "\n".join(lines)
    tail = "tuple(n)))"
    ok = [True]

    def sub(m: re.Match) -> str:
        if m.group(0)[0] in "'\"":
            return m.group(0)
        if m.group(1) is None:
            ok[0] = False
            return m.group(0)
        return f"_n{m.group(1)}"

    text = text.replace(tail, "\0")
    text = _NEXT.sub(sub, text)
    if not ok[0]:
        return None
    return text.replace("\0", "(" + ", ".join(f"_n{i}" for i in range(nvars)) + ("," if nvars == 1 else "") + ")))").split("\n")


def _resets(lazy: list[int], pad: str) -> list[str]:
    """Lines resetting the LET/argument bindings in the slots ``lazy`` (the slot, read by the
    closures, and the local the generated body reads, Generator._binding)."""
    return [f"{pad}e[{k}] = _U\n{pad}_l{k} = _U" for k in lazy]


_READ = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|(?<![\w.\])])([se])\[(\d+)\]""")
_WRITE = re.compile(r"e\[(\d+)\] =[^=]|for e\[(\d+)\] in|for \(([^)]*)\) in|_st\(e, (\d+),")


def _localize(body: list[str], fixed: tuple[int, ...], init: bool,
              nested: set[str]) -> tuple[list[str], list[str]]:
    """The action body reading each state variable ``s[i]`` and each split-binder slot ``e[k]``
    from a local variable assigned once at entry (string literals are left alone)."""
    text = "\n".join(body)
    written: set[int] = set()
    for m in _WRITE.finditer(text):
        for g in m.groups():
            if g:
                written.update(int(x) for x in re.findall(r"\d+", g))
    slots = {k for k in fixed if k not in written}
    counts: dict[str, int] = {}
    for m in _READ.finditer(text):
        if m.group(1) is not None:
            counts[m.group(0)] = counts.get(m.group(0), 0) + 1
    used: dict[str, str] = {}

    def sub(m: re.Match) -> str:
        kind = m.group(1)
        if kind is None or counts[m.group(0)] < 2:  # a string literal, or read once
            return m.group(0)
        i = int(m.group(2))
        if kind == "s" and init or kind == "e" and i not in slots:
            return m.group(0)
        name = f"_{kind}{i}"
        if name in nested:
            return m.group(0)
        used[name] = f"{kind}[{i}]"
        return name

    text = _READ.sub(sub, text)
    return text.split("\n"), [f"    {nm} = {src}" for nm, src in sorted(used.items())]


def _qo(S: Any) -> Any:
    try:
        return quick_order(enumerate_set(S))
    except ValueFault as exc:
        raise EvalError(str(exc), None) from None


class DomainTable:
    """The elements of one ``x \\in S`` of an action per value of the one binder S reads
    (``ActionGenerator._domain``): kept when the value and the elements are integers."""

    __slots__ = ("table",)

    def __init__(self) -> None:
        self.table: dict[int, Any] = {}

    def fill(self, key: Any, vals: Any) -> Any:
        if key.__class__ is int and len(self.table) < 10_000 and all(v.__class__ is int for v in vals):
            self.table[key] = vals
        return vals


class SiteOrder:
    """The elements of the sets one ``x \\in S`` of a generated action enumerates, in TLC's
    order, remembered per set object (stored states share equal values, so a set read from the
    state recurs as the same object; an entry keeps its set alive, so its id is not reused)."""

    __slots__ = ("by_id", "order")

    def __init__(self) -> None:
        self.by_id: dict[int, tuple[Any, Any]] = {}
        self.order: Any = None

    def __call__(self, S: Any) -> Any:
        if S.__class__ is not frozenset:
            return _qo(S)
        got = self.by_id.get(id(S))
        order = current_string_order()
        if got is not None and got[0] is S and order is self.order:
            return got[1]
        if order is not self.order or len(self.by_id) >= 20_000:
            self.by_id.clear()
            self.order = order
        vals = quick_order(S)
        self.by_id[id(S)] = (S, vals)
        return vals
