"""`specula model` exit codes, usage errors and --resume at the command level."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import FAKE_OPENAI_KEY
from scripted_server import ScriptedServer
from specula.cli import main


def test_usage_errors_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    assert main(["model"]) == 2
    assert "--resume" in capsys.readouterr().err
    assert main(["model", "spinlock", "--model", "gpt-5", "--runs-dir", str(tmp_path)]) == 2
    assert "PROVIDER/NAME" in capsys.readouterr().err
    assert main(["model", "no-such-task-xyz", "--model", "openai/gpt-5", "--runs-dir", str(tmp_path)]) == 2
    assert "unknown task" in capsys.readouterr().err
    assert main(["model", str(tmp_path), "--model", "openai/gpt-5", "--runs-dir", str(tmp_path)]) == 2
    assert "--module" in capsys.readouterr().err
    assert main(["model", "spinlock", "--budget", "bananas=3", "--runs-dir", str(tmp_path)]) == 2
    assert "unknown budget key" in capsys.readouterr().err
    assert main(["model", "--resume", "nope", "--runs-dir", str(tmp_path)]) == 2
    assert "no resumable run" in capsys.readouterr().err


def test_missing_key_is_a_clean_error(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["model", "spinlock", "--runs-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "ANTHROPIC_API_KEY is not set" in err and "Traceback" not in err


def test_provider_storm_exits_2_then_resume_with_budget_exits_1(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    with ScriptedServer([{"status": 503}] * 6) as server:
        code = main(["model", "spinlock", "--model", f"openai/gpt-5@{server.openai_url}",
                     "--runs-dir", str(tmp_path), "--retries", "2", "--json"])
        assert len(server.requests) == 2
        out = json.loads(capsys.readouterr().out)
    assert code == 2 and out["status"] == "provider-error" and out["resumable"]
    script = [{"tool_calls": [{"name": "read_spec", "arguments": {}}]}] * 3
    with ScriptedServer(script) as server:
        code = main(["model", "--resume", Path(out["run"]).name, "--runs-dir", str(tmp_path),
                     "--model", f"openai/gpt-5@{server.openai_url}", "--budget", "iterations=2", "--json"])
        out2 = json.loads(capsys.readouterr().out)
    assert code == 1 and out2["status"] == "budget" and out2["run"] == out["run"]


def test_ctrl_c_in_a_real_process_saves_and_exits_130(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    script = [{"tool_calls": [{"name": "read_spec", "arguments": {}}]}, {"text": "slow", "delay": 30}]
    with ScriptedServer(script) as server:
        env = {**os.environ, "OPENAI_API_KEY": FAKE_OPENAI_KEY}
        proc = subprocess.Popen([sys.executable, "-m", "specula", "model", "spinlock", "--model",
                                 f"openai/gpt-5@{server.openai_url}", "--runs-dir", str(tmp_path), "--json"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while len(server.requests) < 2 and time.time() < deadline:
            time.sleep(0.1)
        assert len(server.requests) == 2, "the second model call never started"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    result = json.loads(out)
    assert result["status"] == "interrupted" and result["resumable"]
    state = json.loads((Path(result["run"]) / "state.json").read_text())
    assert state["status"] == "interrupted" and state["iterations"] == 1
    assert FAKE_OPENAI_KEY not in (Path(result["run"]) / "transcript.jsonl").read_text()


def test_print_prompt_needs_no_key_and_shows_code_traces_mapping_but_not_the_reference(capsys, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["model", "spinlock", "--print-prompt", "--focus", "try_lock vs lock", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    task = out["task"]
    assert "AcquireLock, ReleaseLock" in task and "`spin`" in task and "try_lock vs lock" in task
    assert "spin_lock" in task and "spinlock.c" in task  # the code map
    assert "windows; per action: AcquireLock" in task  # the traces
    assert "per_node" in task  # the mapping
    assert "MutualExclusion" in task  # the invariant templates
    assert "Reference model" not in task and "ref/spin.tla" not in task and "/work/" not in task
    assert "SPECIFICATION Spec" in out["system"]


def test_live_view_output(tmp_path, capsys, monkeypatch):
    from test_agent_e2e import CFG, DRAFT, TRANSLATION, call, is_translation

    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    script = [call("write_spec", {"tla": DRAFT, "cfg": CFG}), call("run_phase", {"phase": "all"}),
              call("finish", {"summary": "stopping here"})]
    with ScriptedServer(script, queues={"translate": [{"text": TRANSLATION}]},
                        router=lambda b: "translate" if is_translation(b) else "main") as server:
        code = main(["model", "spinlock", "--model", f"openai/gpt-5@{server.openai_url}",
                     "--runs-dir", str(tmp_path), "--quick"])
    out = capsys.readouterr().out
    assert code == 1
    assert "conformance" in out and "0.500" in out and "guard false" in out  # scores and failing causes
    assert "finished — stopping here" in out and "best spec: version 1, overall 0.875" in out
