"""Campaign executors: the local pool and Ray (issue 22). The fault test runs a scripted campaign on
a private local Ray cluster (num_cpus=2), kills a worker in the middle of a run, and expects every
(task, run) recorded exactly once and the leaderboard of an undisturbed local run."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from campaign import FAKE_KEY, TASKS, board, plan, run_campaign, server
from specula.bench.executors import Job, LocalExecutor, Progress, make_executor, worker_env
from specula.bench.results import ResultStore
from specula.bench.scoring import eval_spec_dir
from specula.cli import main
from specula.errors import ConfigError
from specula.tasks import load_task


def _square(x: int) -> int:
    if x == 3:
        raise ValueError("three is bad")
    time.sleep(0.01 * x)
    return x * x


def test_a_failing_job_is_that_jobs_result_and_the_others_complete():
    jobs = [Job(("e", "t", i), _square, (i,)) for i in range(1, 6)]
    seen = []
    for n in (1, 3):
        done = list(LocalExecutor(jobs=n).run(jobs, Progress(), lambda p: seen.append(p.to_dict())))
        assert sorted(d.job.key[2] for d in done) == [1, 2, 3, 4, 5]
        assert {d.job.key[2]: d.result for d in done if d.error is None} == {1: 1, 2: 4, 4: 16, 5: 25}
        (bad,) = [d for d in done if d.error]
        assert bad.job.key[2] == 3 and bad.error == "ValueError: three is bad"
    assert seen[-1] == {"queued": 0, "running": 0, "done": 4, "failed": 1, "cost_usd": 0.0, "executor": "local"}


def test_executor_choices_and_worker_env(capsys):
    with pytest.raises(ConfigError, match="--address needs --executor ray"):
        make_executor("local", address="auto")
    with pytest.raises(ConfigError, match="unknown executor"):
        make_executor("dask")
    env = worker_env({"OPENAI_API_KEY": "k1", "ANTHROPIC_BASE_URL": "http://x", "HOME": "/root", "PATH": "/bin",
                      "SPECULA_TLA2TOOLS": "/t.jar"})
    assert env == {"OPENAI_API_KEY": "k1", "ANTHROPIC_BASE_URL": "http://x", "SPECULA_TLA2TOOLS": "/t.jar"}
    assert main(["bench", "run", "--model", "openai/gpt-5", "--executor", "dask"]) == 2
    assert "dask" in capsys.readouterr().err


def _ray_workers() -> list[int]:
    """Worker processes of this machine's Ray cluster running a campaign job (``ray::run_job``)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                cmd = Path(f"/proc/{d}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
            except OSError:
                continue
            if cmd.startswith("ray::run_job"):
                out.append(int(d))
    return out


@pytest.mark.slow
def test_ray_campaign_survives_a_killed_worker_and_ranks_as_a_local_run(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")  # the optional extra specula[ray]; .ci/run installs it
    from specula.bench.executors import RayExecutor

    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    with server() as srv:
        url = srv.url + "/v1"
        local, _ = run_campaign(url, tmp_path / "local")
        assert len(local) == 4

        killed: list[int] = []

        def killer() -> None:  # once both running runs have saved state, kill one of their workers
            runs = tmp_path / "ray" / "runs"
            for _ in range(600):
                time.sleep(0.5)
                if len(list(runs.glob("*/state.json"))) >= 2 and _ray_workers():
                    pid = _ray_workers()[0]
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    return

        t = threading.Thread(target=killer, daemon=True)
        t.start()
        events: list[dict] = []
        ex = RayExecutor(address=None, init_options={"num_cpus": 2, "include_dashboard": False,
                                                     "_node_ip_address": "127.0.0.1"})
        try:
            recs, _ = run_campaign(url, tmp_path / "ray", executor=ex, on_event=events.append)
            t.join(timeout=5)
            assert killed, "no worker was caught running a job"
            # the same specs scored again through Ray by `bench eval`: one record per spec
            specs = tmp_path / "specs"
            for r in recs:
                d = specs / r.task / f"r{r.run}"
                d.mkdir(parents=True)
                for f in Path(r.spec).parent.glob("*.tla"):
                    (d / f.name).write_text(f.read_text())
                    (d / f.with_suffix(".cfg").name).write_text(f.with_suffix(".cfg").read_text())
            store = ResultStore(tmp_path / "eval.jsonl")
            tasks = [load_task(n) for n in TASKS]
            scored = eval_spec_dir(specs, tasks, "scripted/eval", store, plan(url, tmp_path).runtime, 30, executor=ex)
            assert eval_spec_dir(specs, tasks, "scripted/eval", store, plan(url, tmp_path).runtime, 30, executor=ex) == []
        finally:
            ray.shutdown()
    # no lost and no duplicated result; the same leaderboard as the undisturbed local campaign
    lines = [json.loads(x) for x in (tmp_path / "ray" / "results.jsonl").read_text().splitlines()]
    assert sorted((x["task"], x["run"]) for x in lines) == sorted((t, r) for t in TASKS for r in (1, 2))
    assert board(tmp_path / "ray") == board(tmp_path / "local")
    # the killed run was resumed from its run directory by Ray's retry, not started over
    transcripts = "\n".join(p.read_text() for p in (tmp_path / "ray" / "runs").glob("*/transcript.jsonl"))
    assert '"event": "resume"' in transcripts
    progress = [e for e in events if e["event"] == "bench-progress"]
    assert progress[-1]["done"] == 4 and progress[-1]["failed"] == 0 and progress[-1]["executor"] == "ray"
    # keys reached the workers through the runtime environment only
    written = "\n".join(p.read_text(errors="replace") for p in (tmp_path / "ray").rglob("*") if p.is_file())
    assert FAKE_KEY not in written
    assert sorted((r.task, r.run, r.overall) for r in scored) == sorted((x["task"], x["run"], x["overall"]) for x in lines)
