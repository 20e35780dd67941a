"""Shared by the slow agent suites over the bundled systems: seeded, count-bounded settings
(time limits only guard against hangs, so a loaded machine does not turn into missing coverage)
and one scripted-model run of `specula model` against a system's task."""

from __future__ import annotations

from conftest import FAKE_OPENAI_KEY
from specula.agent.ledger import Budget
from conftest import agent_task, start
from specula.agent.session import RunOptions
from specula.phases import RuntimeSettings

SETTINGS = RuntimeSettings(check_seconds=60, runs=4, traces_per_run=30, depth=30, run_seconds=120, seed=7)


def run_model(system, url, runs_dir):
    opts = RunOptions(model=f"openai/gpt-5@{url}", runs_dir=runs_dir,
                      budget=Budget(iterations=20), env={"OPENAI_API_KEY": FAKE_OPENAI_KEY})
    out = start(agent_task(str(system)), opts, runtime=SETTINGS, invariant_seconds=60).run().to_dict()
    return (0 if out["status"] == "converged" else 1), out
