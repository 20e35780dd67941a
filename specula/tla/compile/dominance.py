"""Remembered values read without their test where they are known to be computed already.

A generated action body remembers values in locals, each read at every use as
``(_m5 if _m5 is not _U else (_m5 := SRC))`` (``Generator._memo``; LET and argument bindings
``_l<k>`` the same way, ``Generator._binding``): computed at the first use that runs, since
TLC evaluates a definition only where it is used, and a value computed where TLC would not
compute it could fail where TLC does not. In a straight-line body most uses follow one that
has certainly run: :func:`bind_once` rewrites those as the bare local, and a first use that
certainly follows the local's reset (``_m5 = _U``) as the assignment alone. Nothing is
computed earlier or more often than before; the uses under a condition (the branches of
``IF``, the right side of ``/\\``, a loop body) keep the test.

The analysis runs on Python's own syntax tree of the generated lines (Python's evaluation
order: the test of ``x if c else y`` first, ``and``/``or`` and chained comparisons from the
left, stopping early), so it does not depend on how the generator spells an expression; a
body it cannot parse, or with a statement it does not know, is left as it is.
"""

from __future__ import annotations

import ast
import re
from typing import Callable

__all__ = ["bind_once"]

_NAME = re.compile(r"_[ml]\d+$")
_HEAD = "def _f():\n    try:\n"
_TAIL = "\n    except BaseException:\n        raise\n"
_SKIP = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Unknown(Exception):
    """A construct the analysis does not know: the body is left as it is."""


class _St:
    """What is known at one point: locals certainly computed, locals certainly reset."""

    __slots__ = ("bound", "unset")

    def __init__(self, bound: set[str], unset: set[str]) -> None:
        self.bound = bound
        self.unset = unset

    def copy(self) -> "_St":
        return _St(set(self.bound), set(self.unset))

    def meet(self, *others: "_St") -> None:
        """Keep what holds on every path (self's and the others')."""
        for o in others:
            self.bound &= o.bound
            self.unset &= o.unset

    def assign(self, nm: str) -> None:
        self.bound.add(nm)
        self.unset.discard(nm)


def _site(node: ast.AST) -> str | None:
    """The local of a remembered-value read ``(nm if nm is not _U else (nm := SRC))``."""
    if not isinstance(node, ast.IfExp):
        return None
    t, b, o = node.test, node.body, node.orelse
    if not (isinstance(b, ast.Name) and _NAME.match(b.id) and isinstance(o, ast.NamedExpr)
            and o.target.id == b.id and isinstance(t, ast.Compare) and len(t.ops) == 1
            and isinstance(t.ops[0], ast.IsNot) and isinstance(t.left, ast.Name) and t.left.id == b.id
            and isinstance(t.comparators[0], ast.Name) and t.comparators[0].id == "_U"):
        return None
    return b.id


def _assigned(nodes: list) -> tuple[set[str], set[str]]:
    """The memo locals ``nodes`` may assign a value to, and those they may reset."""
    vals: set[str] = set()
    resets: set[str] = set()
    for top in nodes:
        for x in ast.walk(top):
            if isinstance(x, ast.NamedExpr) and _NAME.match(x.target.id):
                vals.add(x.target.id)
            elif isinstance(x, ast.Assign):
                for tg in x.targets:
                    if isinstance(tg, ast.Name) and _NAME.match(tg.id):
                        if isinstance(x.value, ast.Name) and x.value.id == "_U":
                            resets.add(tg.id)
                        else:
                            vals.add(tg.id)
    return vals, resets


def _branches(st: _St, one: "Callable[[_St], None]", other: "Callable[[_St], None]") -> None:
    """Two branches from ``st``, one of which runs: ``st`` becomes what holds after either."""
    a, b = st.copy(), st.copy()
    one(a)
    other(b)
    a.meet(b)
    st.bound, st.unset = a.bound, a.unset


