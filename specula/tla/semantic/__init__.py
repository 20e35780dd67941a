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
from specula.tla.semantic.levels import levels
from specula.tla.semantic.names import names

if TYPE_CHECKING:
    from specula.tla.modules import Spec

__all__ = ["check_spec", "CHECKS", "names", "levels"]

CHECKS: tuple[Callable[["Spec"], list[Diagnostic]], ...] = (names, levels)


def check_spec(spec: "Spec") -> list[Diagnostic]:
    """Run every check in order; later checks run only if earlier ones found no error
    (a level check over unresolved names would only add noise)."""
    out: list[Diagnostic] = []
    for check in CHECKS:
        out.extend(check(spec))
        if any(d.severity == "error" for d in out):
            break
    return out
