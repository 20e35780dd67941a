"""One frozen Task below the agent and the bench rooms (issue 20 item 2): the agent receives a Task
and a scorer; bench depends on agent, never the reverse."""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import inspect
from pathlib import Path

import pytest

from specula.tasks import Task, load_target, load_task, with_code, with_overrides

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_task_is_modelled_once():
    for gone in ("specula.agent.task", "specula.bench.tasks"):
        assert importlib.util.find_spec(gone) is None, gone
    import specula.bench.harness as harness

    assert not hasattr(harness, "SystemTask")
    t = load_task("spinlock")
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.spec_module = "other"  # type: ignore[misc]
    assert Task.from_dict(t.to_dict()) == t


def test_the_agent_never_imports_bench_and_tasks_import_neither():
    agent = [p for p in (ROOT / "specula" / "agent").rglob("*.py")]
    offenders = [f"{p.relative_to(ROOT)} imports {m}" for p in agent for m in _imports(p)
                 if m == "specula.bench" or m.startswith("specula.bench.")]
    assert not offenders, offenders
    below = _imports(ROOT / "specula" / "tasks.py")
    assert not any(m.startswith(("specula.agent", "specula.bench", "specula.cli")) for m in below), below


def test_the_agent_receives_a_task_and_a_scorer():
    from specula.agent.session import preview_prompts, resume_run, start_run

    assert list(inspect.signature(start_run).parameters) == ["task", "opts", "scorer"]
    assert "scorer_for" in inspect.signature(resume_run).parameters
    assert "scorer" in inspect.signature(preview_prompts).parameters


def test_one_task_serves_the_catalog_the_agent_and_the_harness(tmp_path):
    t = load_task("spinlock")
    assert t.kind == "bundled" and t.spec_module == "spin" and t.target_actions == ("AcquireLock", "ReleaseLock")
    assert t.harness is not None and t.harness.command[0] == "{build}/spin_harness"
    assert t.code_dir == t.dir.resolve() and t.reference_spec.resolve() in t.hidden
    assert sorted(p.name for p in t.trace_paths()) == sorted(p.name for p in (t.dir / "traces").glob("*.ndjson"))
    assert t.summary()["target_actions"] == ["AcquireLock", "ReleaseLock"] and t.summary()["missing"] == []
    one = t.trace_paths()[0]
    o = with_overrides(t, module="spin2", actions=["AcquireLock"], traces=[one], focus="cas")
    assert (o.spec_module, o.target_actions, o.trace_paths(), o.focus) == ("spin2", ("AcquireLock",), [one], "cas")
    assert t.spec_module == "spin"  # the original is unchanged
    repo = tmp_path / "repo"
    repo.mkdir()
    bare = with_code(load_target(str(repo), module="M"))
    assert bare.kind == "repository" and bare.code_dir == repo.resolve() and bare.hidden == ()
    assert "give --traces" in bare.missing()[0]
