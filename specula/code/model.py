"""Data of the code index: symbols, call edges, writes, per-file and per-repo indexes.

All positions are 1-based line numbers; paths are repository-relative POSIX paths.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

__all__ = ["Symbol", "Call", "Write", "FileIndex", "RepoIndex", "IndexStats", "TYPE_KINDS", "FUNCTION_KINDS"]

TYPE_KINDS = frozenset({"class", "struct", "enum", "interface", "trait", "union", "type"})
FUNCTION_KINDS = frozenset({"function", "method"})
STATE_KINDS = frozenset({"field", "global"})


@dataclass(frozen=True, slots=True)
class Symbol:
    """A definition: function, method, type, field, global/static variable, or local variable.

    ``parent`` is the receiver/class for methods, the owning type for fields, and the
    enclosing function's qualname for locals (and for C static locals, kind ``global``).
    """

    name: str
    kind: str
    file: str
    line: int
    end_line: int
    parent: str | None = None
    signature: str = ""
    type: str | None = None
    static: bool = False

    @property
    def qualname(self) -> str:
        return f"{self.parent}.{self.name}" if self.parent else self.name

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    def to_dict(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if v not in (None, False, "")}
        d["qualname"] = self.qualname
        return d

    def render(self) -> str:
        return f"{self.file}:{self.line}-{self.end_line} {self.kind} {self.qualname}: {self.signature}"


@dataclass(frozen=True, slots=True)
class Call:
    """A call (``kind="call"``) or function-value use (``kind="ref"``) by name."""

    caller: str | None  # qualname of the enclosing function, None at top level
    name: str
    file: str
    line: int
    receiver: str | None = None  # text of the receiver expression (``r``, ``self.log``), short
    kind: str = "call"

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True, slots=True)
class Write:
    """A write to a field or variable named ``target``: ``=``, ``op=``, ``++``, or a mutating call."""

    target: str
    function: str | None  # qualname of the enclosing function
    file: str
    line: int
    base: str | None = None  # the object expression (``r`` in ``r.term = 1``), short
    via: str = "="  # "=", "++", or the mutating method name ("put", "append", "delete")

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(slots=True)
class FileIndex:
    path: str
    language: str
    sha: str
    lines: int
    symbols: list[Symbol] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    has_errors: bool = False
    test_spans: list[tuple[int, int]] = field(default_factory=list)  # line ranges of in-file test code

    def without_tests(self) -> "FileIndex":
        """A copy without the symbols, calls and writes inside ``test_spans`` (Rust ``#[cfg(test)]``)."""
        if not self.test_spans:
            return self
        spans = self.test_spans

        def keep(line: int) -> bool:
            return not any(a <= line <= b for a, b in spans)

        return FileIndex(self.path, self.language, self.sha, self.lines,
                         [s for s in self.symbols if keep(s.line)], [c for c in self.calls if keep(c.line)],
                         [w for w in self.writes if keep(w.line)], self.has_errors, list(spans))

    # Compact, path-free form for the on-disk cache (the same content may live at many paths).
    def to_cache(self) -> dict:
        return {
            "lines": self.lines,
            "err": self.has_errors,
            "s": [[s.name, s.kind, s.line, s.end_line, s.parent, s.signature, s.type, s.static] for s in self.symbols],
            "c": [[c.caller, c.name, c.line, c.receiver, c.kind] for c in self.calls],
            "w": [[w.target, w.function, w.line, w.base, w.via] for w in self.writes],
            "t": [list(t) for t in self.test_spans],
        }

    @classmethod
    def from_cache(cls, data: dict, path: str, language: str, sha: str) -> "FileIndex":
        return cls(
            path=path,
            language=language,
            sha=sha,
            lines=data["lines"],
            has_errors=data["err"],
            symbols=[Symbol(n, k, path, l, e, p, sig, t, st) for n, k, l, e, p, sig, t, st in data["s"]],
            calls=[Call(cl, n, path, l, r, k) for cl, n, l, r, k in data["c"]],
            writes=[Write(t, f, path, l, b, v) for t, f, l, b, v in data["w"]],
            test_spans=[(a, b) for a, b in data.get("t", ())],
        )


@dataclass(slots=True)
class IndexStats:
    files: int = 0
    cached: int = 0
    parsed: int = 0
    with_errors: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 1

    def to_dict(self) -> dict:
        return asdict(self)


class RepoIndex:
    """The index of one repository checkout, with lookups built once on construction."""

    def __init__(self, root: Path, files: Iterable[FileIndex], stats: IndexStats | None = None) -> None:
        self.root = Path(root)
        self.files: dict[str, FileIndex] = {f.path: f for f in sorted(files, key=lambda f: f.path)}
        self.stats = stats or IndexStats(files=len(self.files))
        self.symbols: list[Symbol] = [s for f in self.files.values() for s in f.symbols]
        self.calls: list[Call] = [c for f in self.files.values() for c in f.calls]
        self.writes: list[Write] = [w for f in self.files.values() for w in f.writes]
        self.by_name: dict[str, list[Symbol]] = {}
        self.by_qualname: dict[str, list[Symbol]] = {}
        for s in self.symbols:
            self.by_name.setdefault(s.name, []).append(s)
            self.by_qualname.setdefault(s.qualname, []).append(s)
        self.calls_by_caller: dict[str, list[Call]] = {}
        self.calls_by_name: dict[str, list[Call]] = {}
        for c in self.calls:
            if c.caller:
                self.calls_by_caller.setdefault(c.caller, []).append(c)
            self.calls_by_name.setdefault(c.name, []).append(c)
        self.writes_by_target: dict[str, list[Write]] = {}
        for w in self.writes:
            self.writes_by_target.setdefault(w.target, []).append(w)

    def functions(self) -> list[Symbol]:
        return [s for s in self.symbols if s.kind in FUNCTION_KINDS]

    def types(self) -> list[Symbol]:
        return [s for s in self.symbols if s.kind in TYPE_KINDS]

    def members(self, type_name: str) -> list[Symbol]:
        """Fields and methods whose parent is ``type_name``."""
        return [s for s in self.symbols if s.parent == type_name and s.kind != "local"]

    def summary(self) -> dict:
        langs: dict[str, int] = {}
        kinds: dict[str, int] = {}
        for f in self.files.values():
            langs[f.language] = langs.get(f.language, 0) + 1
        for s in self.symbols:
            kinds[s.kind] = kinds.get(s.kind, 0) + 1
        return {
            "schema": "specula.code.index/1",
            "root": str(self.root),
            "files": len(self.files),
            "languages": dict(sorted(langs.items())),
            "symbols": dict(sorted(kinds.items())),
            "calls": len(self.calls),
            "writes": len(self.writes),
            "files_with_syntax_errors": sorted(p for p, f in self.files.items() if f.has_errors),
            "stats": self.stats.to_dict(),
        }
