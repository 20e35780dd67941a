"""Traces of SysMoBench tasks: what recording them needs on this machine, and importing traces
recorded elsewhere (``specula bench traces TASK [--import ...]``; docs/tasks.md).

SysMoBench records a task's traces by running the real system (an instrumented kernel image, Go,
C, Rust and Java clusters) with the generator under ``tla_eval/core/trace_generation/<task>/``.
specula does not run those generators: :func:`recording_needs` says what one would need here
(the system's repository and commit from the task.yaml, the toolchain and whether it is on PATH,
the generator folder), and :func:`import_traces` reads traces recorded elsewhere with specula's
readers (window files, ``action_windows.jsonl``, event traces, PGo TraceLink run folders) and
copies the readable ones into a folder ``specula eval --traces`` reads.
"""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from specula.errors import InputError, TraceError
from specula.traces.window import TraceIssue, Window

if TYPE_CHECKING:
    from specula.tasks import Task

__all__ = ["ToolCheck", "TraceNeeds", "recording_needs", "ImportedSource", "ImportReport", "import_traces",
           "LANGUAGE_TOOLS"]

# The toolchain a task.yaml ``language`` needs (command, what it is).
LANGUAGE_TOOLS: dict[str, tuple[tuple[str, str], ...]] = {
    "go": (("go", "Go toolchain, Debian package golang"),),
    "rust": (("cargo", "Rust/cargo, from rustup"), ("rustc", "Rust compiler")),
    "c": (("gcc", "C compiler"), ("make", "make")),
    "cpp": (("g++", "C++ compiler"), ("make", "make")),
    "java": (("java", "Java runtime"), ("mvn", "Java/Maven")),
}
# Build files in a generator folder and the command each needs.
_GENERATOR_MARKERS: tuple[tuple[str, str, str], ...] = (
    ("go.mod", "go", "Go toolchain, Debian package golang"),
    ("Cargo.toml", "cargo", "Rust/cargo, from rustup"),
    ("Makefile", "make", "make"),
    ("CMakeLists.txt", "cmake", "CMake"),
    ("pom.xml", "mvn", "Java/Maven"),
)


@dataclass(frozen=True)
class ToolCheck:
    """One command recording needs, and where it is on this machine (None: missing)."""

    command: str
    purpose: str
    path: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"command": self.command, "purpose": self.purpose, "path": self.path, "present": self.path is not None}


