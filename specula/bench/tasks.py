"""Task catalog: bundled tasks (benchmarks/systems) and SysMoBench tasks from a checkout.

A :class:`Task` is what `specula eval`, `specula model` and the benchmark runner need to know:
the module name, required actions, source files, where traces/windows, mapping and invariant
templates live, and (bundled tasks only) the reference spec and mutants.

SysMoBench layout (a checkout given as a path): ``tla_eval/tasks/<task>/task.yaml`` (+ prompts/),
``data/invariant_templates/<task>/invariants.yaml``, PGo traces under
``tla_eval/core/trace_generation/<task>/traces_found/``, window files ``windows_<Action>.ndjson``
or ``action_windows.jsonl`` wherever the task folder or ``data/trace_based/<task>/`` has them.
Required actions come from the task's V2 ``wv.target_actions`` or, for V1 task files, from the
published V2 table below.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from specula.errors import ConfigError, InputError

__all__ = ["Task", "load_task", "list_tasks", "sysmobench_root", "SYSMOBENCH_TARGET_ACTIONS", "bundled_systems_dir"]

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


def bundled_systems_dir() -> Path:
    env = os.environ.get("SPECULA_SYSTEMS_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent.parent / "benchmarks" / "systems"


@dataclass
class Task:
    name: str
    kind: str  # "bundled" | "sysmobench"
    dir: Path
    spec_module: str
    language: str = ""
    description: str = ""
    system_type: str = ""
    source_files: list[str] = field(default_factory=list)
    repository: dict[str, Any] | None = None
    target_actions: list[str] = field(default_factory=list)
    traces_dir: Path | None = None
    window_files: list[Path] = field(default_factory=list)
    mapping: Path | None = None
    invariants: Path | None = None
    translations: Path | None = None
    reference_spec: Path | None = None
    reference_cfg: Path | None = None
    mutants: list[dict[str, Any]] = field(default_factory=list)
    prompts_dir: Path | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    def trace_files(self) -> list[Path]:
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

    def missing(self) -> list[str]:
        """What is missing to run every phase of this task (empty = runnable)."""
        out = []
        if not self.trace_files() and not self.window_files and not self.tracelink_runs():
            if self.kind == "sysmobench":
                out.append("traces: needs the instrumented system build")
            else:
                out.append(f"traces: run `specula bench traces {self.name}`")
        if self.invariants is None or not self.invariants.is_file():
            out.append("invariant templates")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "dir": str(self.dir),
            "spec_module": self.spec_module,
            "language": self.language,
            "system_type": self.system_type,
            "source_files": self.source_files,
            "target_actions": self.target_actions,
            "traces": len(self.trace_files()) + len(self.tracelink_runs()),
            "window_files": [str(p) for p in self.window_files],
            "mapping": str(self.mapping) if self.mapping else None,
            "invariants": str(self.invariants) if self.invariants else None,
            "reference": str(self.reference_spec) if self.reference_spec else None,
            "missing": self.missing(),
        }


def _read_yaml(path: Path) -> dict[str, Any]:
    from specula.yamlfile import load_yaml_file

    data = load_yaml_file(path, "task file")
    if not isinstance(data, dict):
        raise ConfigError("task file must be a mapping", str(path))
    return data


def _list_field(data: dict[str, Any], key: str, path: Path | None = None) -> list[Any]:
    """``data[key]`` as a list (missing = empty); anything else is the task file's error."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ConfigError(f"must be a list, not {type(value).__name__}", str(path) if path else None, field=key)
    return value


def _source_files(data: dict[str, Any], path: Path | None = None) -> list[str]:
    out = []
    for item in _list_field(data, "source_files", path):
        if isinstance(item, dict) and item.get("path"):
            out.append(str(item["path"]))
        elif isinstance(item, str):
            out.append(item)
    if not out and data.get("default_source_file"):
        out.append(str(data["default_source_file"]))
    return out


def _target_actions(data: dict[str, Any], name: str, path: Path | None = None) -> list[str]:
    wv = data.get("wv") or {}
    acts = _list_field(wv, "target_actions", path) if isinstance(wv, dict) else None
    if acts:
        return [str(a) for a in acts]
    return list(SYSMOBENCH_TARGET_ACTIONS.get(name, []))


def _rel(base: Path, value: Any) -> Path | None:
    return (base / str(value)) if value else None


def _window_files(*dirs: Path | None) -> list[Path]:
    out: list[Path] = []
    for d in dirs:
        if d is None or not d.is_dir():
            continue
        out.extend(sorted(d.glob("windows_*.ndjson")))
        out.extend(sorted(d.glob("action_windows*.jsonl")))
    return out


def _bundled(task_dir: Path) -> Task:
    task_file = task_dir / "task.yaml"
    data = _read_yaml(task_file)
    name = str(data.get("name") or task_dir.name)
    ref = data.get("reference") or {}
    if ref and not isinstance(ref, dict):
        raise ConfigError("reference must be a mapping {spec, cfg}", str(task_file), field="reference")
    traces_dir = _rel(task_dir, data.get("traces", "traces/"))
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
        traces_dir=traces_dir,
        window_files=_window_files(task_dir / "windows"),
        mapping=_rel(task_dir, data.get("mapping")),
        invariants=_rel(task_dir, data.get("invariants", "invariants.yaml")),
        translations=_rel(task_dir, data.get("translations")),
        reference_spec=_rel(task_dir, ref.get("spec")),
        reference_cfg=_rel(task_dir, ref.get("cfg")),
        mutants=[m for m in _list_field(data, "mutants", task_file) if isinstance(m, dict)],
        prompts_dir=(task_dir / "prompts") if (task_dir / "prompts").is_dir() else None,
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


def load_task(ref: str | Path, sysmobench: str | Path | None = None) -> Task:
    """A task by bundled name, by SysMoBench name (with a checkout), or by path to a task folder."""
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
    base = bundled_systems_dir()
    if (base / name / "task.yaml").is_file():
        return _bundled(base / name)
    if base.is_dir():
        for d in sorted(base.iterdir()):
            if (d / "task.yaml").is_file():
                t = _bundled(d)
                if t.name == name:
                    return t
    known = [t.name for t in list_tasks()]
    raise InputError(f"unknown task {name!r}; bundled tasks: {', '.join(known) or 'none'}")
