"""Static (no-LLM) translation of SysMoBench invariant templates into definitions.

A template becomes a definition over the spec's own names when
1. a translations file gives one (YAML ``{Name: "Name == expr"}`` or ``{Name: "expr"}``), or
2. its ``tla_example`` already fits the spec: added to the spec, the module still passes the
   front end (every name it uses exists in the spec).
Otherwise it is returned as untranslated (and SysMoBench leaves it out of the denominator).
An LLM translation (agent room) hands phase 4 the same ``InvariantDef`` objects.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Mapping, Sequence

from specula.phases.invariants import InvariantDef, InvariantTemplate, spec_with_definitions

__all__ = ["translate_static", "load_translations", "normalize_definition"]

_HEAD_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*==")


def normalize_definition(name: str, text: str) -> str:
    """``expr`` -> ``Name == expr``; a definition of another name is renamed to ``name``."""
    text = text.strip()
    m = _HEAD_RE.match(text)
    if m:
        if m.group(1) != name:
            text = name + text[m.end(1):]
        return text
    body = text.replace("\n", "\n    ")
    return f"{name} ==\n    {body}"


def load_translations(path: str | Path) -> dict[str, str]:
    """Read a translations YAML: ``{Name: definition}`` or ``{invariants: [{name, definition}]}``."""
    from specula.errors import ConfigError
    from specula.yamlfile import load_yaml_file

    p = Path(path)
    data = load_yaml_file(p, "translations") or {}
    if isinstance(data, dict) and isinstance(data.get("invariants"), list):
        out = {}
        for i, item in enumerate(data["invariants"]):
            if not isinstance(item, dict) or "name" not in item or "definition" not in item:
                raise ConfigError("each entry needs name and definition", str(p), field=f"invariants[{i}]")
            out[str(item["name"])] = str(item["definition"])
        return out
    if not isinstance(data, dict):
        raise ConfigError("expected a mapping of invariant name to definition", str(p))
    return {str(k): str(v) for k, v in data.items()}


def _fits(spec_path: Path, definition: str, search_path: Sequence[str | Path]) -> bool:
    from specula.phases.syntax import check_spec_file

    with tempfile.TemporaryDirectory(prefix="specula-tr-") as tmp:
        path = spec_with_definitions(spec_path, [definition], tmp)
        return not check_spec_file(path, search_path)


def translate_static(
    templates: Sequence[InvariantTemplate],
    spec_path: str | Path,
    translations: Mapping[str, str] | None = None,
    search_path: Sequence[str | Path] = (),
) -> tuple[list[InvariantDef], list[InvariantTemplate]]:
    """Return (translated definitions, untranslated templates)."""
    spec_path = Path(spec_path)
    done: list[InvariantDef] = []
    missing: list[InvariantTemplate] = []
    for t in templates:
        given = (translations or {}).get(t.name)
        if given is not None:
            defn = normalize_definition(t.name, given)
            if _fits(spec_path, defn, search_path):
                done.append(InvariantDef(t.name, t.type, defn, source="mapping"))
                continue
        if t.tla_example:
            defn = normalize_definition(t.name, t.tla_example)
            if _fits(spec_path, defn, search_path):
                done.append(InvariantDef(t.name, t.type, defn, source="example"))
                continue
        missing.append(t)
    return done, missing