@dataclass(frozen=True)
class TraceNeeds:
    """What recording a SysMoBench task's traces needs here."""

    task: str
    language: str
    repository: str | None
    commit: str | None
    branch: str | None
    tools: tuple[ToolCheck, ...]
    generator: Path | None  # tla_eval/core/trace_generation/<task>/ (None: no checkout)
    generator_present: bool
    has_traces: bool  # the checkout already ships traces or windows for the task

    @property
    def missing(self) -> list[str]:
        return [t.command for t in self.tools if t.path is None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "specula.bench.trace-needs/1",
            "task": self.task,
            "language": self.language,
            "repository": self.repository,
            "commit": self.commit,
            "branch": self.branch,
            "tools": [t.to_dict() for t in self.tools],
            "missing": self.missing,
            "generator": str(self.generator) if self.generator else None,
            "generator_present": self.generator_present,
            "has_traces": self.has_traces,
        }

    def render(self, runs_generator: bool = False) -> str:
        """The message `specula bench traces TASK` prints (``runs_generator``: specula builds and
        runs this task's generator itself when what it needs is here -- etcd)."""
        t = self.task
        if self.generator is None:  # a task name without a checkout
            return "\n".join([
                f"{t} is a SysMoBench task: specula cannot record its traces itself (SysMoBench runs the real system).",
                "Give --sysmobench PATH (a SysMoBench checkout) to see the system, toolchain and generator recording",
                "them needs here, or import traces recorded elsewhere:",
                f"  specula bench traces {t} --import FILE_OR_DIR --out DIR",
                f"  specula eval SPEC.tla --task {t} --sysmobench PATH --traces DIR",
            ])
        lines = ([f"specula records {t}'s traces by building and running SysMoBench's generator, which needs:"]
                 if runs_generator else
                 [f"specula cannot record {t}'s traces itself: SysMoBench records them by running the real system.",
                  "Recording them here needs:"])
        if self.repository:
            pin = f"commit {self.commit}" if self.commit else (
                f"branch {self.branch} (task.yaml pins no commit)" if self.branch else "no commit pinned in task.yaml")
            lines.append(f"  system:     {self.repository} at {pin}")
        else:
            lines.append("  system:     task.yaml names no repository")
        lines.append(f"  language:   {self.language or 'not given in task.yaml'}")
        if self.tools:
            for i, tool in enumerate(self.tools):
                where = f"found at {tool.path}" if tool.path else "MISSING on PATH"
                lines.append(f"  {'toolchain:' if i == 0 else '          '}  {tool.command}: {where} — {tool.purpose}")
        else:
            lines.append("  toolchain:  unknown for this language")
        state = "present" if self.generator_present else "absent in this checkout"
        lines.append(f"  generator:  {self.generator}/ ({state})")
        if self.missing:
            lines.append(f"missing here: {', '.join(self.missing)}")
        if self.has_traces:
            lines.append("(the checkout already ships traces for this task: `specula eval` uses them without --traces)")
        lines.append("Record the traces with that generator (here or elsewhere), then import them:")
        sm = f" --sysmobench {self.generator.parents[3]}"
        lines.append(f"  specula bench traces {t}{sm} --import FILE_OR_DIR --out DIR")
        lines.append(f"  specula eval SPEC.tla --task {t}{sm} --traces DIR")
        return "\n".join(lines)


def recording_needs(task: "Task | str", *, which: Callable[[str], str | None] | None = None) -> TraceNeeds:
    """What recording ``task``'s traces needs: a :class:`~specula.tasks.Task` of a SysMoBench
    checkout, or a SysMoBench task name (no checkout: the toolchain is unknown)."""
    find = which or shutil.which
    if isinstance(task, str):
        return TraceNeeds(task, "", None, None, None, (), None, False, False)
    info: Mapping[str, Any] = task.repository if isinstance(task.repository, Mapping) else {}
    lang = (task.language or "").strip().lower()
    wanted: list[tuple[str, str]] = list(LANGUAGE_TOOLS.get(lang, ()))
    gen = task.generator_dir or task.dir.parent.parent / "core" / "trace_generation" / task.dir.name
    if gen.is_dir():
        for marker, command, purpose in _GENERATOR_MARKERS:
            if (gen / marker).is_file():
                wanted.append((command, purpose))
        make = gen / "Makefile"
        if make.is_file() and "cmake" in make.read_text(encoding="utf-8", errors="replace"):
            wanted.append(("cmake", "CMake, called by the generator's Makefile"))
        if any('"docker"' in p.read_text(encoding="utf-8", errors="replace") for p in gen.glob("*.py")):
            wanted.append(("docker", "Docker: the generator runs the system in a container image"))
    seen: set[str] = set()
    tools = []
    for command, purpose in wanted:
        if command not in seen:
            seen.add(command)
            tools.append(ToolCheck(command, purpose, find(command)))
    return TraceNeeds(
        task=task.name, language=lang,
        repository=str(info["url"]) if info.get("url") else None,
        commit=str(info["commit"]) if info.get("commit") else None,
        branch=str(info["branch"]) if info.get("branch") else None,
        tools=tuple(tools), generator=gen, generator_present=gen.is_dir(),
        has_traces=bool(task.trace_paths()),
    )


# -- import
@dataclass
class ImportedSource:
    """One input file or TraceLink run: its format, where it went, windows per action."""

    source: str
    format: str
    dest: str | None = None  # None: nothing readable, not copied
    windows: dict[str, int] = field(default_factory=dict)
    bad_lines: int = 0
    reason: str = ""  # why it was not copied

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "format": self.format, "dest": self.dest, "windows": dict(self.windows),
                "bad_lines": self.bad_lines, "reason": self.reason}


