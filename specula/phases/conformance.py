"""Phase 3 — conformance by transition windows, as SysMoBench V2 scores it.

Each window (observed pre-state, action, observed post-state) is validated in-process with
``Model.check_step``: the action, started from a state that agrees with ``pre`` on every
observed variable (unobserved variables free within TypeOK unless the mapping gives them), must
reach a state that agrees with ``post`` in one step for some choice of its parameters. Binding
rules and their defaults are in :mod:`specula.traces.bind` (docs/mapping.md); every choice is
recorded in the result.

Scores: per action the raw pass rate; the leaderboard score is the mean over actions with at
least one window of (1 if every window passes else 0). Actions without windows are excluded and
listed. Failing windows are grouped by cause (the false conjunct, or the set of variables whose
primed values differ), so one bad guard is one line.

Whole-trace mode (:func:`follow_trace`) keeps the set of spec states consistent with a trace
and reports the first step where it becomes empty.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from specula.errors import EvalError, SpeculaError
from specula.traces.bind import Binder, BindError, Bound, raw_key, summaries_match
from specula.traces.follow import TraceFollow, follow_trace
from specula.traces.mapping import Mapping, load_mapping
from specula.traces.shape import check_step_over_domains, spec_info
from specula.traces.window import Trace, TraceIssue, Window

__all__ = [
    "SCHEMA",
    "ConformanceResult",
    "ActionRow",
    "Cause",
    "WindowResult",
    "TraceFollow",
    "conformance",
    "validate_windows",
    "follow_trace",
    "spec_info",
    "validate_files",
    "validate_wv",
    "WV_MAX_STATES",
    "WV_MAX_SECONDS",
]

SCHEMA = "specula.phase.conformance/1"
WV_MAX_STATES = 100_000  # a window-validation module explores one step: more is a broken module
WV_MAX_SECONDS = 60.0  # SysMoBench's timeout per TLC run (a window that times out fails)
MAX_EXAMPLES = 5


# ---------------------------------------------------------------------------------------------
# results


@dataclass
class WindowResult:
    id: Any
    trace_id: str
    action: str  # spec action
    ok: bool
    source: str = ""
    cause: str | None = None  # group key (None when ok)
    params: dict[str, str] | None = None  # witness parameters (formatted) when ok

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "trace_id": self.trace_id, "action": self.action, "ok": self.ok}
        if self.source:
            d["source"] = self.source
        if self.cause:
            d["cause"] = self.cause
        if self.params:
            d["params"] = self.params
        return d


TITLE_CHARS = 400  # longest cause title shown; the rest is cut (values from traces can be megabytes)
DETAIL_CHARS = 2000


def clip_text(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters cut)"


@dataclass
class Cause:
    """Failing windows of one action that fail for the same reason."""

    action: str
    kind: str  # "conjunct" | "mismatch" | "bind" | "error" | "unknown-action"
    title: str
    count: int = 0
    windows: list[Any] = field(default_factory=list)  # example window ids (first few)
    sources: list[str] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)  # first example: values / trace vs spec
    location: str | None = None  # file:line:col of the conjunct

    def __post_init__(self) -> None:
        # a huge observed value (megabytes in one trace field) is never echoed in full
        self.title = clip_text(self.title, TITLE_CHARS)
        self.detail = {k: clip_text(v, DETAIL_CHARS) if isinstance(v, str) else v for k, v in self.detail.items()}

    @property
    def key(self) -> str:
        return f"{self.action}|{self.kind}|{self.title}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "action": self.action,
            "kind": self.kind,
            "title": self.title,
            "count": self.count,
            "windows": self.windows,
            "sources": self.sources,
            "detail": self.detail,
        }
        if self.location:
            d["location"] = self.location
        return d

    def line(self) -> str:
        where = f" ({self.location})" if self.location else ""
        return f"{self.action}: {self.title}{where} — {self.count} window{'s' if self.count != 1 else ''}"


@dataclass
class ActionRow:
    action: str
    total: int = 0
    passed: int = 0

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def leaderboard(self) -> int:
        return 1 if self.total and self.passed == self.total else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "total": self.total,
            "passed": self.passed,
            "rate": round(self.rate, 6),
            "leaderboard": self.leaderboard,
        }


@dataclass
class ConformanceResult:
    score: float  # SysMoBench leaderboard P3
    actions: list[ActionRow] = field(default_factory=list)
    causes: list[Cause] = field(default_factory=list)
    windows: list[WindowResult] = field(default_factory=list)
    no_windows: list[str] = field(default_factory=list)  # target actions without windows (excluded)
    unexercised: list[str] = field(default_factory=list)  # spec actions no window exercises
    choices: dict[str, int] = field(default_factory=dict)  # binding choice -> windows it applied to
    issues: list[TraceIssue] = field(default_factory=list)
    traces: list[TraceFollow] = field(default_factory=list)
    seconds: float = 0.0
    checked: int = 0  # windows actually sent to check_step (the rest reused a verdict)
    #: every relaxation (abstraction weaker than exact) that applied: kind, subject, strength,
    #: meaning, windows -- docs/mapping.md, "Abstraction policy"
    relaxations: list[dict[str, Any]] = field(default_factory=list)
    strict: bool = False  # relaxations refused (windows that need one fail as "relaxed")
    stopped: str | None = None  # "max_memory": the memory limit stopped it; the windows so far are reported

    @property
    def total(self) -> int:
        return sum(a.total for a in self.actions)

    @property
    def passed(self) -> int:
        return sum(a.passed for a in self.actions)

    @property
    def raw_rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def ok(self) -> bool:
        return self.total > 0 and self.passed == self.total and all(t.ok for t in self.traces)

    @property
    def coverage(self) -> tuple[int, int]:
        """(spec actions some window exercises, spec actions): conformance beside how much of the
        protocol the windows reach (per branch: `specula coverage`)."""
        with_windows = sum(1 for a in self.actions if a.total)
        return with_windows, with_windows + len(self.unexercised)

    def to_dict(self, include_windows: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "schema": SCHEMA,
            "score": self.score,
            "raw_rate": round(self.raw_rate, 6),
            "windows_total": self.total,
            "windows_passed": self.passed,
            "actions": [a.to_dict() for a in self.actions],
            "causes": [c.to_dict() for c in self.causes],
            "actions_without_windows": self.no_windows,
            "unexercised_actions": self.unexercised,
            "coverage": {"actions_with_windows": self.coverage[0], "spec_actions": self.coverage[1]},
            "choices": self.choices,
            "issues": [i.to_dict() for i in self.issues],
            "traces": [t.to_dict() for t in self.traces],
            "seconds": round(self.seconds, 3),
            "checked": self.checked,
            "relaxations": self.relaxations,
            "strict": self.strict,
        }
        if self.stopped:
            d["stopped"] = self.stopped
        d["windows"] = [w.to_dict() for w in self.windows if include_windows or not w.ok]
        return d

    def summary(self, max_chars: int = 3000) -> str:
        """Compact, actionable text for the agent: score, per-action rows, grouped causes."""
        out = [
            f"conformance: score {self.score:.3f} (actions with all windows passing), "
            f"{self.passed}/{self.total} windows pass; coverage: {self.coverage[0]} of {self.coverage[1]} spec "
            f"actions have windows"
        ]
        for a in self.actions:
            mark = "ok" if a.leaderboard else "FAIL"
            out.append(f"  {a.action}: {a.passed}/{a.total} {mark}")
        if self.no_windows:
            out.append(f"  no windows (excluded): {', '.join(self.no_windows)}")
        for c in self.causes:
            out.append("- " + c.line())
            for k, v in list(c.detail.items())[:6]:
                out.append(f"    {k}: {_short(v)}")
        failed = [t for t in self.traces if not t.ok]
        by_action: dict[str, list[TraceFollow]] = {}
        for t in failed:
            by_action.setdefault(t.failed_action or "?", []).append(t)
        for act, ts in by_action.items():
            first = ts[0]
            more = f" ({len(ts)} traces stop at {act}; first shown)" if len(ts) > 1 else ""
            out.append(f"- whole trace {first.trace_id}: {first.message}{more}")
        if self.traces and not failed:
            out.append(f"whole traces: all {len(self.traces)} followed")
        if self.relaxations:
            out.append("relaxations (weaker than exact): " + "; ".join(
                f"{r['kind']} {r['subject']} ({r['windows']})".replace("  ", " ") for r in self.relaxations[:8]))
        if self.choices:
            out.append("choices: " + "; ".join(f"{k} ({n})" for k, n in list(self.choices.items())[:6]))
        if self.issues:
            errs = [i for i in self.issues if i.severity == "error"]
            if errs:
                out.append(f"{len(errs)} unreadable trace line(s), first: {errs[0].location()}: {errs[0].message}")
        text = "\n".join(out)
        if len(text) > max_chars:
            text = text[: max(0, max_chars - 20)].rstrip() + "\n... (truncated)"
        return text


def _short(v: Any, n: int = 300) -> str:
    s = v if isinstance(v, str) else repr(v)
    return s if len(s) <= n else s[: n - 3] + "..."


# ---------------------------------------------------------------------------------------------
# validation


@dataclass
class Watch:
    """What a long loop over windows reports and obeys: a progress line every few seconds (windows
    done/total, rate) and the memory ceiling (``tick`` says when to stop)."""

    total: int | None = None
    on_progress: Callable[[str], None] | None = None
    max_memory: int | None = None  # bytes of resident memory
    label: str = "validate"
    every: float = 5.0
    t0: float = field(default_factory=time.monotonic)
    _due: float = 0.0
    _memory_due: float = 0.0

    def tick(self, done: int) -> bool:
        """Called after each window; True when the memory limit is reached."""
        if self.on_progress is None and self.max_memory is None:
            return False
        now = time.monotonic()
        if self.on_progress is not None and now >= (self._due or self.t0 + self.every):
            self._due = now + self.every
            of = f"/{self.total}" if self.total is not None else ""
            self.on_progress(f"{self.label}: {done}{of} windows ({done / max(now - self.t0, 1e-9):.1f}/s)")
        if self.max_memory is not None and now >= self._memory_due:
            self._memory_due = now + 0.2
            from specula.tla.memory import rss_bytes

            return rss_bytes() >= self.max_memory
        return False


def conformance(
    spec_path: str | Path,
    cfg_path: str | Path | None,
    windows: Iterable[Window],
    mapping: Mapping | str | Path | None = None,
    *,
    targets: Sequence[str] | None = None,
    strict_targets: bool = False,
    traces: Sequence[Trace] = (),
    issues: Sequence[TraceIssue] = (),
    search_path: Sequence[str | Path] = (),
    strict: bool = False,
    watch: Watch | None = None,
) -> ConformanceResult:
    """Phase 3 over windows (and optionally whole traces) of one spec. Raises SpecError /
    ConfigError for a broken spec, cfg or mapping; bad windows are scored failures."""
    from specula.phases.runtime import build_model

    if mapping is not None and not isinstance(mapping, Mapping):
        mapping = load_mapping(mapping)
    model, cfg = build_model(spec_path, cfg_path, search_path)
    return validate_windows(model, windows, mapping, cfg=cfg, targets=targets, traces=traces, issues=issues,
                            strict_targets=strict_targets, strict=strict, watch=watch)


def validate_windows(
    model: Any,
    windows: Iterable[Window],
    mapping: Mapping | None = None,
    *,
    cfg: Any = None,
    targets: Sequence[str] | None = None,
    strict_targets: bool = False,
    traces: Sequence[Trace] = (),
    issues: Sequence[TraceIssue] = (),
    strict: bool = False,
    watch: Watch | None = None,
) -> ConformanceResult:
    """Validate ``windows`` against an already built Model. ``strict``: a window whose binding
    needs a relaxation (RELAXATIONS) is not checked and fails with a ``relaxed`` cause.
    ``watch``: progress lines, and the memory limit (the result says ``stopped``)."""
    t0 = time.perf_counter()
    stopped = None
    info = spec_info(model, cfg)
    if mapping is not None:
        mapping.check_against(info.variables, info.actions, list(getattr(cfg, "constants", {}) or {}) + _defined_names(model))
    if targets is not None and strict_targets:
        from specula.errors import InputError

        unknown = [t for t in targets if t not in info.actions]
        if unknown:  # a typo must not read as "no windows"
            raise InputError(f"unknown action {', '.join(repr(t) for t in unknown)}; the spec's actions: "
                             f"{', '.join(sorted(info.actions))}", path="--actions")
    binder = Binder(info, mapping)
    rows: dict[str, ActionRow] = {}
    causes: dict[str, Cause] = {}
    results: list[WindowResult] = []
    choices: Counter[str] = Counter()
    verdicts: dict[str, tuple[str, bool, Cause | None, dict[str, str] | None, tuple[str, ...], tuple]] = {}
    relaxed: Counter[tuple[str, str]] = Counter()
    domains: dict[str, dict[str, list]] = {}
    checked = 0
    interrupted = False
    try:
        for w in windows:
            key = raw_key(w)
            hit = verdicts.get(key)
            if hit is None:
                try:
                    b = binder.bind(w, key)
                except Exception as exc:  # noqa: BLE001 - a window that cannot be bound is a scored failure
                    name = (mapping.spec_action(w.action) if mapping else w.action)
                    kind = "unknown-action" if name not in info.actions else "bind"
                    msg = str(exc) if isinstance(exc, BindError) else f"cannot read the window: {type(exc).__name__}: {exc}"
                    cause = Cause(name, kind, msg if kind == "bind" else f"the spec has no action {name} in Next")
                    hit = (name, False, cause, None, (), ())
                else:
                    if strict and b.relaxations:  # refused, not checked
                        ok, cause, params = False, _relaxed_cause(b.action, b.relaxations), None
                    else:
                        checked += 1
                        try:
                            ok, cause, params = _check(model, b, binder, domains)
                        except Exception as exc:  # noqa: BLE001 - one window's failure is its own result
                            ok, params = False, None
                            cause = Cause(b.action, "error", f"internal error while checking this window: "
                                          f"{type(exc).__name__}: {exc}")
                    hit = (b.action, ok, cause, params, tuple(dict.fromkeys(b.choices)), b.relaxations)
                verdicts[key] = hit
            action, ok, cause, params, chosen, rel = hit
            for c in chosen:
                choices[c] += 1
            for r in rel:
                relaxed[r] += 1
            _record(rows, causes, results, w, action, ok, cause, params)
            if watch is not None and watch.tick(len(results)):
                stopped = "max_memory"
                break
    except KeyboardInterrupt:  # Ctrl-C: the windows checked so far are reported, marked partial
        interrupted = True
    follows = [] if interrupted or stopped else [follow_trace(model, binder, tr) for tr in traces]
    for tr in follows:
        if not tr.ok and tr.failed_action and tr.failed_action not in rows:
            pass
    ordered = [rows[a] for a in sorted(rows, key=_action_order(model))]
    scored = [r for r in ordered if r.total]
    score = sum(r.leaderboard for r in scored) / len(scored) if scored else 0.0
    spec_actions = list(info.actions)
    tgt = list(targets) if targets is not None else None
    no_windows = [a for a in (tgt if tgt is not None else []) if a not in rows or not rows[a].total]
    nxt = getattr(model, "next_name", None)
    nxt = getattr(nxt, "name", nxt)
    unexercised = [a for a in spec_actions if a not in rows and a != nxt]
    # rows for target actions without windows stay visible (excluded from the score)
    for a in no_windows:
        if a not in rows:
            ordered.append(ActionRow(a))
    cause_list = sorted(causes.values(), key=lambda c: (-c.count, c.action, c.title))
    result = ConformanceResult(
        score=score,
        actions=ordered,
        causes=cause_list,
        windows=results,
        no_windows=no_windows,
        unexercised=unexercised,
        choices=dict(choices.most_common()),
        issues=list(issues),
        traces=follows,
        seconds=time.perf_counter() - t0,
        checked=checked,
        relaxations=_relaxation_rows(relaxed),
        strict=strict,
        stopped=stopped,
    )
    if interrupted:
        from specula.errors import Interrupted

        raise Interrupted(result, f"interrupted after {len(results)} windows")
    return result


def _relaxation_rows(relaxed: Counter) -> list[dict[str, Any]]:
    from specula.traces.bind import RELAXATIONS

    rows = []
    for (kind, subject), n in sorted(relaxed.items(), key=lambda kv: (-kv[1], kv[0])):
        strength, meaning = RELAXATIONS.get(kind, ("weaker", kind))
        rows.append({"kind": kind, "subject": subject, "strength": strength, "meaning": meaning, "windows": n})
    return rows


def _relaxed_cause(action: str, relaxations: Sequence[tuple[str, str]]) -> Cause:
    what = ", ".join(f"{k} {s}".strip() for k, s in relaxations)
    return Cause(action, "relaxed", f"--strict: this window needs relaxations weaker than exact ({what})",
                 detail={"relaxations": what})


def _defined_names(model: Any) -> list[str]:
    spec = getattr(model, "spec", None)
    root = getattr(spec, "root", None)
    names = getattr(root, "names", None)
    return list(names) if isinstance(names, dict) else []


def _action_order(model: Any):
    order = {}
    for a in model.actions:
        order.setdefault(a.name, len(order))
    return lambda name: (order.get(name, len(order)), name)


def _record(rows: dict[str, ActionRow], causes: dict[str, Cause], results: list[WindowResult], w: Window,
            action: str, ok: bool, cause: Cause | None, params: dict[str, str] | None) -> None:
    row = rows.get(action)
    if row is None:
        row = rows[action] = ActionRow(action)
    row.total += 1
    if ok:
        row.passed += 1
        results.append(WindowResult(w.id, w.trace_id, action, True, w.source, None, params))
        return
    assert cause is not None
    key = cause.key
    c = causes.get(key)
    if c is None:
        c = causes[key] = Cause(cause.action, cause.kind, cause.title, 0, [], [], dict(cause.detail), cause.location)
    c.count += 1
    if len(c.windows) < MAX_EXAMPLES:
        c.windows.append(w.id)
        if w.source:
            c.sources.append(w.source)
    results.append(WindowResult(w.id, w.trace_id, action, False, w.source, key))


def _fmt(v: Any) -> str:
    from specula.tla.values import format_value

    try:
        return format_value(v)
    except Exception:  # noqa: BLE001
        return repr(v)


def _span_loc(span: Any) -> str | None:
    if span is None:
        return None
    f = getattr(span, "file", None)
    line = getattr(span, "line", None)
    col = getattr(span, "col", None)
    if line is None:
        return str(span)
    return f"{f or '<spec>'}:{line}:{col or 1}"


def _unobserved_cause(action: str, variables: list[str], why: str) -> Cause:
    """One cause for every window of ``action`` that cannot be checked because the action reads
    unobserved variables without a usable domain (grouped by the variables, so N windows are
    one line), with the mapping entry that fixes it."""
    vs = ", ".join(variables)
    fix = "; ".join(f"variables.{v}.value (or .domain)" for v in variables)
    return Cause(action, "unobserved",
                 f"{action} reads {vs}, which the windows do not observe and {why}: give {fix} in the mapping",
                 detail={"variables": vs, "fix": "variables:\n" + "".join(
                     f"  {v}: {{value: {{tla: \"...\"}}}}\n" for v in variables)})


def _step(model: Any, b: Bound) -> Any:
    """``check_step`` with honest defaults for unobserved variables: each ranges over its TypeOK
    domain, but when their product is too large, the variables the action never reads (it leaves
    them UNCHANGED) are not enumerated at all -- the action copies them whatever they are."""
    try:
        return model.check_step(b.action, b.pre, b.post, b.params or None, b.free or None)
    except EvalError as exc:
        if "too many candidate pre-states" not in str(exc):
            raise
        from specula.tla.step import Unobserved
        from specula.traces.shape import variables_read

        reads = variables_read(model, b.action)
        unobserved = [v for v in model.variables if v not in b.pre and v not in (b.free or {})]
        if reads is None:
            raise
        copied = {v: [Unobserved(v)] for v in unobserved if v not in reads}
        needed = [v for v in unobserved if v in reads]
        if not copied:
            raise _TooLarge(needed, str(exc)) from None
        try:
            return model.check_step(b.action, b.pre, b.post, b.params or None, {**(b.free or {}), **copied})
        except EvalError as exc2:
            if "too many candidate pre-states" in str(exc2):
                raise _TooLarge(needed, str(exc2)) from None
            raise


class _TooLarge(Exception):
    def __init__(self, variables: list[str], message: str) -> None:
        super().__init__(message)
        self.variables = variables


def _check(model: Any, b: Bound, binder: Binder, domains: dict[str, dict[str, list]] | None = None
           ) -> tuple[bool, Cause | None, dict[str, str] | None]:
    try:
        verdict = _step(model, b)
    except _TooLarge as exc:
        import re

        m = re.search(r"\((\d+)\)", str(exc))
        size = f"the product of their TypeOK domains is too large to try ({m.group(1)} pre-states)" if m else \
            "their TypeOK domains are too large to try"
        return False, _unobserved_cause(b.action, exc.variables, size), None
    except EvalError as exc:
        um = _unobserved_name(str(exc))
        if um is not None:
            return False, _unobserved_cause(b.action, [um], "TypeOK gives it no domain small enough to try "
                                            "(infinite, or over 10,000 values)"), None
        if "needs a value for its parameter" in str(exc):
            verdict = check_step_over_domains(model, b, domains if domains is not None else {})
            if verdict is None:
                return False, Cause(b.action, "error", f"evaluation error: {exc}"), None
        else:
            loc = _span_loc(getattr(exc, "span", None))
            return False, Cause(b.action, "error", f"evaluation error: {exc}{_unobserved_hint(str(exc))}", location=loc), None
    except SpeculaError as exc:
        return False, Cause(b.action, "error", str(exc)), None
    except Exception as exc:  # noqa: BLE001 - an engine failure is a scored error, never a crash
        return False, Cause(b.action, "error", f"internal error in check_step: {type(exc).__name__}: {exc}"), None
    if getattr(verdict, "ok", False):
        if b.post_summaries:
            return _check_summaries(model, b, binder, verdict)
        params = getattr(verdict, "params", None) or {}
        return True, None, {k: _fmt(v) for k, v in params.items()}
    um = _unobserved_in(verdict)
    if um:  # the action failed on a value it read from an unobserved variable: no verdict
        return False, _unobserved_cause(b.action, um, "TypeOK gives it no domain small enough to try "
                                        "(infinite, or over 10,000 values)"), None
    return False, _cause_of(b, verdict), None


def _unobserved_in(verdict: Any) -> list[str]:
    """Unobserved variables (placeholders without a domain) the failing step read."""
    import re

    parts: list[str] = []
    fc = getattr(verdict, "false_conjunct", None)
    if fc is not None:
        parts += [repr(v) for v in (getattr(fc, "values", None) or {}).values()]
    for _var, pair in (getattr(verdict, "mismatched", None) or {}).items():
        parts += [repr(x) for x in (pair[1] or [])]
    return sorted(set(re.findall(r"<unobserved (\w+)>", " ".join(parts))))


def _unobserved_name(msg: str) -> str | None:
    import re

    m = re.search(r"<unobserved (\w+)>", msg)
    return m.group(1) if m else None


def _unobserved_hint(msg: str) -> str:
    import re

    m = re.search(r"<unobserved (\w+)>", msg)
    if not m:
        return ""
    v = m.group(1)
    return (f" (the window does not observe {v} and TypeOK gives no small domain for it: observe it, "
            f"or give variables.{v}.domain or .value in the mapping)")


def _cause_of(b: Bound, verdict: Any) -> Cause:
    fc = getattr(verdict, "false_conjunct", None)
    if fc is not None:
        text = getattr(fc, "text", None) or (fc.get("text") if isinstance(fc, dict) else str(fc))
        span = getattr(fc, "span", None) if not isinstance(fc, dict) else fc.get("span")
        vals = getattr(fc, "values", None) if not isinstance(fc, dict) else fc.get("values")
        detail = {k: _fmt(v) for k, v in (vals or {}).items()}
        title = f"guard false: {' '.join(str(text).split())}"
        return Cause(b.action, "conjunct", title, detail=detail, location=_span_loc(span))
    mm = getattr(verdict, "mismatched", None) or {}
    if mm:
        detail: dict[str, Any] = {}
        for var, pair in sorted(mm.items()):
            expected, reachable = pair
            reach = list(reachable) if reachable is not None else []
            detail.update(_diff(f"{var}'", expected, reach))
        title = f"post-state differs in {', '.join(sorted(mm))}"
        return Cause(b.action, "mismatch", title, detail=detail)
    msg = getattr(verdict, "message", None) or "no successor agrees with the observed post-state"
    return Cause(b.action, "mismatch", str(msg))


def _diff(name: str, expected: Any, reach: list[Any]) -> dict[str, str]:
    """``trace says X; spec can produce only Y``, narrowed to the differing entries when the
    values are functions over the same domain (one node's entry, not the whole map)."""
    from specula.tla.values import Fn, tla_eq

    def line(x: Any, ys: list[Any]) -> str:
        more = " ..." if len(ys) > 3 else ""
        text = f"trace says {_fmt(x)}; spec can produce only " + (" or ".join(_fmt(y) for y in ys[:3]) or "nothing") + more
        if len(ys) == 1 and x.__class__ is frozenset and ys[0].__class__ is frozenset:
            extra, lacks = ys[0] - x, x - ys[0]
            parts = []
            if extra:
                parts.append(f"spec also has {_fmt(frozenset(extra))}")
            if lacks:
                parts.append(f"spec lacks {_fmt(frozenset(lacks))}")
            if parts:  # the difference first: it is the diagnosis, and survives truncation
                text = "; ".join(parts) + " — " + text
        return text

    if len(reach) == 1:
        y = reach[0]
        if expected.__class__ in (Fn, tuple) and y.__class__ is expected.__class__:
            ex = dict(enumerate(expected, 1)) if expected.__class__ is tuple else expected
            ey = dict(enumerate(y, 1)) if y.__class__ is tuple else y
            if ex.keys() == ey.keys():
                keys = [k for k in ex if not tla_eq(ex[k], ey[k])]
                if 0 < len(keys) <= 3:
                    return {f"{name[:-1]}[{_fmt(k)}]'": line(ex[k], [ey[k]]) for k in keys}
    return {name: line(expected, reach)}


def _check_summaries(model: Any, b: Bound, binder: Binder, verdict: Any) -> tuple[bool, Cause | None, dict[str, str] | None]:
    """Abstracted variables: some successor of the (witness) pre-state must match the summaries."""
    states = getattr(verdict, "post_states", None)
    if states is None:
        return False, Cause(b.action, "error", "the engine gives no successor states to compare abstracted variables"), None
    idx = {v: i for i, v in enumerate(model.variables)}

    def matching(v: Any) -> bool:
        return any(
            all(summaries_match(st[idx[var]], sm, binder.abstraction(var)) for var, sm in b.post_summaries.items())
            for st in (getattr(v, "post_states", None) or [])
        )

    def ok(v: Any) -> tuple[bool, None, dict[str, str]]:
        return True, None, {k: _fmt(x) for k, x in (getattr(v, "params", None) or {}).items()}

    if matching(verdict):
        return ok(verdict)
    # the engine reports the successors of the first parameter choice that fits the observed
    # variables; another choice may fit the summaries too: try each explicitly (domains that
    # depend on the state are read in the witness pre-state)
    from specula.traces.shape import parameter_choices

    combos = parameter_choices(model, b.action, b.params, getattr(verdict, "pre_state", None), limit=1000)
    for choice in combos:
        try:
            v = model.check_step(b.action, b.pre, b.post, {**b.params, **choice}, b.free or None)
        except Exception:  # noqa: BLE001 - this choice cannot take the step
            continue
        if getattr(v, "ok", False) and matching(v):
            return ok(v)
    return False, Cause(b.action, "mismatch", f"post-state differs in {', '.join(sorted(b.post_summaries))} (by summary)"), None


# ---------------------------------------------------------------------------------------------
# files -> result (what `specula validate` calls)


def validate_files(
    spec_path: str | Path,
    cfg_path: str | Path | None = None,
    window_files: Sequence[str | Path] = (),
    traces_dir: str | Path | None = None,
    mapping: Mapping | str | Path | None = None,
    *,
    targets: Sequence[str] | None = None,
    whole_trace: bool = False,
    search_path: Sequence[str | Path] = (),
    strict: bool = False,
    on_progress: Callable[[str], None] | None = None,
    max_memory: int | None = None,
) -> ConformanceResult:
    """Read window/trace files (problems collected, not fatal), cut event traces into windows of
    the target actions, validate. ``whole_trace`` also follows each whole trace. ``on_progress``
    gets a line every few seconds (windows done/total, rate); ``max_memory`` (bytes) stops the
    validation there with the windows checked so far (``stopped``)."""
    from specula.errors import InputError
    from specula.traces.cut import cut_windows
    from specula.traces.readers import TRACE_FORMATS, detect_format, find_trace_files, iter_windows, read_trace

    files = [Path(f) for f in window_files]
    if traces_dir is not None:
        files += find_trace_files(traces_dir)
    if not files and traces_dir is not None:
        raise InputError("no trace or window files in this folder (*.ndjson, *.jsonl, *.json)", path=str(traces_dir))
    if not files:
        raise InputError("no window or trace files given (use --windows FILE... or --traces DIR)")
    if mapping is not None and not isinstance(mapping, Mapping):
        mapping = load_mapping(mapping)
    issues: list[TraceIssue] = []
    windows: list[Window] = []
    traces: list[Trace] = []
    want = None
    if targets is not None:
        want = set(targets)
        if mapping is not None:  # targets are spec names; traces may use their own
            want |= {t for t, s in mapping.actions.items() if s in want}
    for f in files:
        if not f.is_file():
            raise InputError("is a directory (give its files, or use --traces DIR)" if f.is_dir() else "no such file",
                             path=str(f))
        try:
            fmt = detect_format(f)
        except SpeculaError as exc:
            issues.append(TraceIssue(str(f), getattr(exc, "line", None), str(exc)))
            continue
        if fmt in TRACE_FORMATS:
            tr = read_trace(f, issues, fmt)
            windows.extend(cut_windows(tr, want))
            if whole_trace:
                traces.append(tr)
        else:
            windows.extend(iter_windows(f, issues, fmt))
    if targets is not None:
        keep = [w for w in windows if (mapping.spec_action(w.action) if mapping else w.action) in set(targets)]
        if len(keep) < len(windows):
            others = sorted({w.action for w in windows} - {w.action for w in keep})
            issues.append(TraceIssue("", None, f"{len(windows) - len(keep)} windows of non-target actions skipped "
                                     f"({', '.join(others)})", "warning"))
        windows = keep
    return conformance(spec_path, cfg_path, windows, mapping, targets=targets, traces=traces, issues=issues,
                       search_path=search_path, strict_targets=True, strict=strict,
                       watch=Watch(len(windows), on_progress, max_memory))


# ---------------------------------------------------------------------------------------------
# SysMoBench window-validation modules (WV_<Action>.tla), run as they are


def validate_wv(
    modules: Sequence[str | Path],
    cfg_path: str | Path | None = None,
    *,
    search_path: Sequence[str | Path] = (),
    strict: bool = False,
    spec: str | Path | None = None,
    on_progress: Callable[[str], None] | None = None,
    max_memory: int | None = None,
) -> ConformanceResult:
    """Run SysMoBench WV/TV modules unchanged: for every window index, the module's model with
    ``w`` bound to that window, checked for its invariant (NeverPost); a window passes when the
    invariant is violated, as in SysMoBench's TLC runs. Each failing window gets specula's own
    diagnosis from the equivalent mapping (``traces.wv.wv_mapping``) over the spec under test.
    ``cfg_path`` (default: each module's ``.cfg``) gives the constants and the invariant."""
    import dataclasses

    from specula.errors import ConfigError, InputError
    from specula.tla import Limits, Model, check
    from specula.tla.cfg import check_cfg_names, load_cfg
    from specula.traces.mapping import parse_mapping
    from specula.traces.wv import mapping_yaml, read_wv, wv_windows

    t0 = time.perf_counter()
    under_test = Path(spec) if spec is not None else None
    rows: dict[str, ActionRow] = {}
    causes: dict[str, Cause] = {}
    results: list[WindowResult] = []
    issues: list[TraceIssue] = []
    choices: Counter[str] = Counter()
    relaxed: Counter[tuple[str, str]] = Counter()
    checked = 0
    stopped = None
    watch = Watch(None, on_progress, max_memory)
    if not modules:
        raise InputError("no window-validation module given")
    interrupted = False
    try:
        for path in modules:
            if stopped:
                break
            path = Path(path)
            mod = read_wv(path, tuple(str(p) for p in search_path))
            cfg_file = Path(cfg_path) if cfg_path is not None else path.with_suffix(".cfg")
            if not cfg_file.is_file():
                raise ConfigError(f"model config not found: {cfg_file} (give the module's cfg with --config)",
                                  path=str(cfg_file))
            spec = mod.spec
            cfg = load_cfg(cfg_file)
            check_cfg_names(cfg, spec)
            goal = list(cfg.invariants)
            if not goal:
                raise ConfigError("the module's cfg checks no INVARIANT (SysMoBench's modules check NeverPost)",
                                  path=str(cfg_file))
            if under_test is not None and (path.parent / f"{mod.inner}.tla").resolve() != under_test.resolve():
                issues.append(TraceIssue(str(path), None, f"the module instantiates {mod.inner} from its own folder "
                                         f"({path.parent / (mod.inner + '.tla')}), not {under_test}: put the modules beside the "
                                         "spec they validate", "warning"))
            for note in mod.notes:
                issues.append(TraceIssue(str(path), None, f"not translated for the diagnosis: {note}", "warning"))
            wins = wv_windows(mod, issues)
            choices[f"{mod.action}: verdicts from {path.name} run per window (a window passes when "
                    f"{', '.join(goal)} is violated)"] += len(wins)
            failing: list[tuple[Window, WindowResult]] = []
            module_relax = _wv_relaxations(mod)
            for r in module_relax:
                relaxed[r] += len(wins)
            for w, raw in wins:
                if strict and module_relax:
                    _record(rows, causes, results, w, mod.action, False, _relaxed_cause(mod.action, module_relax), None)
                    continue
                checked += 1
                ok, why = _run_wv_window(Model, check, Limits, dataclasses.replace, spec, cfg, mod.window_def, raw, goal)
                if ok:
                    _record(rows, causes, results, w, mod.action, True, None, None)
                else:
                    wr = WindowResult(w.id, w.trace_id, mod.action, False, w.source, why)
                    failing.append((w, wr))
                    results.append(wr)
                    rows.setdefault(mod.action, ActionRow(mod.action))
                    rows[mod.action].total += 1
                if watch.tick(len(results)):
                    stopped = "max_memory"
                    break
            if failing:
                _diagnose_wv(mod, cfg, failing, causes, issues)
    except KeyboardInterrupt:  # Ctrl-C: the windows checked so far are reported, marked partial
        interrupted = True
    ordered = list(rows.values())
    scored = [r for r in ordered if r.total]
    score = sum(r.leaderboard for r in scored) / len(scored) if scored else 0.0
    result = ConformanceResult(
        score=score, actions=ordered, causes=sorted(causes.values(), key=lambda c: (-c.count, c.action, c.title)),
        windows=results, choices=dict(choices.most_common()), issues=issues,
        seconds=time.perf_counter() - t0, checked=checked, relaxations=_relaxation_rows(relaxed), strict=strict,
        stopped=stopped)
    if interrupted:
        from specula.errors import Interrupted

        raise Interrupted(result, f"interrupted after {len(results)} windows")
    return result


def _wv_relaxations(mod: Any) -> tuple[tuple[str, str], ...]:
    """What a WV module relaxes, in the terms of RELAXATIONS: variables it fixes (or observes only
    by length), and the input message it rebuilds."""
    import re

    out: list[tuple[str, str]] = []
    for var, text in mod.init.items():
        kind = mod.post.get(var)
        observed = re.fullmatch(re.escape(mod.window_def) + r"\.pre\.(\w+)", text.strip())
        if kind and kind[0] == "len":
            out.append(("summary", var))
        elif not (kind and kind[0] == "eq" and observed):
            if var != mod.message_var:
                out.append(("fixed", var))
    if mod.message_params:
        out.append(("input", mod.action))
    return tuple(out)


def _run_wv_window(Model: Any, check: Any, Limits: Any, replace: Any, spec: Any, cfg: Any, wdef: str, raw: Any,
                   goal: list[str]) -> tuple[bool, str | None]:
    """One window through the module: (passed, why not)."""
    if not isinstance(raw, dict):
        return False, "the window is not a JSON object"
    try:
        c = replace(cfg, constants={**cfg.constants, wdef: raw})
        model = Model(spec, c, codegen=False)
        r = check(model, Limits(max_states=WV_MAX_STATES, max_seconds=WV_MAX_SECONDS, check_deadlock=False), cfg=c)
    except Exception as exc:  # noqa: BLE001 - one window's failure is its own result
        return False, f"the module cannot be evaluated for this window: {type(exc).__name__}: {exc}"
    if r.stopped == "interrupted":  # Ctrl-C: not this window's verdict; the validation stops
        raise KeyboardInterrupt
    if r.verdict == "invariant" and (r.violated in goal or r.violated is None):
        return True, None
    if r.verdict == "ok":
        return False, f"{', '.join(goal)} holds: the post-state is never reached"
    if r.verdict == "limit":
        return False, f"stopped at a limit ({r.stopped}) before reaching the post-state"
    return False, f"{r.verdict}: {r.message}"


def _diagnose_wv(mod: Any, cfg: Any, failing: list[tuple[Window, WindowResult]], causes: dict[str, Cause],
                 issues: list[TraceIssue]) -> None:
    """The diagnosis of the failing windows: the same windows, bound by the mapping equivalent
    to the module, checked with check_step against the spec under test (the module's cfg
    without its invariant)."""
    import dataclasses

    from specula.tla import Model
    from specula.traces.mapping import parse_mapping
    from specula.traces.wv import mapping_yaml

    try:
        mapping = parse_mapping(mapping_yaml([mod]), f"<mapping from {mod.path.name}>")
        inner = mod.inner_spec
        # the module's cfg names the module's own Spec and invariant: the spec under test is
        # started from its Init and stepped by its Next (only the action's own step matters)
        icfg = dataclasses.replace(cfg, invariants=[], properties=[], specification=None, init="Init", next="Next")
        model = Model(inner, icfg, codegen=False)  # a few windows: compiling generated code costs more
        res = validate_windows(model, [w for w, _ in failing], mapping, cfg=icfg)
    except Exception as exc:  # noqa: BLE001 - the verdicts stand without a diagnosis
        issues.append(TraceIssue(str(mod.path), None, f"no diagnosis for the failing windows: {type(exc).__name__}: {exc}",
                                 "warning"))
        res = None
    diag = list(res.windows) if res is not None else []
    cmap = {c.key: c for c in res.causes} if res is not None else {}
    for k, (w, wr) in enumerate(failing):
        d = diag[k] if k < len(diag) else None
        if d is not None and not d.ok and d.cause in cmap:
            src = cmap[d.cause]
            cause = Cause(mod.action, src.kind, src.title, detail=dict(src.detail), location=src.location)
        elif d is not None and d.ok:
            cause = Cause(mod.action, "module", f"{wr.cause} (the equivalent mapping passes this window: the module "
                          "says more than specula translated; see the warnings)")
        else:
            cause = Cause(mod.action, "module", str(wr.cause))
        c = causes.get(cause.key)
        if c is None:
            c = causes[cause.key] = cause
        c.count += 1
        if len(c.windows) < MAX_EXAMPLES:
            c.windows.append(w.id)
            if w.source:
                c.sources.append(w.source)
        wr.cause = cause.key
