"""Phase 1 — syntax, as SysMoBench scores it, with specula's diagnostics.

The whole module passes the parser and the semantic checks -> 1.0. Otherwise the spec is
decomposed into its top-level definitions (SysMoBench's line-based rule: a definition starts at an
unindented ``Name(params) ==`` line and runs until the next unindented definition or module
keyword); each definition is checked alone in a module that extends TLC, Sequences, Bags,
FiniteSets, Integers and Naturals, with names it cannot see repaired (a bare unknown name becomes
a VARIABLE, an unknown operator becomes ``Op(x1, ..., xn) == TRUE`` with the arity of its first
use) for up to five rounds. P1 = 0.5 x passing definitions / all definitions.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from specula.diagnostics import Diagnostic

__all__ = ["SyntaxResult", "DefinitionCheck", "syntax", "check_spec_file", "decompose"]

DECOMP_EXTENDS = "EXTENDS TLC, Sequences, Bags, FiniteSets, Integers, Naturals"
REPAIR_ROUNDS = 5
_DEF_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(\([^)]*\))?\s*==(.*)$")
_STOP_PREFIXES = ("----", "====", "EXTENDS", "CONSTANT", "VARIABLE", "ASSUME")
# names the front end reports as unknown: quoted with '...' or `...'
_UNKNOWN_RE = re.compile(r"[`'\"]([A-Za-z_][A-Za-z0-9_!]*)['`\"]")


@dataclass
class DefinitionCheck:
    name: str
    ok: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)
    variables_added: list[str] = field(default_factory=list)
    operators_added: list[str] = field(default_factory=list)
    rounds: int = 0
    line: int = 0  # line of the definition in the original spec

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "ok": self.ok,
            "line": self.line,
            "variables_added": self.variables_added,
            "operators_added": self.operators_added,
            "rounds": self.rounds,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }


@dataclass
class SyntaxResult:
    score: float
    compiled: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)
    definitions: list[DefinitionCheck] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "specula.phase.syntax/1",
            "score": self.score,
            "compiled": self.compiled,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "definitions": [d.to_dict() for d in self.definitions],
            "passing_definitions": sum(d.ok for d in self.definitions),
            "total_definitions": len(self.definitions),
        }

    def summary(self, max_chars: int = 3000) -> str:
        if self.compiled:
            return "syntax: the module passes the parser and semantic checks (1.0)"
        lines = [f"syntax: {self.score:.3f}; the module does not compile:"]
        for d in self.diagnostics[:15]:
            lines.append(f"  {d.location()}: {d.message}")
        if len(self.diagnostics) > 15:
            lines.append(f"  ... and {len(self.diagnostics) - 15} more")
        bad = [d for d in self.definitions if not d.ok]
        if bad:
            lines.append(f"definitions failing alone ({len(bad)}/{len(self.definitions)}):")
            for d in bad[:10]:
                first = d.diagnostics[0].message if d.diagnostics else "error"
                lines.append(f"  {d.name} (line {d.line}): {first}")
        text = "\n".join(lines)
        return text[:max_chars]


def check_spec_file(path: str | Path, search_path: Sequence[str | Path] = ()) -> list[Diagnostic]:
    """Parse and semantically check a spec; return its error diagnostics (empty = compiles)."""
    from specula.errors import SpecError
    from specula.tla import load

    try:
        load(str(path), search_path=tuple(str(p) for p in search_path))
    except SpecError as exc:
        return [d for d in exc.diagnostics() if d.severity == "error"]
    return []


def decompose(text: str) -> list[tuple[str, str, int]]:
    """Top-level definitions as (name, text, 1-based line), by SysMoBench's line rule."""
    lines = text.split("\n")
    out: dict[str, tuple[str, int]] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped or stripped.startswith("\\*") or line[:1] in (" ", "\t"):
            i += 1
            continue
        m = _DEF_RE.match(stripped)
        if not m:
            i += 1
            continue
        name, start = m.group(1), i
        body = [line]
        i += 1
        while i < len(lines):
            nxt = lines[i]
            ns = nxt.strip()
            if ns and not ns.startswith("\\*") and nxt[:1] not in (" ", "\t"):
                if ns.startswith(_STOP_PREFIXES) or _DEF_RE.match(ns):
                    break
            body.append(nxt)
            i += 1
        content = "\n".join(body).strip()
        if content:
            out[name] = (content, start + 1)
    return [(name, content, line) for name, (content, line) in out.items()]


