"""coverage room: how much of the protocol the traces exercise.

``spec_coverage(spec, traces)`` counts, per action and per branch of the spec (disjuncts, IF/CASE
arms at action level), the windows that exercise it; the harness's implementation branch
coverage (``impl-coverage.json`` beside the traces) is reported with it. Nothing happens at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["spec_coverage", "windows_coverage", "CoverageReport", "ActionCoverage", "BranchCoverage", "Branch", "action_branches",
           "variant", "IMPL_COVERAGE_FILE"]

_WHERE = {"spec_coverage": "spec", "windows_coverage": "spec", "CoverageReport": "spec", "ActionCoverage": "spec", "BranchCoverage": "spec",
          "IMPL_COVERAGE_FILE": "spec", "Branch": "branches", "action_branches": "branches", "variant": "branches"}

if TYPE_CHECKING:  # pragma: no cover
    from specula.coverage.branches import Branch, action_branches, variant
    from specula.coverage.spec import IMPL_COVERAGE_FILE, windows_coverage, ActionCoverage, BranchCoverage, CoverageReport, spec_coverage


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'specula.coverage' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"specula.coverage.{_WHERE[name]}"), name)
