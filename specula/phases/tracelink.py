"""Phase 3 for PGo tasks: TraceLink runs validated against a spec as SysMoBench does it.

SysMoBench runs PGo's tracegen on the task's MPCal reference spec to get a validation module per
run, substitutes the spec under test for the reference (``__instance``), and lets TLC explore it:
the behaviours are every interleaving of the processes' records that their vector clocks allow;
``__progress_inv`` fails when a record whose clock allows it cannot be applied, and
``__IsRefinement == [][__instance!Next \\/ __Stuttering]_vars`` fails when a step is not a step
of the spec under test. A run passes when TLC finds neither. This module explores the same graph
(:mod:`specula.traces.pgo_replay` applies records through the reference's mapping macros) and
checks the same two properties, reporting the first failure with the record (file:line), the
label and specula's diagnosis of the step. Label coverage is counted as SysMoBench counts it.

The spec under test is read over the reference's variables (SysMoBench's identity substitution):
a spec with other variables needs a refinement mapping, which is reported, not guessed.
"""

from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from specula.errors import ConfigError

__all__ = ["RunVerdict", "TraceLinkResult", "PgoSetup", "pgo_setup", "validate_tracelink", "validation_cfg_text",
           "declarations", "unmapped_variables", "parse_refinement"]


@dataclass
class RunVerdict:
    run: str
    ok: bool
    records: int
    explored: int  # (clock, state) nodes of the validation graph
    failure: dict[str, Any] | None = None
    labels: list[str] = field(default_factory=list)  # labels of records applied on some path

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "ok": self.ok, "records": self.records, "explored": self.explored,
                "failure": self.failure, "labels": self.labels}


@dataclass
class TraceLinkResult:
    runs: list[RunVerdict]
    label_total: int

    @property
    def passed(self) -> int:
        return sum(r.ok for r in self.runs)

    @property
    def score(self) -> float:
        return self.passed / len(self.runs) if self.runs else 0.0

    @property
    def covered(self) -> list[str]:
        ok = {lb for r in self.runs for lb in r.labels}
        bad = {r.failure["label"] for r in self.runs if r.failure and r.failure.get("label")}
        return sorted(ok - bad)

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "runs_total": len(self.runs), "runs_passed": self.passed,
                "label_coverage": {"covered": self.covered, "total": self.label_total},
                "runs": [r.to_dict() for r in self.runs]}

    def summary(self) -> str:
        lines = [f"conformance (PGo TraceLink): {self.passed}/{len(self.runs)} runs validate; "
                 f"labels covered {len(self.covered)}/{self.label_total}"]
        for r in self.runs:
            if r.failure:
                f = r.failure
                lines.append(f"  run {r.run}: {f['kind']} at {f['where']} (process {f['process']}, label "
                             f"{f['label']}): {f['message']}")
        return "\n".join(lines)


@dataclass(frozen=True)
class PgoSetup:
    """What validating a PGo task's runs needs: the MPCal reference spec and tracegen's constants."""

    reference: Path
    validate_cfg: Path | None


def pgo_setup(traces_dir: Path | None, module: str, task: Any = None) -> PgoSetup | None:
    """The MPCal reference spec ``<module>.tla`` (with its ``<module>Validate.cfg``) of a SysMoBench
    PGo task: beside the runs' folder (a task's ``traces_found/``), else in the task's own trace
    generation folder (runs imported elsewhere, e.g. ``bench traces TASK --import ... --out DIR``).
    None when neither has one."""
    places: list[Path] = []
    if traces_dir is not None:
        places.append(Path(traces_dir).parent)
    if task is not None:  # a specula.tasks.Task
        if task.generator_dir is not None:
            places.append(Path(task.generator_dir))
        if task.traces_dir is not None:
            places.append(Path(task.traces_dir).parent)
    for place in places:
        ref = place / f"{module}.tla"
        if ref.is_file() and "--mpcal" in ref.read_text(encoding="utf-8", errors="replace"):
            cfg = place / f"{module}Validate.cfg"
            return PgoSetup(ref, cfg if cfg.is_file() else None)
    return None


