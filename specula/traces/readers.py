"""Readers for trace and window files. They stream line by line, skip ``#`` comment lines and blank
lines, and report a malformed line with its number without losing the rest.

Problems are collected as :class:`~specula.traces.window.TraceIssue` in the ``issues`` list the
caller passes; with ``issues=None`` the first problem raises :class:`~specula.errors.TraceError`
(fail fast). Formats (documented in docs/traces.md):

* ``events``: specula's own NDJSON event trace (``meta`` / ``init`` / ``step`` lines).
* ``windows``: SysMoBench windows ``windows_<Action>.ndjson`` (``pre``/``post``, spec value space).
* ``action-windows``: SysMoBench canonical ``action_windows.jsonl`` (``pre_state``/``post_state``).
* ``tlc-json``: TLC's ``-dumpTrace json`` output (one JSON document).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable, Iterator

from specula.errors import TraceError
from specula.traces.window import Step, Trace, TraceIssue, Window

__all__ = [
    "EVENT_FORMAT_VERSION",
    "FORMATS",
    "TRACE_FORMATS",
    "detect_format",
    "iter_json_lines",
    "read_event_trace",
    "iter_sysmobench_windows",
    "iter_action_windows",
    "read_tlc_trace",
    "read_trace",
    "iter_windows",
    "action_from_filename",
    "find_trace_files",
]

EVENT_FORMAT_VERSION = 1
FORMATS = ("events", "windows", "action-windows", "tlc-json", "etcd-raft")
# The formats that hold whole traces (windows are cut from them).
TRACE_FORMATS = ("events", "tlc-json", "etcd-raft")

MAX_NESTING = 1000  # a trace value nested deeper is bad data (SysMoBench's are a few levels deep)


def _loads(text: str) -> Any:
    """``json.loads`` with a nesting limit: a value nested deeper than ``MAX_NESTING`` (or deeper
    than the stack allows) is a ``ValueError``, so its line is skipped and reported like any
    malformed line instead of aborting the run."""
    if text.count("[") + text.count("{") > MAX_NESTING:  # cheap test first: only such lines are scanned
        depth = deepest = 0
        in_str = esc = False
        for ch in text:
            if in_str:
                if esc:
                    esc = False
                elif ch == "\\":
                    esc = True
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif ch in "[{":
                depth += 1
                if depth > deepest:
                    deepest = depth
            elif ch in "]}":
                depth -= 1
        if deepest > MAX_NESTING:
            raise ValueError(f"value nested {deepest} levels deep (more than {MAX_NESTING})")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"value nested too deeply (more than {MAX_NESTING} levels)") from None


def _report(issues: list[TraceIssue] | None, path: str, line: int | None, message: str, severity: str = "error") -> None:
    if issues is None:
        if severity == "error":
            raise TraceError(message, path=path, line=line)
        return
    issues.append(TraceIssue(path, line, message, severity))


BAD_LINE = object()  #: yielded in place of an unreadable line when ``yield_bad=True``


def iter_json_lines(
    path: str | os.PathLike[str], issues: list[TraceIssue] | None = None, yield_bad: bool = False
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, parsed_json)`` for every non-blank, non-``#`` line of ``path``
    (and ``(line_number, BAD_LINE)`` for a malformed line, after reporting it, if ``yield_bad``)."""
    p = str(path)
    try:
        fh = open(p, encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise TraceError(f"cannot read trace file: {exc.strerror or exc}", path=p) from None
    with fh:
        for lineno, raw in enumerate(fh, 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            try:
                obj = _loads(text)
            except ValueError as exc:
                msg = getattr(exc, "msg", str(exc))
                col = getattr(exc, "colno", None)
                where = f" (column {col})" if col else ""
                _report(issues, p, lineno, f"malformed JSON{where}: {msg}")
                if yield_bad:
                    yield lineno, BAD_LINE
                continue
            yield lineno, obj


def action_from_filename(path: str | os.PathLike[str]) -> str | None:
    """``windows_AcquireLock.ndjson`` (or ``windows_AcquireLock.sample.ndjson``) -> ``AcquireLock``."""
    name = Path(path).name
    if not name.startswith("windows_"):
        return None
    action = name[len("windows_"):].split(".", 1)[0]
    return action or None


def detect_format(path: str | os.PathLike[str]) -> str:
    """Guess a file's format from its name and its first record (raises TraceError if unknown)."""
    p = str(path)
    if action_from_filename(p):
        return "windows"
    try:
        with open(p, encoding="utf-8-sig", errors="replace") as fh:
            head = fh.read(65536)
    except OSError as exc:
        raise TraceError(f"cannot read trace file: {exc.strerror or exc}", path=p) from None
    stripped = head.lstrip()
    if not stripped:
        raise TraceError("empty trace file (no records)", path=p)
    first: Any = None
    for line in head.splitlines():
        t = line.strip()
        if t and not t.startswith("#"):
            try:
                first = _loads(t)
            except ValueError:
                first = None
            break
    if isinstance(first, dict):
        if "kind" in first:
            return "events"
        if "nid" in first and "name" in first and "role" in first:
            return "etcd-raft"  # etcd-io/raft's TracingEvents (SysMoBench's etcd generator)
        if "pre_state" in first or "post_state" in first:
            return "action-windows"
        if "pre" in first and "post" in first:
            return "windows"
        if "state" in first and ("action" in first or "invariant" in first or "property" in first):
            return "tlc-json"
    if stripped.startswith("{") and '"state"' in head and first is None:
        return "tlc-json"  # a pretty-printed TLC dump
    raise TraceError(
        "cannot tell this file's format (expected specula events, SysMoBench windows, "
        "action_windows.jsonl or TLC -dumpTrace json)",
        path=p,
        line=1,
    )


# ---------------------------------------------------------------------------------------------
# specula's own event trace


def read_event_trace(path: str | os.PathLike[str], issues: list[TraceIssue] | None = None) -> Trace:
    """Read an NDJSON event trace into a :class:`Trace` with full states (deltas applied).

    A lost line (malformed JSON, bad record) is reported and skipped. When a later step only
    gives a delta, its state is uncertain until the next full ``state``: such steps are kept with
    ``known=False`` (no window is cut from them) and one warning says so.
    """
    p = str(path)
    trace = Trace(id=Path(p).name.split(".", 1)[0], source=p)
    current: dict[str, Any] | None = None
    certain = False  # is `current` exactly the system's state right now?
    next_seq = 1
    seen_records = 0
    warned = False
    for lineno, rec in iter_json_lines(p, issues, yield_bad=True):
        seen_records += 1
        if rec is BAD_LINE:
            certain = False
            continue
        if not isinstance(rec, dict):
            _report(issues, p, lineno, "expected a JSON object per line")
            certain = False
            continue
        kind = rec.get("kind")
        if kind == "meta":
            if seen_records != 1:
                _report(issues, p, lineno, "'meta' line should be the first record", "warning")
            fmt = rec.get("format", EVENT_FORMAT_VERSION)
            if isinstance(fmt, int) and fmt > EVENT_FORMAT_VERSION:
                _report(issues, p, lineno, f"trace format {fmt} is newer than this reader ({EVENT_FORMAT_VERSION}); reading what it knows", "warning")
            trace.meta = {k: v for k, v in rec.items() if k != "kind"}
            if isinstance(rec.get("trace_id"), (str, int)):
                trace.id = str(rec["trace_id"])
            continue
        if kind == "init":
            state = rec.get("state")
            if not isinstance(state, dict):
                _report(issues, p, lineno, "'init' needs a 'state' object")
                certain = False
                continue
            trace.init = dict(state)
            current = dict(state)
            certain = True
            continue
        if kind == "gap":  # the recorder lost events here: the next step's pre-state is uncertain
            certain = False
            continue
        if kind != "step":
            _report(issues, p, lineno, f"unknown record kind {kind!r} (expected 'meta', 'init', 'step' or 'gap')")
            certain = False
            continue
        problem = None
        action = rec.get("action")
        seq = rec.get("seq", next_seq)
        params = rec.get("params")
        state = rec.get("state")
        delta = rec.get("delta")
        if not isinstance(action, str) or not action:
            problem = "'step' needs an 'action' string"
        elif not isinstance(seq, int) or isinstance(seq, bool):
            problem = "'seq' must be an integer"
        elif params is not None and not isinstance(params, dict):
            problem = "'params' must be an object (parameter name -> value)"
        elif state is not None and delta is not None:
            problem = "a step gives either 'state' or 'delta', not both"
        elif state is None and delta is None:
            problem = "'step' needs a 'state' (full) or a 'delta' (changed fields)"
        elif not isinstance(state if state is not None else delta, dict):
            problem = "'state' must be an object" if state is not None else "'delta' must be an object"
        if problem is not None:
            _report(issues, p, lineno, problem)
            certain = False
            continue
        pre_known = certain
        if state is not None:
            new = dict(state)
            known = True
        else:
            if current is None:
                _report(issues, p, lineno, "'delta' step before any full state ('init' or a step with 'state')")
                current = {}
            known = certain
            if not known and not warned:
                _report(issues, p, lineno, "state uncertain after an unreadable line; no window until the next full 'state'", "warning")
                warned = True
            new = {**current, **delta}
        trace.steps.append(
            Step(
                seq=seq,
                action=action,
                state=new,
                actor=rec.get("actor"),
                params=params,
                input=rec.get("input"),
                line=lineno,
                known=known,
                pre_known=pre_known,
            )
        )
        current = new
        certain = known
        next_seq = seq + 1
    return trace


# ---------------------------------------------------------------------------------------------
# SysMoBench windows


def _window_id(rec: dict[str, Any], key: str, lineno: int) -> Any:
    wid = rec.get(key, rec.get("id"))
    return wid if wid is not None else lineno


def iter_sysmobench_windows(
    path: str | os.PathLike[str], issues: list[TraceIssue] | None = None, action: str | None = None
) -> Iterator[Window]:
    """Windows from ``windows_<Action>.ndjson``: ``{"id", "trace_id", "actor"|"node", "pre", "post",
    "input"}``. The action is ``action``, else the record's ``action`` field, else the file name."""
    p = str(path)
    file_action = action or action_from_filename(p)
    for n, (lineno, rec) in enumerate(iter_json_lines(p, issues)):
        if not isinstance(rec, dict):
            _report(issues, p, lineno, "expected a JSON object per line")
            continue
        pre, post = rec.get("pre"), rec.get("post")
        if not isinstance(pre, dict) or not isinstance(post, dict):
            _report(issues, p, lineno, "a window needs 'pre' and 'post' objects")
            continue
        act = rec.get("action") if isinstance(rec.get("action"), str) else file_action
        if not act:
            _report(issues, p, lineno, "no action: name the file windows_<Action>.ndjson or give 'action'")
            continue
        params = rec.get("params")
        if params is not None and not isinstance(params, dict):
            _report(issues, p, lineno, "'params' must be an object")
            continue
        actor = rec.get("actor", rec.get("node"))
        yield Window(
            id=_window_id(rec, "id", lineno),
            trace_id=str(rec.get("trace_id", "")),
            index=rec["seq"] if isinstance(rec.get("seq"), int) else n,
            action=act,
            pre=pre,
            post=post,
            actor=actor,
            params=params,
            input=rec.get("input"),
            source=f"{p}:{lineno}",
        )


def iter_action_windows(path: str | os.PathLike[str], issues: list[TraceIssue] | None = None) -> Iterator[Window]:
    """Windows from canonical ``action_windows.jsonl``: ``{"window_id", "trace_id", "seq", "action",
    "actor", "pre_state", "post_state"[, "input"]}`` with per-node values as node-keyed objects."""
    p = str(path)
    for n, (lineno, rec) in enumerate(iter_json_lines(p, issues)):
        if not isinstance(rec, dict):
            _report(issues, p, lineno, "expected a JSON object per line")
            continue
        pre, post = rec.get("pre_state"), rec.get("post_state")
        if not isinstance(pre, dict) or not isinstance(post, dict):
            _report(issues, p, lineno, "a window needs 'pre_state' and 'post_state' objects")
            continue
        act = rec.get("action")
        if not isinstance(act, str) or not act:
            _report(issues, p, lineno, "a window needs an 'action' string")
            continue
        params = rec.get("params")
        if params is not None and not isinstance(params, dict):
            _report(issues, p, lineno, "'params' must be an object")
            continue
        yield Window(
            id=_window_id(rec, "window_id", lineno),
            trace_id=str(rec.get("trace_id", "")),
            index=rec["seq"] if isinstance(rec.get("seq"), int) else n,
            action=act,
            pre=pre,
            post=post,
            actor=rec.get("actor", rec.get("node")),
            params=params,
            input=rec.get("input", rec.get("message")),
            source=f"{p}:{lineno}",
        )


# ---------------------------------------------------------------------------------------------
# TLC -dumpTrace json


def read_tlc_trace(path: str | os.PathLike[str], issues: list[TraceIssue] | None = None) -> Trace:
    """A TLC ``-dumpTrace json`` file as a :class:`Trace` (actions carry TLC's ``context`` as params).

    Layout: ``{"state": [[1, {var: value}], ...], "action": [[[i, pre], {"name", "location",
    "context"?}, [j, post]], ...], "invariant"|"property": [...]}``. TLC writes sets as JSON arrays
    and model values as strings; the conformance phase reads them back with the spec's types.
    """
    p = str(path)
    trace = Trace(id=Path(p).name.split(".", 1)[0], source=p)
    try:
        text = Path(p).read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise TraceError(f"cannot read trace file: {exc.strerror or exc}", path=p) from None
    try:
        doc = _loads(text)
    except ValueError as exc:
        _report(issues, p, getattr(exc, "lineno", None), f"malformed JSON: {getattr(exc, 'msg', exc)}")
        return trace
    if not isinstance(doc, dict) or not isinstance(doc.get("state"), list):
        _report(issues, p, 1, "not a TLC -dumpTrace json document (no 'state' list)")
        return trace
    trace.meta = {k: doc[k] for k in ("invariant", "property") if k in doc}
    states = doc["state"]
    actions = doc.get("action") or []
    for i, entry in enumerate(states):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict)):
            _report(issues, p, None, f"state #{i + 1} is not [number, {{var: value}}]")
            return trace
    if states:
        trace.init = dict(states[0][1])
    for k, entry in enumerate(actions):
        try:
            (_, pre), info, (num, post) = entry
            name = info["name"]
        except (TypeError, ValueError, KeyError):
            _report(issues, p, None, f"action #{k + 1} is not [[i, pre], {{name, ...}}, [j, post]]")
            continue
        ctx = info.get("context")
        trace.steps.append(
            Step(
                seq=k + 1,
                action=str(name),
                state=dict(post),
                params=dict(ctx) if isinstance(ctx, dict) else None,
                line=None,
            )
        )
    if not actions and len(states) > 1:
        # older TLC versions: states only; steps have no action names
        for k, (_, st) in enumerate(states[1:]):
            trace.steps.append(Step(seq=k + 1, action="", state=dict(st)))
    return trace


