"""Questions an agent asks about an indexed repository; each answer is a dataclass with
``to_dict()`` (JSON-ready) and ``render()`` (compact text with file:line anchors).

- ``search_code``: regex (or literal) over the indexed files' lines
- ``find_symbols``: definitions by name / qualname / substring
- ``show_symbol``: a definition's source with line numbers
- ``file_symbols``: the definitions of one file
- ``callers`` / ``callees``: call edges by name
- ``type_fields``: the fields of a type and where each is written
- ``writes_to``: where a field or variable (also a local, e.g. ``recvset``) is written
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from specula.code.model import FUNCTION_KINDS, TYPE_KINDS, Call, RepoIndex, Symbol, Write
from specula.code.rank import norm_ident
from specula.errors import CodeError

__all__ = [
    "CodeMatch", "SearchResult", "SymbolList", "SymbolSource", "CallList", "FieldWrites", "TypeFields", "WriteList",
    "search_code", "find_symbols", "show_symbol", "file_symbols", "callers", "callees", "type_fields", "writes_to",
    "effects",
]

_KIND_ORDER = {"function": 0, "method": 0, "class": 1, "struct": 1, "interface": 1, "trait": 1, "enum": 1,
               "union": 1, "type": 2, "global": 3, "field": 4, "local": 5}


def _read_lines(index: RepoIndex, path: str) -> list[str]:
    try:
        return (index.root / path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise CodeError(f"cannot read {path}: {exc.strerror}", path=path) from exc


# ---------------------------------------------------------------- search
@dataclass(frozen=True, slots=True)
class CodeMatch:
    file: str
    line: int
    text: str
    symbol: str | None = None  # qualname of the enclosing function/type, if any

    def to_dict(self) -> dict:
        return {k: v for k, v in (("file", self.file), ("line", self.line), ("text", self.text),
                                  ("symbol", self.symbol)) if v is not None}

    def render(self) -> str:
        where = f" [{self.symbol}]" if self.symbol else ""
        return f"{self.file}:{self.line}:{where} {self.text}"


@dataclass
class SearchResult:
    pattern: str
    matches: list[CodeMatch] = field(default_factory=list)
    truncated: bool = False

    def to_dict(self) -> dict:
        return {"pattern": self.pattern, "matches": [m.to_dict() for m in self.matches], "truncated": self.truncated}

    def render(self) -> str:
        if not self.matches:
            return f"no match for {self.pattern!r}"
        lines = [m.render() for m in self.matches]
        if self.truncated:
            lines.append(f"… more matches; narrow the pattern or give a path")
        return "\n".join(lines)


def _enclosing(index: RepoIndex, path: str, line: int) -> str | None:
    best: Symbol | None = None
    fi = index.files.get(path)
    if fi is None:
        return None
    for s in fi.symbols:
        if (s.kind in FUNCTION_KINDS or s.kind in TYPE_KINDS) and s.line <= line <= s.end_line:
            if best is None or s.line >= best.line:
                best = s
    return best.qualname if best else None


def search_code(
    index: RepoIndex, pattern: str, *, regex: bool = True, ignore_case: bool = False, path: str = "",
    max_results: int = 60,
) -> SearchResult:
    """Lines of the indexed files matching ``pattern`` (a regex unless ``regex=False``; a bad regex
    is searched literally), optionally only under ``path`` (a folder or file prefix)."""
    flags = re.IGNORECASE if ignore_case else 0
    try:
        rx = re.compile(pattern if regex else re.escape(pattern), flags)
    except re.error:
        rx = re.compile(re.escape(pattern), flags)
    prefix = path.strip("/").removeprefix("./")
    result = SearchResult(pattern)
    for p in index.files:
        if prefix and not (p == prefix or p.startswith(prefix.rstrip("/") + "/")):
            continue
        for i, text in enumerate(_read_lines(index, p), 1):
            if rx.search(text):
                if len(result.matches) >= max_results:
                    result.truncated = True
                    return result
                t = text.strip()
                result.matches.append(CodeMatch(p, i, t if len(t) <= 200 else t[:199] + "…", _enclosing(index, p, i)))
    return result


# ---------------------------------------------------------------- symbols
@dataclass
class SymbolList:
    query: str
    symbols: list[Symbol] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"query": self.query, "symbols": [s.to_dict() for s in self.symbols]}

    def render(self) -> str:
        if not self.symbols:
            return f"no symbol matches {self.query!r}"
        return "\n".join(f"{s.file}:{s.line} {s.kind} {s.qualname}: {s.signature}" for s in self.symbols)


def _lookup(index: RepoIndex, name: str) -> list[Symbol]:
    """Exact qualname, then exact name, then case/underscore-insensitive name; ``file.go:name`` narrows."""
    file_part = None
    if ":" in name and not name.startswith(":") and "::" not in name:
        file_part, name = name.rsplit(":", 1)
    name = name.replace("::", ".")
    found = list(index.by_qualname.get(name, ()))
    if not found:
        found = list(index.by_name.get(name.rsplit(".", 1)[-1], ())) if "." not in name else []
    if not found and "." in name:  # Outer.Inner.method or pkg.Type.method: match the qualname's tail
        tail = ".".join(name.split(".")[-2:])
        found = list(index.by_qualname.get(tail, ()))
    if not found:
        key = norm_ident(name.rsplit(".", 1)[-1])
        found = [s for s in index.symbols if norm_ident(s.name) == key]
    if file_part:
        found = [s for s in found if s.file == file_part or s.file.endswith("/" + file_part)]
    found.sort(key=lambda s: (_KIND_ORDER.get(s.kind, 9), s.file, s.line))
    return found


def find_symbols(index: RepoIndex, query: str, *, kind: str | None = None, limit: int = 50) -> SymbolList:
    """Definitions named ``query`` (exact, qualified, or case-insensitive); if none, names containing it;
    a query with regex characters is matched as a regex against names."""
    found = _lookup(index, query)
    if not found:
        if any(c in query for c in "^$*+?[]()|\\"):
            try:
                rx = re.compile(query, re.IGNORECASE)
            except re.error as exc:
                raise CodeError(f"bad symbol pattern {query!r}: {exc}") from exc
            found = [s for s in index.symbols if rx.search(s.qualname)]
        else:
            q = query.lower()
            found = [s for s in index.symbols if q in s.qualname.lower()]
        found.sort(key=lambda s: (_KIND_ORDER.get(s.kind, 9), len(s.name), s.file, s.line))
    if kind:
        found = [s for s in found if s.kind == kind]
    return SymbolList(query, found[:limit])


@dataclass
class SymbolSource:
    symbol: Symbol
    source: str  # numbered lines
    others: list[Symbol] = field(default_factory=list)  # other definitions with this name
    truncated: bool = False

    def to_dict(self) -> dict:
        return {"symbol": self.symbol.to_dict(), "source": self.source, "truncated": self.truncated,
                "others": [s.to_dict() for s in self.others]}

    def render(self) -> str:
        s = self.symbol
        out = [f"{s.file}:{s.line}-{s.end_line} {s.kind} {s.qualname}", self.source]
        if self.truncated:
            out.append(f"… (cut; read {s.file} from line {s.line} for the rest)")
        if self.others:
            out.append("other definitions: " + ", ".join(f"{o.qualname} ({o.file}:{o.line})" for o in self.others[:10]))
        return "\n".join(out)


def show_symbol(index: RepoIndex, name: str, *, max_lines: int = 250, context: int = 0) -> SymbolSource:
    """The source of the definition named ``name`` (``stepFollower``, ``raft.becomeCandidate``,
    ``FastLeaderElection.lookForLeader``, ``raft.go:stepFollower``), with line numbers."""
    found = _lookup(index, name)
    if not found:
        raise CodeError(f"no definition named {name!r}; try find_symbols or search_code", path=str(index.root))
    sym = found[0]
    lines = _read_lines(index, sym.file)
    start = max(1, sym.line - context)
    end = min(len(lines), sym.end_line + context)
    truncated = end - start + 1 > max_lines
    if truncated:
        end = start + max_lines - 1
    text = "\n".join(f"{i:>5}│{lines[i - 1]}" for i in range(start, end + 1))
    return SymbolSource(sym, text, found[1:], truncated)


def file_symbols(index: RepoIndex, path: str, *, include_locals: bool = False) -> SymbolList:
    """The definitions of one file (path relative to the repo; a unique suffix such as ``raft.go`` works)."""
    p = path.removeprefix("./")
    fi = index.files.get(p)
    if fi is None:
        cands = [q for q in index.files if q.endswith("/" + p)]
        if len(cands) > 1:
            raise CodeError(f"{path!r} is ambiguous: {', '.join(cands[:5])}", path=path)
        if not cands:
            raise CodeError(f"{path!r} is not an indexed file of {index.root.name}", path=path)
        fi = index.files[cands[0]]
    syms = [s for s in fi.symbols if include_locals or s.kind != "local"]
    return SymbolList(fi.path, syms)


# ---------------------------------------------------------------- call graph
@dataclass
class CallList:
    """Call edges by name. ``direction`` is "callers" (who calls ``name``) or "callees" (what it calls).
    ``resolved`` maps a called name to the locations of its definitions in the index."""

    name: str
    direction: str
    calls: list[Call] = field(default_factory=list)
    resolved: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"name": self.name, "direction": self.direction, "calls": [c.to_dict() for c in self.calls],
                "resolved": self.resolved}

    def render(self) -> str:
        if not self.calls:
            return f"no {self.direction} of {self.name!r} found"
        out = []
        for c in self.calls:
            recv = f"{c.receiver}." if c.receiver else ""
            how = " (function value)" if c.kind == "ref" else ""
            if self.direction == "callers":
                out.append(f"{c.file}:{c.line} {c.caller or '<top level>'} -> {recv}{c.name}{how}")
            else:
                where = self.resolved.get(c.name)
                at = f"  [{', '.join(where[:3])}{', …' if len(where) > 3 else ''}]" if where else ""
                out.append(f"{c.file}:{c.line} -> {recv}{c.name}{how}{at}")
        return "\n".join(out)


_SELF = frozenset({"this", "self", "Self"})


def _definitions_at(index: RepoIndex, call: Call) -> list[str]:
    """Where the callee of ``call`` may be defined: same language; a call on this/self (or a bare
    call inside a method) prefers the caller's own type."""
    lang = index.files[call.file].language
    defs = [s for s in index.by_name.get(call.name, ())
            if (s.kind in FUNCTION_KINDS or s.kind in TYPE_KINDS) and index.files[s.file].language == lang]
    if len(defs) > 1 and call.caller and "." in call.caller and (call.receiver is None or call.receiver in _SELF):
        owner = call.caller.split(".")[0]
        own = [s for s in defs if s.parent == owner]
        if own:
            defs = own
    elif len(defs) > 1 and call.receiver and _SEGMENT.fullmatch(call.receiver):
        # `r.reset(...)` where the caller declares `r *raft` (receiver, parameter or local)
        probe = Write(call.name, call.caller, call.file, call.line, call.receiver)
        typed = [s for s in defs if s.parent and _base_has_type(index, probe, s.parent)]
        if typed:
            defs = typed
    return [s.location for s in defs]


