"""EXCEPT as generated code.

Outside comprehensions, the clauses of one EXCEPT are a tree of paths (``_except_tree``): one
segment of a node (clauses on distinct keys of one function) is one copy of the function there,
whatever the number of its clauses: ``[node EXCEPT ![p].a = x, ![p].b = y]`` copies node and
node[p] once each (clause by clause, each clause copied both, and sealed them with their hashes;
the runtime helpers are ``gen._xg``, ``gen._exm`` and ``values.fn_setm``). A clause whose path is
outside the domains leaves the function as it is (as ``gen._exc``); its value is computed only
when the path is there; ``@`` is the value at the path, read once into a local (or into its
slot, when closures or comprehensions of the value read it). Inside comprehensions (no walrus
there), clause by clause through the helpers ``_set1``, ``_exc2``, ``_exc`` and ``_exc_at``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from specula.tla import ast as A

if TYPE_CHECKING:
    from specula.tla.compile.env import Env
    from specula.tla.compile.gen import Generator

__all__ = ["Excepts"]

# (as gen's: a state, frame or next-value slot; a number or string literal; a boolean literal)
_ATOM = re.compile(r"^[sen]\[\d+\]$")
_LIT = re.compile(r"^('[^'\\]*'|-?\d+)$")
_GUARD_FREE = re.compile(r"^(True|False)$")
_LOCAL = re.compile(r"^_[a-z]\d+$")
_MEMO_SRC = re.compile(r"^\((_m\d+) if \1 is not _U else \(\1 := ")  # (Generator's remembered values)
# a bare ``e`` (a closure's or helper's argument) or a comprehension or lambda in a value's source
_AT_SHARED = re.compile(r"(?<![\w.'\"])e(?![\w\[])|\blambda\b|\bfor\b")


def _own_at(node: Any) -> bool:
    """Whether ``node`` (an EXCEPT clause's value) reads that EXCEPT's ``@`` (not an ``@`` of an
    EXCEPT inside it, whose function and keys read the outer one)."""
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, A.At):
            return True
        if isinstance(x, A.Except):
            stack.append(x.fn)
            for u in x.updates:
                for item in u.path:
                    if not isinstance(item, str):
                        stack.extend(item)
            continue
        stack.extend(A.children(x))
    return False


def _key_id(item: Any) -> tuple:
    """A path item's identity: ("lit", value) for a field name or a number or string literal
    (distinct literals are distinct keys), else ("expr", its syntax) (equal syntax in one EXCEPT
    is the same key; different syntax may or may not be)."""
    if isinstance(item, str):
        return ("lit", item)
    if len(item) == 1 and isinstance(item[0], (A.Number, A.String)):
        return ("lit", item[0].value)
    return ("expr", item)


def _except_tree(clauses: list) -> list | None:
    """The clauses ``(path, value)`` of an EXCEPT as segments applied in order, each a list of
    ``(path item, child)`` on distinct keys of one function, child ``("leaf", value)`` or
    ``("node", segments)`` (the clauses below that key); None when two clauses meet at one key
    with one path ending there (``![a] = x, ![a].f = y``: clause by clause)."""
    ids = [_key_id(p[0]) for p, _ in clauses]
    lit = all(i[0] == "lit" for i in ids)
    groups: list = []  # [id, item, [(rest of path, value)]]
    for (p, v), i in zip(clauses, ids):
        g = None
        if lit:
            g = next((g for g in groups if g[0] == i), None)
        elif groups and groups[-1][0] == i:
            # (different syntax may be one key: only consecutive clauses on one key are merged)
            g = groups[-1]
        if g is None:
            g = [i, p[0], []]
            groups.append(g)
        g[2].append((p[1:], v))
    out = []
    for _, item, cl in groups:
        if len(cl) == 1 and not cl[0][0]:
            out.append((item, ("leaf", cl[0][1])))
            continue
        if any(not p for p, _ in cl):
            return None
        sub = _except_tree(cl)
        if sub is None:
            return None
        out.append((item, ("node", sub)))
    return [out] if lit else [[x] for x in out]


class Excepts:
    """Generates the EXCEPT expressions of one ``Generator``."""

    def __init__(self, g: "Generator") -> None:
        self.g = g

    def except_(self, node: A.Except, env: "Env") -> tuple | None:
        if not (self.g.in_iterable or self.g.in_comp):
            segs = _except_tree([(u.path, u.value) for u in node.updates])
            if segs is not None:
                f = self.g.sub(node.fn, env)
                acc = [set(f[1]), f[2]]
                src = self._segments(f[0], segs, env, acc, node.fn)
                return src, acc[0], acc[1]
        cur = self.g.sub(node.fn, env)
        src, deps, size = cur
        for u in node.updates:
            keys = []
            for item in u.path:
                if isinstance(item, str):
                    keys.append(repr(item))
                    continue
                parts = [self.g.sub(x, env) for x in item]
                deps = deps.union(*[p[1] for p in parts])
                size += sum(p[2] for p in parts)
                keys.append(parts[0][0] if len(parts) == 1 else "(" + ", ".join(p[0] for p in parts) + ",)")
            if _own_at(u.value):
                kat = self.g.c.new_slot()
                venv = env.bind({"@": ("slot", kat)})
                if self.g.in_iterable:
                    vfn, vdeps = self.g.c.expr(u.value, venv)
                    self.g.consts.append(vfn)
                    deps = deps | (set(vdeps) - {kat})
                    src = f"_exc_at({src}, ({', '.join(keys)},), _k[{len(self.g.consts) - 1}], {kat}, s, n, e)"
                else:
                    v = self.g.sub(u.value, venv)
                    deps = deps | (set(v[1]) - {kat})
                    size += v[2]
                    if self.g.in_comp:
                        # the value as a lambda called with @ stored in its slot (no walrus here)
                        src = f"_exc_at({src}, ({', '.join(keys)},), (lambda s, n, e: {v[0]}), {kat}, s, n, e)"
                    else:
                        # the path checked and @ stored in its slot first, then the value inline
                        tf, tk = self.g._walrus_tmp(), self.g._walrus_tmp()
                        if len(keys) == 1:
                            src = (f"(_exput1({tf}, {tk}, {v[0]}) if _exget1(({tf} := {src}), ({tk} := {keys[0]}), "
                                   f"e, {kat}) else {tf})")
                        elif len(keys) == 2:
                            tk1 = self.g._walrus_tmp()
                            src = (f"(_exput2({tf}, {tk}, {tk1}, {v[0]}) if _exget2(({tf} := {src}), "
                                   f"({tk} := {keys[0]}), ({tk1} := {keys[1]}), e, {kat}) else {tf})")
                        else:
                            src = (f"(_exput({tf}, {tk}, {v[0]}) if _exget(({tf} := {src}), "
                                   f"({tk} := ({', '.join(keys)},)), e, {kat}) else {tf})")
            else:
                v = self.g.sub(u.value, env)
                deps = deps | v[1]
                size += v[2]
                if len(keys) == 1 and not (self.g.in_iterable or self.g.in_comp):
                    src = self.set1_inline(src, keys[0], v[0])
                    size += 1
                    continue
                helper = {1: "_set1", 2: "_exc2"}.get(len(keys))  # one or two keys: no path tuple
                src = f"{helper}({src}, {', '.join(keys)}, {v[0]})" if helper else f"_exc({src}, ({', '.join(keys)},), {v[0]})"
            size += 1
        return src, deps, size

    def _segments(self, x: str, segs: list, env: "Env", acc: list, path: Any = None) -> str:
        """``path``: the syntax of x when x is a value of the EXCEPT's function itself (its
        first segment): a remembered value of the action at a path below it is read from there."""
        for seg in segs:
            x = self._segment(x, seg, env, acc, path)
            path = None
        return x

    def _known(self, path: Any, item: Any, env: "Env", get: str) -> tuple[str, Any]:
        """``get`` (the value at ``item`` below ``path``) read from the action's remembered
        value of that expression when it was computed already (it exists then), and the syntax
        of that value (None: no path)."""
        if path is None or self.g.cse is None:
            return get, None
        sub = A.FieldAccess(path, item) if isinstance(item, str) else A.FuncApp(path, tuple(item))
        m = _MEMO_SRC.match(self.g.sub(sub, env)[0])
        if m is None:
            return get, sub
        return f"({m.group(1)} if {m.group(1)} is not _U else {get})", sub

    def _bind(self, src: str) -> tuple[str, str]:
        """(name, source binding it at its first evaluation) for ``src`` used more than once."""
        if _ATOM.match(src) or _LIT.match(src) or _GUARD_FREE.match(src) or _LOCAL.match(src):
            return src, src
        t = self.g._walrus_tmp()
        return t, f"({t} := {src})"

    def _key(self, item: Any, env: "Env", acc: list) -> str:
        if isinstance(item, str):
            return repr(item)
        parts = [self.g.sub(x, env) for x in item]
        acc[0] = acc[0].union(*[p[1] for p in parts])
        acc[1] += sum(p[2] for p in parts)
        return parts[0][0] if len(parts) == 1 else "(" + ", ".join(p[0] for p in parts) + ",)"

    def _get(self, bx: str, tx: str, bk: str, tk: str) -> str:
        """The value at key tk of the function tx (``_U`` when outside its domain), binding tx
        and tk first (bx, bk: their binding sources, or the names themselves)."""
        if _LIT.match(tk) and tk.startswith("'"):
            return f"({tx}[{tk}] if ({bx}).__class__ is _Fn and {tk} in {tx} else _xg({tx}, {tk}))"
        if _LIT.match(tk):
            if int(tk) <= 0:
                return f"_xg({bx}, {tk})"
            return (f"({tx}[{int(tk) - 1}] if ({bx}).__class__ is tuple and {tk} <= len({tx}) "
                    f"else {tx}[{tk}] if {tx}.__class__ is _Fn and {tk} in {tx} else _xg({tx}, {tk}))")
        test = f"(({bx}).__class__ is tuple)" if bk == tk else f"(({bx}).__class__ is tuple) & (({bk}) is {tk})"
        return (f"({tx}[{tk} - 1] if {test} and {tk}.__class__ is int and 0 < {tk} <= len({tx}) "
                f"else {tx}[{tk}] if {tx}.__class__ is _Fn and {tk} in {tx} else _xg({tx}, {tk}))")

    def _child(self, tx: str, get: str, child: tuple, env: "Env", acc: list, path: Any = None) -> tuple[str, str]:
        """(the new value at a key of tx, the source reading the old one into the name that
        value reads) for one child of a segment."""
        if child[0] == "node":
            ta = self.g._walrus_tmp()
            return self._segments(ta, child[1], env, acc, path), f"({ta} := {get})"
        kat = self.g.c.new_slot()
        v = self.g.sub(child[1], env.bind({"@": ("slot", kat)}))
        acc[0] = acc[0] | (set(v[1]) - {kat})
        acc[1] += v[2]
        vsrc = v[0]
        if _AT_SHARED.search(vsrc.replace("_st(e, ", "")):
            # (a closure or a comprehension of the value reads @ from its slot)
            return vsrc, f"_exa({get}, e, {kat})"
        ta = f"_a{kat}"
        return re.sub(rf"(?<![\w.\])])e\[{kat}\]", ta, vsrc), f"({ta} := {get})"

    def _put(self, tx: str, tk: str, v: str) -> str:
        """The function tx with ``v`` at the key tk, which is in its domain (read just before)."""
        if _LIT.match(tk) and tk.startswith("'"):
            return f"(_fs1({tx}, {tk}, {v}) if {tx}.__class__ is _Fn else _exput1({tx}, {tk}, {v}))"
        tv = self.g._walrus_tmp()
        return (f"(_tu[len({tx})][{tk}]({tx}, {tv}) if (({tv} := {v}) is {tv}) & ({tx}.__class__ is tuple) "
                f"else _fs1({tx}, {tk}, {tv}) if {tx}.__class__ is _Fn else _exput1({tx}, {tk}, {tv}))")

    def _segment(self, xs: str, seg: list, env: "Env", acc: list, path: Any = None) -> str:
        acc[1] += len(seg)
        if len(seg) == 1:
            item, child = seg[0]
            ks = self._key(item, env, acc)
            if child[0] == "leaf" and not _own_at(child[1]):
                v = self.g.sub(child[1], env)
                acc[0] = acc[0] | v[1]
                acc[1] += v[2]
                return self.set1_inline(xs, ks, v[0])
            tx, bx = self._bind(xs)
            tk, bk = self._bind(ks)
            get, sub = self._get(bx, tx, bk, tk), None
            if bx == tx and bk == tk:
                get, sub = self._known(path, item, env, get)
            new, read = self._child(tx, get, child, env, acc, sub)
            return f"({self._put(tx, tk, new)} if {read} is not _U else {tx})"
        tx, bx = self._bind(xs)
        keys, vals = [], []
        for item, child in seg:
            k = self._key(item, env, acc)  # (a literal)
            keys.append(k)
            if child[0] == "leaf" and not _own_at(child[1]):
                v = self.g.sub(child[1], env)
                acc[0] = acc[0] | v[1]
                acc[1] += v[2]
                vals.append(v[0])
                continue
            get, sub = self._get(tx, tx, k, k), None
            if bx == tx:
                get, sub = self._known(path, item, env, get)
            new, read = self._child(tx, get, child, env, acc, sub)
            vals.append(f"({new} if {read} is not _U else _U)")
        return f"_exm({bx}, ({', '.join(keys)},), ({', '.join(vals)},))"

    def set1_inline(self, f: str, k: str, v: str) -> str:
        """``_set1(f, k, v)`` with its tuple case inline (a sequence or a function over 1..n, the
        common EXCEPT of a state variable); f, k and v are evaluated first, in this order."""
        if _LIT.match(k) and k.startswith("'"):
            return f"_set1({f}, {k}, {v})"  # (a field of a record)
        binds = []
        names = []
        for src in (f, k, v):
            if _ATOM.match(src) or _LIT.match(src) or _GUARD_FREE.match(src) or _LOCAL.match(src):
                names.append(src)
                continue
            t = self.g._walrus_tmp()
            binds.append(f"(({t} := {src}) is {t})")
            names.append(t)
        tf, tk, tv = names
        test = " & ".join(binds + [f"({tf}.__class__ is tuple)"])
        if _LIT.match(tk) and not tk.startswith("'"):
            ok = f"0 < {tk} <= len({tf})"
        else:
            ok = f"{tk}.__class__ is int and 0 < {tk} <= len({tf})"
        return f"(_tu[len({tf})][{tk}]({tf}, {tv}) if {test} and {ok} else _set1({tf}, {tk}, {tv}))"

