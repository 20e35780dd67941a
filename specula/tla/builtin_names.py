"""Operators and names built into TLA+ itself (no module defines them)."""

from __future__ import annotations

__all__ = ["BUILTIN_OPS", "BUILTIN_NAMES", "VARIADIC"]

VARIADIC = -1

# canonical name -> arity (VARIADIC for n-ary)
BUILTIN_OPS: dict[str, int] = {
    "/\\": VARIADIC, "\\/": VARIADIC, "~": 1, "=>": 2, "<=>": 2, "=": 2, "#": 2,
    "\\in": 2, "\\notin": 2, "\\cup": 2, "\\cap": 2, "\\": 2, "\\subseteq": 2,
    "SUBSET": 1, "UNION": 1, "DOMAIN": 1, "\\X": VARIADIC,
    "UNCHANGED": 1, "ENABLED": 1, "\\cdot": 2, "[]": 1, "<>": 1, "~>": 2, "-+->": 2,
}

BUILTIN_NAMES: frozenset[str] = frozenset({"BOOLEAN", "STRING", "TRUE", "FALSE"})
