"""Tools are declared once (``@tool``: schema from signature and docstring) and listed in one
public registry that every front end enumerates; an indexing failure is reported, never replaced
by a second, text-based code index."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Literal

import pytest

from scripted_server import ScriptedServer
from test_agent_loop import CFG, SPEC, call, opts, task_dir  # noqa: F401  (fixture)
from specula.agent.declare import ToolError, collect, tool
from specula.agent.rundir import RunDir
from conftest import agent_task, start
from specula.agent.evaluate import Scoring
from specula.bench.scoring import TaskScorer
from specula.agent.tools import TOOL_SPECS, TOOLS, Session, Toolbox, tool_named


def toolbox(task_dir, tmp_path):
    task = agent_task(str(task_dir))
    return Toolbox(Session(task, RunDir.create(tmp_path / "runs", {"name": "x"})), Scoring(TaskScorer(task)))


class _Demo:
    @tool
    def greet(self, who: str, times: int = 1, loud: bool = False,
              tone: Literal["warm", "dry"] = "warm") -> str:
        """Greet someone.
        Several times if asked.

        Args:
            who: the name to greet
            times: how often
              (default once)
        """
        return f"{'hi ' * times}{who}"

    def helper(self) -> str:  # not a tool
        return ""


def test_the_schema_comes_from_the_signature_and_the_docstring():
    (t,) = collect(_Demo)
    assert t.name == "greet"
    assert t.description == "Greet someone. Several times if asked."
    assert t.parameters == {
        "type": "object",
        "properties": {
            "who": {"type": "string", "description": "the name to greet"},
            "times": {"type": "integer", "description": "how often (default once)"},
            "loud": {"type": "boolean"},
            "tone": {"type": "string", "enum": ["warm", "dry"]},
        },
        "required": ["who"],
        "additionalProperties": False,
    }
    assert t.fn(_Demo(), **t.bind({"who": "ann", "times": "2"})) == "hi hi ann"
    for bad, msg in (({}, "missing required argument(s) who"), ({"who": "a", "x": 1}, "unknown argument(s) x"),
                     ({"who": "a", "times": "two"}, "must be an integer"), ({"who": "a", "tone": "cold"}, "one of warm, dry"),
                     ({"who": ["a"]}, "must be a string")):
        with pytest.raises(ToolError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            t.bind(bad)


def test_a_declaration_that_cannot_become_a_schema_is_refused():
    class NoDoc:
        @tool
        def a(self, x: str) -> str:
            return x

    class Untyped:
        @tool
        def b(self, x) -> str:
            """B."""
            return x

    class StrayArg:
        @tool
        def c(self, x: str) -> str:
            """C.

            Args:
                y: not an argument
            """
            return x

    for cls, msg in ((NoDoc, "no docstring"), (Untyped, "no type annotation"), (StrayArg, "unknown argument")):
        with pytest.raises(TypeError, match=msg):
            collect(cls)


def test_the_registry_lists_every_tool_of_the_toolbox_once():
    names = [t.name for t in TOOLS]
    assert names == ["code_map", "code_search", "code_show", "code_query", "read_file", "write_spec",
                     "edit_definition", "read_spec", "run_phase", "show_window", "show_counterexample",
                     "read_traces", "read_mapping", "finish"]
    assert [s.name for s in TOOL_SPECS] == names
    assert tool_named("run_phase").parameters["properties"]["phase"]["enum"][-1] == "all"
    assert tool_named("code_query").parameters["required"] == ["what", "name"]
    with pytest.raises(KeyError, match="unknown tool 'nope'"):
        tool_named("nope")
    # no second declaration: the toolbox has no t_<name> handlers beside the tools
    assert not [m for m in vars(Toolbox) if m.startswith("t_")]


def test_a_front_end_calls_tools_by_name(task_dir, tmp_path):
    box = toolbox(task_dir, tmp_path)
    text, err = box.invoke("write_spec", {"tla": SPEC, "cfg": CFG})
    assert not err and "saved spec version 1" in text
    text, err = box.invoke("read_spec", {"name": "ReleaseLock"})
    assert not err and text.lstrip().startswith("8  ReleaseLock") and "ReleaseLock(t) ==" in text
    assert box.invoke("read_spec", {"nme": "x"}) == ("error: read_spec: unknown argument(s) nme; expected name", True)
    text, err = box.invoke("no_such_tool", {})
    assert err and "unknown tool 'no_such_tool'" in text


def test_the_model_is_offered_exactly_the_registry(task_dir, tmp_path):
    with ScriptedServer([call("finish", {"summary": "x"})]) as server:
        start(agent_task(str(task_dir)), opts(server, tmp_path)).run()
        sent = server.requests[0].body["tools"]
    assert [t["function"]["name"] for t in sent] == [t.name for t in TOOLS]
    assert [t["function"]["parameters"] for t in sent] == [t.parameters for t in TOOLS]


def test_an_indexing_failure_is_reported_not_replaced_by_a_text_search(task_dir, tmp_path):
    box = toolbox(task_dir, tmp_path)
    shutil.rmtree(task_dir)  # the repository vanished under the run: the index cannot be built
    for name, args in (("code_map", {}), ("code_search", {"pattern": "spin"}), ("code_show", {"symbol": "spin_lock"}),
                       ("code_query", {"what": "find", "name": "spin"})):
        text, err = box.invoke(name, args)
        assert err and "code index" in text and "could not be built" in text, (name, text)


def test_an_unknown_symbol_is_an_error_not_a_regex_guess(task_dir, tmp_path):
    (task_dir / "notes.txt").write_text("void spin_lock_slow(void) {\n}\n")  # not source the index reads
    box = toolbox(task_dir, tmp_path)
    text, err = box.invoke("code_show", {"symbol": "spin_lock"})
    assert not err and "spinlock.c" in text and "atomic_exchange" in text
    text, err = box.invoke("code_show", {"symbol": "spin_lock_slow"})
    assert err and "notes.txt" not in text
