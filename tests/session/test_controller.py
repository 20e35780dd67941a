"""The session's controller without the screen: pause holds the agent before its next model call,
a budget changed meanwhile is the one the loop checks, resume lets it go on. The model is the
scripted LLM server through the real OpenAI SDK."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "agent"))
from scripted_server import ScriptedServer  # noqa: E402

from specula.tasks import load_task  # noqa: E402
from specula.errors import InputError  # noqa: E402
from specula.session import open_session, parse_command  # noqa: E402

SYSTEM = ROOT / "benchmarks" / "systems" / "spinlock"
DRAFT = re.sub(r"MODULE \w+", "MODULE spin", (SYSTEM / "mutants" / "TryLockBlocks.tla").read_text(), count=1)
CFG = (SYSTEM / "ref" / "spin.cfg").read_text()


def step(name: str, args: dict) -> dict:
    return {"text": "", "tool_calls": [{"name": name, "arguments": args}], "usage": {"input": 100, "output": 10}}


def wait(cond, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_pause_budget_resume(tmp_path):
    script = [step("write_spec", {"tla": DRAFT, "cfg": CFG}), step("read_spec", {}), step("read_mapping", {}),
              step("read_mapping", {})]
    with ScriptedServer(script) as server:
        ctl = open_session(load_task("spinlock"), runs_dir=tmp_path, model=f"openai/gpt-5@{server.openai_url}",
                           env={"OPENAI_API_KEY": "sk-FAKE-controller-0123456789"}, confirm=True, stream=False)
        ctl.start_agent()
        wait(lambda: ctl.pending is not None)
        ctl.pause()  # takes effect before the next model call
        assert ctl.approve()
        wait(lambda: ctl.agent.session.version == 1)
        time.sleep(1.0)
        assert len(server.requests) == 1  # held: no second model call while paused
        ctl.set_budget("iterations=2")
        wait(lambda: ctl.agent.budget.iterations == 2)  # applied by the waiting agent, at its turn
        ctl.resume()
        outcome = ctl.wait(60)
    assert outcome is not None and outcome.status == "budget" and outcome.iterations == 2
    assert len(server.requests) == 2 and server.remaining() == 2
    events = [json.loads(x) for x in (ctl.agent.session.run.path / "transcript.jsonl").read_text().splitlines()]
    assert any(e["event"] == "budget" and "iterations=2" in e["text"] for e in events)
    state = json.loads((ctl.agent.session.run.path / "state.json").read_text())
    assert state["budget"]["iterations"] == 2 and state["status"] == "budget"


def test_commands_and_bad_input(tmp_path):
    assert parse_command("edit Foo == TRUE") == ("edit", "Foo == TRUE")
    with pytest.raises(InputError, match="unknown command 'frob'"):
        parse_command("frob")
    ctl = open_session(load_task("spinlock"), runs_dir=tmp_path, env={})
    with pytest.raises(InputError, match="no model"):
        ctl.start_agent()
    with pytest.raises(InputError, match="no spec version 3"):
        ctl.revert(3)
    with pytest.raises(InputError, match="budget"):
        ctl.set_budget("frogs=3")
    with pytest.raises(InputError, match="no mutant 'Nope'"):
        open_session(load_task("spinlock"), runs_dir=tmp_path, env={}, mutant="Nope")
    assert not ctl.approve() and not ctl.reject("x")  # nothing waits
