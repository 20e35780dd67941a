"""Diagnostics are data: code, severity, message and a source span.

Every output format is a renderer over the same list, so text and JSON never
disagree. Lines and columns are 1-based.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Literal

__all__ = ["Diagnostic", "Severity", "render_concise", "render_full", "render_json", "JSON_SCHEMA"]

Severity = Literal["error", "warning", "info"]
JSON_SCHEMA = "specula.diagnostics/1"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: Severity
    code: str
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    end_line: int | None = None
    end_col: int | None = None
    help: str | None = None

    def location(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


def _head(d: Diagnostic) -> str:
    where = f"{d.location()}: " if d.file is not None or d.line is not None else ""
    return f"{where}{d.severity}: {d.message} [{d.code}]"


def render_concise(diags: Iterable[Diagnostic]) -> str:
    """``file:line:col: severity: message [code]`` (no location part when there is none), one line each."""
    return "\n".join(_head(d) for d in diags)


def _source_lines(path: str | None, cache: dict[str, list[str]], sources: dict[str, str] | None) -> list[str] | None:
    if path is None:
        return None
    if path not in cache:
        text = (sources or {}).get(path)
        if text is None:
            try:
                text = Path(path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                return None
        cache[path] = text.splitlines()
    return cache[path]


def render_full(diags: Iterable[Diagnostic], sources: dict[str, str] | None = None) -> str:
    """Concise line, then the source line with a caret under the span, then help."""
    cache: dict[str, list[str]] = {}
    out: list[str] = []
    for d in diags:
        out.append(_head(d))
        lines = _source_lines(d.file, cache, sources)
        if lines is not None and d.line is not None and 1 <= d.line <= len(lines):
            text = lines[d.line - 1].expandtabs(1)
            col = d.col or 1
            width = 1
            if d.end_col is not None and (d.end_line in (None, d.line)) and d.end_col > col:
                width = d.end_col - col
            gutter = f"{d.line:>5} | "
            out.append(gutter + text)
            out.append(" " * (len(gutter) + col - 1) + "^" * max(1, min(width, len(text) - col + 2)))
        if d.help:
            out.append(f"  help: {d.help}")
    return "\n".join(out)


def render_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps({"schema": JSON_SCHEMA, "diagnostics": [d.to_dict() for d in diags]}, indent=2)
