"""What PGo's tracegen reads from a Modular PlusCal spec to replay TraceLink runs.

A PGo reference spec carries its MPCal source in a comment (``--mpcal NAME { ... }``) and the
PlusCal translation of it (``--algorithm NAME { ... }``). For trace replay we need:

* the **mapping macros** (``mapping macro M { read { ... } write { ... } }``): how a read of a
  resource yields a value and updates the underlying variable, and what a write stores;
* the **archetypes**: their parameters (``ref net[_]``, ``ref s``, or plain values) and locals;
* the **instances** (``fair process (P \\in S) == instance A(ref network[_], ...) mapping
  network[_] via M``): which global variable each parameter stands for and through which macro;
* the locals' names in the translation (PlusCal renames locals that clash: ``msg`` → ``msg0``).

Macro bodies are parsed into a small statement tree (``await``, ``with``, ``$variable :=``,
``yield``, ``if``/``else``, ``either``/``or``, ``assert``, ``skip``); expressions stay TLA+ text,
with ``$variable``/``$value`` renamed to ``__variable``/``__value``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from specula.errors import TraceError

__all__ = ["MPCal", "Macro", "Archetype", "Param", "Instance", "Stmt", "parse_mpcal", "split_top"]


@dataclass(frozen=True)
class Stmt:
    """One macro statement. ``kind``: await, with, assign, yield, if, either, assert, skip."""

    kind: str
    expr: str = ""  # await/assign/yield/assert/if condition
    binds: tuple[tuple[str, str, str], ...] = ()  # with: (name, "=" | "\\in", expr)
    body: tuple["Stmt", ...] = ()  # with/if-then
    orelse: tuple["Stmt", ...] = ()  # if-else
    branches: tuple[tuple["Stmt", ...], ...] = ()  # either


@dataclass(frozen=True)
class Macro:
    name: str
    read: tuple[Stmt, ...]
    write: tuple[Stmt, ...]


@dataclass(frozen=True)
class Param:
    name: str
    ref: bool
    indexed: bool


@dataclass
class Archetype:
    name: str
    params: list[Param]
    locals: list[str]


@dataclass
class Instance:
    """``fair process (process \\in set) == instance archetype(args) mapping ...``."""

    process: str
    archetype: str
    args: list[str]  # the argument text, e.g. "ref network[_]", "s0", "FALSE"
    macros: dict[int, str]  # parameter position (0-based) -> macro name
    local_names: list[str] = field(default_factory=list)  # the archetype's locals as translated
    value_param_names: dict[int, str] = field(default_factory=dict)  # value parameter -> its translated local

    def target(self, position: int) -> tuple[str | None, bool]:
        """(global variable a ``ref`` argument names, indexed?) or (None, False) for a value."""
        arg = self.args[position].strip()
        m = re.fullmatch(r"ref\s+([A-Za-z_]\w*)\s*(\[\s*_\s*\])?", arg)
        if not m:
            return None, False
        return m.group(1), bool(m.group(2))


@dataclass
class MPCal:
    macros: dict[str, Macro]
    archetypes: dict[str, Archetype]
    instances: list[Instance]

    def instance_of(self, archetype: str) -> Instance | None:
        return next((i for i in self.instances if i.archetype == archetype), None)


# ---------------------------------------------------------------------------------------------
# scanning


def _code(text: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """(index, character) of ``text`` from ``start``, skipping the inside of string literals."""
    i, n, in_str = start, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        else:
            yield i, c
        i += 1


_OPEN = {"{": "}", "(": ")", "[": "]"}


def _block(text: str, open_at: int) -> tuple[str, int]:
    """The text inside the brackets opening at ``open_at`` and the index after the closer."""
    depth = 0
    for i, c in _code(text, open_at):
        if c in _OPEN:
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                if _OPEN[text[open_at]] != c:
                    raise TraceError(f"MPCal: unbalanced {text[open_at]!r} at offset {open_at}")
                return text[open_at + 1:i], i + 1
    raise TraceError(f"MPCal: unclosed {text[open_at]!r} at offset {open_at}")


def split_top(text: str, sep: str) -> list[str]:
    """Split ``text`` at ``sep`` characters outside brackets and strings."""
    out, depth, last = [], 0, 0
    for i, c in _code(text):
        if c in _OPEN:
            depth += 1
        elif c in "}])":
            depth -= 1
        elif c == sep and depth == 0:
            out.append(text[last:i])
            last = i + 1
    out.append(text[last:])
    return out


def _expr(text: str) -> str:
    return text.replace("$variable", "__variable").replace("$value", "__value").strip()


_WS = re.compile(r"\s+")


def _skip_ws(text: str, i: int) -> int:
    while i < len(text):
        if text[i].isspace():
            i += 1
        elif text.startswith("\\*", i):
            j = text.find("\n", i)
            i = len(text) if j < 0 else j + 1
        elif text.startswith("(*", i):
            j = text.find("*)", i)
            i = len(text) if j < 0 else j + 2
        else:
            break
    return i


def _until_semicolon(text: str, i: int) -> tuple[str, int]:
    """A statement from ``i``: up to its ``;`` (consumed) or the closer of its block (not consumed)."""
    depth = 0
    for j, c in _code(text, i):
        if c in _OPEN:
            depth += 1
        elif c in "}])":
            if depth == 0:
                return text[i:j], j
            depth -= 1
        elif c == ";" and depth == 0:
            return text[i:j], j + 1
    return text[i:], len(text)


def _stmts(text: str) -> tuple[Stmt, ...]:
    out: list[Stmt] = []
    i = _skip_ws(text, 0)
    while i < len(text):
        if text[i] == ";":
            i = _skip_ws(text, i + 1)
            continue
        word = re.match(r"[A-Za-z_$]\w*", text[i:])
        kw = word.group(0) if word else ""
        if kw in ("await", "yield", "assert", "print"):
            e, i = _until_semicolon(text, i + len(kw))
            out.append(Stmt("assert" if kw == "print" else kw, _expr(e) if kw != "print" else "TRUE"))
        elif kw == "skip":
            _, i = _until_semicolon(text, i + 4)
            out.append(Stmt("skip"))
        elif kw == "with":
            j = _skip_ws(text, i + 4)
            inner, j = _block(text, j)
            binds = []
            for part in split_top(inner, ","):
                m = re.match(r"\s*([A-Za-z_]\w*)\s*(=|\\in)\s*(.*)$", part, re.S)
                if not m:
                    raise TraceError(f"MPCal: cannot read the with binding {part.strip()!r}")
                binds.append((m.group(1), m.group(2), _expr(m.group(3))))
            j = _skip_ws(text, j)
            body, i = _block(text, j)
            out.append(Stmt("with", binds=tuple(binds), body=_stmts(body)))
        elif kw == "if":
            j = _skip_ws(text, i + 2)
            cond, j = _block(text, j)
            j = _skip_ws(text, j)
            then, j = _block(text, j)
            k = _skip_ws(text, j)
            orelse: tuple[Stmt, ...] = ()
            if text.startswith("else", k):
                k = _skip_ws(text, k + 4)
                if text.startswith("if", k):
                    rest, j = _until_else_chain(text, k)
                    orelse = _stmts(rest)
                else:
                    els, j = _block(text, k)
                    orelse = _stmts(els)
            out.append(Stmt("if", _expr(cond), body=_stmts(then), orelse=orelse))
            i = j
        elif kw == "either":
            branches = []
            j = _skip_ws(text, i + 6)
            b, j = _block(text, j)
            branches.append(_stmts(b))
            while True:
                k = _skip_ws(text, j)
                if not text.startswith("or", k) or (k + 2 < len(text) and (text[k + 2].isalnum() or text[k + 2] == "_")):
                    break
                k = _skip_ws(text, k + 2)
                b, j = _block(text, k)
                branches.append(_stmts(b))
            out.append(Stmt("either", branches=tuple(branches)))
            i = j
        elif text.startswith("$variable", i):
            m = re.match(r"\$variable\s*:=", text[i:])
            if not m:
                raise TraceError(f"MPCal: cannot read macro statement {text[i:i + 40]!r}")
            e, i = _until_semicolon(text, i + m.end())
            out.append(Stmt("assign", _expr(e)))
        else:
            raise TraceError(f"MPCal: unsupported macro statement {text[i:i + 40]!r}")
        i = _skip_ws(text, i)
    return tuple(out)


def _until_else_chain(text: str, k: int) -> tuple[str, int]:
    """``if (...) {...} else ...`` starting at ``k``: its text and the index after it."""
    j = _skip_ws(text, k + 2)
    _, j = _block(text, j)
    j = _skip_ws(text, j)
    _, j = _block(text, j)
    m = _skip_ws(text, j)
    if text.startswith("else", m):
        m = _skip_ws(text, m + 4)
        if text.startswith("if", m):
            _, j = _until_else_chain(text, m)
        else:
            _, j = _block(text, m)
    return text[k:j], j


# ---------------------------------------------------------------------------------------------
# the spec


def _section(text: str, keyword: str) -> str | None:
    m = re.search(r"--" + keyword + r"\s+\w+\s*\{", text)
    if not m:
        return None
    body, _ = _block(text, m.end() - 1)
    return body


def parse_mpcal(spec_text: str) -> MPCal:
    """Read the MPCal block (and the translation's locals) of a PGo reference spec."""
    src = _section(spec_text, "mpcal")
    if src is None:
        raise TraceError("the reference spec has no --mpcal block (is it a PGo spec?)")
    macros: dict[str, Macro] = {}
    for m in re.finditer(r"mapping\s+macro\s+(\w+)\s*\{", src):
        body, _ = _block(src, m.end() - 1)
        parts = {}
        for part in ("read", "write"):
            pm = re.search(r"\b" + part + r"\s*\{", body)
            parts[part] = _stmts(_block(body, pm.end() - 1)[0]) if pm else ()
        macros[m.group(1)] = Macro(m.group(1), parts["read"], parts["write"])
    archetypes: dict[str, Archetype] = {}
    for m in re.finditer(r"archetype\s+(\w+)\s*\(", src):
        params_text, j = _block(src, m.end() - 1)
        params = []
        for p in split_top(params_text, ","):
            p = re.sub(r"\\\*[^\n]*", "", p).strip()
            if not p:
                continue
            pm = re.fullmatch(r"(ref\s+)?([A-Za-z_]\w*)\s*(\[\s*_\s*\])?", p)
            if pm:
                params.append(Param(pm.group(2), bool(pm.group(1)), bool(pm.group(3))))
        head = src[j:src.index("{", j)]
        locals_ = _declared_names(head)
        archetypes[m.group(1)] = Archetype(m.group(1), params, locals_)
    instances: list[Instance] = []
    for m in re.finditer(r"process\s*\(\s*(\w+)\s*(?:\\in|=)[^)]*\)\s*==\s*instance\s+(\w+)\s*\(", src):
        args_text, j = _block(src, m.end() - 1)
        args = [re.sub(r"\\\*[^\n]*", "", a).strip() for a in split_top(args_text, ",")]
        args = [a for a in args if a]
        tail, _ = _until_semicolon(src, j)
        arch = archetypes.get(m.group(2))
        mapped: dict[int, str] = {}
        for mm in re.finditer(r"mapping\s+(@(\d+)|([A-Za-z_]\w*))\s*(\[\s*_\s*\])?\s*via\s+(\w+)", tail):
            if mm.group(2):
                mapped[int(mm.group(2)) - 1] = mm.group(5)
            else:
                for k, a in enumerate(args):
                    if re.fullmatch(r"ref\s+" + re.escape(mm.group(3)) + r"\s*(\[\s*_\s*\])?", a):
                        mapped[k] = mm.group(5)
        if arch is None:
            raise TraceError(f"MPCal: process {m.group(1)} instantiates unknown archetype {m.group(2)}")
        instances.append(Instance(m.group(1), m.group(2), args, mapped))
    _translated_locals(spec_text, archetypes, instances)
    return MPCal(macros, archetypes, instances)


def _declared_names(head: str) -> list[str]:
    """Names declared in ``variable(s) a, b = e; c;`` (an archetype's locals)."""
    m = re.search(r"\bvariables?\b(.*)$", head, re.S)
    if not m:
        return []
    names = []
    for decl in split_top(m.group(1).replace(";", ","), ","):
        dm = re.match(r"\s*([A-Za-z_]\w*)", decl)
        if dm:
            names.append(dm.group(1))
    return names


def _translated_locals(spec_text: str, archetypes: dict[str, Archetype], instances: list[Instance]) -> None:
    """PlusCal may rename an archetype's locals; the translated process lists them in order."""
    alg = _section(spec_text, "algorithm") or ""
    for inst in instances:
        arch = archetypes[inst.archetype]
        m = re.search(r"process\s*\(\s*" + re.escape(inst.process) + r"\s*(?:\\in|=)[^)]*\)([^{]*)\{", alg)
        translated = _declared_names(m.group(1)) if m else []
        # the archetype's locals come first, then one local per value (non-ref) parameter
        n = len(arch.locals)
        inst.local_names = translated[:n] if len(translated) >= n else list(arch.locals)
        values = [k for k, p in enumerate(arch.params) if not p.ref]
        if len(translated) == n + len(values):
            inst.value_param_names = dict(zip(values, translated[n:]))
