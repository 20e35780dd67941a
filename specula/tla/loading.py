"""Loading a spec: the module system resolves it (``modules.py``), the semantic checks check it
(``semantic/``). ``load`` and ``load_text`` raise ``SpecError`` with every problem found;
``check_syntax`` returns them (as SANY reports them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from specula.diagnostics import JSON_SCHEMA, Diagnostic
from specula.errors import InputError, SpecError
from specula.tla.modules import Spec, parse_cached, dedupe, resolve_text
from specula.tla.semantic import check_spec

__all__ = ["load", "load_text", "check_syntax", "SyntaxReport", "with_definitions"]


def load(path: str | Path, search_path: Iterable[str | Path] = (), definitions: Sequence[str] = ()) -> Spec:
    """Load the module in ``path`` with everything it EXTENDS / INSTANCEs; raise ``SpecError``.

    ``definitions`` (``Name == expr`` texts) are added before the module's final ``====``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read spec: {exc.strerror or exc}", str(path)) from None
    _check_root_name(text, p)
    if definitions:
        text = with_definitions(text, definitions)
    return load_text(text, str(path), search_path, root_dir=p.resolve().parent)


def _check_root_name(text: str, p: Path) -> None:
    """SANY refuses a file whose top-level module is named differently (E206)."""
    if p.suffix != ".tla":
        return
    module = parse_cached(text, str(p))[0]
    if module.name and module.name != p.stem:
        sp = module.span
        raise SpecError([Diagnostic(
            "error", "E206", f"file name '{p.stem}' does not match the name '{module.name}' of the module it contains",
            str(p), sp.line, sp.col, sp.line, sp.col, f"rename the file to {module.name}.tla or the module to {p.stem}")])


_END_RE = re.compile(r"^={4,}\s*$", re.M)


def with_definitions(text: str, definitions: Sequence[str]) -> str:
    """Module text with ``definitions`` inserted before its final ``====`` (the lines above keep
    their numbers, so diagnostics about the module's own text stay where they were)."""
    ends = list(_END_RE.finditer(text))
    block = "\n\n" + "\n\n".join(d.strip() for d in definitions) + "\n\n"
    if ends:
        pos = ends[-1].start()
        return text[:pos] + block + text[pos:]
    return text + block + "====\n"


def load_text(text: str, file: str = "<spec>", search_path: Iterable[str | Path] = (),
              root_dir: str | Path | None = None) -> Spec:
    """Like ``load`` for spec text already in memory (modules are searched in ``root_dir``)."""
    spec = resolve_text(text, file, search_path, root_dir)
    errors = [d for d in check_spec(spec) if d.severity == "error"]
    if errors:
        raise SpecError(dedupe(errors))
    return spec


@dataclass
class SyntaxReport:
    """Outcome of ``check_syntax``: diagnostics (empty when the spec is fine) plus the texts
    they point into, for excerpts."""

    path: str
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    modules: list[str]

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def to_dict(self) -> dict:
        return {"schema": JSON_SCHEMA, "spec": self.path, "ok": self.ok, "modules": self.modules,
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


def check_syntax(path: str | Path, search_path: Iterable[str | Path] = ()) -> SyntaxReport:
    """Parse and check ``path`` like SANY; problems are returned, not raised (a missing or
    unreadable file still raises ``InputError``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read spec: {exc.strerror or exc}", str(path)) from None
    try:
        _check_root_name(text, p)
        spec = load_text(text, str(path), search_path, root_dir=p.resolve().parent)
    except SpecError as exc:
        diags = sorted(exc.diagnostics(), key=lambda d: (d.file != str(path), d.file or "", d.line or 0, d.col or 0))
        return SyntaxReport(str(path), diags, {str(path): text}, [])
    return SyntaxReport(str(path), list(spec.warnings), spec.sources, sorted(spec.modules))
