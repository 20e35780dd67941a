"""End to end: `specula model` on the bundled spin lock through the real SDK clients against the
scripted server. The first draft has a textbook mistake (try_lock modeled as blocking), the tool
results show the failing windows, the second draft fixes it, and the run stops at full conformance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY
from scripted_server import ScriptedServer
from specula.cli import main

ROOT = Path(__file__).resolve().parents[2]
SYSTEM = ROOT / "benchmarks" / "systems" / "spinlock"

DRAFT = r"""---- MODULE spin ----
\* spinlock.c: one atomic flag; lock() spins on a CAS; try_lock() makes one attempt.
EXTENDS TLC

CONSTANT Threads

VARIABLES lock, pc

vars == <<lock, pc>>

TypeOK == lock \in BOOLEAN /\ pc \in [Threads -> {"idle", "spinning", "locked"}]

Init == lock = FALSE /\ pc = [t \in Threads |-> "idle"]

StartLock(t) ==
    /\ pc[t] = "idle"
    /\ pc' = [pc EXCEPT ![t] = "spinning"]
    /\ UNCHANGED lock

AcquireLock(t) ==
    /\ pc[t] = "spinning"
    /\ lock = FALSE
    /\ lock' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "locked"]

ReleaseLock(t) ==
    /\ pc[t] = "locked"
    /\ lock' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]

Next == \E t \in Threads : StartLock(t) \/ AcquireLock(t) \/ ReleaseLock(t)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
====
"""
CFG = 'CONSTANTS\n    Threads = {"t1", "t2", "t3"}\nSPECIFICATION Spec\n'
FIX = r"""AcquireLock(t) ==
    /\ pc[t] \in {"idle", "spinning"}
    /\ lock = FALSE
    /\ lock' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "locked"]"""
TEMPLATES = yaml.safe_load((SYSTEM / "invariants.yaml").read_text())["invariants"]
KEPT_OUT = TEMPLATES[-1]["name"]  # the model declares this one untranslatable
TRANSLATION = f"""```tla
MutualExclusion == \\A a, b \\in Threads : (a # b) => ~(pc[a] = "locked" /\\ pc[b] = "locked")
LockConsistency == lock <=> (\\E t \\in Threads : pc[t] = "locked")
```
UNTRANSLATABLE: {KEPT_OUT} - kept out for this test
"""


def call(name: str, args: dict) -> dict:
    return {"text": f"Calling {name}.", "tool_calls": [{"name": name, "arguments": args}],
            "usage": {"input": 2000, "output": 300}}


def is_translation(body: dict) -> bool:
    return "translate invariant templates" in json.dumps(body)


def tool_result(server: ScriptedServer, request: int) -> str:
    msgs = server.requests[request].body["messages"]
    last = msgs[-1]
    if last.get("role") == "tool":
        return last["content"]
    return last["content"][-1]["content"]


def main_requests(server: ScriptedServer) -> list[int]:
    return [i for i, r in enumerate(server.requests) if not is_translation(r.body)]


@pytest.mark.parametrize("kind", ["openai", "anthropic-stream"])
def test_specula_model_fixes_a_textbook_mistake_and_stops_at_full_conformance(tmp_path, monkeypatch, capsys, kind):
    script = [
        call("code_map", {"focus": "lock try_lock unlock"}),
        call("read_traces", {"action": "AcquireLock", "limit": 2}),
        call("write_spec", {"tla": DRAFT, "cfg": CFG}),
        call("run_phase", {"phase": "all"}),
        call("show_window", {"action": "AcquireLock"}),
        call("edit_definition", {"name": "AcquireLock", "text": FIX}),
        call("run_phase", {"phase": "all"}),
        call("finish", {"summary": "must not be reached: the run stops at full conformance"}),
    ]
    translate = [{"text": TRANSLATION, "usage": {"input": 1500, "output": 120}}]
    if kind == "openai":
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
        key = FAKE_OPENAI_KEY
    else:
        monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_ANTHROPIC_KEY)
        key = FAKE_ANTHROPIC_KEY
    with ScriptedServer(script, queues={"translate": translate},
                        router=lambda b: "translate" if is_translation(b) else "main") as server:
        model = (f"openai/gpt-5@{server.openai_url}" if kind == "openai"
                 else f"anthropic/claude-sonnet-4-6@{server.url}")
        args = ["model", "spinlock", "--model", model, "--runs-dir", str(tmp_path / "runs"), "--quick", "--json"]
        if kind != "openai":
            args.append("--stream")
        code = main(args)
        out = json.loads(capsys.readouterr().out)
        assert code == 0, out
        assert out["status"] == "converged" and out["best_version"] == 2 and out["best_score"] == 1.0
        assert server.remaining() == 1  # finish was never asked for
        assert server.remaining("translate") == 0
        reqs = main_requests(server)
        first_score = tool_result(server, reqs[4])
        assert "AcquireLock" in first_score and "FAIL" in first_score
        assert 'guard false: pc[t] = "spinning"' in first_score
        assert "show_window with one of: AcquireLock" in first_score
        window = tool_result(server, reqs[5])
        assert "failing window 1 of" in window and "observed pre:" in window and "diagnosis (conjunct)" in window
        # the reference spec and the mutants never reached the model
        sent = json.dumps([r.body for r in server.requests])
        assert "Reference model of benchmarks/systems/spinlock" not in sent and "MUTANT" not in sent
        assert key in json.dumps([r.headers for r in server.requests])

    run = Path(out["run"])
    for rel in ("task.yaml", "spec/001/spin.tla", "spec/001/spin.cfg", "spec/002/spin.tla", "scorecard-1.json",
                "scorecard-2.json", "transcript.jsonl", "usage.json", "state.json", "final/spin.tla",
                "final/spin.cfg", "final/scorecard.json", "final/summary.md"):
        assert (run / rel).is_file(), rel
    first = json.loads((run / "scorecard-1.json").read_text())
    second = json.loads((run / "scorecard-2.json").read_text())
    assert first["scores"]["conformance"] == 0.5 and second["scores"] == {
        "syntax": 1.0, "runtime": 1.0, "conformance": 1.0, "invariants": 1.0}
    translated, untranslated = second["meta"]["invariants_translated"], second["meta"]["invariants_untranslated"]
    assert translated[:2] == ["MutualExclusion", "LockConsistency"] and untranslated == [KEPT_OUT]
    assert sorted(translated + untranslated) == sorted(t["name"] for t in TEMPLATES)
    rows = {r["name"]: r for r in second["phases"]["invariants"]["detail"]["rows"]}
    assert rows["MutualExclusion"]["source"] == "llm" and rows["MutualExclusion"]["status"] == "passed"
    final = (run / "final" / "spin.tla").read_text()
    assert 'pc[t] \\in {"idle", "spinning"}' in final and final == (run / "spec/002/spin.tla").read_text()
    usage = json.loads((run / "usage.json").read_text())
    assert usage["calls"] == 8 and usage["cost_usd"] > 0
    events = [json.loads(x) for x in (run / "transcript.jsonl").read_text().splitlines()]
    assert [e["status"] for e in events if e["event"] == "stop"] == ["converged"]
    assert any(e["event"] == "translate" for e in events)
    everything = "\n".join(p.read_text(errors="replace") for p in run.rglob("*") if p.is_file())
    assert key not in everything


