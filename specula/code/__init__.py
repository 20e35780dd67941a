"""code room: a tree-sitter index of target repositories, a ranked repo map, and symbol queries.

Typical use::

    from specula.code import index_repo, repo_map, show_symbol
    ix = index_repo("path/or/git-url")
    print(repo_map(ix, focus="leader election votes", budget=2000).text)
    print(show_symbol(ix, "raft.becomeCandidate").render())

Every query returns a dataclass with ``to_dict()`` and ``render()``. Nothing happens at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = [
    # indexing
    "index_repo", "IndexOptions", "RepoIndex", "FileIndex", "Symbol", "Call", "Write", "IndexStats",
    "TagCache", "resolve_repo", "extract_file",
    # ranking and the map
    "RankWeights", "Focus", "RankedSymbol", "rank_symbols", "RepoMap", "repo_map", "estimate_tokens",
    # agent-facing queries
    "search_code", "find_symbols", "show_symbol", "file_symbols", "callers", "callees", "type_fields", "writes_to",
    "effects",
    "CodeMatch", "SearchResult", "SymbolList", "SymbolSource", "CallList", "TypeFields", "FieldWrites", "WriteList",
]

_WHERE = {
    "index_repo": "index", "IndexOptions": "discover", "TagCache": "cache", "resolve_repo": "repo",
    "extract_file": "extract",
    "RepoIndex": "model", "FileIndex": "model", "Symbol": "model", "Call": "model", "Write": "model",
    "IndexStats": "model",
    "RankWeights": "rank", "Focus": "rank", "RankedSymbol": "rank", "rank_symbols": "rank",
    "RepoMap": "repomap", "repo_map": "repomap", "estimate_tokens": "repomap",
}

if TYPE_CHECKING:  # pragma: no cover
    from specula.code.cache import TagCache
    from specula.code.discover import IndexOptions
    from specula.code.extract import extract_file
    from specula.code.index import index_repo
    from specula.code.model import Call, FileIndex, IndexStats, RepoIndex, Symbol, Write
    from specula.code.query import (CallList, CodeMatch, FieldWrites, SearchResult, SymbolList, SymbolSource,
                                    TypeFields, WriteList, callees, callers, effects, file_symbols, find_symbols,
                                    search_code, show_symbol, type_fields, writes_to)
    from specula.code.rank import Focus, RankedSymbol, RankWeights, rank_symbols
    from specula.code.repo import resolve_repo
    from specula.code.repomap import RepoMap, estimate_tokens, repo_map


def __getattr__(name: str) -> Any:  # lazy: importing specula.code loads no grammar and no submodule
    if name not in __all__:
        raise AttributeError(f"module 'specula.code' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f"specula.code.{_WHERE.get(name, 'query')}")
    return getattr(module, name)