def validation_cfg_text(setup: PgoSetup, runs: Sequence[Path], spec_defines_spec: bool = True) -> str:
    """The cfg tracegen's validation module runs with: the task's ``<Module>Validate.cfg``
    constants, ``defaultInitValue`` as a model value, and ``X <- __all_strings`` replaced by the set
    of strings the runs' records carry (tracegen reads them from its AllStrings file)."""
    import re

    text = setup.validate_cfg.read_text(encoding="utf-8") if setup.validate_cfg else ""
    if "__all_strings" in text:
        strings = sorted(_run_strings(runs))
        literal = "{" + ", ".join('"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"' for x in strings) + "}"
        text = re.sub(r"(\w+)\s*<-\s*__all_strings", lambda m: f"{m.group(1)} = {literal}", text)
    if "defaultInitValue" not in text:
        text += "\nCONSTANT defaultInitValue = defaultInitValue\n"
    if not re.search(r"^\s*(SPECIFICATION|INIT)\b", text, re.M):
        text += "\nSPECIFICATION Spec\n" if spec_defines_spec else "\nINIT Init\nNEXT Next\n"
    return text


def _run_strings(runs: Sequence[Path]) -> set[str]:
    import json
    import re

    from specula.traces.pgo_replay import read_records

    out: set[str] = set()
    for run in runs:
        for recs in read_records(run).values():
            for rec in recs:
                for el in rec.elements:
                    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', str(el.get("value", ""))):
                        out.add(json.loads('"' + m.group(1) + '"'))
    return out


def build_with_cfg(spec_path: Path, cfg_text: str, search_path: Sequence[Path] = ()) -> Any:
    """A ``tla.Model`` of ``spec_path`` under a cfg given as text (named after the spec in errors)."""
    from specula.tla import Model, load, parse_cfg
    from specula.tla.cfg import check_cfg_names

    spec = load(str(spec_path), search_path=tuple(str(p) for p in search_path))
    cfg = parse_cfg(cfg_text, f"{spec_path.with_suffix('')} (tracegen's validation cfg)")
    check_cfg_names(cfg, spec)
    return Model(spec, cfg)


def validate_tracelink(runs: Sequence[Path], setup: PgoSetup, spec_path: Path, spec_cfg: Path | None = None,
                       refinement: str | None = None, max_nodes: int = 200_000,
                       max_seconds: float | None = 600.0) -> TraceLinkResult:
    """Validate each TraceLink run folder against the spec at ``spec_path``.

    The spec is read with tracegen's constants (as SysMoBench substitutes it into the validation
    module); constants those do not set come from the spec's own cfg (``spec_cfg``, default
    SPEC.cfg). ``refinement`` is SysMoBench's mapping text (``WITH a <- b, c <- 3``): a spec
    variable renamed to a reference variable, a spec constant given a value or a reference
    constant. Without it the spec must use the reference's variable names. A run whose
    interleavings are not all explored within ``max_nodes`` nodes or ``max_seconds`` does not
    pass (kind ``limit``): it was not validated.
    """
    from specula.traces.mpcal import parse_mpcal
    from specula.traces.pgo_replay import Replayer

    mpcal = parse_mpcal(setup.reference.read_text(encoding="utf-8"))
    ref_model = build_with_cfg(setup.reference, validation_cfg_text(setup, runs))
    mapping = parse_refinement(refinement or "")
    defines_spec = "Spec" in _definition_names(spec_path)
    text = validation_cfg_text(setup, runs, defines_spec)
    text += _extra_constants(spec_path, spec_cfg, text, mapping, ref_model)
    same = Path(spec_path).resolve() == Path(setup.reference).resolve() and text == validation_cfg_text(setup, runs)
    spec = ref_model if same else build_with_cfg(spec_path, text)  # the reference itself: compiled once
    renaming = {}
    for v in spec.variables:
        target = mapping.get(v, v)
        if not target.isidentifier() or target not in ref_model.variables:
            raise ConfigError(f"spec variable {v!r} is not a variable of the reference spec"
                              + (f" (mapped to {target!r})" if v in mapping else "")
                              + f"; give it as `{v} <- <reference variable>` in the refinement mapping "
                              f"(reference variables: {', '.join(ref_model.variables)})", path=str(spec_path))
        renaming[v] = target
    undetermined = sorted(set(ref_model.variables) - set(renaming.values()))
    if undetermined:
        raise ConfigError(f"no spec variable stands for the reference variable(s) {', '.join(undetermined)}: the "
                          "spec's Init cannot determine them (SysMoBench's validation module needs every one)",
                          path=str(spec_path))
    replayer = Replayer(ref_model, mpcal)
    labels = _labels(ref_model)
    return TraceLinkResult([_one(Path(r), replayer, spec, renaming, max_nodes, max_seconds) for r in runs], len(labels))