@dataclass
class ImportReport:
    """What `specula bench traces TASK --import ...` did."""

    task: str
    out: Path
    target_actions: tuple[str, ...]
    sources: list[ImportedSource] = field(default_factory=list)
    issues: list[TraceIssue] = field(default_factory=list)
    runs_by_action: dict[str, set[str]] = field(default_factory=dict)

    @property
    def windows_by_action(self) -> dict[str, int]:
        total: Counter[str] = Counter()
        for s in self.sources:
            if s.dest is not None:
                total.update(s.windows)
        return dict(sorted(total.items()))

    @property
    def copied(self) -> list[ImportedSource]:
        return [s for s in self.sources if s.dest is not None]

    def per_action(self) -> dict[str, dict[str, int]]:
        wins = self.windows_by_action
        names = sorted(set(wins) | set(self.target_actions))
        return {a: {"windows": wins.get(a, 0), "runs": len(self.runs_by_action.get(a, ()))} for a in names}

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "specula.bench.trace-import/1",
            "task": self.task,
            "out": str(self.out),
            "target_actions": list(self.target_actions),
            "actions": self.per_action(),
            "windows": sum(self.windows_by_action.values()),
            "files": [s.to_dict() for s in self.sources],
            "issues": [i.to_dict() for i in self.issues],
            "missing_actions": [a for a in self.target_actions if not self.windows_by_action.get(a)],
        }

    def problems(self) -> list[str]:
        """``file:line: error: message`` per bad line, then the inputs not copied."""
        lines = [f"{i.location()}: {i.severity}: {i.message} (skipped)" for i in self.issues]
        lines += [f"{s.source}: skipped: {s.reason}" for s in self.sources if s.dest is None]
        return lines

    def render(self) -> str:
        """The summary: files, windows and runs per action."""
        lines = []
        n = sum(self.windows_by_action.values())
        bad = sum(s.bad_lines for s in self.copied)
        lines.append(f"imported {len(self.copied)} of {len(self.sources)} file(s)/run(s) into {self.out}: "
                     f"{n} window(s), {bad} bad line(s) skipped, {len(self.sources) - len(self.copied)} input(s) "
                     "not copied")
        for action, c in self.per_action().items():
            mark = "" if not self.target_actions or action in self.target_actions else "  (not a target action)"
            lines.append(f"  {action}: {c['windows']} window(s) in {c['runs']} run(s){mark}")
        return "\n".join(lines)


def _unique(out: Path, name: str) -> Path:
    """``out/name``, or ``out/<stem>.2<suffix>`` ... when taken (the action prefix of a window
    file name, up to its first dot, is kept)."""
    dest = out / name
    head, dot, tail = name.partition(".")
    k = 2
    while dest.exists():
        dest = out / (f"{head}.{k}.{tail}" if dot else f"{name}-{k}")
        k += 1
    return dest


def _place_text(out: Path, name: str, text: str) -> Path:
    """Write ``text`` as ``out/name`` unless an identical file is already there (re-imports do
    not double windows)."""
    dest = out / name
    head, dot, tail = name.partition(".")
    k = 2
    while dest.exists():
        if dest.read_text(encoding="utf-8", errors="replace") == text:
            return dest
        dest = out / (f"{head}.{k}.{tail}" if dot else f"{name}-{k}")
        k += 1
    dest.write_text(text, encoding="utf-8")
    return dest


def _count(windows: Sequence[Window], run_key: Callable[[Window], str], report: ImportReport) -> dict[str, int]:
    c: Counter[str] = Counter(w.action for w in windows)
    for w in windows:
        report.runs_by_action.setdefault(w.action, set()).add(run_key(w))
    return dict(c)


