"""The branches of a spec's actions, and variants of the spec text that force one branch.

A branch is a place where an action can go one of several ways, at action level (where the
expression is a step predicate, not a value): a disjunct of ``\\/``, the THEN or ELSE arm of an
IF, an arm (or OTHER) of a CASE. The walk starts at each action's definition and goes through
conjunctions, disjunctions, quantifiers, LET bodies, IF/CASE arms and calls of the module's own
operators (each operator once per action). IF/CASE in value position (``x' = IF c THEN 1 ELSE 2``)
are not branches here: forcing one arm there would change a value, not choose a step.

``variant(text, branch)`` is the spec text with the branch's siblings replaced by ``FALSE``: a
window the variant's action accepts can be explained by that branch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from specula.tla import ast as A

__all__ = ["Branch", "action_branches", "variant"]


@dataclass(frozen=True)
class Branch:
    action: str
    kind: str  # "disjunct" | "then" | "else" | "case" | "other"
    label: str  # "disjunct 2/3", "IF ... THEN", "CASE arm 1", ...
    line: int
    col: int
    operator: str  # the definition the branch sits in
    disable: tuple[tuple[int, int], ...]  # byte ranges (start, end) replaced by FALSE in the variant

    @property
    def id(self) -> str:
        return f"{self.action}@{self.line}:{self.col}:{self.kind}"

    def to_dict(self) -> dict:
        return {"action": self.action, "kind": self.kind, "label": self.label, "line": self.line, "col": self.col,
                "operator": self.operator}


def _snippet(text: bytes, node: A.Node, n: int = 40) -> str:
    s = text[node.span.start:node.span.end].decode("utf-8", "replace")
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def action_branches(module: A.Module, actions: list[str], text: str) -> dict[str, list[Branch]]:
    """Branches of each named action (a definition of ``module``), in source order."""
    raw = text.encode("utf-8")
    defs: dict[str, A.OpDef] = {u.name: u for u in module.units if isinstance(u, A.OpDef)}
    out: dict[str, list[Branch]] = {}
    for act in actions:
        d = defs.get(act)
        if d is None:
            out[act] = []
            continue
        found: list[Branch] = []
        seen_ops: set[str] = {act}
        _walk(d.body, act, act, found, defs, seen_ops, raw, set(actions))
        found.sort(key=lambda b: (b.line, b.col, b.kind))
        out[act] = found
    return out


def _walk(node: A.Node, action: str, op: str, found: list[Branch], defs: dict[str, A.OpDef], seen: set[str],
          raw: bytes, actions: set[str]) -> None:
    sp = node.span
    if isinstance(node, A.Or):
        n = len(node.args)
        for k, arg in enumerate(node.args):
            others = tuple((o.span.start, o.span.end) for j, o in enumerate(node.args) if j != k)
            found.append(Branch(action, "disjunct", f"disjunct {k + 1}/{n}: {_snippet(raw, arg)}", arg.span.line,
                                arg.span.col, op, others))
            _walk(arg, action, op, found, defs, seen, raw, actions)
    elif isinstance(node, A.And):
        for arg in node.args:
            _walk(arg, action, op, found, defs, seen, raw, actions)
    elif isinstance(node, A.If):
        cond = _snippet(raw, node.cond)
        found.append(Branch(action, "then", f"IF {cond} THEN", node.then.span.line, node.then.span.col, op,
                            ((node.else_.span.start, node.else_.span.end),)))
        found.append(Branch(action, "else", f"IF {cond} ELSE", node.else_.span.line, node.else_.span.col, op,
                            ((node.then.span.start, node.then.span.end),)))
        _walk(node.then, action, op, found, defs, seen, raw, actions)
        _walk(node.else_, action, op, found, defs, seen, raw, actions)
    elif isinstance(node, A.Case):
        values = [v for _, v in node.arms] + ([node.other] if node.other is not None else [])
        for k, (guard, value) in enumerate(node.arms):
            others = tuple((v.span.start, v.span.end) for v in values if v is not value)
            found.append(Branch(action, "case", f"CASE {_snippet(raw, guard)} ->", value.span.line, value.span.col,
                                op, others))
        if node.other is not None:
            others = tuple((v.span.start, v.span.end) for v in values if v is not node.other)
            found.append(Branch(action, "other", "CASE OTHER ->", node.other.span.line, node.other.span.col, op,
                                others))
        for v in values:
            _walk(v, action, op, found, defs, seen, raw, actions)
    elif isinstance(node, A.Quant) and node.kind in ("\\E", "\\A", "E", "A", "exists", "forall"):
        _walk(node.body, action, op, found, defs, seen, raw, actions)
    elif isinstance(node, A.Quant):
        _walk(node.body, action, op, found, defs, seen, raw, actions)
    elif isinstance(node, A.Let):
        _walk(node.body, action, op, found, defs, seen, raw, actions)
    elif isinstance(node, A.OpApp) and not node.prefix and node.name in defs and node.name not in seen \
            and node.name not in actions:
        seen.add(node.name)
        _walk(defs[node.name].body, action, node.name, found, defs, seen, raw, actions)
    elif isinstance(node, A.Name) and node.name in defs and node.name not in seen and node.name not in actions:
        d = defs[node.name]
        if not d.params:
            seen.add(node.name)
            _walk(d.body, action, node.name, found, defs, seen, raw, actions)
    del sp


def variant(text: str, branch: Branch) -> str:
    """``text`` with the branch's siblings replaced by FALSE (byte offsets of the original text)."""
    raw = text.encode("utf-8")
    out = bytearray()
    pos = 0
    for start, end in sorted(branch.disable):
        if start < pos:
            continue
        while end > start and raw[end - 1:end] in (b" ", b"\t", b"\n", b"\r"):  # a bulleted list's span
            end -= 1  # runs up to the next token; keep the layout
        out += raw[pos:start] + b"FALSE" + b"\n" * raw[start:end].count(b"\n")  # lines stay where they were
        pos = end
    out += raw[pos:]
    return out.decode("utf-8")


def module_name_of(path: str | Path) -> str:
    return Path(path).stem