_DECL = re.compile(r"^[ \t]*(VARIABLES?|CONSTANTS?)\b(.*)$")


def declarations(text: str) -> tuple[list[str], list[str], list[str]]:
    """(declaration lines, variable names, constant names) of a module's text: what SysMoBench
    shows the model that writes a refinement mapping (no definitions, no bodies)."""
    lines = text.split("\n")
    out: list[str] = []
    variables: list[str] = []
    constants: list[str] = []
    i = 0
    while i < len(lines):
        m = _DECL.match(lines[i])
        if not m:
            i += 1
            continue
        block = [lines[i].rstrip()]
        body = [m.group(2)]
        j = i + 1
        while j < len(lines) and lines[j].strip() and lines[j][:1].isspace() and not _DECL.match(lines[j]):
            block.append(lines[j].rstrip())
            body.append(lines[j])
            j += 1
        out.extend(block)
        names = re.sub(r"\(\*.*?\*\)|\\\*[^\n]*", "", "\n".join(body), flags=re.S)
        for n in names.replace("\n", " ").split(","):
            n = n.split("(")[0].strip()
            if n.isidentifier():
                (variables if m.group(1).startswith("VARIABLE") else constants).append(n)
        i = j
    return out, variables, constants


def unmapped_variables(spec_path: Path, setup: PgoSetup, refinement: str | None = None) -> list[str]:
    """Spec variables that are not variables of the reference and that ``refinement`` does not
    map: phase 3 of a PGo task cannot run without a mapping for them."""
    ref_vars = set(declarations(setup.reference.read_text(encoding="utf-8", errors="replace"))[1])
    mapping = parse_refinement(refinement or "")
    spec_vars = declarations(Path(spec_path).read_text(encoding="utf-8", errors="replace"))[1]
    return [v for v in spec_vars if mapping.get(v, v) not in ref_vars]


def parse_refinement(text: str) -> dict[str, str]:
    """SysMoBench's refinement mapping (``WITH x <- e, y <- f``, ``\\*`` comments) as name -> TLA+ text."""
    import re

    from specula.traces.mpcal import split_top

    body = re.sub(r"\\\*[^\n]*", "", text).strip()
    body = re.sub(r"^WITH\b", "", body).strip()
    out: dict[str, str] = {}
    for part in split_top(body, ","):
        if not part.strip():
            continue
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*<-\s*(.+?)\s*", part, re.S)
        if not m:
            raise ConfigError(f"refinement mapping: cannot read {part.strip()!r} (expected `name <- expression`)")
        out[m.group(1)] = m.group(2)
    return out


def _extra_constants(spec_path: Path, spec_cfg: Path | None, base: str, mapping: dict[str, str], ref_model: Any) -> str:
    """CONSTANT lines for the spec's constants tracegen's cfg does not set: from the mapping (a
    value or a reference constant), else from the spec's own cfg."""
    import re

    from specula.tla import load_cfg
    from specula.tla.values import format_value

    have = set(re.findall(r"^\s*(?:CONSTANTS?\s+)?([A-Za-z_]\w*)\s*(?:=|<-)", base, re.M))
    cfg_path = spec_cfg or spec_path.with_suffix(".cfg")
    own = load_cfg(cfg_path) if cfg_path.is_file() else None
    lines = []
    for name in sorted(set(mapping) | set(own.constants if own else ())):
        if name in have or name in ref_model.variables:
            continue
        if name in mapping:
            expr = mapping[name]
            if expr.isidentifier() and expr in getattr(ref_model, "variables", ()):
                continue  # a variable renaming, not a constant
            lines.append(f"CONSTANT {name} = {format_value(ref_model.evaluate(expr))}")
        elif own is not None:
            text = _cfg_value_text(own.constants[name])
            lines.append(f"CONSTANT {name} = {text}" if text else "")
    return "\n" + "\n".join(x for x in lines if x) + "\n"