def test_the_best_spec_is_kept_not_the_last(tmp_path, monkeypatch, capsys):
    broken = DRAFT.replace("Init ==", "Init == lock = \n")
    script = [
        call("write_spec", {"tla": DRAFT, "cfg": CFG}),
        call("run_phase", {"phase": "all"}),
        call("write_spec", {"tla": broken, "cfg": CFG}),
        call("run_phase", {"phase": "all"}),
        call("finish", {"summary": "gave up"}),
    ]
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    with ScriptedServer(script, queues={"translate": [{"text": TRANSLATION}]},
                        router=lambda b: "translate" if is_translation(b) else "main") as server:
        code = main(["model", str(SYSTEM), "--model", f"openai/gpt-5@{server.openai_url}",
                     "--runs-dir", str(tmp_path / "runs"), "--quick", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["status"] == "finished" and out["best_version"] == 1
    run = Path(out["run"])
    assert json.loads((run / "scorecard-2.json").read_text())["scores"]["syntax"] < 1.0
    assert (run / "final" / "spin.tla").read_text() == DRAFT
    assert json.loads((run / "final" / "scorecard.json").read_text())["version"] == 1


def test_invariant_violation_shows_a_counterexample(tmp_path, monkeypatch, capsys):
    leaky = DRAFT.replace('''ReleaseLock(t) ==
    /\\ pc[t] = "locked"
    /\\ lock' = FALSE
    /\\ pc' = [pc EXCEPT ![t] = "idle"]''', '''ReleaseLock(t) ==
    /\\ pc[t] = "locked"
    /\\ lock' = FALSE
    /\\ UNCHANGED pc''')
    assert leaky != DRAFT
    script = [call("write_spec", {"tla": leaky, "cfg": CFG}), call("run_phase", {"phase": "4"}),
              call("show_counterexample", {"invariant": "LockConsistency"}), call("finish", {"summary": "x"})]
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    with ScriptedServer(script, queues={"translate": [{"text": TRANSLATION}]},
                        router=lambda b: "translate" if is_translation(b) else "main") as server:
        code = main(["model", "spinlock", "--model", f"openai/gpt-5@{server.openai_url}",
                     "--runs-dir", str(tmp_path), "--quick", "--json"])
        reqs = main_requests(server)
        scored, cex = tool_result(server, reqs[2]), tool_result(server, reqs[3])
    assert code == 1
    assert "LockConsistency" in scored and "violated" in scored
    assert cex.startswith("LockConsistency [safety]: violated")
    assert "1. Init:" in cex and "ReleaseLock" in cex


def test_a_failed_model_translation_falls_back_to_the_templates_examples(tmp_path, monkeypatch, capsys):
    fixed = DRAFT.replace(DRAFT[DRAFT.index("AcquireLock(t) =="):DRAFT.index("ReleaseLock(t) ==")], FIX + "\n\n")
    script = [call("write_spec", {"tla": fixed, "cfg": CFG}), call("run_phase", {"phase": "all"})]
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    with ScriptedServer(script, queues={"translate": [{"status": 400, "message": "no"}]},
                        router=lambda b: "translate" if is_translation(b) else "main") as server:
        code = main(["model", "spinlock", "--model", f"openai/gpt-5@{server.openai_url}",
                     "--runs-dir", str(tmp_path), "--quick", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "converged"
    run = Path(out["run"])
    events = [json.loads(x) for x in (run / "transcript.jsonl").read_text().splitlines()]
    assert any(e["event"] == "translate_failed" for e in events)
    rows = json.loads((run / "scorecard-1.json").read_text())["phases"]["invariants"]["detail"]["rows"]
    assert {r["source"] for r in rows if r["status"] == "passed"} == {"example"}
