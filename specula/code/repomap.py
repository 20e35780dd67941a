"""The repo map: ranked symbols rendered as signatures with elided bodies, fitted to a token budget.

Ranking is ``rank.rank_symbols``; this module only renders and fits. The budget is met by a
binary search over how many of the best-ranked symbols to show. Tokens are estimated as
characters / 4 (no tokenizer dependency).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from specula.code.model import FUNCTION_KINDS, TYPE_KINDS, RepoIndex, Symbol
from specula.code.rank import Focus, RankedSymbol, RankWeights, norm_ident, rank_symbols, split_words

__all__ = ["RepoMap", "repo_map", "render_map", "estimate_tokens"]

MAX_CANDIDATES = 1500
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CONSTANT = re.compile(r"\b(final|const|constexpr)\b")
MAX_FIELDS = 40
EXPANDED_SHARE = 0.45  # types at least this relevant (share of the best type's) list their fields
EXPANDED_TOP = 3  # and so do the best-ranked types (the core state, central even when its name is not in the focus)


def estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


@dataclass
class RepoMap:
    """A rendered map: ``text`` for the prompt, ``entries`` (included symbols, best first) as data."""

    text: str
    tokens: int
    budget: int
    focus: str
    entries: list[RankedSymbol] = field(default_factory=list)
    ranked_total: int = 0

    def to_dict(self) -> dict:
        return {
            "schema": "specula.code.map/1",
            "focus": self.focus,
            "budget": self.budget,
            "tokens": self.tokens,
            "ranked_total": self.ranked_total,
            "entries": [e.to_dict() for e in self.entries],
            "text": self.text,
        }

    def render(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


class _Members:
    """Fields per (file, type) and focus-relevant locals per (file, function), built once per map."""

    def __init__(self, index: RepoIndex, focus: Focus, max_fields: int = MAX_FIELDS) -> None:
        self.max_fields = max_fields
        self.relevant: set[int] = set()  # ids of fields the focus names: always shown
        self.fields: dict[tuple[str, str], list[Symbol]] = {}
        self.locals: dict[tuple[str, str], list[Symbol]] = {}
        for s in index.symbols:
            if s.kind == "field" and s.parent:
                if s.static and _CONSTANT.search(s.signature):
                    continue  # constants are not state
                self.fields.setdefault((s.file, s.parent), []).append(s)
                if _mentioned(s, focus) or norm_ident(s.name) in focus.identifiers:
                    self.relevant.add(id(s))
            elif s.kind in ("local", "global") and s.parent and _mentioned(s, focus):
                self.locals.setdefault((s.file, s.parent), []).append(s)
            elif s.kind == "constant" and s.type:  # Go enums: `const StateFollower StateType = iota`
                self.fields.setdefault((s.file, s.type), []).append(s)


def _mentioned(s: Symbol, focus: Focus) -> bool:
    """A local or field is worth showing when the focus names it: the name itself, or (multi-word
    names) its words joined or each of them (``electionEpoch`` for "election ... epochs")."""
    if s.name in set(_IDENT.findall(focus.text)):
        return True
    words = split_words(s.name)
    if len(words) < 2:
        return False
    return norm_ident(s.name) in focus.identifiers or all(
        w in focus.words or w.rstrip("s") in focus.words or w + "s" in focus.words for w in words)


def _line(n: int, text: str, indent: int = 0) -> str:
    return f"{n:>5}│{' ' * indent}{text}"


def _expanded(entries: list[RankedSymbol], members: _Members, share: float = EXPANDED_SHARE,
              top: int = EXPANDED_TOP) -> set[int]:
    """Ids of the types whose fields are listed: the ``top`` best-ranked types, those whose focus
    relevance is at least ``share`` of the best type's, every type with a field the focus names, and enums and small types. A class that ranks for a common
    word of its name (``Leader`` for "fast leader election") shows its signature and a field count,
    not a member list that pushes the protocol core down."""
    types = [e for e in entries if e.symbol.kind in TYPE_KINDS]
    best = max((e.relevance for e in types), default=0.0)
    out: set[int] = set()
    for n, e in enumerate(types):
        s = e.symbol
        flds = members.fields.get((s.file, s.name), [])
        small = len(flds) <= 4 or s.kind == "enum" or all(f.kind == "constant" for f in flds)  # enum values: states
        if small or n < top or best <= 0 or e.relevance >= share * best or any(id(f) in members.relevant for f in flds):
            out.add(id(s))
    return out


def render_map(entries: list[RankedSymbol], members: _Members, header: str = "") -> str:
    by_file: dict[str, list[Symbol]] = {}
    for e in entries:
        by_file.setdefault(e.symbol.file, []).append(e.symbol)
    expanded = _expanded(entries, members)
    out = [header] if header else []
    for path, syms in by_file.items():
        out.append(f"{path}:")
        for s in sorted(syms, key=lambda s: (s.line, -s.end_line)):
            python = path.endswith((".py", ".pyi"))
            if s.kind in TYPE_KINDS:
                flds = members.fields.get((s.file, s.name), [])
                if not flds:
                    elide = s.end_line > s.line or s.kind in ("class", "struct", "interface", "trait", "enum", "union")
                    out.append(_line(s.line, s.signature + ((": …" if python else " { … }") if elide else "")))
                    continue
                braces = not python and s.end_line > s.line  # `type StateType int` + its constants: no braces
                out.append(_line(s.line, s.signature + (":" if python else " {" if braces else "")))
                cap = members.max_fields if id(s) in expanded else 0
                shown = [f for i, f in enumerate(flds) if i < cap or id(f) in members.relevant]
                last = None
                for f in shown:
                    if (f.line, f.signature) != last:  # `long a, b;` declares two fields on one line
                        out.append(_line(f.line, f.signature, 4))
                    last = (f.line, f.signature)
                if len(shown) < len(flds):
                    out.append(_line(s.end_line, f"… {len(flds) - len(shown)} more fields", 4))
                if braces:
                    out.append(_line(s.end_line, "}"))
            elif s.kind in FUNCTION_KINDS:
                locs = members.locals.get((s.file, s.qualname), [])
                # name the class/impl type when the signature does not (Go receivers and C++ `T::m` do)
                owner = f"  {'#' if python else '//'} {s.parent}" if s.kind == "method" and s.parent and \
                    s.parent not in s.signature else ""
                if s.signature.endswith(";"):  # no body to elide
                    out.append(_line(s.line, s.signature + owner))
                    continue
                if not locs:
                    out.append(_line(s.line, s.signature + (": …" if python else " { … }") + owner))
                    continue
                out.append(_line(s.line, s.signature + (":" if python else " {") + owner))
                for loc in locs[:8]:
                    out.append(_line(loc.line, loc.signature, 4))
                out.append(_line(s.end_line, "…" if python else "… }", 4 if python else 0))
            else:
                out.append(_line(s.line, s.signature))
    return "\n".join(out)


def repo_map(
    index: RepoIndex,
    focus: str = "",
    budget: int = 4000,
    *,
    names: Iterable[str] = (),
    files: Iterable[str] = (),
    weights: RankWeights = RankWeights(),
) -> RepoMap:
    """The best-ranked symbols for ``focus`` (text), ``names`` (e.g. required action names) and
    ``files`` (paths the task names), as signatures with elided bodies within ``budget`` tokens."""
    foc = Focus.parse(focus, names, files)
    ranked = rank_symbols(index, foc, weights)
    candidates = ranked[:MAX_CANDIDATES]
    members = _Members(index, foc, max_fields=min(MAX_FIELDS, max(6, budget // 100)))
    header = f"# {index.root.name}: most relevant code first (line│source; bodies elided)"
    lo, hi = 0, len(candidates)
    best = render_map([], members, header)
    if estimate_tokens(best) > budget:
        return RepoMap("", 0, budget, focus, [], len(ranked))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        text = render_map(candidates[:mid], members, header)
        if estimate_tokens(text) <= budget:
            lo, best = mid, text
        else:
            hi = mid - 1
    return RepoMap(best, estimate_tokens(best), budget, focus, candidates[:lo], len(ranked))
