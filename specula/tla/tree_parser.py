"""The tree-sitter parser for TLA+ (shared by syntax.py and syntax_errors.py)."""

from __future__ import annotations

import functools
import warnings
from typing import Any

import tree_sitter
import tree_sitter_tlaplus

__all__ = ["parser"]


@functools.lru_cache(maxsize=1)
def parser() -> Any:
    """The parser, built on first use (loading the grammar takes a moment)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        language = tree_sitter.Language(tree_sitter_tlaplus.language())
    return tree_sitter.Parser(language)