def callers(index: RepoIndex, name: str, *, limit: int = 100) -> CallList:
    """Calls of (and function-value uses of) ``name``. A qualified ``Type.method`` keeps calls whose
    receiver could be that type (any receiver), since edges are by name."""
    short = name.replace("::", ".").rsplit(".", 1)[-1].rsplit(":", 1)[-1]
    is_function = any(s.kind in FUNCTION_KINDS for s in index.by_name.get(short, ()))
    calls = sorted((c for c in index.calls_by_name.get(short, ()) if c.kind == "call" or is_function),
                   key=lambda c: (c.file, c.line))
    return CallList(name, "callers", calls[:limit])


def callees(index: RepoIndex, name: str, *, limit: int = 200) -> CallList:
    """What the function ``name`` calls, in source order, with where each callee is defined."""
    funcs = [s for s in _lookup(index, name) if s.kind in FUNCTION_KINDS]
    if not funcs:
        raise CodeError(f"no function named {name!r}", path=str(index.root))
    quals = {(s.qualname, s.file) for s in funcs}
    calls = [c for s in funcs for c in index.calls_by_caller.get(s.qualname, ()) if (c.caller, c.file) in quals
             and (c.kind == "call" or any(d.kind in FUNCTION_KINDS for d in index.by_name.get(c.name, ())))]
    calls = sorted(set(calls), key=lambda c: (c.file, c.line))[:limit]
    resolved = {c.name: _definitions_at(index, c) for c in calls}
    return CallList(name, "callees", calls, {k: v for k, v in resolved.items() if v})