def _cfg_value_text(v: Any) -> str:
    from specula.tla.cfg import CfgModelValue

    if isinstance(v, CfgModelValue):
        return v.name
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, (int, str)):
        return str(v) if isinstance(v, int) else '"' + v.replace('"', '\\"') + '"'
    if isinstance(v, frozenset):
        return "{" + ", ".join(sorted(_cfg_value_text(x) for x in v)) + "}"
    if isinstance(v, tuple):
        return "<<" + ", ".join(_cfg_value_text(x) for x in v) + ">>"
    return ""


def _definition_names(spec_path: Path) -> set[str]:
    import re

    text = spec_path.read_text(encoding="utf-8", errors="replace")
    return set(re.findall(r"^([A-Za-z_]\w*)\s*==", text, re.M))


def _labels(model: Any) -> set[str]:
    """The PlusCal labels: the pc values the reference's Init and actions mention."""
    names = set()
    for a in getattr(model, "actions", []):
        names.add(getattr(a, "name", ""))
    return {n for n in names if n and n not in ("Terminating", "Next")}


def _one(run: Path, rp: Any, spec: Any, renaming: dict[str, str], max_nodes: int,
         max_seconds: float | None = None) -> RunVerdict:
    from specula.errors import SpeculaError
    from specula.traces.pgo_replay import read_records

    try:
        records = read_records(run)
    except SpeculaError as exc:
        return RunVerdict(run.name, False, 0, 0, {"kind": "error", "where": str(run), "process": "-", "label": None,
                                                  "message": str(exc)})
    procs = sorted(records)
    total = sum(len(v) for v in records.values())
    # reference state <-> spec state through the renaming (spec variable -> reference variable)
    ref_pos = [rp.variables.index(renaming[v]) for v in spec.variables]
    spec_pos = [spec.variables.index(next(v for v in spec.variables if renaming[v] == r)) for r in rp.variables]

    def to_spec(s: tuple) -> tuple:
        return tuple(s[i] for i in ref_pos)

    succ_cache: dict[tuple, set] = {}

    names = {getattr(a, "name", "") for a in getattr(spec, "actions", [])}

    step_memo: dict[tuple, bool] = {}

    def is_step(s: tuple, t: tuple, rec: Any) -> bool:
        """Memoised: the same step of the spec recurs in many interleavings (other clocks)."""
        if s == t:
            return True
        key = (s, t, rec.label, rec.self_id)
        hit = step_memo.get(key)
        if hit is None:
            hit = step_memo[key] = _is_step(s, t, rec)
        return hit

    def _is_step(s: tuple, t: tuple, rec: Any) -> bool:
        if rec.label in names:  # fast path: the action named after the label takes the step
            try:
                me = rp.value(rec.self_id, s)
                if spec.check_step(rec.label, dict(zip(spec.variables, to_spec(s))),
                                   dict(zip(spec.variables, to_spec(t))), {"self": me}).ok:
                    return True
            except SpeculaError:
                pass  # decided below by the whole Next
        if s not in succ_cache:
            succ_cache[s] = {tuple(u[i] for i in spec_pos) for _, u in spec.next_states(to_spec(s))}
        return t in succ_cache[s]

    def settle(clock_t: tuple) -> tuple:
        """The clock after every aborted record its clock allows. An aborted critical section
        changes no variable and checks nothing, and applying it only enables more records, so
        taking it at once loses no behaviour's failure: the interleavings that take it later
        reach the same states with fewer records enabled (a partial-order reduction, exact)."""
        clock = dict(clock_t)
        moved = True
        while moved:
            moved = False
            for p in procs:
                recs, k = records[p], clock[p]
                while k < len(recs) and recs[k].is_abort and rp.enabled(recs[k], clock):
                    k += 1
                    clock[p] = k
                    moved = True
        return tuple((p, clock[p]) for p in procs)

    apply_memo: dict[tuple, list] = {}  # (process, record index, state) -> states after it
    started = time.monotonic()
    inits = [tuple(u[i] for i in spec_pos) for u in spec.init_states()]
    start = settle(tuple((p, 0) for p in procs))
    queue = deque((start, s) for s in inits)
    seen = set(queue)
    used_labels: set[str] = set()
    while queue:
        clock_t, s = queue.popleft()
        clock = dict(clock_t)
        for p in procs:
            k = clock[p]
            if k >= len(records[p]):
                continue
            rec = records[p][k]
            if not rp.enabled(rec, clock):
                continue
            try:
                akey = (p, k, s)
                posts = apply_memo.get(akey)
                if posts is None:
                    posts = apply_memo[akey] = rp.apply(s, rec)
            except SpeculaError as exc:
                return _fail(run, total, len(seen), "error", rec, str(exc), used_labels)
            if not posts:
                return _fail(run, total, len(seen), "progress", rec,
                             "the record cannot happen in this state though its clock allows it "
                             "(tracegen's __progress_inv)", used_labels, s, rp)
            nclock = settle(tuple((q, c + 1 if q == p else c) for q, c in clock_t))
            for t in posts:
                if not is_step(s, t, rec):
                    return _fail(run, total, len(seen), "refinement", rec,
                                 _why(spec, rec, rp, s, t), used_labels, s, rp, t)
                if rec.label and not rec.is_abort:
                    used_labels.add(rec.label)
                node = (nclock, t)
                if node not in seen:
                    seen.add(node)
                    queue.append(node)
            over_time = max_seconds is not None and time.monotonic() - started > max_seconds
            if len(seen) > max_nodes or over_time:
                what = f"{max_seconds:.0f} s" if over_time else f"{max_nodes} nodes"
                return RunVerdict(run.name, False, total, len(seen), {
                    "kind": "limit", "where": str(run), "process": p, "label": None,
                    "message": f"not validated: its interleavings were not all explored within {what} "
                               f"({len(seen)} nodes)"}, sorted(used_labels))
    return RunVerdict(run.name, True, total, len(seen), None, sorted(used_labels))