class _Pass:
    def __init__(self, lines: list[bytes]) -> None:
        self.lines = lines
        self.edits: dict[int, list[tuple[int, int, bytes]]] = {}
        self.kept: set[str] = set()  # locals with a read that keeps its test
        self.again: set[int] = set()  # lines resetting a local certainly reset already

    def edit(self, line: int, start: int, end: int, text: bytes) -> None:
        self.edits.setdefault(line, []).append((start, end, text))

    # ------------------------------------------------------------------ expressions

    def ev(self, node: ast.AST, st: _St) -> None:
        nm = _site(node)
        if nm is not None:
            if node.lineno != node.end_lineno:
                raise _Unknown
            o = node.orelse
            if nm in st.bound:
                self.edit(node.lineno, node.col_offset, node.end_col_offset, nm.encode())
                return
            if nm in st.unset:
                # certainly not computed yet: the assignment alone, ``(nm := SRC)``
                self.edit(node.lineno, node.col_offset, o.col_offset, b"")
                self.edit(node.lineno, o.end_col_offset, node.end_col_offset, b"")
                self.ev(o.value, st)
                st.assign(nm)
                return
            self.kept.add(nm)
            inner = st.copy()
            self.ev(o.value, inner)
            st.unset &= inner.unset
            st.assign(nm)
            return
        if isinstance(node, _SKIP):
            vals, _ = _assigned([node])
            st.unset -= vals
            return
        if isinstance(node, ast.IfExp):
            self.ev(node.test, st)
            _branches(st, lambda a: self.ev(node.body, a), lambda b: self.ev(node.orelse, b))
            return
        if isinstance(node, ast.BoolOp):
            self.ev(node.values[0], st)
            self._chain(node.values[1:], st)
            return
        if isinstance(node, ast.Compare):
            self.ev(node.left, st)
            self.ev(node.comparators[0], st)
            self._chain(node.comparators[1:], st)
            return
        if isinstance(node, ast.NamedExpr):
            self.ev(node.value, st)
            if _NAME.match(node.target.id):
                st.assign(node.target.id)
            return
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if k is not None:
                    self.ev(k, st)
                self.ev(v, st)
            return
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom)):
            raise _Unknown
        for child in ast.iter_child_nodes(node):
            self.ev(child, st)

    def _chain(self, rest: list, st: _St) -> None:
        """Operands evaluated one after the other, each only when the ones before let it."""
        cur = st.copy()
        exits = []
        for v in rest:
            self.ev(v, cur)
            exits.append(cur.copy())
        st.meet(*exits)

    # ------------------------------------------------------------------ statements

    def block(self, stmts: list, st: _St) -> None:
        for s in stmts:
            self.stmt(s, st)

    def stmt(self, s: ast.stmt, st: _St) -> None:
        if isinstance(s, ast.Assign):
            self.ev(s.value, st)
            for tg in s.targets:
                if isinstance(tg, ast.Name):
                    if _NAME.match(tg.id):
                        if isinstance(s.value, ast.Name) and s.value.id == "_U":
                            if tg.id in st.unset and len(s.targets) == 1:
                                self.again.add(s.lineno)
                            st.bound.discard(tg.id)
                            st.unset.add(tg.id)
                        else:
                            st.assign(tg.id)
                else:
                    self.ev(tg, st)
            return
        if isinstance(s, ast.AugAssign):
            self.ev(s.value, st)
            self.ev(s.target, st)
            return
        if isinstance(s, ast.Expr):
            self.ev(s.value, st)
            return
        if isinstance(s, (ast.Pass, ast.Break, ast.Continue)):
            return
        if isinstance(s, (ast.Raise, ast.Return)):
            for child in ast.iter_child_nodes(s):
                self.ev(child, st)
            return
        if isinstance(s, ast.If):
            self.ev(s.test, st)
            _branches(st, lambda a: self.block(s.body, a), lambda b: self.block(s.orelse, b))
            return
        if isinstance(s, (ast.For, ast.While)):
            if isinstance(s, ast.For):
                self.ev(s.iter, st)
            vals, resets = _assigned(s.body + s.orelse + ([s.target] if isinstance(s, ast.For) else []))
            st.bound -= resets
            st.unset -= vals | resets
            if isinstance(s, ast.While):
                self.ev(s.test, st.copy())
            inner = st.copy()
            if isinstance(s, ast.For):
                self.ev(s.target, inner)
            self.block(s.body, inner)
            if s.orelse:
                self.block(s.orelse, st.copy())
            return
        if isinstance(s, ast.Try):
            if s.finalbody or s.orelse:
                raise _Unknown
            vals, resets = _assigned(s.body)
            end = st.copy()
            self.block(s.body, end)
            st.bound -= resets
            st.unset -= vals | resets
            st.meet(end)  # (a handler may run from anywhere in the body)
            return
        raise _Unknown

    # ------------------------------------------------------------------ output

    def result(self) -> list[bytes]:
        out = list(self.lines)
        for line, eds in self.edits.items():
            b = out[line]
            for start, end, text in sorted(eds, reverse=True):
                b = b[:start] + text + b[end:]
            out[line] = b
        return out


