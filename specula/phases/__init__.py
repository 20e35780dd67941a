"""phases room: the four SysMoBench phases and the scorecard, as pure functions over engine results.

Phases never call an LLM: invariant templates arrive translated (``InvariantDef``).
"""

from specula.phases.evaluate import EvalInputs, evaluate
from specula.phases.invariants import (
    InvariantDef,
    InvariantResult,
    InvariantRow,
    InvariantTemplate,
    invariants,
    load_templates,
)
from specula.phases.runtime import RuntimeResult, RuntimeSettings, runtime
from specula.phases.scorecard import SCORECARD_SCHEMA, PhaseScore, Scorecard
from specula.phases.syntax import SyntaxResult, syntax
from specula.phases.templates import load_translations, translate_static

__all__ = [
    "syntax",
    "SyntaxResult",
    "runtime",
    "RuntimeResult",
    "RuntimeSettings",
    "invariants",
    "InvariantResult",
    "InvariantRow",
    "InvariantTemplate",
    "InvariantDef",
    "load_templates",
    "translate_static",
    "load_translations",
    "Scorecard",
    "PhaseScore",
    "SCORECARD_SCHEMA",
    "EvalInputs",
    "evaluate",
]
