"""Invariant templates (SysMoBench ``invariants.yaml``) -> TLA+ definitions over a spec's names,
by the model (prompts/translate_system.md, prompts/translate.md).

One model call translates every template. A definition the model writes is normalized to the
template's name; a template the model marks ``UNTRANSLATABLE`` is left untranslated (SysMoBench
leaves it out of the denominator); one the model says nothing about falls back to the static
translation of ``specula.phases`` (the template's example, when it fits the spec). Phases never call a
model: this runs before phase 4 and hands it finished ``InvariantDef`` objects.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.agent import specedit

__all__ = ["translate_with_model", "parse_reply", "signature", "declared_names"]


def declared_names(spec_text: str) -> set[str]:
    names = set(specedit.defined_names(spec_text))
    lines = spec_text.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^(?:VARIABLES?|CONSTANTS?)\b(.*)$", line)
        if not m:
            continue
        parts = [m.group(1)]
        for nxt in lines[i + 1:]:
            if not nxt.strip() or not nxt[:1].isspace():
                break
            parts.append(nxt)
        body = re.sub(r"\(\*.*?\*\)|\\\*[^\n]*", "", "\n".join(parts), flags=re.S)
        names.update(n.split("(")[0].strip() for n in body.replace("\n", " ").split(",") if n.strip())
    return names


def signature(spec_text: str) -> str:
    """Changes when the spec's declared names change (translations are then redone)."""
    return hashlib.sha256(" ".join(sorted(declared_names(spec_text))).encode()).hexdigest()[:16]


def parse_reply(reply: str) -> tuple[dict[str, str], dict[str, str]]:
    """(definitions by name, untranslatable name -> reason) from a model reply."""
    blocks = re.findall(r"```(?:tla\+?|TLA\+?)?\s*\n(.*?)```", reply, re.S)
    text = "\n".join(blocks) if blocks else reply
    defs = {d.name: d.text.strip() for d in specedit.definitions(text)}
    notes = {m.group(1): (m.group(2).strip() or "no counterpart in the spec")
             for m in re.finditer(r"UNTRANSLATABLE:\s*([A-Za-z_]\w*)\s*(?:[-:\u2014]\s*)?(.*)", reply)}
    for name in notes:
        defs.pop(name, None)
    return defs, notes


def _templates_yaml(templates: Sequence[Any]) -> str:
    from specula.yamlfile import dump_yaml

    keep = [{k: getattr(t, k) for k in ("name", "type", "natural_language", "formal_description", "tla_example")
             if getattr(t, k, "")} for t in templates]
    return dump_yaml(keep)


def translate_with_model(spec_path: Path, spec_text: str, templates: Sequence[Any],
                         complete: Callable[[str, str], str]) -> tuple[list[Any], list[Any], dict[str, str]]:
    """(InvariantDefs, untranslated templates, notes). ``complete(system, user) -> text`` is one model call."""
    from specula.agent.prompts import render
    from specula.phases import InvariantDef, translate_static
    from specula.phases.templates import normalize_definition

    reply = complete(render("translate_system.md"),
                     render("translate.md", spec=spec_text, templates=_templates_yaml(templates)))
    written, notes = parse_reply(reply)
    defs: list[Any] = []
    rest: list[Any] = []
    for t in templates:
        if t.name in written:
            defs.append(InvariantDef(t.name, t.type, normalize_definition(t.name, written[t.name]), "llm"))
        elif t.name not in notes:  # the model said nothing about it: try the template's own example
            rest.append(t)
    untranslated: list[Any] = [t for t in templates if t.name in notes]
    if rest:
        static, missing = translate_static(rest, spec_path)
        defs += static
        untranslated += missing
    return defs, untranslated, notes
