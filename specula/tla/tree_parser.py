"""The tree-sitter parser for TLA+ (shared by syntax.py and syntax_errors.py)."""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["parser"]


@functools.lru_cache(maxsize=1)
def parser() -> Any:
    # imported here, not at module level: loading the grammar costs start-up time that commands
    # which never parse TLA+ (e.g. `specula --help`) should not pay
    import warnings

    import tree_sitter
    import tree_sitter_tlaplus

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        language = tree_sitter.Language(tree_sitter_tlaplus.language())
    return tree_sitter.Parser(language)