def _import_run(run: Path, out: Path, report: ImportReport) -> None:
    from specula.traces.cut import cut_windows
    from specula.traces.pgo import read_tracelink_run

    issues: list[TraceIssue] = []
    src = ImportedSource(str(run), "tracelink")
    report.sources.append(src)
    try:
        windows = list(cut_windows(read_tracelink_run(run, issues)))
    except (TraceError, OSError) as exc:
        src.reason = str(exc)
        return
    report.issues.extend(issues)
    src.bad_lines = len(issues)
    if not windows:
        src.reason = "no readable steps"
        return
    dest = _unique(out, run.name)
    shutil.copytree(run, dest)
    src.dest = str(dest)
    src.windows = _count(windows, lambda w: str(dest), report)


def _import_file(path: Path, out: Path, report: ImportReport) -> None:
    from specula.traces.readers import detect_format, iter_windows

    src = ImportedSource(str(path), "")
    report.sources.append(src)
    issues: list[TraceIssue] = []
    try:
        src.format = detect_format(path)
        windows = list(iter_windows(path, issues, src.format))
    except TraceError as exc:
        issues.append(TraceIssue(str(path), getattr(exc, "line", None), str(exc)))
        windows = []
    except OSError as exc:
        issues.append(TraceIssue(str(path), None, f"cannot read: {exc.strerror or exc}"))
        windows = []
    errors = [i for i in issues if i.severity == "error"]
    report.issues.extend(issues)
    src.bad_lines = len({i.line for i in errors if i.line is not None})
    if not windows:
        src.reason = "no readable windows or steps"
        return
    if src.format in ("windows", "action-windows"):
        # one window per line: the copy keeps the readable lines only
        bad = {i.line for i in errors if i.line is not None}
        with path.open(encoding="utf-8-sig", errors="replace") as fh:
            kept = [raw if raw.endswith("\n") else raw + "\n" for n, raw in enumerate(fh, 1) if n not in bad]
        dest = _place_text(out, path.name, "".join(kept))
    elif src.format == "etcd-raft":  # raft's own events: the converted event trace is written
        from specula.traces.etcdraft import convert_raft_trace, event_trace_lines

        trace = convert_raft_trace(path, [])
        dest = _place_text(out, path.name.split(".", 1)[0] + ".ndjson", "\n".join(event_trace_lines(trace)) + "\n")
    else:  # whole traces are copied as they are (their readers skip the same bad lines again)
        dest = _place_text(out, path.name, path.read_text(encoding="utf-8-sig", errors="replace"))
    src.dest = str(dest)
    src.windows = _count(windows, lambda w: f"{dest}#{w.trace_id}" if w.trace_id else str(dest), report)


def import_traces(task: str, inputs: Sequence[Path], out: Path, target_actions: Sequence[str] = ()) -> ImportReport:
    """Read ``inputs`` (files, folders of them, TraceLink run folders) with specula's readers and
    copy the readable ones into ``out``. A bad line is an issue of the report, never an abort; a
    file with nothing readable is reported and not copied. Inputs that do not exist, or an ``out``
    that is a file, raise :class:`InputError` before anything is copied."""
    from specula.traces.pgo import is_tracelink_run, tracelink_runs
    from specula.traces.readers import find_trace_files

    if not inputs:
        raise InputError("nothing to import: give --import FILE_OR_DIR")
    for p in inputs:
        if not p.exists():
            raise InputError("trace file or folder not found (--import)", str(p))
    if out.exists() and not out.is_dir():
        raise InputError("--out must be a folder", str(out))
    out_r = out.resolve()
    for p in inputs:
        if p.resolve() == out_r or p.resolve() in out_r.parents:
            raise InputError("--out lies inside this --import folder; choose a folder outside it", str(p))
    out.mkdir(parents=True, exist_ok=True)
    report = ImportReport(task=task, out=out, target_actions=tuple(target_actions))
    for p in inputs:
        if is_tracelink_run(p):
            _import_run(p, out, report)
        elif p.is_dir():
            runs = tracelink_runs(p)
            for run in runs:
                _import_run(run, out, report)
            inside = {r.resolve() for r in runs}
            for f in find_trace_files(p):
                if not any(r in f.resolve().parents for r in inside):
                    _import_file(f, out, report)
        else:
            _import_file(p, out, report)
    return report