# ---------------------------------------------------------------- state: fields and writes
@dataclass
class WriteList:
    name: str
    writes: list[Write] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"name": self.name, "writes": [w.to_dict() for w in self.writes]}

    def render(self) -> str:
        if not self.writes:
            return f"no writes to {self.name!r} found"
        return "\n".join(_render_write(w) for w in self.writes)


def _render_write(w: Write) -> str:
    target = f"{w.base}.{w.target}" if w.base else w.target
    op = {"=": " =", "++": " ++", "<-": " <- …"}.get(w.via, f".{w.via}(…)")
    return f"{w.file}:{w.line} {w.function or '<top level>'}: {target}{op}"


def effects(index: RepoIndex, function: str, *, depth: int = 1, limit: int = 200) -> WriteList:
    """What the function ``function`` writes (fields, globals, locals), in source order; with
    ``depth`` > 0 also the writes of the callees it reaches whose definition is unambiguous
    (``r.reset(...)`` -> ``raft.reset``), marked by their own function name."""
    funcs = [s for s in _lookup(index, function) if s.kind in FUNCTION_KINDS]
    if not funcs:
        raise CodeError(f"no function named {function!r}", path=str(index.root))
    seen: set[tuple[str, str]] = set()
    frontier = [(funcs[0].qualname, funcs[0].file)]
    out: list[Write] = []
    for level in range(depth + 1):
        nxt = []
        for qual, path in frontier:
            if (qual, path) in seen:
                continue
            seen.add((qual, path))
            fw = [w for w in index.files[path].writes if w.function == qual]
            out.extend(fw)
            if level == depth:
                continue
            for c in index.calls_by_caller.get(qual, ()):
                if c.file != path or c.kind != "call":
                    continue
                where = _definitions_at(index, c)
                if len(where) == 1:
                    file, line = where[0].rsplit(":", 1)
                    target = next((s for s in index.files[file].symbols if s.line == int(line)
                                   and s.kind in FUNCTION_KINDS), None)
                    if target is not None:
                        nxt.append((target.qualname, target.file))
        frontier = nxt
    root = funcs[0]
    first = [w for w in out if w.function == root.qualname]
    rest = [w for w in out if w.function != root.qualname]
    return WriteList(root.qualname, (first + sorted(rest, key=lambda w: (w.function or "", w.line)))[:limit])