# ---------------------------------------------------------------------------------------------
# dispatch


def read_trace(path: str | os.PathLike[str], issues: list[TraceIssue] | None = None, fmt: str | None = None) -> Trace:
    """A whole trace (event trace or TLC dump)."""
    fmt = fmt or detect_format(path)
    if fmt == "events":
        return read_event_trace(path, issues)
    if fmt == "tlc-json":
        return read_tlc_trace(path, issues)
    if fmt == "etcd-raft":
        from specula.traces.etcdraft import read_raft_trace

        return read_raft_trace(path, issues)
    raise TraceError(f"{fmt} files hold windows, not whole traces", path=str(path))


def iter_windows(
    path: str | os.PathLike[str],
    issues: list[TraceIssue] | None = None,
    fmt: str | None = None,
    actions: Iterable[str] | None = None,
) -> Iterator[Window]:
    """Windows from any supported file; traces are cut into one window per step whose action is in
    ``actions`` (all steps when None)."""
    from specula.traces.cut import cut_windows

    fmt = fmt or detect_format(path)
    wanted = set(actions) if actions is not None else None
    if fmt == "windows":
        src: Iterable[Window] = iter_sysmobench_windows(path, issues)
    elif fmt == "action-windows":
        src = iter_action_windows(path, issues)
    elif fmt in TRACE_FORMATS:
        src = cut_windows(read_trace(path, issues, fmt), wanted)
    else:
        raise TraceError(f"unknown trace format {fmt!r} (known: {', '.join(FORMATS)})", path=str(path))
    for w in src:
        if wanted is None or w.action in wanted:
            yield w


def find_trace_files(directory: str | os.PathLike[str]) -> list[Path]:
    """Trace and window files under ``directory`` (``*.ndjson``, ``*.jsonl``, ``*.json``), sorted."""
    d = Path(directory)
    if not d.is_dir():
        raise TraceError("not a directory", path=str(d))
    out = [f for f in d.rglob("*") if f.is_file() and f.suffix in (".ndjson", ".jsonl", ".json")]
    return sorted(out)