def _fail(run: Path, total: int, explored: int, kind: str, rec: Any, message: str, labels: set[str],
          pre: tuple | None = None, rp: Any = None, post: tuple | None = None) -> RunVerdict:
    from specula.tla.values import format_value

    f: dict[str, Any] = {"kind": kind, "where": f"{rec.source}:{rec.line}", "process": rec.self_id,
                         "label": rec.label, "message": message}
    if pre is not None and rp is not None:
        f["pre"] = {v: format_value(x) for v, x in zip(rp.variables, pre)}
    if post is not None and rp is not None:
        f["post"] = {v: format_value(x) for v, x in zip(rp.variables, post)}
    return RunVerdict(run.name, False, total, explored, f, sorted(labels))


def _why(spec: Any, rec: Any, rp: Any, s: tuple, t: tuple) -> str:
    """specula's diagnosis of a step the spec cannot take: the label's action, if the spec has it."""
    from specula.errors import SpeculaError

    changed = [v for v, a, b in zip(rp.variables, s, t) if a != b]
    base = f"no action of the spec's Next takes this step (changes {', '.join(changed) or 'nothing'})"
    names = {getattr(a, "name", "") for a in getattr(spec, "actions", [])}
    if rec.label not in names:
        return base
    try:
        me = rp.value(rec.self_id, s)
        verdict = spec.check_step(rec.label, dict(zip(rp.variables, s)), dict(zip(rp.variables, t)), {"self": me})
    except SpeculaError:  # the diagnosis is best effort; the verdict stands without it
        return base
    if verdict.false_conjunct is not None:
        return f"{base}; {rec.label}({rec.self_id}): {verdict.false_conjunct.to_dict().get('text', '')}".rstrip()
    if verdict.mismatched:
        parts = [f"{v}: observed {m['observed']}, {rec.label} gives {', '.join(m['spec'][:3]) or 'no value'}"
                 for v, m in verdict.to_dict()["mismatched"].items()]
        return f"{base}; " + "; ".join(parts)
    return base
