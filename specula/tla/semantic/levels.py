"""Level checks (placeholder until the full check lands)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from specula.diagnostics import Diagnostic

if TYPE_CHECKING:
    from specula.tla.modules import Spec

__all__ = ["levels"]


def levels(spec: "Spec") -> list[Diagnostic]:
    return []
