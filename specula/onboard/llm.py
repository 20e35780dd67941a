"""An LLM corrects the index's proposal: one request, one ``submit_proposal`` tool call.

What the model returns is checked against the index: an action whose entry is no function of
the repository keeps its name but the entry is left empty (and said so); state fields that no
type declares are dropped. A failed or empty reply leaves the proposal as the index made it.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from specula.code.model import FUNCTION_KINDS, RepoIndex
from specula.onboard.proposal import InstrumentationPoint, Proposal, ProposedAction, StateVar

__all__ = ["refine", "SUBMIT_TOOL"]

_ACTION = {"type": "object", "properties": {
    "name": {"type": "string", "description": "TLA+ action name, CamelCase"},
    "entry": {"type": "string", "description": "qualified name of the function performing it"},
    "kind": {"type": "string", "enum": ["handler", "timer", "lock", "transition", "client", "queue", "core", "traced"]},
    "why": {"type": "string"}}, "required": ["name", "entry"]}
_STATE = {"type": "object", "properties": {
    "name": {"type": "string", "description": "spec variable name"},
    "owner": {"type": "string", "description": "type holding the field ('' for a global)"},
    "field": {"type": "string", "description": "the field's name in the code"}}, "required": ["name", "field"]}
SUBMIT_TOOL = {"name": "submit_proposal", "description": "Submit the corrected proposal.",
               "parameters": {"type": "object", "properties": {
                   "module": {"type": "string"}, "description": {"type": "string"},
                   "actions": {"type": "array", "items": _ACTION}, "state": {"type": "array", "items": _STATE}},
                   "required": ["actions"]}}


def _find_function(index: RepoIndex, entry: str):
    hits = [s for s in index.by_qualname.get(entry, ()) if s.kind in FUNCTION_KINDS]
    if not hits and "." in entry:
        hits = [s for s in index.by_name.get(entry.rsplit(".", 1)[-1], ()) if s.kind in FUNCTION_KINDS
                and (s.parent or "").endswith(entry.rsplit(".", 1)[0])]
    if not hits:
        hits = [s for s in index.by_name.get(entry, ()) if s.kind in FUNCTION_KINDS]
    return hits[0] if len(hits) >= 1 else None


def _apply(p: Proposal, args: dict[str, Any], index: RepoIndex, model: str) -> Proposal:
    actions: list[ProposedAction] = []
    seen: set[str] = set()
    for a in args.get("actions") or []:
        if not isinstance(a, dict) or not str(a.get("name", "")).strip():
            continue
        name = str(a["name"]).strip()
        if name in seen:
            continue
        seen.add(name)
        entry = str(a.get("entry", "")).strip()
        fn = _find_function(index, entry) if entry else None
        why = str(a.get("why", "")).strip() or "proposed by the model"
        if fn is None:
            actions.append(ProposedAction(name, str(a.get("kind") or "core"), "", "", 0,
                                          f"{why} (entry {entry!r} not found in the index)"))
        else:
            actions.append(ProposedAction(name, str(a.get("kind") or "core"), fn.qualname, fn.file, fn.line, why,
                                          fn.end_line))
    if not actions:
        return p
    fields = {(s.parent or "", s.name): s for s in index.symbols if s.kind in ("field", "global", "local")}
    by_field: dict[str, list] = {}
    for (owner, name), s in fields.items():
        by_field.setdefault(name, []).append(s)
    old = {(s.owner, s.field): s for s in p.state}
    state: list[StateVar] = []
    for s in args.get("state") or []:
        if not isinstance(s, dict) or not s.get("field"):
            continue
        fld, owner = str(s["field"]), str(s.get("owner") or "")
        sym = fields.get((owner, fld)) or next((x for x in by_field.get(fld, ()) if not owner or
                                                (x.parent or "").endswith(owner)), None)
        if sym is None:
            continue
        prev = old.get((sym.parent or "", fld))
        state.append(StateVar(str(s.get("name") or fld), sym.parent or "", fld, sym.file, sym.line,
                              prev.writers if prev else [], per_node=bool(sym.parent) and sym.parent == p.node_type))
    emitted = {pt.action: pt for pt in p.instrumentation if pt.note == "already emitted here"}
    points = [emitted.get(a.name) or InstrumentationPoint(a.name, a.file, a.end_line or a.line, a.entry,
                                                          "emit the step after the state change, before the function returns")
              for a in actions if a.entry or a.name in emitted]
    src = list(dict.fromkeys([a.file for a in actions if a.file] + [s.file for s in state]))[:8]
    return Proposal(name=p.name, module=str(args.get("module") or p.module).strip() or p.module, language=p.language,
                    system_type=p.system_type, focus=p.focus,
                    description=str(args.get("description") or p.description).strip(),
                    source_files=src or p.source_files, actions=actions, state=state or p.state,
                    instrumentation=points, node_type=p.node_type, refined_by=model)


def refine(p: Proposal, provider, index: RepoIndex, *, map_budget: int = 2500,
           on_event: Callable[[dict], None] | None = None) -> Proposal:
    """The proposal as ``provider`` corrects it (ProviderError propagates: the caller decides)."""
    from specula.agent.messages import Message, ToolSpec
    from specula.agent.prompts import render
    from specula.code.repomap import repo_map

    m = repo_map(index, p.focus, map_budget, names=p.action_names(), files=p.source_files)
    text = render("onboard.md", focus=p.focus or "(none: the whole system)",
                  proposal=json.dumps(p.to_dict(), indent=1), repo_map=m.text)
    tool = ToolSpec(SUBMIT_TOOL["name"], SUBMIT_TOOL["description"], SUBMIT_TOOL["parameters"])
    reply = provider.complete("You are a careful engineer who models systems in TLA+.",
                              [Message(role="user", content=text)], [tool], max_tokens=4096)
    if on_event is not None:
        on_event({"event": "refine", "model": provider.model, "usage": reply.usage.to_dict()
                  if hasattr(reply.usage, "to_dict") else {}})
    for call in reply.message.tool_calls:
        if call.name == SUBMIT_TOOL["name"] and isinstance(call.arguments, dict):
            return _apply(p, call.arguments, index, f"{provider.provider}/{provider.model}")
    return p
