"""Task catalog, PGo TraceLink import, results store and leaderboard aggregation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from specula.bench.leaderboard import build_leaderboard, render_markdown
from specula.bench.results import ResultStore, RunRecord
from specula.tasks import SYSMOBENCH_TARGET_ACTIONS, list_tasks, load_task
from specula.errors import InputError
from specula.traces import cut_windows
from specula.traces.pgo import read_tracelink_run

# shared/ lies beside the repository (in a session and in CI alike)
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "sysmobench"


def _fake_checkout(root: Path) -> Path:
    """A SysMoBench-shaped checkout built from the shared real task files."""
    for task in ("spin", "mutex", "etcd", "dqueue"):
        d = root / "tla_eval" / "tasks" / task
        d.mkdir(parents=True)
        shutil.copy(SHARED / task / "task.yaml", d / "task.yaml")
        inv = root / "data" / "invariant_templates" / task
        inv.mkdir(parents=True)
        shutil.copy(SHARED / task / "invariants.yaml", inv / "invariants.yaml")
    tl = root / "tla_eval" / "core" / "trace_generation" / "dqueue" / "traces_found"
    shutil.copytree(SHARED / "dqueue" / "traces_found", tl)
    for f in (SHARED / "etcd").glob("windows_*.ndjson"):
        shutil.copy(f, root / "tla_eval" / "tasks" / "etcd" / f.name)
    return root


@pytest.mark.usefixtures("sysmobench_data")
def test_sysmobench_checkout_tasks(tmp_path):
    root = _fake_checkout(tmp_path / "sysmobench")
    tasks = {t.name: t for t in list_tasks(root, systems_dir=tmp_path / "none") if t.kind == "sysmobench"}
    assert set(tasks) == {"spin", "mutex", "etcd", "dqueue"}
    assert tasks["etcd"].spec_module == "etcdraft"
    assert list(tasks["etcd"].target_actions) == SYSMOBENCH_TARGET_ACTIONS["etcd"]
    assert tasks["etcd"].source_files == ("raft.go",)
    assert [p.name for p in tasks["etcd"].window_files] == ["windows_HandleVoteRequest.sample.ndjson"]
    assert len(tasks["dqueue"].tracelink_runs()) == 1 and not tasks["dqueue"].missing()
    assert tasks["spin"].missing() == ["traces: needs the instrumented system build"]
    assert load_task("etcd", root).kind == "sysmobench"


def test_unknown_task_is_an_input_error(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECULA_SYSTEMS_DIR", str(tmp_path))
    with pytest.raises(InputError) as e:
        load_task("no-such-task")
    assert "unknown task" in str(e.value)


@pytest.mark.usefixtures("sysmobench_data")
def test_tracelink_run_merges_processes_by_vector_clock():
    run = next((SHARED / "dqueue" / "traces_found").iterdir())
    trace = read_tracelink_run(run)
    assert trace.init["pc"] == {"0": "AProducer.p", "1": "AConsumer.c"}
    assert [s.action for s in trace.steps] == ["p", "c", "c1", "p1"]
    assert [s.actor for s in trace.steps] == ["0", "1", "1", "0"]
    # a write shows in every later state; the initial value of a written slot is its oldValue
    assert trace.init["AProducer.requester"] == {"0": "defaultInitValue"}
    assert trace.steps[-1].state["AProducer.requester"] == {"0": 1}
    windows = list(cut_windows(trace))
    assert len(windows) == 4 and windows[0].pre == trace.init


def _rec(entry, task, run, overall, **scores):
    base = {"syntax": 1.0, "runtime": 1.0, "conformance": 0.0, "invariants": 0.0}
    base.update(scores)
    return RunRecord(entry=entry, task=task, run=run, overall=overall, scores=base)


def test_leaderboard_matches_hand_computed_example(tmp_path):
    store = ResultStore(tmp_path / "r.jsonl")
    # entry A: task1 best of (0.5, 0.75) = 0.75; task2 = 1.0; task3 missing -> 0
    store.append(_rec("A", "t1", 1, 0.5, conformance=0.0))
    store.append(_rec("A", "t1", 2, 0.75, conformance=1.0))
    store.append(_rec("A", "t2", 1, 1.0, conformance=1.0, invariants=1.0))
    # entry B: a 6th run is beyond best-of-5 and must not count
    for run in range(1, 6):
        store.append(_rec("B", "t1", run, 0.25))
    store.append(_rec("B", "t1", 6, 1.0))
    store.append(_rec("B", "other-suite-task", 1, 1.0))
    board = build_leaderboard(store.records(), ["t1", "t2", "t3"], best_of=5)
    a, b = board.rows
    assert a.entry == "A" and a.overall == pytest.approx((0.75 + 1.0 + 0) / 3)
    assert a.phases["conformance"] == pytest.approx((1.0 + 1.0) / 3)
    assert a.phases["invariants"] == pytest.approx(1.0 / 3)
    assert b.entry == "B" and b.overall == pytest.approx(0.25 / 3) and b.runs == 5
    md = render_markdown(board)
    assert md.splitlines()[2].startswith("| 1 | A | 0.583 |") and "—" in md


def test_results_store_resume_and_bad_line(tmp_path):
    store = ResultStore(tmp_path / "r.jsonl")
    store.append(_rec("A", "t1", 1, 0.5))
    assert store.has("A", "t1", 1) and not store.has("A", "t1", 2)
    with (tmp_path / "r.jsonl").open("a") as fh:
        fh.write('{"entry": "A", "task": "t1", "ru')  # a run killed mid-write: no newline
    store.append(_rec("A", "t1", 2, 0.7))  # lands on its own line
    recs = list(store.records())  # the bad line is skipped, not fatal; nothing else is lost
    assert [(r.run, r.overall) for r in recs] == [(1, 0.5), (2, 0.7)]
    assert [e.line for e in store.skipped] == [2]


def test_sysmobench_from_a_git_url_at_a_revision(tmp_path, monkeypatch):
    import git

    src = _fake_checkout(tmp_path / "src")
    files = [str(p.relative_to(src)) for p in src.rglob("*") if p.is_file()]
    repo = git.Repo.init(src)
    repo.index.add(files)
    first = repo.index.commit("tasks")
    (src / "tla_eval" / "tasks" / "spin" / "task.yaml").unlink()
    repo.index.remove([str(Path("tla_eval/tasks/spin/task.yaml"))])
    repo.index.commit("drop spin")
    monkeypatch.setenv("SPECULA_CACHE_DIR", str(tmp_path / "cache"))
    url = (src / ".git").as_uri()
    head = {t.name for t in list_tasks(url, systems_dir=tmp_path / "none")}
    pinned = {t.name for t in list_tasks(f"{url}@{first.hexsha}", systems_dir=tmp_path / "none")}
    assert "spin" not in head and "spin" in pinned and "etcd" in head


def test_bench_eval_scores_a_folder_of_specs_then_leaderboard(tmp_path, capsys):
    import json

    from specula.cli import main

    systems = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"
    spin = systems / "spinlock"
    specs = tmp_path / "specs"
    mutant = (spin / "mutants" / "TryLockBlocks.tla").read_text().replace("MODULE TryLockBlocks", "MODULE spin")
    for run, text in (("a", mutant), ("b", (spin / "ref" / "spin.tla").read_text())):
        (specs / "spinlock" / run).mkdir(parents=True)
        (specs / "spinlock" / run / "spin.tla").write_text(text)
        (specs / "spinlock" / run / "spin.cfg").write_text((spin / "ref" / "spin.cfg").read_text())
    results = tmp_path / "results.jsonl"
    args = ["bench", "eval", "--spec-dir", str(specs), "--entry", "external/demo", "--task", "spinlock",
            "--results", str(results), "--json"]
    assert main(args) == 0
    recs = json.loads(capsys.readouterr().out)["records"]
    assert [(r["task"], r["run"], r["scores"]["conformance"]) for r in recs] == [("spinlock", 1, 0.5), ("spinlock", 2, 1.0)]
    assert main(args) == 0 and json.loads(capsys.readouterr().out)["records"] == []  # resumed: nothing redone
    assert main(["leaderboard", "--results", str(results), "--task", "spinlock", "--task", "mutex", "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "| 1 | external/demo | 0.500 |" in md  # best run 1.0 on spinlock, mutex missing counts 0


def test_bench_list_text_and_json_show_the_same_trace_counts(tmp_path, capsys, monkeypatch):
    """PGo tasks count their TraceLink runs in the text table as in --json (was 0 vs 1)."""
    import json

    monkeypatch.setenv("COLUMNS", "300")  # one table line per task

    from specula.cli import main

    root = _fake_checkout(tmp_path / "sysmobench")
    assert main(["bench", "list", "--sysmobench", str(root), "--json"]) == 0
    data = {t["name"]: t for t in json.loads(capsys.readouterr().out)["tasks"]}
    assert data["dqueue"]["traces"] == 1 and len(data["etcd"]["window_files"]) == 1
    assert main(["bench", "list", "--sysmobench", str(root)]) == 0
    lines = [ln.replace("┃", "│") for ln in capsys.readouterr().out.splitlines()]
    rows = {ln.split("│")[1].strip(): [c.strip() for c in ln.split("│")[1:-1]] for ln in lines if ln.count("│") > 6}
    header = rows.pop("task")
    traces, windows = header.index("traces"), header.index("windows")
    for name in ("dqueue", "etcd", "spin"):
        if name in rows:
            assert rows[name][traces] == str(data[name]["traces"]), (name, rows[name])
            assert rows[name][windows] == str(len(data[name]["window_files"])), (name, rows[name])
    assert "dqueue" in rows and "etcd" in rows
