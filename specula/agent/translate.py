"""Invariant templates (SysMoBench ``invariants.yaml``) -> TLA+ definitions over a spec's names.

With a provider, one model call translates every template (prompt: prompts/translate.md); without
one, a template's ``tla_example`` is used when every name it needs is defined by the spec or the
standard modules. A template that cannot be translated is reported with the reason and left out
(SysMoBench excludes it from the denominator). Phases never call a model: this runs before them.
"""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path
from typing import Any, Callable

from specula.agent import specedit
from specula.errors import ConfigError

__all__ = ["load_templates", "translate", "signature", "as_phase_defs", "declared_names"]

_IDENT = re.compile(r"(?<![\\\w!])[A-Za-z_][A-Za-z0-9_]*")
_BINDER = re.compile(r"(?:\\A|\\E|CHOOSE|\{|\[|,|LET)\s*([A-Za-z_][\w]*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?:\\in|:|==|\|->)")
_BUILTIN = set("""TRUE FALSE BOOLEAN STRING Nat Int Real Seq Len Head Tail Append SubSeq SelectSeq Cardinality
IsFiniteSet SUBSET UNION DOMAIN EXCEPT IF THEN ELSE CASE OTHER LET IN CHOOSE ENABLED UNCHANGED
Max Min ToString Permutations SortSeq Print PrintT Assert Range Contains IsPrefix Bag BagToSet SetToBag
BagIn CopiesIn BagCardinality WF_ SF_ LAMBDA""".split())


def load_templates(path: Path) -> list[dict[str, Any]]:
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(f"invalid YAML: {getattr(exc, 'problem', exc)}", path=str(path),
                          line=mark.line + 1 if mark else None) from None
    items = data.get("invariants") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise ConfigError("invariants.yaml must have a list 'invariants'", path=str(path), field="invariants")
    out = []
    for i, t in enumerate(items):
        if not isinstance(t, dict) or not t.get("name"):
            raise ConfigError(f"invariant {i + 1} has no name", path=str(path), field=f"invariants[{i}].name")
        out.append(t)
    return out


def declared_names(spec_text: str) -> set[str]:
    names = set(specedit.defined_names(spec_text))
    for m in re.finditer(r"^\s*(?:VARIABLES?|CONSTANTS?)\s+((?:.|\n\s+)*?)(?=\n\S|\Z)", spec_text, re.M):
        body = re.sub(r"\(\*.*?\*\)|\\\*.*", "", m.group(1))
        names.update(n.split("(")[0].strip() for n in body.replace("\n", " ").split(",") if n.strip())
    return names


def signature(spec_text: str) -> str:
    """Changes when the spec's declared names change (translations are then redone)."""
    return hashlib.sha256(" ".join(sorted(declared_names(spec_text))).encode()).hexdigest()[:16]


def _fits(example: str, name: str, names: set[str]) -> str | None:
    """None when every free name of ``example`` is known, else the first unknown name."""
    body = example.split("==", 1)[1] if "==" in example else example
    body = re.sub(r'"[^"]*"|\\\*.*|\(\*.*?\*\)', " ", body, flags=re.S)
    bound = {b.strip() for m in _BINDER.finditer(body) for b in m.group(1).split(",")}
    for ident in _IDENT.findall(body):
        if ident not in names and ident not in bound and ident not in _BUILTIN and ident != name \
                and not ident.isupper():
            return ident
    return None


def translate(templates: list[dict[str, Any]], spec_text: str,
              complete: Callable[[str, str], str] | None = None) -> list[dict[str, Any]]:
    """One entry per template: ``{name, type, text, source, error}``; ``text`` is empty when untranslated.

    ``complete(system, user) -> reply text`` is a model call (the agent passes its provider).
    """
    names = declared_names(spec_text)
    out: list[dict[str, Any]] = []
    llm_text: dict[str, str] = {}
    llm_note: dict[str, str] = {}
    if complete is not None and templates:
        from specula.agent.prompts import render

        system = render("translate_system.md")
        user = render("translate.md", spec=spec_text, templates=_templates_text(templates))
        reply = complete(system, user)
        block = "\n".join(re.findall(r"```(?:tla)?\n(.*?)```", reply, re.S)) or reply
        for d in specedit.definitions(block):
            llm_text[d.name] = d.text.strip()
        for m in re.finditer(r"UNTRANSLATABLE:\s*([A-Za-z_]\w*)\s*[-:—]?\s*(.*)", reply):
            llm_note[m.group(1)] = m.group(2).strip() or "the model found no counterpart in the spec"
    for t in templates:
        name = str(t["name"])
        kind = str(t.get("type", "safety"))
        entry = {"name": name, "type": kind, "text": "", "source": "", "error": None}
        if name in llm_text:
            entry.update(text=llm_text[name], source="llm")
        elif complete is not None and name in llm_note:
            entry["error"] = llm_note[name]
        else:
            example = str(t.get("tla_example") or "").strip()
            missing = _fits(example, name, names) if example else "no tla_example"
            if example and missing is None and re.match(rf"^{re.escape(name)}\b", example):
                entry.update(text=example, source="example")
            else:
                entry["error"] = (f"template example uses {missing!r}, which the spec does not define"
                                  if example else "no tla_example and no model to translate it")
        out.append(entry)
    return out


def _templates_text(templates: list[dict[str, Any]]) -> str:
    import yaml

    keep = [{k: t.get(k) for k in ("name", "type", "natural_language", "formal_description", "tla_example")
             if t.get(k)} for t in templates]
    return yaml.safe_dump(keep, sort_keys=False, allow_unicode=True, width=110)


def as_phase_defs(translated: list[dict[str, Any]]) -> list[Any]:
    """Translated entries in the form ``specula.phases.invariants`` takes (its ``InvariantDef``
    when it has one); untranslated entries are left out."""
    ready = [t for t in translated if t.get("text")]
    try:
        from specula.phases import invariants as inv_mod

        cls = getattr(inv_mod, "InvariantDef", None)
    except ImportError:
        cls = None
    if cls is None:
        return ready
    import dataclasses

    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    out = []
    for t in ready:
        kw = {"name": t["name"]}
        for key, val in (("text", t["text"]), ("definition", t["text"]), ("kind", t["type"]),
                         ("type", t["type"]), ("source", t["source"])):
            if key in fields:
                kw[key] = val
        out.append(cls(**kw))
    return out


def now() -> float:
    return time.monotonic()
