"""`specula mcp` end to end: the MCP SDK's own client over stdio against the real `specula mcp`
subprocess. The tools listed are the built-in agent's (from its registry, same schemas) plus model
checking and validation; results carry the same compact text; hidden paths stay hidden; the run
directory and the leaderboard record are written when the client goes away. One test puts an
external agent in front of it whose model is the scripted LLM server (through the real OpenAI SDK)
and drives it to conformance on the bundled spin lock."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import anyio
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "agent"))
from scripted_server import ScriptedServer  # noqa: E402

from specula.agent import specedit  # noqa: E402
from specula.agent.tools import TOOLS  # noqa: E402

SYSTEM = ROOT / "benchmarks" / "systems" / "spinlock"
FAKE_KEY = "sk-proj-FAKE-mcp-0123456789"
# a textbook mistake (try_lock blocks), from the task's own mutant, and the reference's fix
DRAFT = re.sub(r"MODULE \w+", "MODULE spin", (SYSTEM / "mutants" / "TryLockBlocks.tla").read_text(), count=1)
CFG = (SYSTEM / "ref" / "spin.cfg").read_text()
FIX = specedit.find_definition((SYSTEM / "ref" / "spin.tla").read_text(), "AcquireLock").text


def server_params(tmp_path: Path, *extra: str):
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "specula", "mcp", "spinlock", "--runs-dir", str(tmp_path / "runs"), "--quick",
              "--results", str(tmp_path / "results.jsonl"), "--entry", "mcp/test-agent", *extra],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(tmp_path))


def cli(argv: list[str]) -> tuple[int, str]:
    """`specula ARGV` in-process, its stdout captured (the stdio client needs the real stderr)."""
    import contextlib
    import io

    from specula.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(argv)
    return rc, buf.getvalue()


def only_run(tmp_path: Path) -> Path:
    runs = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    assert len(runs) == 1, runs
    return runs[0]


def test_tools_are_the_agents_and_results_are_structured(tmp_path):
    from mcp import Client

    seen: dict = {}

    async def main() -> None:
        async with Client(server_params(tmp_path)) as client:
            listed = (await client.list_tools()).tools
            seen["tools"] = {t.name: t for t in listed}
            seen["write"] = await client.call_tool("write_spec", {"tla": DRAFT, "cfg": CFG})
            seen["score"] = await client.call_tool("run_phase", {"phase": "all"})
            seen["window"] = await client.call_tool("show_window", {"action": "AcquireLock"})
            seen["hidden"] = await client.call_tool("read_file", {"path": "ref/spin.tla"})
            seen["mutants"] = await client.call_tool("code_search", {"pattern": "MUTANT"})
            seen["bad"] = await client.call_tool("run_phase", {"phase": "7"})
            seen["check"] = await client.call_tool("check_spec", {"max_states": 1000})
            seen["validate"] = await client.call_tool("validate_traces", {"action": "AcquireLock"})

    anyio.run(main)
    tools = seen["tools"]
    registry = {t.name: t for t in TOOLS}
    assert set(registry) <= set(tools) and set(tools) - set(registry) == {"check_spec", "validate_traces"}
    for name, t in registry.items():  # same names, same arguments, same descriptions
        assert tools[name].input_schema == t.parameters and tools[name].description == t.description
    write = seen["write"]
    assert not write.is_error and write.structured_content["spec_version"] == 1
    assert write.content[0].text.startswith("saved spec version 1")
    score = seen["score"].structured_content
    assert score["scores"] == {"syntax": 1.0, "runtime": 1.0, "conformance": 0.5, "invariants": 1.0}
    assert score["overall"] == 0.875 and score["converged"] is False
    # the same compact text the built-in agent gets
    assert 'guard false: pc[t] = "spinning"' in score["text"] and "show_window with one of: AcquireLock" in score["text"]
    assert seen["window"].content[0].text.startswith("failing window 1 of 19 for AcquireLock")
    assert seen["hidden"].is_error and "not available" in seen["hidden"].content[0].text
    assert seen["mutants"].content[0].text == "no match for 'MUTANT'"  # the mutants are not searchable
    assert seen["bad"].is_error and "must be one of" in seen["bad"].content[0].text
    assert "20 distinct states found" in seen["check"].content[0].text
    # only AcquireLock's windows were asked for: 53 of its 72 pass (as phase 3 found above)
    assert "53/72 windows pass" in seen["validate"].content[0].text

    run = only_run(tmp_path)
    for rel in ("task.yaml", "spec/001/spin.tla", "scorecard-1.json", "transcript.jsonl", "state.json",
                "final/spin.tla", "final/scorecard.json", "final/summary.md"):
        assert (run / rel).is_file(), rel
    events = [json.loads(x) for x in (run / "transcript.jsonl").read_text().splitlines()]
    calls = [e for e in events if e["event"] == "tool_call"]
    assert [c["name"] for c in calls] == ["write_spec", "run_phase", "show_window", "read_file", "code_search",
                                          "run_phase", "check_spec", "validate_traces"]
    assert {c.get("source") for c in calls} == {"mcp"}
    records = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(records) == 1 and records[0]["entry"] == "mcp/test-agent" and records[0]["task"] == "spinlock"
    assert records[0]["overall"] == 0.875 and records[0]["run_dir"] == str(run)


def run_external_agent(tmp_path: Path, script: list[dict]) -> dict:
    """A minimal external agent: its model is the scripted server (real OpenAI SDK), its tools are
    `specula mcp`'s (real MCP SDK client over stdio)."""
    import openai
    from mcp import Client

    out: dict = {"results": []}
    with ScriptedServer(script) as llm:
        model = openai.OpenAI(api_key=FAKE_KEY, base_url=llm.openai_url, max_retries=0)

        async def main() -> None:
            async with Client(server_params(tmp_path)) as client:
                listed = (await client.list_tools()).tools
                tools = [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                           "parameters": t.input_schema}} for t in listed]
                messages: list[dict] = [{"role": "system", "content": client.instructions or ""},
                                        {"role": "user", "content": "Model the spin lock."}]
                for _ in range(len(script)):
                    reply = model.chat.completions.create(model="gpt-5", messages=messages, tools=tools)
                    msg = reply.choices[0].message
                    if not msg.tool_calls:
                        out["last_words"] = msg.content
                        return
                    messages.append(msg.model_dump(exclude_none=True))
                    for tc in msg.tool_calls:
                        res = await client.call_tool(tc.function.name, json.loads(tc.function.arguments))
                        out["results"].append(res.structured_content)
                        messages.append({"role": "tool", "tool_call_id": tc.id, "content": res.content[0].text})

        anyio.run(main)
        out["requests"] = [r.body for r in llm.requests]
    return out