def _arity_of_first_use(text: str, name: str) -> int | None:
    """Number of arguments at the first ``name(`` use, or None when used without parentheses."""
    m = re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}\s*\(", text)
    if not m:
        return None
    depth, count, seen = 0, 1, False
    for ch in text[m.end():]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
        elif not ch.isspace():
            seen = True
        if ch in "([{)]}":
            seen = True
    return count if seen else 0


def _unknown_names(diags: list[Diagnostic]) -> list[str]:
    names: list[str] = []
    for d in diags:
        if "unknown" not in d.message.lower() and "undefined" not in d.message.lower():
            continue
        m = _UNKNOWN_RE.search(d.message)
        if m and m.group(1) not in names:
            names.append(m.group(1))
    return names


def _definition_module(module: str, variables: list[str], stubs: list[str], body: str) -> str:
    parts = [f"---- MODULE {module} ----", DECOMP_EXTENDS, ""]
    if variables:
        parts.append("VARIABLES " + ", ".join(variables))
    parts.extend(stubs)
    parts.extend(["", body, "", "===="])
    return "\n".join(parts) + "\n"


def _remap(d: Diagnostic, tmp_file: str, spec_file: str, delta: int, def_line: int) -> Diagnostic:
    if d.file != tmp_file or d.line is None:
        return d
    from dataclasses import replace

    line = d.line + delta
    if line < def_line:  # inside the generated header (e.g. a stub): point at the definition
        return replace(d, file=spec_file, line=def_line, col=None, end_line=None, end_col=None)
    end_line = d.end_line + delta if d.end_line is not None else None
    return replace(d, file=spec_file, line=line, end_line=end_line)


def _check_definition(
    name: str, body: str, line: int, base: str, workdir: Path, spec_file: str
) -> DefinitionCheck:
    module = f"{base}_{name}"
    path = workdir / f"{module}.tla"
    variables: list[str] = []
    stub_names: list[str] = []
    stubs: list[str] = []
    result = DefinitionCheck(name=name, ok=False, line=line)
    diags: list[Diagnostic] = []
    for round_no in range(REPAIR_ROUNDS + 1):
        path.write_text(_definition_module(module, variables, stubs, body), encoding="utf-8")
        diags = check_spec_file(path)
        result.rounds = round_no
        if not diags:
            break
        unknown = [n for n in _unknown_names(diags) if n not in variables and n not in stub_names and n != name]
        if not unknown or round_no == REPAIR_ROUNDS:
            break
        for n in unknown:
            arity = _arity_of_first_use(body, n)
            if arity is None:
                variables.append(n)
            else:
                stub_names.append(n)
                params = ", ".join(f"x{k}" for k in range(1, arity + 1))
                stubs.append(f"{n}({params}) == TRUE" if arity else f"{n} == TRUE")
    result.ok = not diags
    # point diagnostics back at the original spec: the body starts after the module header
    header = _definition_module(module, variables, stubs, "\x00").split("\x00")[0].count("\n")
    result.diagnostics = [_remap(d, str(path), spec_file, line - header - 1, line) for d in diags]
    result.variables_added = variables
    result.operators_added = stub_names
    return result


def syntax(spec_path: str | Path, search_path: Sequence[str | Path] = ()) -> SyntaxResult:
    """Score phase 1 for the spec at ``spec_path``."""
    spec_path = Path(spec_path)
    diags = check_spec_file(spec_path, search_path)
    if not diags:
        return SyntaxResult(score=1.0, compiled=True)
    text = spec_path.read_text(encoding="utf-8", errors="replace")
    defs = decompose(text)
    checks: list[DefinitionCheck] = []
    with tempfile.TemporaryDirectory(prefix="specula-p1-") as tmp:
        for name, body, line in defs:
            checks.append(_check_definition(name, body, line, spec_path.stem, Path(tmp), str(spec_path)))
    passing = sum(c.ok for c in checks)
    score = 0.5 * passing / len(checks) if checks else 0.0
    return SyntaxResult(score=score, compiled=False, diagnostics=diags, definitions=checks)
