"""Trace coverage of a spec: how many windows exercise each action and each branch.

Windows are cut from the traces for every action they record (not only target actions). An
action is exercised by a window of it that the spec accepts; a branch (see ``branches``) by a
window the spec still accepts when the branch's siblings are replaced by FALSE. Only windows the
whole action accepts are tried per branch, so a branch's count is at most its action's.
Implementation branches come from the harness (``impl-coverage.json`` beside the traces).
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from specula.coverage.branches import Branch, action_branches, variant

__all__ = ["ActionCoverage", "BranchCoverage", "CoverageReport", "spec_coverage", "windows_coverage", "read_windows",
           "IMPL_COVERAGE_FILE"]

IMPL_COVERAGE_FILE = "impl-coverage.json"
SCHEMA = "specula.coverage/1"


@dataclass
class BranchCoverage:
    branch: Branch
    windows: int = 0
    error: str = ""
    skipped: bool = False  # known covered (``known=``): not checked again

    def to_dict(self) -> dict[str, Any]:
        d = self.branch.to_dict()
        d["windows"] = self.windows
        if self.skipped:
            d["skipped"] = True
        if self.error:
            d["error"] = self.error
        return d


@dataclass
class ActionCoverage:
    action: str
    windows: int = 0  # windows of this action in the traces
    accepted: int = 0  # ... that the spec accepts
    branches: list[BranchCoverage] = field(default_factory=list)

    @property
    def covered(self) -> bool:
        return self.accepted > 0

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "windows": self.windows, "accepted": self.accepted,
                "branches": [b.to_dict() for b in self.branches]}


@dataclass
class CoverageReport:
    spec: str
    actions: list[ActionCoverage] = field(default_factory=list)
    traces: int = 0
    windows: int = 0
    unknown_actions: dict[str, int] = field(default_factory=dict)  # trace actions the spec lacks
    impl: dict[str, Any] | None = None  # the harness's implementation branch coverage, if recorded
    seconds: float = 0.0

    @property
    def actions_covered(self) -> int:
        return sum(1 for a in self.actions if a.covered)

    @property
    def branches_total(self) -> int:
        return sum(len(a.branches) for a in self.actions)

    @property
    def branches_covered(self) -> int:
        return sum(1 for a in self.actions for b in a.branches if b.windows)

    def covered_ids(self) -> set[str]:
        """Actions with an accepted window and branch ids some window exercises."""
        return {a.action for a in self.actions if a.covered} | {
            b.branch.id for a in self.actions for b in a.branches if b.windows}

    def uncovered(self) -> list[str]:
        """Actions without an accepted window and branches no window exercises (ids)."""
        out = [a.action for a in self.actions if not a.covered]
        out += [b.branch.id for a in self.actions for b in a.branches if not b.windows]
        return out

    def summary(self) -> dict[str, Any]:
        d = {"actions": len(self.actions), "actions_covered": self.actions_covered,
             "branches": self.branches_total, "branches_covered": self.branches_covered,
             "windows": self.windows, "traces": self.traces}
        if self.impl is not None:
            d["impl_branches"] = self.impl.get("branches", 0)
            d["impl_branches_covered"] = self.impl.get("covered", 0)
        return d

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "spec": self.spec, "summary": self.summary(),
                "actions": [a.to_dict() for a in self.actions], "unknown_actions": self.unknown_actions,
                "impl": self.impl, "seconds": round(self.seconds, 3)}

    def render(self) -> str:
        s = self.summary()
        out = [f"coverage of {self.spec}: {s['actions_covered']}/{s['actions']} actions, "
               f"{s['branches_covered']}/{s['branches']} branches exercised by {s['windows']} windows "
               f"of {s['traces']} traces"]
        for a in self.actions:
            mark = "  " if a.covered else "!!"
            out.append(f"{mark} {a.action:<28} {a.accepted:>5}/{a.windows:<5} windows accepted")
            for b in a.branches:
                bm = "    " if b.windows else "  ! "
                out.append(f"{bm}  line {b.branch.line:>4}  {b.windows:>5}  {b.branch.label}"
                           + (f"  [{b.error}]" if b.error else ""))
        if self.unknown_actions:
            out.append("trace actions the spec has no action for: "
                       + ", ".join(f"{k} ({v})" for k, v in sorted(self.unknown_actions.items())))
        if self.impl is not None:
            out.append(f"implementation branches reached (from the harness): {self.impl.get('covered', 0)}/"
                       f"{self.impl.get('branches', 0)}")
            for f, missing in sorted((self.impl.get("missing") or {}).items()):
                if missing:
                    out.append(f"  {f}: not reached at lines {', '.join(str(x) for x in missing[:12])}"
                               + (" …" if len(missing) > 12 else ""))
        return "\n".join(out)


def read_windows(traces: Sequence[str | Path]) -> tuple[list[Any], int, list[Any]]:
    """Every window of every recorded action in the trace/window files (folders expanded)."""
    from specula.traces.readers import TRACE_FORMATS
    from specula.traces import TraceIssue, cut_windows, detect_format, find_trace_files, iter_windows, read_trace

    files: list[Path] = []
    for t in traces:
        p = Path(t)
        files += find_trace_files(p) if p.is_dir() else [p]
    files = [f for f in files if f.name != IMPL_COVERAGE_FILE]
    issues: list[TraceIssue] = []
    windows: list[Any] = []
    n = 0
    for f in files:
        try:
            fmt = detect_format(f)
        except Exception as exc:  # noqa: BLE001 - a bad file is reported, the rest used
            issues.append(TraceIssue(str(f), getattr(exc, "line", None), str(exc)))
            continue
        if fmt in TRACE_FORMATS:
            windows.extend(cut_windows(read_trace(f, issues, fmt), None))
            n += 1
        else:
            windows.extend(iter_windows(f, issues, fmt))
    return windows, n, issues


def _impl(traces: Sequence[str | Path]) -> dict[str, Any] | None:
    for t in traces:
        p = Path(t)
        f = p / IMPL_COVERAGE_FILE if p.is_dir() else p.parent / IMPL_COVERAGE_FILE
        if f.is_file():
            try:
                return json.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
    return None


def spec_coverage(spec_path: str | Path, traces: Sequence[str | Path], *, cfg_path: str | Path | None = None,
                  mapping: Any = None, branches: bool = True, known: frozenset[str] | set[str] = frozenset(),
                  on_progress: Callable[[str], None] | None = None) -> CoverageReport:
    """Coverage of ``spec_path``'s actions and branches by the windows of ``traces``. Branch ids in
    ``known`` (covered before, e.g. by earlier harness rounds) are not checked again."""
    windows, n_traces, _issues = read_windows(traces)
    report = windows_coverage(spec_path, windows, cfg_path=cfg_path, mapping=mapping, branches=branches, known=known,
                              on_progress=on_progress)
    report.traces = n_traces
    report.impl = _impl(traces)
    return report


def windows_coverage(spec_path: str | Path, windows: Sequence[Any], *, cfg_path: str | Path | None = None,
                     mapping: Any = None, branches: bool = True, known: frozenset[str] | set[str] = frozenset(),
                     on_progress: Callable[[str], None] | None = None) -> CoverageReport:
    """``spec_coverage`` over windows already read (the scorecard's, for one)."""
    from specula.phases.conformance import conformance
    from specula.phases.runtime import build_model
    from specula.tla import parse_module
    from specula.traces import Mapping, load_mapping

    t0 = time.perf_counter()
    spec_path = Path(spec_path)
    cfg = Path(cfg_path) if cfg_path else (spec_path.with_suffix(".cfg") if spec_path.with_suffix(".cfg").is_file()
                                           else None)
    if mapping is not None and not isinstance(mapping, Mapping):
        mapping = load_mapping(mapping)
    model, _ = build_model(spec_path, cfg)
    actions: list[str] = []
    for a in model.actions:
        if a.name not in actions:
            actions.append(a.name)
    spec_action = (lambda w: mapping.spec_action(w.action)) if mapping is not None else (lambda w: w.action)
    by_action: dict[str, list[Any]] = {}
    unknown: dict[str, int] = {}
    for w in windows:
        name = spec_action(w)
        if name in actions:
            by_action.setdefault(name, []).append(w)
        else:
            unknown[w.action] = unknown.get(w.action, 0) + 1
    base = conformance(spec_path, cfg, [w for a in actions for w in by_action.get(a, [])], mapping) \
        if any(by_action.values()) else None
    ok_ids = {(r.trace_id, str(r.id)) for r in (base.windows if base else []) if r.ok}
    text = spec_path.read_text(encoding="utf-8")
    per_branch = action_branches(parse_module(text, str(spec_path)), actions, text) if branches else {}
    report = CoverageReport(str(spec_path), traces=len({w.trace_id for w in windows}), windows=len(windows),
                            unknown_actions=unknown)
    with tempfile.TemporaryDirectory(prefix="specula-cov-") as tmp:
        vpath = Path(tmp) / spec_path.name
        for a in actions:
            ws = by_action.get(a, [])
            accepted = [w for w in ws if (w.trace_id, str(w.id)) in ok_ids]
            row = ActionCoverage(a, len(ws), len(accepted))
            for br in per_branch.get(a, []):
                bc = BranchCoverage(br, skipped=br.id in known)
                if accepted and not bc.skipped:
                    if on_progress is not None:
                        on_progress(f"{a}: {br.label}")
                    vpath.write_text(variant(text, br), encoding="utf-8")
                    try:
                        res = conformance(vpath, cfg, accepted, mapping, search_path=[spec_path.parent])
                        bc.windows = sum(1 for r in res.windows if r.ok)
                    except Exception as exc:  # noqa: BLE001 - one branch's failure is its own result
                        bc.error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
                row.branches.append(bc)
            report.actions.append(row)
    report.seconds = time.perf_counter() - t0
    return report
