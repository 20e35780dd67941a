"""`specula bench run` end to end: the agent (real SDK client, scripted server) on a bundled task,
best of two runs into the results store, an interrupted run resumed, and the leaderboard."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import FAKE_OPENAI_KEY, FAST_RETRY
from scripted_server import ScriptedServer
from test_agent_e2e import CFG, DRAFT, FIX, TRANSLATION, call, is_translation
from specula.bench.results import ResultStore
from specula.bench.runner import BenchPlan, entry_for, run_bench
from specula.tasks import load_task
from specula.cli import main
from specula.phases import RuntimeSettings

QUICK = RuntimeSettings(check_seconds=10, runs=2, traces_per_run=10, depth=20, run_seconds=5, seed=1)
FIXED = DRAFT.replace(DRAFT[DRAFT.index("AcquireLock(t) =="):DRAFT.index("ReleaseLock(t) ==")], FIX + "\n\n")


def test_bench_run_best_of_runs_resume_and_leaderboard(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    task = load_task("spinlock")
    store = ResultStore(tmp_path / "results.jsonl")
    script = [
        # run 1: the textbook draft, scored, then the model gives up
        call("write_spec", {"tla": DRAFT, "cfg": CFG}),
        call("run_phase", {"phase": "all"}),
        call("finish", {"summary": "try_lock still wrong"}),
        # run 2: first the provider fails (run is left resumable, nothing recorded) ...
        {"status": 500, "message": "overloaded"}, {"status": 500}, {"status": 500}, {"status": 500},
        # ... then, resumed by a second `bench run`, the fixed spec converges
        call("write_spec", {"tla": FIXED, "cfg": CFG}),
        call("run_phase", {"phase": "all"}),
    ]
    translate = [{"text": TRANSLATION}] * 4
    with ScriptedServer(script, queues={"translate": translate},
                        router=lambda b: "translate" if is_translation(b) else "main") as server:
        model = f"openai/gpt-5@{server.openai_url}"
        plan = BenchPlan(tasks=[task], model=model, runs=2, runs_dir=tmp_path / "runs", runtime=QUICK,
                         retry=FAST_RETRY)
        first = run_bench(plan, store)
        assert [(r.task, r.run, r.overall) for r in first] == [("spinlock", 1, first[0].overall)]
        assert first[0].scores["conformance"] == 0.5 and first[0].status == "scored"
        entry = entry_for(model)
        assert store.has(entry, "spinlock", 1) and not store.has(entry, "spinlock", 2)
        second = run_bench(plan, store)  # resumes run 2 only
        assert [(r.run, r.scores["conformance"], r.overall) for r in second] == [(2, 1.0, 1.0)]
        assert server.remaining() == 0
        assert run_bench(plan, store) == []  # nothing left to do
    assert main(["leaderboard", "--results", str(tmp_path / "results.jsonl"), "--task", "spinlock", "--json"]) == 0
    board = json.loads(capsys.readouterr().out)
    (row,) = board["rows"]
    assert row["entry"] == entry and row["overall"] == 1.0 and row["runs"] == 2
    recs = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert all(FAKE_OPENAI_KEY not in json.dumps(r) for r in recs)
    assert recs[1]["cost_usd"] > 0 and recs[1]["specula_version"]
    assert Path(recs[1]["spec"]).read_text() == FIXED


def test_a_run_that_never_checked_every_phase_is_ranked_on_all_of_them(tmp_path, monkeypatch):
    """The agent ran conformance alone and finished: the leaderboard record holds the final spec's
    scores on all four phases (scored by the bench), not the run's partial scorecard."""
    from test_agent_convergence import STEAL

    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    script = [call("write_spec", {"tla": STEAL, "cfg": CFG}), call("run_phase", {"phase": "3"}),
              call("finish", {"summary": "conformance passes"})]
    store = ResultStore(tmp_path / "results.jsonl")
    with ScriptedServer(script) as server:
        plan = BenchPlan(tasks=[load_task("spinlock")], model=f"openai/gpt-5@{server.openai_url}", runs=1,
                         runs_dir=tmp_path / "runs", runtime=QUICK, retry=FAST_RETRY)
        (rec,) = run_bench(plan, store)
    assert rec.scores["conformance"] == 1.0
    card = json.loads(Path(rec.scorecard).read_text())
    assert card["ran"] == ["syntax", "runtime", "conformance", "invariants"] and "scored_by" in card
    rows = {r["name"]: r["status"] for r in card["phases"]["invariants"]["detail"]["rows"]}
    assert rows["MutualExclusion"] == "violated" and 0.0 < rec.scores["invariants"] < 1.0
    assert rec.overall == sum(rec.scores.values()) / 4
