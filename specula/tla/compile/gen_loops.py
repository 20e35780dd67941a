"""The comprehension family of generated expressions: quantifiers, set filters, set maps and
function constructors, each generated as a loop function of its own (``Loops._loop``) so that
its body can use the generator's inline forms (a comprehension's body cannot: its walrus
targets would be cells of the enclosing function)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from specula.tla import ast as A

if TYPE_CHECKING:
    from specula.tla.compile.env import Env
    from specula.tla.compile.gen import Generator


class Loops:
    """Generates the comprehension family of one ``Generator``."""

    def __init__(self, g: "Generator") -> None:
        self.g = g
        self.count = 0  # loop bodies generated (Generator.hoist_id)

    def one_bound(self, bounds: tuple, env: "Env") -> tuple | None:
        g = self.g
        if len(bounds) != 1 or bounds[0].tuple or len(bounds[0].names) != 1 or bounds[0].domain is None:
            return None
        b = bounds[0]
        d = g.iterable(b.domain, env)
        k = g.c.new_slot()
        return d, k, env.bind({b.names[0]: ("slot", k)})

    def bounds(self, bounds: tuple, env: "Env") -> tuple | None:
        """``for`` clauses binding every name of ``bounds`` (no tuple patterns): ``(clauses, deps,
        size, env, slots)``. Each domain is evaluated in the outer environment, as TLA+ scopes it."""
        g = self.g
        if not bounds or any(b.domain is None for b in bounds):
            return None
        clauses: list[str] = []
        deps: frozenset = frozenset()
        size = 0
        slots: list[int] = []
        binds: dict = {}
        for b in bounds:
            dsrc, ddeps, dsize = g.iterable(b.domain, env)
            deps |= ddeps
            size += dsize
            if b.tuple:  # <<x, y>> \in S: Python unpacks the tuple (a mismatch is a fault)
                ks = []
                for nm in b.names:
                    k = g.c.new_slot()
                    slots.append(k)
                    ks.append(k)
                    binds[nm] = ("slot", k)
                clauses.append(f"for ({', '.join(f'e[{k}]' for k in ks)},) in _tups(_en({dsrc}), {len(ks)})")
                continue
            for nm in b.names:
                k = g.c.new_slot()
                slots.append(k)
                binds[nm] = ("slot", k)
                clauses.append(f"for e[{k}] in _en({dsrc})")
        return clauses, deps, size, env.bind(binds), slots

    def _body(self, node: Any, env: "Env", lo: int, hoist: dict) -> tuple:
        """``node`` generated as the body of a loop function (``_loop``): a function of its own,
        where a walrus binds a plain local, so the inline forms are used again. The slots from
        ``lo`` on are bound inside the loop; what reads none of them is kept in the locals
        ``hoist`` names (``Generator._hoisted``), which the function resets at its start."""
        g = self.g
        saved = g.in_comp, g.in_iterable, g.cse, g.hoist, g.hoist_lo, g.hoist_id
        g.in_comp = g.in_iterable = 0
        g.cse = None  # (no locals of the action: Generator._memo)
        g.hoist, g.hoist_lo = hoist, lo
        self.count += 1
        g.hoist_id = self.count
        try:
            return g.gen(node, env)
        finally:
            g.in_comp, g.in_iterable, g.cse, g.hoist, g.hoist_lo, g.hoist_id = saved

    @staticmethod
    def _resets(hoist: dict) -> list[str]:
        return [f"{nm} = _U" for nm in hoist.values()]

    def _loop(self, clauses: list[str], head: list[str], body: list[str], tail: list[str]) -> str | None:
        """A comprehension as a generated function of nested ``for`` statements: no generator
        frame per element, and its body uses the inline forms (a comprehension's body cannot:
        its walrus targets would be cells of the enclosing function). Faults propagate to the
        caller's generated function, which reports them at its span, as before. The call's
        source, or None when Python's compiler refuses it (too deep)."""
        g = self.g
        lines = ["def _mk():", "    def _q(s, n, e):"] + [f"        {x}" for x in head]
        pad = "        "
        for c in clauses:
            lines.append(f"{pad}{c}:")
            pad += "    "
        lines += [f"{pad}{x}" for x in body] + [f"        {x}" for x in tail] + ["    return _q"]
        text = "\n".join(lines)
        code = g._code.get(text)
        if code is None:
            try:
                code = compile(text, "<tla>", "exec")
            except (SyntaxError, RecursionError, MemoryError):
                code = False
            g._code[text] = code
        if code is False:
            return None
        loc: dict = {}
        exec(code, g.ns, loc)  # noqa: S102 - generated from the AST
        g.consts.append(loc["_mk"]())
        return f"_k[{len(g.consts) - 1}](s, n, e)"

    def quant(self, node: A.Quant, env: "Env") -> tuple | None:
        g = self.g
        lo, hoist = g.c.nslots, {}
        r = self.bounds(node.bounds, env)
        if r is None:
            return None
        clauses, ddeps, dsize, benv, slots = r
        what = ("the body of \\E" if node.kind == "E" else "the body of \\A") if len(slots) == 1 else "a quantifier body"
        body = self._body(node.body, benv, lo, hoist)
        test = body[0] if is_boolish(node.body) else f"_truth({body[0]}, {what!r})"
        if node.kind == "E":
            src = self._loop(clauses, self._resets(hoist), [f"if {test}:", "    return True"], ["return False"])
        else:
            src = self._loop(clauses, self._resets(hoist), [f"if not ({test}):", "    return False"], ["return True"])
        if src is None:
            body = g._comp_body(node.body, benv)
            test = body[0] if is_boolish(node.body) else f"_truth({body[0]}, {what!r})"
            src = f"{'any' if node.kind == 'E' else 'all'}({test} {' '.join(clauses)})"
        return src, (body[1] - set(slots)) | ddeps, 1 + dsize + body[2]

    def setfilter(self, node: A.SetFilter, env: "Env") -> tuple | None:
        g = self.g
        lo, hoist = g.c.nslots, {}
        r = self.one_bound((node.bound,), env)
        if r is None:
            return None
        (dsrc, ddeps, dsize), k, benv = r
        if may_be_infinite(node.bound.domain) or may_be_large(node.bound.domain):
            return None  # the closure compiler keeps such filters lazy
        p = self._body(node.pred, benv, lo, hoist)
        test = p[0] if is_boolish(node.pred) else f"_truth({p[0]}, 'a set filter condition')"
        src = self._loop([f"for e[{k}] in _en({dsrc})"], ["_r = []"] + self._resets(hoist),
                         [f"if {test}:", f"    _r.append(e[{k}])"], ["return _frozenset(_r)"])
        if src is None:
            p = g._comp_body(node.pred, benv)
            test = p[0] if is_boolish(node.pred) else f"_truth({p[0]}, 'a set filter condition')"
            src = f"_frozenset([e[{k}] for e[{k}] in _en({dsrc}) if {test}])"
        return src, (p[1] - {k}) | ddeps, 1 + dsize + p[2]

    def setmap(self, node: A.SetMap, env: "Env") -> tuple | None:
        g = self.g
        lo, hoist = g.c.nslots, {}
        r = self.bounds(node.bounds, env)
        if r is None:
            return None
        clauses, ddeps, dsize, benv, slots = r
        x = self._body(node.expr, benv, lo, hoist)
        src = self._loop(clauses, ["_r = []"] + self._resets(hoist), [f"_r.append({x[0]})"], ["return _frozenset(_r)"])
        if src is None:
            x = g._comp_body(node.expr, benv)
            src = f"_frozenset([{x[0]} {' '.join(clauses)}])"
        return src, (x[1] - set(slots)) | ddeps, 1 + dsize + x[2]

    def funccons(self, node: A.FuncCons, env: "Env") -> tuple | None:
        g = self.g
        if may_be_infinite(node.bounds[0].domain if node.bounds else None):
            return None
        lo, hoist = g.c.nslots, {}
        r = self.one_bound(node.bounds, env)
        if r is None:
            return None
        (dsrc, ddeps, dsize), k, benv = r
        x = self._body(node.body, benv, lo, hoist)
        n = _interval_size(g, dsrc)
        if n is not None:
            # a constant domain 1..n: the function is the tuple of its values, in that order
            g.consts.append(tuple(range(1, n + 1)))
            src = self._loop([f"for e[{k}] in _k[{len(g.consts) - 1}]"], ["_r = []"] + self._resets(hoist),
                             [f"_r.append({x[0]})"], ["return tuple(_r)"])
        else:
            src = self._loop([f"for e[{k}] in _en({dsrc})"], ["_r = {}"] + self._resets(hoist),
                             [f"_r[e[{k}]] = {x[0]}"], ["return _mkfn(_r)"])
        if src is None:
            x = g._comp_body(node.body, benv)
            src = f"_mkfn({{e[{k}]: {x[0]} for e[{k}] in _en({dsrc})}})"
        return src, (x[1] - {k}) | ddeps, 1 + dsize + x[2]


