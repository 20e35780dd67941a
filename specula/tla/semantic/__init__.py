"""Semantic checks SANY performs, one module per check, each ``check(spec) -> list[Diagnostic]``.

Codes (stable): E101 syntax error, E102 precedence conflict (both from ``syntax``);
E201 missing module, E202 circular dependency, E203 multiply defined symbol, E204 illegal
substitution target, E205 missing implicit substitution (from ``modules``);
W203 repeated VARIABLE/CONSTANT declaration (warning, as SANY);
E301 unknown identifier or operator, E302 wrong number of arguments (also of operators passed as
arguments), E303 ``@`` outside EXCEPT, E304 RECURSIVE operator never defined, E305 operator used
where a value is expected (``names``); E401..E407 level errors (``levels``).
The table with SANY's wording is in docs/tla-subset.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from specula.diagnostics import Diagnostic
from specula.tla import ast
from specula.tla.semantic.levels import levels
from specula.tla.semantic.names import names
from specula.tla.syntax import too_deep_diagnostic

if TYPE_CHECKING:
    from specula.tla.modules import Spec

__all__ = ["check_spec", "CHECKS", "names", "levels"]

CHECKS: tuple[Callable[["Spec"], list[Diagnostic]], ...] = (names, levels)


def check_spec(spec: "Spec") -> list[Diagnostic]:
    """Run every check in order; later checks run only if earlier ones found no error
    (a level check over unresolved names would only add noise)."""
    out: list[Diagnostic] = []
    for check in CHECKS:
        try:
            out.extend(check(spec))
        except RecursionError:
            return [*out, _too_deep(spec)]
        if any(d.severity == "error" for d in out):
            break
    return out


def _too_deep(spec: "Spec") -> Diagnostic:
    """E103 at the most deeply nested expression of the spec's own modules (found iteratively)."""
    best: tuple[int, ast.Node | None] = (0, None)
    for module in spec.modules.values():
        stack: list[tuple[ast.Node, int]] = [(module, 0)]
        while stack:
            node, depth = stack.pop()
            if depth > best[0] and getattr(node, "span", None) is not None and node.span.line:
                best = (depth, node)
            stack.extend((c, depth + 1) for c in ast.children(node))
    return too_deep_diagnostic(best[0], best[1])
