"""What the agent is asked to model: a ``Task`` built from a task.yaml or a bare repository.

A task.yaml follows SysMoBench's fields plus specula's (docs/systems.md): ``specModule``,
``wv.target_actions``, ``source_files``, ``traces``, ``mapping``, ``invariants``, ``reference``
and ``mutants`` (the last two are hidden from the agent). Command-line flags override them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from specula.errors import ConfigError, InputError, SpeculaError

__all__ = ["Task", "load_task", "from_bench"]


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


def from_bench(bt: Any, repo: Path | None = None) -> Task:
    """An agent task from a ``specula.bench.tasks.Task`` (bundled or SysMoBench). The code the agent
    reads is ``repo`` when given, else the task folder (bundled systems hold their code), else, for a
    SysMoBench task, its target repository cloned at the task's pin."""
    base = Path(bt.dir).resolve()
    traces: list[Path] = list(bt.window_files)
    if bt.traces_dir is not None and Path(bt.traces_dir).is_dir():
        traces.append(Path(bt.traces_dir))
    hidden = [p for p in (bt.reference_spec, bt.reference_cfg) if p is not None]
    hidden += [base / m["spec"] for m in bt.mutants if "spec" in m]
    hidden += [base / "ref", base / "mutants"]
    inv = bt.invariants if bt.invariants is not None and Path(bt.invariants).is_file() else None
    code = repo or (_clone(bt.repository or {}, bt.name) if bt.kind == "sysmobench" else base)
    return Task(name=bt.name, module=bt.spec_module, repo=Path(code).resolve(), description=bt.description, language=bt.language,
                system_type=bt.system_type, source_files=list(bt.source_files),
                required_actions=list(bt.target_actions), traces=[Path(t).resolve() for t in traces],
                mapping=Path(bt.mapping).resolve() if bt.mapping else None,
                invariants=Path(inv).resolve() if inv else None, hidden=[Path(h).resolve() for h in hidden],
                focus=str((getattr(bt, "fields", None) or {}).get("focus") or ""),  # `specula init --focus`
                task_file=(base / "task.yaml") if (base / "task.yaml").is_file() else None)


def _local_repo(repo: str) -> Path:
    from specula.code import resolve_repo

    try:
        return Path(resolve_repo(repo)).resolve()
    except SpeculaError as exc:
        raise InputError(f"--repo: {exc}", path=repo) from None


def _clone(repository: dict[str, Any], name: str) -> Path:
    """The target system's source for a SysMoBench task: its repository at the task's pin."""
    url = repository.get("url")
    if not url:
        raise InputError(f"task {name} names no repository; give the source with --repo PATH")
    from specula.code import resolve_repo

    try:
        return Path(resolve_repo(url, repository.get("commit") or repository.get("branch"))).resolve()
    except SpeculaError as exc:
        raise InputError(f"cannot get {url} for task {name} ({exc}); clone it and pass --repo PATH") from None


def load_task(target: str, *, module: str | None = None, actions: list[str] | None = None,
              traces: list[str] | None = None, mapping: str | None = None, invariants: str | None = None,
              focus: str = "", guidance: str = "", sysmobench: str | None = None, repo: str | None = None) -> Task:
    """A task by bundled name, task folder or task.yaml (via ``specula.bench``), or a bare repository
    path (then ``module`` is required). Flags override the task's own fields."""
    from specula.bench.tasks import load_task as bench_load

    p = Path(target)
    is_task = (p / "task.yaml").is_file() or (p.name == "task.yaml" and p.is_file()) or not p.exists()
    if is_task:
        bt = bench_load(str(p.parent) if p.name == "task.yaml" else target, sysmobench)
        task = from_bench(bt, _local_repo(repo) if repo is not None else None)
        if module:
            task.module = module
    else:
        if not p.is_dir():
            raise InputError(f"{target!r} is neither a repository directory nor a task", path=target)
        if not module:
            raise ConfigError("a bare repository needs --module NAME (the TLA+ module to write)", field="module")
        task = Task(name=p.resolve().name, module=module, repo=p.resolve())
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
