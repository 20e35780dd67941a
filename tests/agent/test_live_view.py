"""The live view of `specula model`: streamed text and tool-call starts reach it as they arrive
(real SDK streams from the scripted server), per-call cost and the running budget are shown, and a
resumed run continues its token and cost counters instead of starting at 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY
from scripted_server import ScriptedServer
from specula.agent.ledger import Budget
from specula.agent.liveview import LiveState
from conftest import agent_task, start
from specula.agent.session import RunOptions
from specula.cli import main

TEXT = "Let me read the lock's code first, then the traces."


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_streamed_text_and_tool_calls_reach_the_view(tmp_path, kind):
    events: list[dict] = []
    script = [{"text": TEXT, "tool_calls": [{"name": "read_mapping", "arguments": {}}], "usage": {"input": 50, "output": 7}},
              {"text": "", "tool_calls": [{"name": "finish", "arguments": {"summary": "stop here"}}]}]
    with ScriptedServer(script) as server:
        model = (f"openai/gpt-5@{server.openai_url}" if kind == "openai" else f"anthropic/claude-sonnet-4-6@{server.url}")
        env = {"OPENAI_API_KEY": FAKE_OPENAI_KEY, "ANTHROPIC_API_KEY": FAKE_ANTHROPIC_KEY}
        opts = RunOptions(model=model, runs_dir=tmp_path, stream=True, env=env, on_event=events.append,
                          budget=Budget(iterations=5))
        agent = start(agent_task("spinlock"), opts)
        state = LiveState.of(agent, model)
        agent.on_event = lambda e: (events.append(e), state.on_event(e))
        outcome = agent.run()
    assert outcome.status == "finished"
    deltas = [e for e in events if e["event"] == "delta"]
    first = deltas[: next(i for i, e in enumerate(deltas) if e.get("tool"))]
    assert first[0] == {"event": "delta", "start": True}
    pieces = [e["text"] for e in first if "text" in e]
    assert "".join(pieces) == TEXT and len(pieces) > 1  # it came in pieces, as streamed
    assert {"event": "delta", "tool": "read_mapping"} in deltas
    # the view: the text, the call, its cost line and the budget
    kinds = [k for k, _ in state.log]
    assert ("text", TEXT) in state.log and ("call", "read_mapping()") in state.log and "cost" in kinds
    usage = json.loads((Path(outcome.run) / "usage.json").read_text())
    assert state.tokens == usage["total_tokens"] and state.iteration == 2
    assert "calls 2/5" in state.budget_line()
    # deltas are for live views only: the transcript keeps whole messages
    transcript = (Path(outcome.run) / "transcript.jsonl").read_text()
    assert '"delta"' not in transcript


def test_resume_continues_the_counters(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    step = {"text": "Looking.", "tool_calls": [{"name": "read_mapping", "arguments": {}}],
            "usage": {"input": 1000, "output": 100}}
    with ScriptedServer([step, step, step, step]) as server:
        model = f"openai/gpt-5@{server.openai_url}"
        code = main(["model", "spinlock", "--model", model, "--runs-dir", str(tmp_path), "--budget", "iterations=2"])
        first = capsys.readouterr().out
        (run,) = [p for p in tmp_path.iterdir() if p.is_dir()]
        assert code == 1 and "budget" in first and "tokens 2,200/" in first
        code = main(["model", "--resume", str(run), "--model", model, "--budget", "iterations=4"])
        second = capsys.readouterr().out
    usage = json.loads((run / "usage.json").read_text())
    assert usage["total_tokens"] == 4400 and usage["calls"] == 4
    assert "tokens 4,400 ·" in second and "calls 4/4" in second  # not 2,200 and 2/4: counting went on
    assert "call 4: 1,100 tokens" in second
