"""Text-level edits of a TLA+ module: find, replace and list top-level definitions by name.

Works on the text (not the AST) so that it also works on specs that do not parse yet, which is
when the agent needs it most. A top-level definition starts at column 0 with ``Name ==``,
``Name(args) ==`` or ``Name[x \\in S] ==`` (optionally ``LOCAL``); it runs until the next
top-level unit (definition, declaration, separator line, end of module), minus trailing blank
and comment lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Definition", "definitions", "find_definition", "replace_definition", "module_name",
           "defined_names", "with_line_numbers"]

_DEF = re.compile(r"^(?:LOCAL\s+)?(?:RECURSIVE\s+\S.*\n)?([A-Za-z_][A-Za-z0-9_]*)\s*(\(|\[|==)")
_UNIT = re.compile(r"^(?:LOCAL\s+)?(?:[A-Za-z_][A-Za-z0-9_]*\s*(?:\([^=]*\)|\[[^=]*\])?\s*==|"
                   r"VARIABLES?\b|CONSTANTS?\b|ASSUME\b|ASSUMPTION\b|AXIOM\b|THEOREM\b|LEMMA\b|INSTANCE\b|"
                   r"EXTENDS\b|RECURSIVE\b|-{4,}|={4,})")
_OPEN_HEAD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\s*\([^)=]*$")
_MODULE = re.compile(r"^\s*-{4,}\s*MODULE\s+([A-Za-z0-9_]+)\s*-{4,}", re.M)
_KEYWORDS = {"VARIABLE", "VARIABLES", "CONSTANT", "CONSTANTS", "ASSUME", "THEOREM", "LEMMA", "INSTANCE",
             "EXTENDS", "LOCAL", "RECURSIVE", "AXIOM", "ASSUMPTION"}


@dataclass(frozen=True)
class Definition:
    name: str
    start: int  # 0-based line index of the first line
    end: int  # 0-based index one past the last line
    text: str


def module_name(text: str) -> str | None:
    m = _MODULE.search(text)
    return m.group(1) if m else None


def definitions(text: str) -> list[Definition]:
    lines = text.split("\n")
    starts: list[tuple[int, str | None]] = []
    for i, line in enumerate(lines):
        if line[:1].isspace() or not line:
            continue
        if _UNIT.match(line) or (_OPEN_HEAD.match(line) and _continues_to_def(lines, i)):
            m = _DEF.match(line)
            name = m.group(1) if m and m.group(2) and m.group(1) not in _KEYWORDS else None
            if name is not None and "==" not in line and not _continues_to_def(lines, i):
                name = None
            starts.append((i, name))
    out: list[Definition] = []
    for k, (i, name) in enumerate(starts):
        if name is None:
            continue
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        while end > i + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith(("\\*", "(*"))
                               and not lines[end - 1][:1].isspace()):
            end -= 1
        out.append(Definition(name, i, end, "\n".join(lines[i:end])))
    return out


def _continues_to_def(lines: list[str], i: int) -> bool:
    """A head split over lines (``Op(a,\\n    b) ==``)."""
    for j in range(i, min(i + 4, len(lines))):
        if "==" in lines[j]:
            return ")" in lines[j].split("==")[0] or "(" not in lines[i]
        if j > i and not lines[j][:1].isspace():
            return False
    return False


def defined_names(text: str) -> list[str]:
    return [d.name for d in definitions(text)]


def find_definition(text: str, name: str) -> Definition | None:
    return next((d for d in definitions(text) if d.name == name), None)


def replace_definition(text: str, name: str, new_text: str) -> str:
    """Replace definition ``name``; insert before the ``====`` line if it does not exist."""
    lines = text.split("\n")
    d = find_definition(text, name)
    body = new_text.rstrip("\n").split("\n")
    if d is not None:
        return "\n".join(lines[: d.start] + body + lines[d.end:])
    for i in range(len(lines) - 1, -1, -1):
        if re.match(r"^={4,}", lines[i]):
            return "\n".join(lines[:i] + body + [""] + lines[i:])
    return "\n".join(lines + body)


def with_line_numbers(text: str, start: int = 1) -> str:
    return "\n".join(f"{i:>4}  {line}" for i, line in enumerate(text.split("\n"), start))