def paren_end(ln: str, i: int, depth: int = 0) -> int:
    """The index of the ``)`` at which the parentheses of the generated source ``ln`` balance,
    scanning from ``i`` with ``depth`` of them open (string literals skipped); ``len(ln)`` if none."""
    quote = ""
    while i < len(ln):
        ch = ln[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    return i


def bind_once(body: list[str]) -> list[str]:
    """``body`` (the lines of a generated action inside its ``try``) with the remembered-value
    reads that certainly follow their computation read as the bare local, and those that
    certainly follow their reset as the assignment alone."""
    src = _HEAD + "\n".join(body) + _TAIL
    try:
        tree = ast.parse(src)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return body
    lines = [b""] * 3 + [ln.encode() for ln in body]  # ast's line numbers: body line i is i + 3
    p = _Pass(lines)
    try:
        fn = tree.body[0]
        assert isinstance(fn, ast.FunctionDef)
        p.block(fn.body[0].body, _St(set(), set()))
    except (_Unknown, RecursionError):
        return body
    if not p.edits and not p.again:
        return body
    # a reset no read observes any more (each is an assignment or follows one) goes
    loads: dict[str, int] = {}
    sites: dict[str, int] = {}
    for x in ast.walk(tree):
        if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load) and _NAME.match(x.id):
            loads[x.id] = loads.get(x.id, 0) + 1
        elif (nm := _site(x)) is not None:
            sites[nm] = sites.get(nm, 0) + 1
    done = {nm for nm, k in sites.items() if nm not in p.kept and loads.get(nm, 0) == 2 * k}
    out = []
    for i, ln in enumerate(p.result()):
        if i < 3:
            continue
        text = ln.decode()
        parts = text.split(" = ")
        if len(parts) == 2 and parts[1] == "_U" and (parts[0].strip() in done or i in p.again):
            continue
        out.append(text)
    return _bare_temps(out)


# a temporary bound to a local read bare: ``(_t9 := (_l26))``
_TEMP = re.compile(r"\((_t\d+) := \((_[lm]\d+)\)\)")


def _bare_temps(lines: list[str]) -> list[str]:
    """``lines`` with a temporary that only copies a local (each of its bindings, all on one
    line, binds it to that local read bare: the generator's binding of an operand it tests)
    replaced by the local itself."""
    text = "\n".join(lines)
    out = []
    for i, ln in enumerate(lines):
        found = {}
        for m in _TEMP.finditer(ln):
            found.setdefault(m.group(1), set()).add(m.group(2))
        if found:
            rest = "\n".join(lines[:i] + lines[i + 1:])
            for t, locs in found.items():
                if len(locs) != 1 or re.search(rf"\b{t}\b", rest):
                    continue
                loc = next(iter(locs))
                if ln.count(f"{t} :=") != ln.count(f"({t} := ({loc}))"):
                    continue
                bind = f"(({t} := ({loc})) is {t})"
                ln = ln.replace(bind + " & ", "").replace(" & " + bind, "").replace(f"({t} := ({loc}))", loc)
                ln = re.sub(rf"\b{t}\b", loc, ln)
        out.append(ln)
    return out
