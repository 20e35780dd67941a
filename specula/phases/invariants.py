"""Phase 4 — invariants: each translated template checked alone, as SysMoBench does.

Input is *finished* text: ``InvariantDef`` objects whose ``definition`` is a TLA+ definition over
the spec's own names (translation from SysMoBench templates happens before this phase — by an LLM
in the agent room, or statically by :mod:`specula.phases.templates`). Each invariant is added to
the spec and checked alone: safety under INVARIANT, liveness under PROPERTY, deadlock off, time
limit (60 s); a timeout with no violation passes. Templates that could not be translated are left
out of the denominator. P4 = passed / tested.

Liveness properties are checked only when the engine's checker reports a verdict for them; while
it reports "not checked", the row says so and is left out of the denominator (never passed).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.tla.loading import with_definitions

__all__ = [
    "InvariantTemplate",
    "InvariantDef",
    "InvariantRow",
    "InvariantResult",
    "load_templates",
    "invariants",
    "spec_with_definitions",
]


@dataclass(frozen=True)
class InvariantTemplate:
    name: str
    type: str  # "safety" | "liveness"
    natural_language: str = ""
    formal_description: str = ""
    tla_example: str = ""


@dataclass(frozen=True)
class InvariantDef:
    """A template turned into a definition over the spec's names (``Name == expr``)."""

    name: str
    type: str
    definition: str
    source: str = "example"  # "example" | "mapping" | "llm"


@dataclass
class InvariantRow:
    name: str
    type: str
    status: str  # "passed" | "violated" | "error" | "incomplete" (--strict, cut by the limit) | "not checked" | "untranslated"
    message: str = ""
    vacuous: str | None = None  # why the invariant looks vacuous, if it does
    counterexample: list[dict[str, Any]] = field(default_factory=list)
    distinct: int = 0
    elapsed: float = 0.0
    source: str = ""
    exhaustive: bool = True  # False: the search was cut by its time limit (passed as SysMoBench scores it)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class InvariantResult:
    score: float
    rows: list[InvariantRow] = field(default_factory=list)

    @property
    def tested(self) -> int:
        return sum(r.status in ("passed", "violated", "error", "incomplete") for r in self.rows)

    @property
    def passed(self) -> int:
        return sum(r.status == "passed" for r in self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "specula.phase.invariants/1",
            "score": self.score,
            "passed": self.passed,
            "tested": self.tested,
            "rows": [r.to_dict() for r in self.rows],
        }

    def summary(self, max_chars: int = 3000) -> str:
        lines = [f"invariants: {self.score:.3f} ({self.passed}/{self.tested} passed)"]
        for r in self.rows:
            if r.status == "passed" and not r.vacuous and r.exhaustive:
                continue
            line = f"- {r.name} [{r.type}]: {r.status}"
            if r.message:
                line += f": {r.message}"
            if r.vacuous:
                line += f" (vacuous? {r.vacuous})"
            lines.append(line)
            if r.counterexample:
                for step in r.counterexample[-4:]:
                    lines.append(f"    {step.get('action') or 'Init'}: {step.get('state')}")
        return "\n".join(lines)[:max_chars]


def load_templates(path: str | Path) -> list[InvariantTemplate]:
    """Read a SysMoBench ``invariants.yaml``; raises ConfigError naming the bad field."""
    from specula.errors import ConfigError
    from specula.yamlfile import load_yaml_file

    p = Path(path)
    data = load_yaml_file(p, "invariant templates")
    items = data.get("invariants") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise ConfigError("expected a top-level 'invariants:' list", str(p), field="invariants")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not item.get("name"):
            raise ConfigError(f"invariant #{i + 1} has no name", str(p), field=f"invariants[{i}].name")
        kind = str(item.get("type", "safety")).lower()
        if kind not in ("safety", "liveness"):
            raise ConfigError(
                f"invariant {item['name']}: type must be safety or liveness, not {kind!r}",
                str(p),
                field=f"invariants[{i}].type",
            )
        out.append(
            InvariantTemplate(
                name=str(item["name"]),
                type=kind,
                natural_language=str(item.get("natural_language", "") or "").strip(),
                formal_description=str(item.get("formal_description", "") or "").strip(),
                tla_example=str(item.get("tla_example", "") or "").strip(),
            )
        )
    return out


def spec_with_definitions(spec_path: str | Path, definitions: Sequence[str], workdir: str | Path) -> Path:
    """Copy the spec's folder into ``workdir`` and insert ``definitions`` before the final ``====``."""
    spec_path = Path(spec_path)
    workdir = Path(workdir)
    for f in spec_path.parent.glob("*.tla"):
        shutil.copy(f, workdir / f.name)
    out = workdir / spec_path.name
    out.write_text(with_definitions(spec_path.read_text(encoding="utf-8"), definitions), encoding="utf-8")
    return out


_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _vacuity(defn: InvariantDef, spec_text: str, variables: Sequence[str]) -> str | None:
    """Flag an invariant that mentions no state variable, even through the definitions it uses."""
    from specula.phases.syntax import decompose

    bodies = {name: body for name, body, _ in decompose(spec_text)}
    body = defn.definition.split("==", 1)[-1]
    seen: set[str] = set()
    todo = set(_IDENT_RE.findall(body))
    vars_ = set(variables)
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        if n in vars_:
            return None
        if n in bodies:
            todo.update(_IDENT_RE.findall(bodies[n].split("==", 1)[-1]))
    return "mentions no state variable"


