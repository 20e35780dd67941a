"""`specula session` through textual's headless pilot: fix a mutant by hand until every phase
passes; run the agent inside (its model is the scripted LLM server through the real OpenAI SDK),
reject one of its edits, give it guidance, see it converge; `session` and `specula model --resume`
continue each other's runs."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "agent"))
from scripted_server import ScriptedServer  # noqa: E402

from specula.agent import specedit  # noqa: E402
from specula.tasks import load_task  # noqa: E402
from specula.phases import RuntimeSettings  # noqa: E402
from specula.session import SessionApp, open_session  # noqa: E402

SYSTEM = ROOT / "benchmarks" / "systems" / "spinlock"
FAKE_KEY = "sk-proj-FAKE-session-0123456789"
SETTINGS = RuntimeSettings(check_seconds=60, runs=2, traces_per_run=20, depth=30, run_seconds=60, seed=3)
DRAFT = re.sub(r"MODULE \w+", "MODULE spin", (SYSTEM / "mutants" / "TryLockBlocks.tla").read_text(), count=1)
CFG = (SYSTEM / "ref" / "spin.cfg").read_text()
FIX = specedit.find_definition((SYSTEM / "ref" / "spin.tla").read_text(), "AcquireLock").text


async def until(pilot, cond, seconds: float = 120.0) -> None:
    for _ in range(int(seconds / 0.1)):
        if cond():
            return
        await pilot.pause(0.1)
    raise AssertionError("timed out waiting")


async def command(app, pilot, text: str) -> None:
    app.query_one("#cmd").focus()
    app.query_one("#cmd").value = text
    await pilot.press("enter")
    await pilot.pause(0.05)


def idle(app) -> bool:
    return not any(w.is_running for w in app.workers)


def events(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "transcript.jsonl").read_text().splitlines()]


def test_fix_a_mutant_by_hand(tmp_path):
    ctl = open_session(load_task("spinlock"), runs_dir=tmp_path, env={}, runtime=SETTINGS, mutant="TryLockBlocks")
    assert not ctl.has_model  # no key: the manual workbench
    app = SessionApp(ctl)

    async def main() -> None:
        async with app.run_test(size=(180, 50)) as pilot:
            await command(app, pilot, "run all")
            await until(pilot, lambda: ctl.agent.session.evaluations == 1 and idle(app))
            await command(app, pilot, "frobnicate")  # an unknown command is a message, not a crash
            app.query_one("#right").active = "tab-windows"  # browse the failing windows
            await pilot.pause(0.2)
            app.query_one("#windows").focus()
            await pilot.press("enter")
            await until(pilot, lambda: "failing window 1 of 19" in str(app.query_one("#window-detail").render()), 20)
            await command(app, pilot, "edit AcquireLock")  # the editor opens on the current definition
            editor = app.query_one("#editor")
            assert editor.text.startswith("AcquireLock(t) ==") and 'pc[t] = "spinning"' in editor.text
            editor.text = FIX
            await pilot.press("ctrl+s")
            await until(pilot, lambda: ctl.agent.session.version == 2 and idle(app))
            await command(app, pilot, "run all")
            await until(pilot, lambda: ctl.agent.session.evaluations == 2 and idle(app))
            await command(app, pilot, "revert 1")
            await until(pilot, lambda: ctl.agent.session.version == 3 and idle(app))
            await command(app, pilot, "quit")

    asyncio.run(main())
    ctl.close()
    log = "\n".join(app.messages)
    assert "conformance: 0.500" in log and 'guard false: pc[t] = "spinning"' in log
    assert "unknown command 'frobnicate'" in log
    assert "ALL PHASES PASS." in log and "converged: all phases pass (spec version 2)" in log
    run = ctl.agent.session.run.path
    cards = [json.loads((run / f"scorecard-{n}.json").read_text()) for n in (1, 2)]
    assert cards[0]["scores"]["conformance"] == 0.5
    assert cards[1]["scores"] == {"syntax": 1.0, "runtime": 1.0, "conformance": 1.0, "invariants": 1.0}
    assert (run / "spec/003/spin.tla").read_text() == (run / "spec/001/spin.tla").read_text()  # reverted
    assert (run / "final/spin.tla").read_text() == (run / "spec/002/spin.tla").read_text()  # the best is kept
    calls = [e for e in events(run) if e["event"] == "tool_call"]
    assert {c.get("source") for c in calls} == {"user"}
    assert any(e["event"] == "revert" for e in events(run))
    state = json.loads((run / "state.json").read_text())
    assert state["status"] == "converged" and state["session"]["version"] == 3


def call(name: str, args: dict) -> dict:
    return {"text": f"I will call {name}.", "tool_calls": [{"name": name, "arguments": args}],
            "usage": {"input": 1500, "output": 200}}


def test_agent_inside_rejected_edit_guidance_convergence(tmp_path):
    bad = FIX.replace('pc[t] \\in {"idle", "spinning"}', "TRUE")
    assert bad != FIX
    script = [call("write_spec", {"tla": DRAFT, "cfg": CFG}), call("run_phase", {"phase": "all"}),
              call("edit_definition", {"name": "AcquireLock", "text": bad}),
              call("edit_definition", {"name": "AcquireLock", "text": FIX}),
              call("run_phase", {"phase": "all"}),
              call("finish", {"summary": "must not be reached"})]
    guidance = "try_lock acquires straight from idle; keep the lock = FALSE check"
    def translation(body: dict) -> str:  # invariant translation asks the model too: answered apart
        return "translate" if "translate invariant templates" in json.dumps(body) else "main"

    with ScriptedServer(script, queues={"translate": [{"status": 400, "message": "no"}]}, router=translation) as server:
        ctl = open_session(load_task("spinlock"), runs_dir=tmp_path, model=f"openai/gpt-5@{server.openai_url}",
                           env={"OPENAI_API_KEY": FAKE_KEY}, runtime=SETTINGS, confirm=True)
        app = SessionApp(ctl)

        async def main() -> None:
            async with app.run_test(size=(180, 50)) as pilot:
                await command(app, pilot, "agent")
                await until(pilot, lambda: ctl.pending is not None)  # write_spec waits for approval
                await command(app, pilot, "approve")
                await until(pilot, lambda: ctl.pending is not None and ctl.agent.session.evaluations == 1)
                assert ctl.pending.call.arguments["text"] == bad, "\n".join(app.messages)
                await command(app, pilot, f"guide {guidance}")
                await command(app, pilot, "reject the lock = FALSE check must stay")
                await until(pilot, lambda: ctl.pending is not None and ctl.pending.call.arguments.get("text") == FIX)
                await command(app, pilot, "approve")
                await until(pilot, lambda: ctl.outcome is not None, 180)
                await command(app, pilot, "quit")

        asyncio.run(main())
        requests = [r.body for r in server.requests if translation(r.body) == "main"]
        assert server.remaining() == 1  # finish was never asked for
    ctl.close()
    assert ctl.outcome.status == "converged" and ctl.outcome.best_score == 1.0
    # the request after the rejection carries the reason and the guidance, in that order
    after = requests[3]["messages"]
    tool_msg = next(m for m in after if m["role"] == "tool" and "rejected" in m["content"])
    assert tool_msg["content"] == "not run: the user rejected this call: the lock = FALSE check must stay"
    assert after[-1] == {"role": "user", "content": guidance}
    assert all("rejected" not in json.dumps(m) for m in requests[2]["messages"])
    log = "\n".join(app.messages)
    assert "the agent wants to edit_definition" in log and "agent: converged" in log
    assert any(line.startswith("I will call") for line in log.splitlines())  # the model's text
    assert app.live.streamed >= len("I will call write_spec.") * 5  # it arrived streamed, piece by piece
    run = ctl.agent.session.run.path
    kinds = [e["event"] for e in events(run)]
    assert [k for k in kinds if k in ("approved", "rejected")] == ["approved", "rejected", "approved"]
    assert json.loads((run / "state.json").read_text())["status"] == "converged"


def test_session_and_model_resume_continue_each_others_runs(tmp_path, monkeypatch, capsys):
    from specula.cli import main

    # a manual session: the mutant loaded and scored, then left
    ctl = open_session(load_task("spinlock"), runs_dir=tmp_path, env={}, runtime=SETTINGS, mutant="TryLockBlocks")
    ctl.run_phase("all")
    ctl.close()
    run = ctl.agent.session.run.path
    # `specula model --resume` continues it with a model: it sees the session's history
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    script = [call("edit_definition", {"name": "AcquireLock", "text": FIX}), call("run_phase", {"phase": "all"})]
    with ScriptedServer(script) as server:
        code = main(["model", "--resume", str(run), "--model", f"openai/gpt-5@{server.openai_url}", "--quick",
                     "--json", "--no-translate"])
        first = server.requests[0].body["messages"]
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "converged" and out["best_version"] == 2
    assert any("spec version 1, scorecard 1" in (m.get("content") or "") for m in first if m["role"] == "tool")
    # and a session opens that run again where it stands
    again = open_session(run=run.name, runs_dir=tmp_path, env={}, runtime=SETTINGS)
    assert again.agent.session.version == 2 and again.agent.session.converged and not again.has_model
    again.revert(1)
    again.close()
    assert json.loads((run / "state.json").read_text())["session"]["version"] == 3