def _interval_size(g: "Generator", src: str) -> int | None:
    """n when ``src`` is a constant (``_k[i]``) holding the set of integers 1..n, n >= 1."""
    m = _CONST_SRC.match(src)
    if m is None:
        return None
    v = g.consts[int(m.group(1))]
    if v.__class__ is not frozenset or not v or any(x.__class__ is not int for x in v):
        return None
    n = len(v)
    return n if min(v) == 1 and max(v) == n else None


_CONST_SRC = re.compile(r"^_k\[(\d+)\]$")


def is_boolish(node: Any) -> bool:
    if isinstance(node, (A.And, A.Or, A.Bool, A.Quant)):
        return True
    return isinstance(node, A.OpApp) and not node.prefix and node.name in (
        "=", "#", "/=", "\\in", "\\notin", "<", ">", "<=", ">=", "~", "\\lnot", "\\neg", "=>")


def may_be_large(node: Any) -> bool:
    """SUBSET, function and record sets or products: possibly too large to enumerate."""
    for x in A.walk(node):
        if isinstance(x, (A.FuncSet, A.RecordSet)):
            return True
        if isinstance(x, A.OpApp) and x.name in ("SUBSET", "\\X", "\\times"):
            return True
    return False


def may_be_infinite(node: Any) -> bool:
    if node is None:
        return True
    for x in A.walk(node):
        if isinstance(x, (A.Name, A.OpApp)) and x.name in ("Nat", "Int", "Real", "STRING", "Seq", "Any"):
            return True
    return False
