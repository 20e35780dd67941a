"""Every agent tool that reads files stays inside the repository and the run directory, and never
reads a hidden path, also through a symlink (issue 23, item 2)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from specula.agent.evaluate import Scoring
from specula.agent.messages import ToolCall
from specula.agent.rundir import RunDir
from specula.agent.tools import Session, Toolbox
from specula.bench.scoring import TaskScorer
from specula.code import IndexOptions
from specula.code.discover import discover
from specula.code.workspace import ConfinementError, Workspace
from conftest import agent_task

SECRET = "TOPSECRET_OUTSIDE_LINE"
REFERENCE = "REFERENCE_ONLY_MARKER == TRUE"


@pytest.fixture
def linked_task(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "passwd").write_text(f"root:x:0:0:{SECRET}:/root:/bin/sh\n")
    d = tmp_path / "sys"
    (d / "ref").mkdir(parents=True)
    (d / "traces").mkdir()
    (d / "spinlock.c").write_text("void spin_lock(int *l) {\n  *l = 1;\n}\n")
    (d / "ref" / "spin.tla").write_text(f"---- MODULE spin ----\n{REFERENCE}\n====\n")
    (d / "task.yaml").write_text(
        "name: spinlock\nlanguage: c\nspecModule: spin\nsource_files: [{path: spinlock.c}]\n"
        "wv: {target_actions: [AcquireLock]}\nreference: {spec: ref/spin.tla}\n")
    # a link out of the repository, and links at the hidden reference, as sources the index reads
    os.symlink(outside / "passwd", d / "pw.py")
    os.symlink(Path("..") / "ref" / "spin.tla", d / "traces" / "ref_leak.c")
    os.symlink(d / "ref", d / "refdir")  # a folder link at a hidden folder
    (d / "leak_py.py").symlink_to(d / "ref" / "spin.tla")
    return d


def toolbox(task_dir: Path, tmp_path: Path) -> Toolbox:
    task = agent_task(str(task_dir))
    run = RunDir.create(tmp_path / "runs", task.to_dict())
    return Toolbox(Session(task, run), Scoring(TaskScorer(task)))


def run_tool(tb: Toolbox, tool: str, **args) -> str:
    text, _ = tb.call(ToolCall(id="1", name=tool, arguments=args))
    return text


def leaked(text: str) -> bool:
    return SECRET in text or REFERENCE in text


def test_discovery_skips_links_outside_and_at_hidden_paths(linked_task):
    files, skipped = discover(linked_task, IndexOptions(include_tests=True, exclude=("ref",)))
    paths = {f.path for f in files}
    assert "spinlock.c" in paths
    assert not paths & {"pw.py", "traces/ref_leak.c", "leak_py.py"}
    assert skipped.get("link-outside") == 1 and skipped.get("link-hidden") == 2


def test_workspace_check_refuses_outside_and_hidden(linked_task):
    ws = Workspace.of([linked_task], [linked_task / "ref"])
    assert ws.check(linked_task / "spinlock.c") == (linked_task / "spinlock.c").resolve()
    with pytest.raises(ConfinementError) as exc:
        ws.check(linked_task / "pw.py")
    assert exc.value.reason == "outside"
    with pytest.raises(ConfinementError) as exc:
        ws.check(linked_task / "traces" / "ref_leak.c")
    assert exc.value.reason == "hidden"
    loop = linked_task / "loop.c"
    os.symlink(loop, loop)
    assert not ws.allows(loop)


@pytest.mark.parametrize("path", ["pw.py", "traces/ref_leak.c", "leak_py.py", "refdir/spin.tla", "refdir"])
def test_read_file_refuses_links(linked_task, tmp_path, path):
    text = run_tool(toolbox(linked_task, tmp_path), "read_file", path=path)
    assert text.startswith("error:") and not leaked(text), text


def test_read_file_listing_a_folder_leaves_links_out(linked_task, tmp_path):
    text = run_tool(toolbox(linked_task, tmp_path), "read_file", path=".")
    assert "spinlock.c" in text
    assert "pw.py" not in text and "ref_leak.c" not in text and "leak_py.py" not in text


@pytest.mark.parametrize("pattern", ["TOPSECRET", "REFERENCE_ONLY", "root:x"])
def test_code_search_does_not_read_links(linked_task, tmp_path, pattern):
    tb = toolbox(linked_task, tmp_path)
    text = run_tool(tb, "code_search", pattern=pattern)
    assert not leaked(text) and "pw.py" not in text and "ref_leak" not in text, text
    assert "spin_lock" in run_tool(tb, "code_search", pattern="spin_lock")


def test_code_search_path_argument_is_confined(linked_task, tmp_path):
    tb = toolbox(linked_task, tmp_path)
    for path in ("pw.py", "traces/ref_leak.c", "refdir", "../outside"):
        text = run_tool(tb, "code_search", pattern=".", path=path)
        assert text.startswith("error:") and not leaked(text), (path, text)


def test_code_show_does_not_read_links(linked_task, tmp_path):
    tb = toolbox(linked_task, tmp_path)
    (linked_task / "secret_src").mkdir()
    # a linked Python source defining a symbol: neither the index nor the text fallback may show it
    outside_py = tmp_path / "outside" / "evil.py"
    outside_py.write_text(f"def evil_function():\n    return '{SECRET}'\n")
    os.symlink(outside_py, linked_task / "evil.py")
    text = run_tool(tb, "code_show", symbol="evil_function")
    assert text.startswith("error:") and not leaked(text), text
    assert "spin_lock" in run_tool(tb, "code_show", symbol="spin_lock")


@pytest.mark.parametrize("what,name", [("file_symbols", "pw.py"), ("file_symbols", "traces/ref_leak.c"),
                                       ("find", "REFERENCE_ONLY_MARKER"), ("file_symbols", "leak_py.py")])
def test_code_query_does_not_read_links(linked_task, tmp_path, what, name):
    text = run_tool(toolbox(linked_task, tmp_path), "code_query", what=what, name=name)
    assert not leaked(text) and "ref_leak" not in text.replace(name, ""), text


def test_code_map_does_not_list_links(linked_task, tmp_path):
    text = run_tool(toolbox(linked_task, tmp_path), "code_map", focus="spin lock secret reference")
    assert not leaked(text) and "pw.py" not in text and "ref_leak" not in text and "leak_py" not in text, text
