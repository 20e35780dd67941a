"""A small scripted campaign: the agent (real OpenAI SDK client) against the scripted LLM server on
two bundled tasks, two runs each, scored with small count-bounded settings.

The scripted model answers from the conversation it is sent, not from a queue, so a run that is
resumed after its worker died gets the same answers: write the spec, run every phase, finish.
spinlock gets the TryLockBlocks mutant (conformance below 1), ringbuffer its reference spec (it
converges). Used by the Ray fault test and by benchmarks/perf/bench_campaign.py.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "agent"))

from scripted_server import ScriptedServer  # noqa: E402
from specula.agent.providers import RetryPolicy  # noqa: E402
from specula.bench.leaderboard import build_leaderboard  # noqa: E402
from specula.bench.results import ResultStore  # noqa: E402
from specula.bench.runner import BenchPlan, run_bench  # noqa: E402
from specula.phases import RuntimeSettings  # noqa: E402
from specula.tasks import load_task  # noqa: E402

FAKE_KEY = "sk-proj-FAKE-campaign-0123456789"
TASKS = ("spinlock", "ringbuffer")
QUICK = RuntimeSettings(check_seconds=20, runs=2, traces_per_run=10, depth=20, run_seconds=10, seed=1)
SYSTEMS = ROOT / "benchmarks" / "systems"
SPECS = {
    "spin": ((SYSTEMS / "spinlock" / "mutants" / "TryLockBlocks.tla"), (SYSTEMS / "spinlock" / "ref" / "spin.cfg")),
    "ringbuffer": ((SYSTEMS / "ringbuffer" / "ref" / "ringbuffer.tla"), (SYSTEMS / "ringbuffer" / "ref" / "ringbuffer.cfg")),
}


def _module(body: dict[str, Any]) -> str:
    first = body["messages"][0] if body["messages"][0].get("role") != "system" else body["messages"][1]
    text = json.dumps(first)
    return "ringbuffer" if "`ringbuffer`" in text else "spin"


def reply(body: dict[str, Any], delay: float = 0.2) -> dict[str, Any]:
    """The next move of the scripted model, from the number of its earlier replies."""
    time.sleep(delay)  # a model takes time: a worker can be caught in the middle of a run
    if "translate invariant templates" in json.dumps(body):
        return {"text": "(no translation: use the templates' examples)"}
    done = sum(1 for m in body["messages"] if m.get("role") == "assistant")
    module = _module(body)
    if done == 0:
        tla, cfg = SPECS[module]
        text = tla.read_text().replace("MODULE TryLockBlocks", "MODULE spin")
        return {"tool_calls": [{"name": "write_spec", "arguments": {"tla": text, "cfg": cfg.read_text()}}]}
    if done == 1:
        return {"tool_calls": [{"name": "run_phase", "arguments": {"phase": "all"}}]}
    return {"tool_calls": [{"name": "finish", "arguments": {"summary": "done"}}]}


def server(delay: float = 0.2) -> ScriptedServer:
    return ScriptedServer([lambda b: reply(b, delay)] * 10_000)


def plan(url: str, runs_dir: Path, runs: int = 2, jobs: int = 1) -> BenchPlan:
    return BenchPlan(tasks=[load_task(t) for t in TASKS], model=f"openai/gpt-5@{url}", runs=runs, jobs=jobs,
                     runs_dir=runs_dir, runtime=QUICK, invariant_seconds=30, entry="scripted/campaign",
                     retry=RetryPolicy(attempts=4, initial=0.05, maximum=0.2, timeout=30))


def run_campaign(url: str, out: Path, executor: Any = None, jobs: int = 1, on_event: Any = None) -> tuple[list, float]:
    """(records added, wall seconds) of one campaign into ``out``/results.jsonl."""
    store = ResultStore(out / "results.jsonl")
    t0 = time.monotonic()
    recs = run_bench(plan(url, out / "runs", jobs=jobs), store, on_event, executor=executor)
    return recs, time.monotonic() - t0


def board(out: Path) -> list[tuple]:
    """The leaderboard rows, without what legitimately differs between campaigns (cost, versions)."""
    rows = build_leaderboard(ResultStore(out / "results.jsonl").records(), list(TASKS), 5).to_dict()["rows"]
    return [(r["entry"], round(r["overall"], 6), r["runs"], sorted((k, round(v, 6)) for k, v in r["phases"].items()),
             sorted((k, round(v, 6)) for k, v in r["per_task"].items())) for r in rows]
