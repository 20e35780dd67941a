"""What the agent is asked to model: a ``Task`` built from a task.yaml or a bare repository.

A task.yaml follows SysMoBench's fields plus specula's (docs/systems.md): ``specModule``,
``wv.target_actions``, ``source_files``, ``traces``, ``mapping``, ``invariants``, ``reference``
and ``mutants`` (the last two are hidden from the agent). Command-line flags override them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from specula.errors import ConfigError, InputError

__all__ = ["Task", "load_task"]


@dataclass
class Task:
    name: str
    module: str
    repo: Path  # the code the agent may read
    description: str = ""
    language: str = ""
    system_type: str = ""
    source_files: list[str] = field(default_factory=list)
    required_actions: list[str] = field(default_factory=list)
    traces: list[Path] = field(default_factory=list)  # trace/window files or directories
    mapping: Path | None = None
    invariants: Path | None = None
    focus: str = ""
    guidance: str = ""
    hidden: list[Path] = field(default_factory=list)  # reference spec, mutants: never shown
    task_file: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k, v in d.items():
            if isinstance(v, Path):
                d[k] = str(v)
            elif isinstance(v, list):
                d[k] = [str(x) if isinstance(x, Path) else x for x in v]
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Task":
        def p(v: Any) -> Path | None:
            return Path(v) if v else None

        return Task(
            name=d["name"], module=d["module"], repo=Path(d["repo"]), description=d.get("description", ""),
            language=d.get("language", ""), system_type=d.get("system_type", ""),
            source_files=list(d.get("source_files", [])), required_actions=list(d.get("required_actions", [])),
            traces=[Path(x) for x in d.get("traces", [])], mapping=p(d.get("mapping")),
            invariants=p(d.get("invariants")), focus=d.get("focus", ""), guidance=d.get("guidance", ""),
            hidden=[Path(x) for x in d.get("hidden", [])], task_file=p(d.get("task_file")),
        )


def _systems_dirs() -> list[Path]:
    import os

    dirs = []
    if os.environ.get("SPECULA_SYSTEMS_DIR"):
        dirs.append(Path(os.environ["SPECULA_SYSTEMS_DIR"]))
    dirs.append(Path(__file__).resolve().parents[2] / "benchmarks" / "systems")
    return dirs


def _find_task_file(target: str) -> Path | None:
    p = Path(target)
    if p.is_file() and p.suffix in (".yaml", ".yml"):
        return p
    if p.is_dir() and (p / "task.yaml").is_file():
        return p / "task.yaml"
    if not p.exists() and "/" not in target:
        for d in _systems_dirs():
            if (d / target / "task.yaml").is_file():
                return d / target / "task.yaml"
            for f in sorted(d.glob("*/task.yaml")) if d.is_dir() else []:
                try:
                    import yaml

                    if (yaml.safe_load(f.read_text()) or {}).get("name") == target:
                        return f
                except Exception:
                    continue
    return None


def load_task(target: str, *, module: str | None = None, actions: list[str] | None = None,
              traces: list[str] | None = None, mapping: str | None = None, invariants: str | None = None,
              focus: str = "", guidance: str = "") -> Task:
    """A task from a task.yaml (file, its directory, or a bundled system name) or a repository path."""
    import yaml

    task_file = _find_task_file(target)
    if task_file is None:
        repo = Path(target)
        if not repo.is_dir():
            raise InputError(f"{target!r} is neither a repository directory, a task.yaml, nor a bundled system",
                             path=target)
        if not module:
            raise ConfigError("a bare repository needs --module NAME (the TLA+ module to write)", field="module")
        task = Task(name=repo.resolve().name, module=module, repo=repo.resolve())
    else:
        try:
            data = yaml.safe_load(task_file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise ConfigError(f"invalid YAML: {getattr(exc, 'problem', exc)}", path=str(task_file),
                              line=mark.line + 1 if mark else None) from None
        if not isinstance(data, dict):
            raise ConfigError("task.yaml must be a mapping", path=str(task_file))
        base = task_file.parent.resolve()
        mod = module or data.get("specModule") or data.get("name")
        if not mod:
            raise ConfigError("task.yaml has no specModule or name", path=str(task_file), field="specModule")
        files = [f["path"] if isinstance(f, dict) else str(f) for f in data.get("source_files") or []]
        if not files and data.get("default_source_file"):
            files = [str(data["default_source_file"])]
        wv = data.get("wv") or {}
        ref = data.get("reference") or {}
        hidden = [base / v for v in ref.values() if isinstance(v, str)]
        hidden += [base / m["spec"] for m in data.get("mutants") or [] if isinstance(m, dict) and "spec" in m]
        hidden += [base / "ref", base / "mutants"]

        def rel(v: Any) -> Path | None:
            return (base / str(v)).resolve() if v else None

        repo_field = data.get("repo") or (data.get("repository") or {}).get("path")
        task = Task(
            name=str(data.get("name") or base.name), module=str(mod),
            repo=rel(repo_field) or base,
            description=str(data.get("description", "")).strip(), language=str(data.get("language", "")),
            system_type=str(data.get("system_type", "")), source_files=files,
            required_actions=[str(a) for a in wv.get("target_actions") or data.get("required_actions") or []],
            traces=[p for p in [rel(data.get("traces"))] if p is not None],
            mapping=rel(data.get("mapping")), invariants=rel(data.get("invariants")),
            hidden=[h.resolve() for h in hidden], task_file=task_file.resolve(),
        )
    if actions:
        task.required_actions = list(actions)
    if traces:
        task.traces = [Path(t).resolve() for t in traces]
    if mapping:
        task.mapping = Path(mapping).resolve()
    if invariants:
        task.invariants = Path(invariants).resolve()
    task.focus, task.guidance = focus or task.focus, guidance or task.guidance
    for label, path in (("mapping", task.mapping), ("invariants", task.invariants)):
        if path is not None and not path.is_file():
            raise InputError(f"{label} file not found: {path}", path=str(path))
    for t in task.traces:
        if not t.exists():
            raise InputError(f"traces not found: {t}", path=str(t))
    return task