def writes_to(index: RepoIndex, name: str, *, limit: int = 200) -> WriteList:
    """Where the field or variable ``name`` is assigned, incremented or mutated (``put``, ``append``...).
    ``Type.field`` keeps writes inside ``Type``'s methods or through a receiver expression; a local
    (``lookForLeader.recvset``) keeps writes inside that function."""
    parts = name.replace("::", ".").split(".")
    target = parts[-1]
    ws = list(index.writes_by_target.get(target, ()))
    if len(parts) > 1:
        owner = parts[-2]
        syms = [s for s in _lookup(index, name) if s.kind in ("field", "local", "global")]
        if any(s.kind == "local" for s in syms):
            funcs = {s.parent for s in syms if s.parent}
            ws = [w for w in ws if w.function in funcs]
        else:
            ws = [w for w in ws if _writes_field_of(w, owner)]
    ws.sort(key=lambda w: (w.file, w.line))
    return WriteList(name, ws[:limit])


@dataclass
class FieldWrites:
    field: Symbol
    writes: list[Write] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"field": self.field.to_dict(), "writes": [w.to_dict() for w in self.writes]}


@dataclass
class TypeFields:
    type: Symbol
    fields: list[FieldWrites] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"type": self.type.to_dict(), "fields": [f.to_dict() for f in self.fields]}

    def render(self) -> str:
        t = self.type
        out = [f"{t.file}:{t.line} {t.signature}"]
        for fw in self.fields:
            f = fw.field
            out.append(f"  {f.line:>5}│{f.signature}")
            if not fw.writes:
                out.append("         (no writes found)")
            for w in fw.writes[:12]:
                out.append("         written " + _render_write(w))
            if len(fw.writes) > 12:
                out.append(f"         … {len(fw.writes) - 12} more writes")
        return "\n".join(out)