def call(name: str, args: dict) -> dict:
    return {"text": f"Calling {name}.", "tool_calls": [{"name": name, "arguments": args}],
            "usage": {"input": 1000, "output": 100}}


def test_an_external_agent_reaches_conformance_through_mcp(tmp_path):
    script = [
        call("code_map", {"focus": "lock try_lock unlock"}),
        call("write_spec", {"tla": DRAFT, "cfg": CFG}),
        call("run_phase", {"phase": "all"}),
        call("show_window", {"action": "AcquireLock"}),
        call("edit_definition", {"name": "AcquireLock", "text": FIX}),
        call("run_phase", {"phase": "all"}),
        {"text": "All four phases pass.", "usage": {"input": 1000, "output": 20}},
    ]
    out = run_external_agent(tmp_path, script)
    assert out.get("last_words") == "All four phases pass."
    final = out["results"][-1]
    assert final["tool"] == "run_phase" and final["converged"] is True and final["overall"] == 1.0
    assert "ALL PHASES PASS." in final["text"]
    # the model saw the task prompt (server instructions) and the tool results, never the hidden reference
    sent = json.dumps(out["requests"])
    assert "Required actions" in sent and "show_window with one of: AcquireLock" in sent
    assert "Reference model of benchmarks/systems/spinlock" not in sent

    run = only_run(tmp_path)
    assert (run / "final" / "spin.tla").read_text() == (run / "spec" / "002" / "spin.tla").read_text()
    assert json.loads((run / "final" / "scorecard.json").read_text())["overall"] == 1.0
    state = json.loads((run / "state.json").read_text())
    assert state["status"] == "converged"
    # a leaderboard entry beside built-in runs
    rc, out = cli(["leaderboard", "--results", str(tmp_path / "results.jsonl"), "--task", "spinlock", "--json"])
    assert rc == 0
    rows = json.loads(out)["rows"]
    assert [(r["entry"], r["overall"], r["runs"]) for r in rows] == [("mcp/test-agent", 1.0, 1)]
    # and its timeline reads like any other run's
    rc, out = cli(["runs", "show", str(run), "--json"])
    assert rc == 0
    tl = json.loads(out)
    assert tl["face"] == "mcp" and tl["model"] is None and tl["status"] == "converged"
    assert [(v["n"], v["source"]) for v in tl["versions"]] == [(1, "mcp"), (2, "mcp")]
    assert [t["name"] for t in tl["tools"]] == [s["tool_calls"][0]["name"] for s in script[:-1]]


@pytest.mark.parametrize("flag", ["--http"])
def test_streamable_http(tmp_path, flag):
    import socket
    import subprocess
    import time

    from mcp import Client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "specula", "mcp", "spinlock", "--runs-dir", str(tmp_path / "runs"),
                             flag, f"127.0.0.1:{port}"], env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stderr=subprocess.PIPE, text=True)
    try:
        seen: dict = {}

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                seen["tools"] = [t.name for t in (await client.list_tools()).tools]
                seen["write"] = await client.call_tool("write_spec", {"tla": DRAFT, "cfg": CFG})

        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:  # wait for the server to listen
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        anyio.run(main)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "run_phase" in seen["tools"] and seen["write"].structured_content["spec_version"] == 1, err
    run = only_run(tmp_path)
    assert (run / "final" / "summary.md").is_file(), err
    assert json.loads((run / "state.json").read_text())["session"]["version"] == 1
