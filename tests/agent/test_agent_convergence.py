"""A run converges only when every phase was evaluated on the current spec version and passes; a
scorecard holds the phases it ran (never a skip reason that is not true); a resumed run keeps its
last evaluation (issue 15, items 2 and 3)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import FAKE_OPENAI_KEY
from scripted_server import ScriptedServer
from test_agent_e2e import CFG, DRAFT, FIX, TRANSLATION, call, is_translation, main_requests, tool_result
from specula.cli import main

FIXED = DRAFT.replace(DRAFT[DRAFT.index("AcquireLock(t) =="):DRAFT.index("ReleaseLock(t) ==")], FIX + "\n\n")
# conforms to every observed window (Steal is not a target action, so no window checks it) but an
# idle thread may take a held lock: MutualExclusion is violated
STEAL = FIXED.replace("Next == \\E t \\in Threads : StartLock(t) \\/ AcquireLock(t) \\/ ReleaseLock(t)", """Steal(t) ==
    /\\ pc[t] = "idle"
    /\\ lock = TRUE
    /\\ pc' = [pc EXCEPT ![t] = "locked"]
    /\\ UNCHANGED lock

Next == \\E t \\in Threads : StartLock(t) \\/ AcquireLock(t) \\/ ReleaseLock(t) \\/ Steal(t)""")


def run_model(tmp_path: Path, script: list, extra: list[str] = (), translate: int = 1) -> tuple[int, dict, ScriptedServer]:
    with ScriptedServer(script, queues={"translate": [{"text": TRANSLATION}] * translate},
                        router=lambda b: "translate" if is_translation(b) else "main") as server:
        code = main(["model", "spinlock", "--model", f"openai/gpt-5@{server.openai_url}",
                     "--runs-dir", str(tmp_path / "runs"), "--quick", "--json", *extra])
    return code, server


def test_conformance_alone_never_converges_and_the_card_holds_only_what_ran(tmp_path, monkeypatch, capsys):
    assert STEAL != FIXED
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    script = [call("write_spec", {"tla": STEAL, "cfg": CFG}), call("run_phase", {"phase": "3"}),
              call("finish", {"summary": "conformance passes"})]
    code, server = run_model(tmp_path, script)
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["status"] == "finished", out
    assert server.remaining() == 0  # the model was asked again after run_phase 3
    scored = tool_result(server, main_requests(server)[2])
    assert "conformance: 1.000" in scored and "invariants: not run" in scored
    assert "run_phase all" in scored and "ALL PHASES PASS" not in scored
    run = Path(out["run"])
    card = json.loads((run / "scorecard-1.json").read_text())
    assert card["ran"] == ["syntax", "runtime", "conformance"] and card["version"] == 1
    assert "invariants" not in card["phases"]  # not "skipped: no invariant templates" (the task has five)
    assert card["invariant_templates"] == 5
    assert not (run / "final" / "scorecard.json").exists()  # never scored on every phase: nothing to rank
    assert "never scored on all phases" in (run / "final" / "summary.md").read_text()


def test_all_phases_on_a_spec_that_breaks_mutual_exclusion_does_not_converge(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    script = [call("write_spec", {"tla": STEAL, "cfg": CFG}), call("run_phase", {"phase": "all"}),
              call("show_counterexample", {"invariant": "MutualExclusion"}), call("finish", {"summary": "x"})]
    code, server = run_model(tmp_path, script)
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["status"] == "finished"
    cex = tool_result(server, main_requests(server)[3])
    assert cex.startswith("MutualExclusion [safety]: violated") and "Steal" in cex
    card = json.loads((Path(out["run"]) / "final" / "scorecard.json").read_text())
    assert card["version"] == 1 and card["ran"] == ["syntax", "runtime", "conformance", "invariants"]
    assert card["scores"]["conformance"] == 1.0 and card["scores"]["invariants"] < 1.0


def test_convergence_is_judged_on_the_current_version_and_final_is_that_version(tmp_path, monkeypatch, capsys):
    # version 1 scores better overall than a broken version 2 would, but only version 3 converges
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    script = [call("write_spec", {"tla": STEAL, "cfg": CFG}), call("run_phase", {"phase": "all"}),
              call("write_spec", {"tla": FIXED, "cfg": CFG}), call("run_phase", {"phase": "all"}),
              call("finish", {"summary": "must not be reached"})]
    code, server = run_model(tmp_path, script, translate=2)
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "converged" and out["best_version"] == 2, out
    run = Path(out["run"])
    assert (run / "final" / "spin.tla").read_text() == FIXED
    assert json.loads((run / "final" / "scorecard.json").read_text())["version"] == 2


def test_resume_restores_the_last_evaluation(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    script = [call("write_spec", {"tla": DRAFT, "cfg": CFG}), call("run_phase", {"phase": "all"})]
    code, _ = run_model(tmp_path, script, ["--budget", "iterations=2"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["status"] == "budget", out
    run = Path(out["run"])
    assert json.loads((run / "scorecard-1.json").read_text())["scores"]["conformance"] == 0.5
    script = [call("show_window", {"action": "AcquireLock"}),
              call("show_counterexample", {"invariant": "MutualExclusion"}),
              call("edit_definition", {"name": "AcquireLock", "text": FIX}),
              call("show_window", {"action": "AcquireLock"}),
              call("finish", {"summary": "x"})]
    with ScriptedServer(script) as server:
        code = main(["model", "--resume", str(run), "--model", f"openai/gpt-5@{server.openai_url}",
                     "--budget", "iterations=10", "--quick", "--json"])
        window, cex, _, stale = (tool_result(server, i) for i in range(1, 5))
    assert code == 1, capsys.readouterr().out
    assert window.startswith("failing window 1 of") and "diagnosis (conjunct)" in window
    assert cex.startswith("MutualExclusion [safety]: passed")
    assert stale.startswith("(results of spec version 1; the current version is 2")
