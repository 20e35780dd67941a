"""The loop end to end through the real SDK clients against the scripted server (no phases needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY, FAST_RETRY
from scripted_server import ScriptedServer
from specula.agent.ledger import Budget
from conftest import agent_task, resume, start
from specula.agent.session import RunOptions

SPEC = r"""---- MODULE spin ----
EXTENDS Naturals
CONSTANTS Threads
VARIABLES lock, pc
vars == <<lock, pc>>
Init == lock = FALSE /\ pc = [t \in Threads |-> "idle"]
AcquireLock(t) == /\ lock = FALSE /\ lock' = TRUE /\ pc' = [pc EXCEPT ![t] = "locked"]
ReleaseLock(t) == /\ pc[t] = "locked" /\ lock' = FALSE /\ pc' = [pc EXCEPT ![t] = "idle"]
Next == \E t \in Threads : AcquireLock(t) \/ ReleaseLock(t)
Spec == Init /\ [][Next]_vars
====
"""
CFG = "SPECIFICATION Spec\nCONSTANTS Threads = {t1, t2}\n"
REFERENCE_MARK = "hidden reference spec: never shown to the model"


@pytest.fixture
def task_dir(tmp_path: Path) -> Path:
    d = tmp_path / "spinsys"
    (d / "ref").mkdir(parents=True)
    (d / "spinlock.c").write_text("#include <stdatomic.h>\nvoid spin_lock(atomic_bool *l) {\n"
                                  "  while (atomic_exchange(l, 1)) { }\n}\nvoid spin_unlock(atomic_bool *l) {\n"
                                  "  atomic_store(l, 0);\n}\n")
    (d / "ref" / "spin.tla").write_text(SPEC.replace("====", "\\* " + REFERENCE_MARK + "\n===="))
    (d / "task.yaml").write_text(
        "name: spinlock\ndescription: a spin lock\nlanguage: c\nsystem_type: concurrent\nspecModule: spin\n"
        "source_files: [{path: spinlock.c}]\nwv: {target_actions: [AcquireLock, ReleaseLock]}\n"
        "reference: {spec: ref/spin.tla}\n")
    return d


def opts(server: ScriptedServer, tmp_path: Path, kind: str = "openai", **kw) -> RunOptions:
    if kind == "anthropic":
        model, env = f"anthropic/claude-sonnet-4-6@{server.url}", {"ANTHROPIC_API_KEY": FAKE_ANTHROPIC_KEY}
    else:
        model, env = f"openai/gpt-5@{server.openai_url}", {"OPENAI_API_KEY": FAKE_OPENAI_KEY}
    return RunOptions(model=model, runs_dir=tmp_path / "runs", env=env, retry=FAST_RETRY, **kw)


def call(name: str, args) -> dict:
    return {"tool_calls": [{"name": name, "arguments": args}]}


def tool_results(server: ScriptedServer, i: int) -> list[str]:
    """Tool results sent in request i (OpenAI or Anthropic wire form)."""
    out = []
    for m in server.requests[i].body["messages"]:
        if m.get("role") == "tool":
            out.append(m["content"])
        elif isinstance(m.get("content"), list):
            out += [b["content"] for b in m["content"] if b.get("type") == "tool_result"]
    return out


def all_text(run: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in run.rglob("*") if p.is_file())


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_malformed_arguments_go_back_to_the_model_and_the_loop_continues(task_dir, tmp_path, kind):
    script = [
        call("write_spec", '{"tla": "---- MODULE spin', ) if kind == "openai" else call("write_spec", {"tla": 3}),
        call("write_spec", {"tla": SPEC, "cfg": CFG}),
        call("read_spec", {"name": "AcquireLock"}),
        call("finish", {"summary": "drafted"}),
    ]
    with ScriptedServer(script) as server:
        agent = start(agent_task(str(task_dir)), opts(server, tmp_path, kind))
        out = agent.run()
        assert out.status == "finished", out
        first = tool_results(server, 1)[-1]
        assert first.startswith("error:") and ("not valid JSON" in first or "missing required" in first)
        assert "saved spec version 1" in tool_results(server, 2)[-1]
        assert "AcquireLock(t) ==" in tool_results(server, 3)[-1]
    run = Path(out.run)
    assert (run / "spec" / "001" / "spin.tla").read_text() == SPEC
    assert (run / "final" / "spin.tla").read_text() == SPEC
    events = [json.loads(line) for line in (run / "transcript.jsonl").read_text().splitlines()]
    assert events[0]["event"] == "start" and events[0]["format"] == 1
    assert events[-1]["event"] == "stop" and events[-1]["status"] == "finished"
    usage = json.loads((run / "usage.json").read_text())
    assert usage["calls"] == 4 and usage["usage"]["output_tokens"] == 20


def test_guard_rails(task_dir, tmp_path):
    no_release = SPEC.replace("ReleaseLock(t) ==", "Release(t) ==")
    script = [
        call("write_spec", {"tla": no_release, "cfg": CFG}),
        call("write_spec", {"tla": SPEC.replace("MODULE spin", "MODULE other"), "cfg": CFG}),
        call("write_spec", {"tla": SPEC, "cfg": CFG}),
        call("edit_definition", {"name": "ReleaseLock", "text": "Unlock(t) == lock' = FALSE"}),
        call("edit_definition", {"name": "Next", "text": r"Next == \E t \in Threads : AcquireLock(t)"}),
        call("read_file", {"path": "../../etc/passwd"}),
        call("read_file", {"path": "ref/spin.tla"}),
        call("read_file", {"path": "spinlock.c", "start": 2, "end": 3}),
        call("code_search", {"pattern": "atomic_store"}),
        call("finish", {"summary": "x"}),
    ]
    with ScriptedServer(script) as server:
        out = start(agent_task(str(task_dir)), opts(server, tmp_path)).run()
        results = [tool_results(server, i)[-1] for i in range(1, 10)]
    assert out.status == "finished"
    assert "required action ReleaseLock is not defined" in results[0]
    assert "must be named 'spin'" in results[1]
    assert "saved spec version 1" in results[2]
    assert "must be one definition of ReleaseLock" in results[3]
    assert "ReleaseLock must be a disjunct of Next" in results[4]
    assert "outside the target repository" in results[5]
    assert "not available to the agent" in results[6]
    assert "void spin_lock" in results[7] and "atomic_store" not in results[7]
    assert "spinlock.c:6:" in results[8]
    # the reference spec never reached the model: not in the task prompt, not in any tool result
    sent = [json.dumps(r.body) for r in server.requests]
    assert len(sent) == 10 and not any(REFERENCE_MARK in body for body in sent)
    assert "ref/spin.tla" not in json.dumps(server.requests[0].body["messages"])


def test_budget_exhaustion_then_resume_with_a_larger_budget(task_dir, tmp_path):
    script = [call("read_spec", {})] * 3 + [call("finish", {"summary": "done"})]
    with ScriptedServer(script) as server:
        o = opts(server, tmp_path, budget=Budget(iterations=2))
        out = start(agent_task(str(task_dir)), o).run()
        assert out.status == "budget" and out.resumable and out.iterations == 2
        assert "iteration budget" in out.reason
        o.budget = Budget(iterations=10)
        out2 = resume(Path(out.run).name, o).run()
        assert out2.status == "finished" and out2.iterations == 4
        assert server.remaining() == 0
    usage = json.loads((Path(out.run) / "usage.json").read_text())
    assert usage["calls"] == 4  # the ledger carried over


def test_token_and_dollar_budgets(task_dir, tmp_path):
    script = [{**call("read_spec", {}), "usage": {"input": 600_000, "output": 10}}] * 3
    with ScriptedServer(script) as server:
        out = start(agent_task(str(task_dir)), opts(server, tmp_path, budget=Budget(dollars=1.0))).run()
        assert out.status == "budget" and "dollar" in out.reason and out.iterations == 2
        assert out.cost == pytest.approx(2 * (600_000 * 1.25 + 10 * 10) / 1e6)


def test_server_error_storm_stops_cleanly_and_the_run_resumes(task_dir, tmp_path):
    with ScriptedServer([call("write_spec", {"tla": SPEC, "cfg": CFG})] + [{"status": 500}] * 4) as server:
        out = start(agent_task(str(task_dir)), opts(server, tmp_path)).run()
        assert out.status == "provider-error" and out.resumable
        assert "gave up after 4 attempts" in out.reason
    with ScriptedServer([call("finish", {"summary": "ok"})]) as server2:
        o2 = opts(server2, tmp_path)
        out2 = resume(out.run, o2, model=o2.model).run()
        assert out2.status == "finished"
        # the resumed conversation holds the earlier tool result
        assert any("saved spec version 1" in r for r in tool_results(server2, 0))


def test_ctrl_c_saves_and_resume_answers_the_interrupted_call(task_dir, tmp_path):
    def interrupt(event):
        if event.get("event") == "tool_call" and event["name"] == "read_spec":
            raise KeyboardInterrupt

    script = [call("write_spec", {"tla": SPEC, "cfg": CFG}), call("read_spec", {})]
    with ScriptedServer(script) as server:
        o = opts(server, tmp_path, on_event=interrupt)
        out = start(agent_task(str(task_dir)), o).run()
    assert out.status == "interrupted" and out.resumable
    state = json.loads((Path(out.run) / "state.json").read_text())
    assert state["status"] == "interrupted" and state["session"]["version"] == 1
    with ScriptedServer([call("finish", {"summary": "ok"})]) as server2:
        o2 = opts(server2, tmp_path)
        out2 = resume(out.run, o2, model=o2.model).run()
        assert out2.status == "finished"
        assert any("not run: the run was interrupted" in r for r in tool_results(server2, 0))
    # resuming a finished run does nothing
    assert resume(out.run, opts(server2, tmp_path)).run().status == "finished"


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_no_secret_in_any_run_file(task_dir, tmp_path, kind):
    key = FAKE_OPENAI_KEY if kind == "openai" else FAKE_ANTHROPIC_KEY
    script = [{"text": f"I see your key is {key}", **call("code_search", {"pattern": key})},
              {"status": 400, "message": f"invalid key {key}"}]
    with ScriptedServer(script) as server:
        out = start(agent_task(str(task_dir)), opts(server, tmp_path, kind)).run()
        # the key really went over the wire as a credential
        assert key in json.dumps(server.requests[0].headers)
    assert out.status == "provider-error"
    text = all_text(Path(out.run))
    assert key not in text
    assert "[REDACTED]" in text


def test_a_reply_without_tool_calls_gets_a_nudge(task_dir, tmp_path):
    script = [{"text": "Let me think about the lock."}, {"text": "cut", "tool_calls": []},
              call("finish", {"summary": "ok"})]
    with ScriptedServer(script) as server:
        out = start(agent_task(str(task_dir)), opts(server, tmp_path)).run()
        assert out.status == "finished" and out.iterations == 3
        nudge = server.requests[1].body["messages"][-1]
        assert nudge["role"] == "user" and "no tool call" in nudge["content"]