def _writes_field_of(w: Write, type_name: str, index: RepoIndex | None = None, ambiguous: bool = False) -> bool:
    """Could ``w`` write a field of ``type_name``? Bare names and this/self count inside the type's own
    methods. Writes through an object (``r.term = …``) count by name, unless the field name is shared
    by several types (``ambiguous``): then the object must be known to have this type."""
    in_own_method = w.function is not None and w.function.split(".")[0] == type_name
    if w.base is None or w.base in _SELF:
        return in_own_method
    if not ambiguous or index is None:
        return True
    return _base_has_type(index, w, type_name)


_SEGMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _mentions(text: str | None, type_name: str) -> bool:
    return bool(text) and re.search(rf"\b{re.escape(type_name)}\b", text) is not None


def _base_has_type(index: RepoIndex, w: Write, type_name: str) -> bool:
    """Is the object ``w.base`` declared with a type naming ``type_name`` (a parameter or receiver in
    the enclosing function's signature, a local, a global, or — for ``a.b`` — a field ``b``)?"""
    segs = _SEGMENT.findall(w.base or "")
    if not segs:
        return False
    last = segs[-1]
    if len(segs) > 1 and segs[0] not in _SELF:
        return any(s.kind == "field" and _mentions(s.type or s.signature, type_name) for s in index.by_name.get(last, ()))
    for s in index.by_name.get(last, ()):
        if s.kind in ("local", "global", "field") and s.file == w.file and (s.kind != "local" or s.parent == w.function):
            if _mentions(s.type or s.signature, type_name):
                return True
    if w.function:
        for fn in index.by_qualname.get(w.function, ()):
            if fn.file != w.file:
                continue
            for chunk in re.split(r"[(),]", fn.signature):
                if re.search(rf"\b{re.escape(last)}\b", chunk) and _mentions(chunk, type_name):
                    return True
    return False


def type_fields(index: RepoIndex, type_name: str) -> TypeFields:
    """The fields of ``type_name`` and, for each, the writes to it: bare or this/self writes inside the
    type's own methods; writes through an object (``r.term = …``) anywhere — when several types have a
    field of that name, only through objects declared with this type (parameter, receiver, local, global
    or field types)."""
    types = [s for s in _lookup(index, type_name) if s.kind in TYPE_KINDS]
    if not types:
        raise CodeError(f"no type named {type_name!r}", path=str(index.root))
    t = types[0]
    lang = index.files[t.file].language
    same_lang = {p for p, f in index.files.items() if f.language == lang}
    fields = [s for s in index.symbols if s.kind == "field" and s.parent == t.name and s.file in same_lang]
    out = []
    owners: dict[str, set[str]] = {}
    for s in index.symbols:
        if s.kind == "field" and s.file in same_lang and s.parent:
            owners.setdefault(s.name, set()).add(s.parent)
    for f in sorted(fields, key=lambda s: (s.file != t.file, s.file, s.line)):
        ambiguous = len(owners.get(f.name, ())) > 1
        ws = [w for w in index.writes_by_target.get(f.name, ())
              if w.file in same_lang and _writes_field_of(w, t.name, index, ambiguous)]
        out.append(FieldWrites(f, sorted(ws, key=lambda w: (w.file, w.line))))
    return TypeFields(t, out)
