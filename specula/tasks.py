"""What is to be modelled: one frozen :class:`Task`, read from a task.yaml (a bundled system under
``benchmarks/systems``, a task of a SysMoBench checkout) or made for a bare repository.

Below both the agent and the bench rooms: ``specula model`` gives the agent a Task, ``specula
bench`` gives it the same Task, ``specula eval`` scores a spec against it, and a bundled system's
harness (``task.yaml`` ``harness:``) is run from it. Overrides (command-line flags) make a new Task
with :func:`with_overrides`; nothing changes a Task in place.

SysMoBench layout (a checkout given as a path): ``tla_eval/tasks/<task>/task.yaml`` (+ prompts/),
``data/invariant_templates/<task>/invariants.yaml``, PGo traces under
``tla_eval/core/trace_generation/<task>/traces_found/``, window files ``windows_<Action>.ndjson``
or ``action_windows.jsonl`` wherever the task folder or ``data/trace_based/<task>/`` has them.
Required actions come from the task's V2 ``wv.target_actions`` or, for V1 task files, from the
published V2 table below. docs/tasks.md and docs/systems.md describe the fields.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from specula.errors import ConfigError, InputError, SpeculaError

__all__ = [
    "emitters_dir",
    "Task", "HarnessSpec", "load_task", "list_tasks", "repository_task", "load_target", "with_overrides",
    "with_code", "sysmobench_root", "bundled_systems_dir", "SYSMOBENCH_TARGET_ACTIONS", "DEFAULT_HARNESS_TIMEOUT",
]

# Required actions of the eleven SysMoBench tasks (V2), by task name.
SYSMOBENCH_TARGET_ACTIONS: dict[str, list[str]] = {
    "spin": ["AcquireLock", "ReleaseLock"],
    "mutex": ["AcquireLock", "TryAcquireLock", "ReleaseLock"],
    "rwmutex": ["AcquireReadLock", "AcquireWriteLock", "AcquireUpReadLock", "ReleaseLock"],
    "ringbuffer": ["Push", "Pop"],
    "etcd": ["ElectionTimeout", "HandleVoteRequest", "ClientProposal", "HandleAppendEntries", "HandleHeartbeat"],
    "redisraft": ["ElectionTimeout", "BecomeCandidate", "BecomeLeader", "RecvRequestVote", "RecvAppendEntries", "LogAppend"],
    "curp": ["Propose", "ProcessProposeLeader", "ProcessProposeNonLeader", "Commit", "ProcessCommitMsg", "LeaderChange"],
    "zookeeper": ["Notification", "HandleNotification", "BecomeLeader"],
    "dqueue": ["Request", "Produce"],
    "locksvc": ["ClientLockRequest", "ServerGrantLock", "ClientCriticalSection", "ClientUnlockRequest"],
    "raftkvs": [
        "ElectionTimeout",
        "HandleRequestVoteRequest",
        "HandleAppendEntriesRequest",
        "HandleAppendEntriesResponse",
        "ClientRequest",
    ],
}
DEFAULT_HARNESS_TIMEOUT = 300.0


def bundled_systems_dir() -> Path:
    """``benchmarks/systems`` of this checkout (or ``$SPECULA_SYSTEMS_DIR``)."""
    env = os.environ.get("SPECULA_SYSTEMS_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "benchmarks" / "systems"


def emitters_dir() -> Path | None:
    """``tools/emitters`` of this checkout (``$SPECULA_EMITTERS`` overrides), or None."""
    env = os.environ.get("SPECULA_EMITTERS")
    path = Path(env) if env else Path(__file__).resolve().parent.parent / "tools" / "emitters"
    return path if path.is_dir() else None


@dataclass(frozen=True)
class HarnessSpec:
    """How a bundled system records traces (task.yaml ``harness:``; docs/systems.md)."""

    command: tuple[str, ...]
    build: tuple[tuple[str, ...], ...] = ()
    timeout: float = DEFAULT_HARNESS_TIMEOUT
    # option -> values `bench traces --until-coverage` may try ({"--steps": ("150", "300")})
    explore: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class Task:
    """One modelling task. ``kind``: ``bundled`` (benchmarks/systems), ``sysmobench`` (a checkout's
    task) or ``repository`` (a bare repository named on the command line)."""

    name: str
    kind: str
    dir: Path  # the task folder (a bare repository: the repository itself)
    spec_module: str  # the TLA+ module to write (task.yaml specModule)
    language: str = ""
    description: str = ""
    system_type: str = ""
    source_files: tuple[str, ...] = ()
    repository: Mapping[str, Any] | None = field(default=None, compare=False)
    target_actions: tuple[str, ...] = ()  # the required actions
    traces_dir: Path | None = None
    window_files: tuple[Path, ...] = ()
    trace_inputs: tuple[Path, ...] = ()  # trace/window files or folders given instead of the task's own
    mapping: Path | None = None
    invariants: Path | None = None
    translations: Path | None = None
    reference_spec: Path | None = None
    reference_cfg: Path | None = None
    mutants: tuple[Mapping[str, Any], ...] = field(default=(), compare=False)
    prompts_dir: Path | None = None
    harness: HarnessSpec | None = None
    code: Path | None = None  # the source the agent reads (None: the task folder)
    focus: str = ""
    guidance: str = ""
    task_file: Path | None = None
    fields: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # -- what the agent may read
    @property
    def code_dir(self) -> Path:
        return (self.code or self.dir).resolve()

    @property
    def hidden(self) -> tuple[Path, ...]:
        """Paths never shown to an agent: the reference spec, the mutants (and their folders)."""
        if self.kind == "repository":
            return ()
        base = self.dir.resolve()
        out = [p for p in (self.reference_spec, self.reference_cfg) if p is not None]
        out += [base / str(m["spec"]) for m in self.mutants if "spec" in m]
        out += [base / "ref", base / "mutants"]
        return tuple(Path(p).resolve() for p in out)

    # -- traces
    @property
    def generator_dir(self) -> Path | None:
        """A SysMoBench task's ``tla_eval/core/trace_generation/<task>/`` (its trace generator,
        shipped runs and, for PGo tasks, the MPCal reference spec); None for other tasks."""
        if self.kind != "sysmobench":
            return None
        return self.dir.parent.parent / "core" / "trace_generation" / self.dir.name

    def trace_files(self) -> list[Path]:
        """NDJSON traces of the task's own traces folder."""
        if self.traces_dir is None or not self.traces_dir.is_dir():
            return []
        from specula.traces import find_trace_files

        return [f for f in find_trace_files(self.traces_dir) if f.suffix != ".log"]

    def tracelink_runs(self) -> list[Path]:
        """PGo TraceLink run folders (SysMoBench's PGo tasks)."""
        if self.traces_dir is None or not self.traces_dir.is_dir():
            return []
        from specula.traces.pgo import tracelink_runs

        return tracelink_runs(self.traces_dir)

    def trace_paths(self) -> list[Path]:
        """Every trace, window file and TraceLink run phase 3 reads: the given ``trace_inputs``
        (folders expanded) or else the task's own."""
        if self.trace_inputs:
            from specula.traces import find_trace_files
            from specula.traces.pgo import is_tracelink_run, tracelink_runs

            out: list[Path] = []
            for p in self.trace_inputs:
                if p.is_dir() and not is_tracelink_run(p):  # run folders and trace files alike
                    runs = tracelink_runs(p)
                    out.extend(runs)
                    out.extend(f for f in find_trace_files(p) if not any(r in f.parents for r in runs))
                else:
                    out.append(p)
            return out
        return list(self.window_files) + self.trace_files() + self.tracelink_runs()

    def missing(self) -> list[str]:
        """What is missing to run every phase of this task (empty = runnable)."""
        out = []
        if not self.trace_paths():
            if self.kind == "sysmobench":
                out.append("traces: needs the instrumented system build")
            elif self.kind == "bundled":
                out.append(f"traces: run `specula bench traces {self.name}`")
            else:
                out.append("traces: give --traces")
        if self.invariants is None or not self.invariants.is_file():
            out.append("invariant templates")
        return out

    # -- serialised forms
    def summary(self) -> dict[str, Any]:
        """The catalog row (``specula bench list --json``)."""
        return {
            "name": self.name,
            "kind": self.kind,
            "dir": str(self.dir),
            "spec_module": self.spec_module,
            "language": self.language,
            "system_type": self.system_type,
            "source_files": list(self.source_files),
            "target_actions": list(self.target_actions),
            "traces": len(self.trace_files()) + len(self.tracelink_runs()),
            "window_files": [str(p) for p in self.window_files],
            "mapping": str(self.mapping) if self.mapping else None,
            "invariants": str(self.invariants) if self.invariants else None,
            "reference": str(self.reference_spec) if self.reference_spec else None,
            "missing": self.missing(),
        }

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON values (a run directory's task.yaml and state); :meth:`from_dict`
        reads it back."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "Task":
        def path(v: Any) -> Path | None:
            return Path(v) if v else None

        h = d.get("harness")
        harness = (HarnessSpec(tuple(h["command"]), tuple(tuple(s) for s in h.get("build", ())),
                               float(h.get("timeout", DEFAULT_HARNESS_TIMEOUT)),
                               tuple((str(k), tuple(v)) for k, v in h.get("explore", ()))) if h else None)
        return Task(
            name=d["name"], kind=d.get("kind", "repository"), dir=Path(d["dir"]), spec_module=d["spec_module"],
            language=d.get("language", ""), description=d.get("description", ""),
            system_type=d.get("system_type", ""), source_files=tuple(d.get("source_files", ())),
            repository=d.get("repository"), target_actions=tuple(d.get("target_actions", ())),
            traces_dir=path(d.get("traces_dir")), window_files=tuple(Path(p) for p in d.get("window_files", ())),
            trace_inputs=tuple(Path(p) for p in d.get("trace_inputs", ())), mapping=path(d.get("mapping")),
            invariants=path(d.get("invariants")), translations=path(d.get("translations")),
            reference_spec=path(d.get("reference_spec")), reference_cfg=path(d.get("reference_cfg")),
            mutants=tuple(d.get("mutants", ())), prompts_dir=path(d.get("prompts_dir")), harness=harness,
            code=path(d.get("code")), focus=d.get("focus", ""), guidance=d.get("guidance", ""),
            task_file=path(d.get("task_file")), fields=dict(d.get("fields") or {}),
        )


def _jsonable(v: Any) -> Any:
    if isinstance(v, Path):
        return str(v)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: _jsonable(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if isinstance(v, Mapping):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v


# -- reading task files
def _read_yaml(path: Path) -> dict[str, Any]:
    from specula.yamlfile import load_yaml_file

    data = load_yaml_file(path, "task file")
    if not isinstance(data, dict):
        raise ConfigError("task file must be a mapping", str(path))
    return data


def _list_field(data: Mapping[str, Any], key: str, path: Path | None = None) -> list[Any]:
    """``data[key]`` as a list (missing = empty); anything else is the task file's error."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ConfigError(f"must be a list, not {type(value).__name__}", str(path) if path else None, field=key)
    return value


def _source_files(data: Mapping[str, Any], path: Path | None = None) -> tuple[str, ...]:
    out = []
    for item in _list_field(data, "source_files", path):
        if isinstance(item, dict) and item.get("path"):
            out.append(str(item["path"]))
        elif isinstance(item, str):
            out.append(item)
    if not out and data.get("default_source_file"):
        out.append(str(data["default_source_file"]))
    return tuple(out)


def _target_actions(data: Mapping[str, Any], name: str, path: Path | None = None) -> tuple[str, ...]:
    wv = data.get("wv") or {}
    acts = _list_field(wv, "target_actions", path) if isinstance(wv, dict) else None
    if acts:
        return tuple(str(a) for a in acts)
    return tuple(SYSMOBENCH_TARGET_ACTIONS.get(name, []))


def _rel(base: Path, value: Any) -> Path | None:
    return (base / str(value)) if value else None


def _window_files(*dirs: Path | None) -> tuple[Path, ...]:
    out: list[Path] = []
    for d in dirs:
        if d is None or not d.is_dir():
            continue
        out.extend(sorted(d.glob("windows_*.ndjson")))
        out.extend(sorted(d.glob("action_windows*.jsonl")))
    return tuple(out)


def _argv(value: object, task_file: Path, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list) or not value or not all(isinstance(v, (str, int, float)) for v in value):
        raise ConfigError(f"{where} must be a non-empty list of strings", path=str(task_file), field=where)
    return tuple(str(v) for v in value)


def _harness(raw: object, task_file: Path) -> HarnessSpec | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or "command" not in raw:
        raise ConfigError("harness must be a mapping with a 'command'", path=str(task_file), field="harness")
    command = _argv(raw["command"], task_file, "harness.command")
    build_raw = raw.get("build") or []
    if not isinstance(build_raw, list):
        raise ConfigError("harness.build must be a list of argv lists", path=str(task_file), field="harness.build")
    build = tuple(_argv(step, task_file, f"harness.build[{i}]") for i, step in enumerate(build_raw))
    timeout = raw.get("timeout", DEFAULT_HARNESS_TIMEOUT)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
        raise ConfigError("harness.timeout must be a positive number", path=str(task_file), field="harness.timeout")
    explore_raw = raw.get("explore") or {}
    if not isinstance(explore_raw, dict) or not all(isinstance(v, list) and v for v in explore_raw.values()):
        raise ConfigError("harness.explore must map options to non-empty lists of values", path=str(task_file),
                          field="harness.explore")
    explore = tuple((str(k), tuple(str(x) for x in v)) for k, v in explore_raw.items())
    return HarnessSpec(command=command, build=build, timeout=float(timeout), explore=explore)


def _bundled(task_dir: Path) -> Task:
    task_file = task_dir / "task.yaml"
    if not task_file.is_file():
        raise InputError("cannot read task file: no such file", path=str(task_file))
    data = _read_yaml(task_file)
    name = str(data.get("name") or task_dir.name)
    ref = data.get("reference") or {}
    if ref and not isinstance(ref, dict):
        raise ConfigError("reference must be a mapping {spec, cfg}", str(task_file), field="reference")
    return Task(
        name=name,
        kind="bundled",
        dir=task_dir,
        spec_module=str(data.get("specModule") or name),
        language=str(data.get("language", "")),
        description=str(data.get("description", "")).strip(),
        system_type=str(data.get("system_type", "")),
        source_files=_source_files(data, task_file),
        repository=data.get("repository"),
        target_actions=_target_actions(data, name, task_file),
        traces_dir=_rel(task_dir, data.get("traces", "traces/")),
        window_files=_window_files(task_dir / "windows"),
        mapping=_rel(task_dir, data.get("mapping")),
        invariants=_rel(task_dir, data.get("invariants", "invariants.yaml")),
        translations=_rel(task_dir, data.get("translations")),
        reference_spec=_rel(task_dir, ref.get("spec")),
        reference_cfg=_rel(task_dir, ref.get("cfg")),
        mutants=tuple(m for m in _list_field(data, "mutants", task_file) if isinstance(m, dict)),
        prompts_dir=(task_dir / "prompts") if (task_dir / "prompts").is_dir() else None,
        harness=_harness(data.get("harness"), task_file),
        focus=str(data.get("focus") or ""),  # `specula init --focus`
        task_file=task_file,
        fields=data,
    )


def _sysmobench(root: Path, name: str) -> Task:
    task_dir = root / "tla_eval" / "tasks" / name
    data = _read_yaml(task_dir / "task.yaml")
    traces = root / "tla_eval" / "core" / "trace_generation" / name / "traces_found"
    inv = root / "data" / "invariant_templates" / name / "invariants.yaml"
    return Task(
        name=str(data.get("name") or name),
        kind="sysmobench",
        dir=task_dir,
        spec_module=str(data.get("specModule") or name),
        language=str(data.get("language", "")),
        description=str(data.get("description", "")).strip(),
        system_type=str(data.get("system_type", "")),
        source_files=_source_files(data),
        repository=data.get("repository"),
        target_actions=_target_actions(data, name),
        traces_dir=traces if traces.is_dir() else None,
        window_files=_window_files(task_dir, root / "data" / "trace_based" / name),
        invariants=inv if inv.is_file() else None,
        prompts_dir=(task_dir / "prompts") if (task_dir / "prompts").is_dir() else None,
        task_file=task_dir / "task.yaml",
        fields=data,
    )


def _is_sysmobench(root: Path) -> bool:
    return (root / "tla_eval" / "tasks").is_dir()


def sysmobench_root(ref: str | Path) -> Path:
    """A SysMoBench checkout: a local path, or a git URL (``URL`` or ``URL@REV``) cloned with
    GitPython into specula's cache at that revision."""
    text = str(ref)
    from specula.code.repo import is_git_url, resolve_repo

    url, rev = text, None
    if "@" in text and not Path(text).exists():
        head, _, tail = text.rpartition("@")
        if is_git_url(head) and "/" not in tail:
            url, rev = head, tail
    if is_git_url(url) and not Path(url).is_dir():
        root = Path(resolve_repo(url, rev))
    else:
        root = Path(text)
    if not _is_sysmobench(root):
        raise InputError("not a SysMoBench checkout (no tla_eval/tasks/)", str(ref))
    return root


def list_tasks(sysmobench: str | Path | None = None, systems_dir: Path | None = None) -> list[Task]:
    """Every bundled task, plus every task of a SysMoBench checkout when one is given."""
    out: list[Task] = []
    base = systems_dir or bundled_systems_dir()
    if base.is_dir():
        for d in sorted(base.iterdir()):
            if (d / "task.yaml").is_file():
                out.append(_bundled(d))
    if sysmobench is not None:
        root = sysmobench_root(sysmobench)
        for d in sorted((root / "tla_eval" / "tasks").iterdir()):
            if (d / "task.yaml").is_file():
                out.append(_sysmobench(root, d.name))
    return out


def load_task(ref: str | Path, sysmobench: str | Path | None = None, systems_dir: Path | None = None) -> Task:
    """A task by bundled name (or its folder's name), by SysMoBench name (with a checkout), or by
    path to a task folder or its task.yaml."""
    p = Path(ref)
    if (p / "task.yaml").is_file():
        if p.parent.name == "tasks" and p.parent.parent.name == "tla_eval":
            return _sysmobench(p.parent.parent.parent, p.name)
        return _bundled(p)
    if p.name == "task.yaml" and p.is_file():
        return _bundled(p.parent)
    name = str(ref)
    if sysmobench is not None:  # a checkout was named: its tasks win over bundled namesakes
        root = sysmobench_root(sysmobench)
        if (root / "tla_eval" / "tasks" / name / "task.yaml").is_file():
            return _sysmobench(root, name)
    base = systems_dir or bundled_systems_dir()
    if (base / name / "task.yaml").is_file():
        return _bundled(base / name)
    known = list_tasks(systems_dir=base)
    for t in known:
        if t.name == name:
            return t
    raise InputError(f"unknown task {name!r}; bundled tasks: {', '.join(t.name for t in known) or 'none'}")


def repository_task(repo: str | Path, module: str) -> Task:
    """A task for a bare repository: the module to write; everything else comes from flags."""
    from specula.code import resolve_repo

    try:
        root = Path(resolve_repo(str(repo))).resolve()
    except SpeculaError as exc:
        raise InputError(f"{exc}", path=str(repo)) from None
    return Task(name=root.name, kind="repository", dir=root, spec_module=module)


def load_target(target: str, *, module: str | None = None, sysmobench: str | Path | None = None) -> Task:
    """A task by name, folder or task.yaml, or else a bare repository directory (``module`` then
    required)."""
    p = Path(target)
    if (p / "task.yaml").is_file() or (p.name == "task.yaml" and p.is_file()) or not p.exists():
        return load_task(str(p.parent) if p.name == "task.yaml" else target, sysmobench)
    if not p.is_dir():
        raise InputError(f"{target!r} is neither a repository directory nor a task", path=target)
    if not module:
        raise ConfigError("a bare repository needs --module NAME (the TLA+ module to write)", field="module")
    return repository_task(p, module)


def with_overrides(task: Task, *, module: str | None = None, actions: Sequence[str] | None = None,
                   traces: Sequence[str | Path] | None = None, mapping: str | Path | None = None,
                   invariants: str | Path | None = None, focus: str = "", guidance: str = "") -> Task:
    """``task`` with the given fields replaced (command-line flags); named files must exist."""
    changes: dict[str, Any] = {}
    if module:
        changes["spec_module"] = module
    if actions:
        changes["target_actions"] = tuple(actions)
    if traces:
        changes["trace_inputs"] = tuple(Path(t).resolve() for t in traces)
    if mapping:
        changes["mapping"] = Path(mapping).resolve()
    if invariants:
        changes["invariants"] = Path(invariants).resolve()
    if focus:
        changes["focus"] = focus
    if guidance:
        changes["guidance"] = guidance
    out = dataclasses.replace(task, **changes)
    for label, path in (("mapping", out.mapping), ("invariants", out.invariants)):
        if path is not None and label in changes and not path.is_file():
            raise InputError(f"{label} file not found: {path}", path=str(path))
    for t in out.trace_inputs:
        if not t.exists():
            raise InputError(f"traces not found: {t}", path=str(t))
    return out


def with_code(task: Task, repo: str | Path | None = None) -> Task:
    """``task`` with the source an agent reads: ``repo`` when given (a folder or git URL), else a
    SysMoBench task's repository cloned at the task's pin into specula's cache, else the task
    folder (bundled systems hold their code)."""
    from specula.code import resolve_repo

    if repo is not None:
        try:
            return dataclasses.replace(task, code=Path(resolve_repo(str(repo))).resolve())
        except SpeculaError as exc:
            raise InputError(f"--repo: {exc}", path=str(repo)) from None
    if task.kind != "sysmobench" or task.code is not None:
        return task
    info = dict(task.repository or {})
    url = info.get("url")
    if not url:
        raise InputError(f"task {task.name} names no repository; give the source with --repo PATH")
    try:
        code = Path(resolve_repo(url, info.get("commit") or info.get("branch"))).resolve()
    except SpeculaError as exc:
        raise InputError(f"cannot get {url} for task {task.name} ({exc}); clone it and pass --repo PATH") from None
    return dataclasses.replace(task, code=code)