def invariants(
    spec_path: str | Path,
    cfg_path: str | Path | None,
    defs: Sequence[InvariantDef],
    untranslated: Sequence[InvariantTemplate] = (),
    seconds: float = 60.0,
    search_path: Sequence[str | Path] = (),
    strict: bool = False,
    on_progress: Callable[[str], None] | None = None,
    max_memory: str | None = None,
    model: Any = None,
) -> InvariantResult:
    """Score phase 4: check every definition alone; untranslated templates are reported only.

    The spec is loaded and compiled once with every definition added (one Model; ``model``, when
    given, is that compilation already made for the other phases, see ``build_model``); each
    invariant is then checked alone by naming it in a copy of the task's cfg. A definition that
    does not compile with the others is retried alone, so one bad translation costs only its row.
    A search cut by the time limit with no violation passes, as SysMoBench scores it, and says so
    (``exhaustive`` False); with ``strict`` it is ``incomplete`` and does not count as passed.
    """
    from specula.tla import load_cfg

    spec_path = Path(spec_path)
    cfg_file = Path(cfg_path) if cfg_path else spec_path.with_suffix(".cfg")
    base_cfg = load_cfg(cfg_file)
    spec_text = spec_path.read_text(encoding="utf-8")
    shared = model
    if shared is None and defs:
        shared = _model_with(spec_path, spec_text, base_cfg, [d.definition for d in defs], search_path)
    rows = []
    for i, d in enumerate(defs, 1):
        if on_progress is not None:
            on_progress(f"invariants: {d.name} ({i}/{len(defs)}, up to {seconds:.0f} s)")
        rows.append(_check_one(d, shared, spec_path, spec_text, base_cfg, seconds, search_path, strict, on_progress,
                               max_memory))
    for t in untranslated:
        rows.append(InvariantRow(name=t.name, type=t.type, status="untranslated", message="no translation"))
    result = InvariantResult(score=0.0, rows=rows)
    result.score = result.passed / result.tested if result.tested else 0.0
    return result


def _model_with(spec_path: Path, spec_text: str, cfg: Any, definitions: Sequence[str],
                search_path: Sequence[str | Path]) -> Any:
    """The spec with ``definitions`` added before its final ``====``, compiled; None if it fails."""
    from specula.errors import SpeculaError
    from specula.tla import Model, load_text

    try:
        spec = load_text(with_definitions(spec_text, definitions), str(spec_path),
                         tuple(str(p) for p in search_path), root_dir=spec_path.resolve().parent)
        return Model(spec, _alone(cfg, None, "safety"))
    except SpeculaError:
        return None


def _alone(cfg: Any, name: str | None, kind: str) -> Any:
    """The task's cfg with its INVARIANT/PROPERTY sections replaced by ``name`` alone."""
    invs = [name] if name and kind != "liveness" else []
    props = [name] if name and kind == "liveness" else []
    return dataclasses.replace(cfg, invariants=invs, properties=props)


def _check_one(d: InvariantDef, shared: Any, spec_path: Path, spec_text: str, base_cfg: Any, seconds: float,
               search_path: Sequence[str | Path], strict: bool = False,
               on_progress: Callable[[str], None] | None = None, max_memory: str | None = None) -> InvariantRow:
    from specula.errors import SpeculaError
    from specula.tla import Limits, Model, check, load_text

    row = InvariantRow(name=d.name, type=d.type, status="error", source=d.source)
    cfg = _alone(base_cfg, d.name, d.type)
    try:
        model = shared
        if model is None:  # compile this definition alone to report its own error
            spec = load_text(with_definitions(spec_text, [d.definition]), str(spec_path),
                             tuple(str(p) for p in search_path), root_dir=spec_path.resolve().parent)
            model = Model(spec, cfg)
        row.vacuous = _vacuity(d, spec_text, model.variables)
        from specula.phases.runtime import progress_lines
        from specula.tla.memory import memory_limit

        res = check(model, Limits(max_seconds=seconds, check_deadlock=False, progress_every=5.0,
                                  max_memory=memory_limit(max_memory)), cfg=cfg,
                    on_progress=progress_lines(on_progress, f"invariants: {d.name}"))
        if res.stopped == "interrupted":  # never scored as a pass: stop the phase
            raise KeyboardInterrupt
    except SpeculaError as exc:
        diags = exc.diagnostics()
        row.message = diags[0].message if diags else str(exc)
        return row
    row.distinct = res.distinct
    row.elapsed = round(res.elapsed, 3)
    prop = next((p for p in getattr(res, "properties", []) if p.name == d.name), None)
    unchecked = prop is not None and (prop.status == "not checked" or "not checked" in (prop.detail or ""))
    if unchecked and res.verdict in ("ok", "limit"):
        row.status = "not checked"
        row.message = prop.detail or "liveness checking is not available for this property"
    elif res.verdict in ("ok", "limit"):
        row.status = "passed"
        if res.verdict == "limit":
            row.exhaustive = False
            from specula.phases.runtime import limit_word

            limit = limit_word(res.stopped)
            row.message = f"passed by {limit} limit: {res.distinct} states explored, not exhaustive"
            if strict:
                row.status = "incomplete"
                row.message = f"incomplete (--strict): {limit} limit reached after {res.distinct} states, no violation"
    elif res.verdict in ("invariant", "action-property", "temporal", "liveness") and res.violated in (d.name, None):
        row.status = "violated"
        row.message = res.message
        row.counterexample = _trace(res)
    else:
        row.status = "error"
        row.message = f"{res.verdict}: {res.message}"
        row.counterexample = _trace(res)
    return row


def _trace(res: Any) -> list[dict[str, Any]]:
    from specula.tla.values import to_json

    return [
        {"action": label, "state": {v: to_json(x) for v, x in zip(res.variables, st)}}
        for label, st in res.counterexample
    ]
