"""A refinement mapping written by the model, for phase 3 of SysMoBench's PGo tasks.

SysMoBench validates a PGo task's TraceLink runs against the spec under test through the reference
spec, and has a model write the refinement mapping (``WITH var <- refVar, C <- 3``) from the two
specs' declarations at scoring time. This is the same step: only declarations are shown (the
reference's definitions stay hidden), the reply is checked with the phase's own parser, and a
mapping that leaves a variable unmapped is reported, not used silently.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from specula.errors import ConfigError, ProviderError
from specula.phases.tracelink import PgoSetup, declarations, parse_refinement, unmapped_variables

__all__ = ["refinement_with_model", "clean_reply"]


def clean_reply(reply: str) -> str:
    """The ``WITH`` clause of a reply (code fences and text around it dropped)."""
    text = re.sub(r"```[a-zA-Z+]*", "", reply)
    at = text.find("WITH")
    if at < 0:
        return ""
    lines = [ln.rstrip() for ln in text[at:].splitlines()]
    keep = [ln for ln in lines if ln.strip() and ("<-" in ln or ln.strip() == "WITH" or ln.strip().startswith("\\*"))]
    return "\n".join(keep)


def refinement_with_model(spec_path: Path, cfg_path: Path | None, setup: PgoSetup,
                          complete: Callable[[str, str], str]) -> tuple[str, list[str]]:
    """(the mapping text, spec variables it still leaves unmapped). ``complete(system, user)`` is
    one model call; a reply with no ``WITH`` clause raises ProviderError."""
    from specula.agent.prompts import render

    spec_text = Path(spec_path).read_text(encoding="utf-8", errors="replace")
    ref_text = setup.reference.read_text(encoding="utf-8", errors="replace")
    missing = unmapped_variables(spec_path, setup)
    cfg_text = cfg_path.read_text(encoding="utf-8", errors="replace") if cfg_path and cfg_path.is_file() else "(none)"
    reply = complete(render("refinement_system.md"),
                     render("refinement.md", spec_name=Path(spec_path).name,
                            spec_declarations="\n".join(declarations(spec_text)[0]) or "(none)",
                            spec_cfg=cfg_text.strip() or "(none)", reference_name=setup.reference.name,
                            reference_declarations="\n".join(declarations(ref_text)[0]),
                            unmapped=", ".join(missing) or "none"))
    text = clean_reply(reply)
    try:
        parsed = parse_refinement(text) if text else {}
    except ConfigError as exc:
        raise ProviderError(f"the model's refinement mapping cannot be read: {exc}") from None
    if not parsed:
        raise ProviderError(f"the model's reply holds no refinement mapping (`WITH a <- b`): {reply[:200]!r}")
    return text, unmapped_variables(spec_path, setup, text)


