"""The harness interface: discovery of benchmarks/systems/*/task.yaml and run_harness."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from specula.bench.harness import harness_systems, run_harness, trace_file_name
from specula.tasks import load_task
from specula.cli import main
from specula.errors import ConfigError, HarnessError, InputError

FAKE_HARNESS = textwrap.dedent(
    """
    import argparse, json, pathlib
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int); ap.add_argument("--seed", type=int); ap.add_argument("--out")
    ap.add_argument("--skip", type=int, default=-1)
    a = ap.parse_args()
    for i in range(a.runs):
        if i == a.skip:
            continue
        p = pathlib.Path(a.out) / f"trace-{i:03d}.ndjson"
        p.write_text(json.dumps({"kind": "meta", "system": "fake", "format": 1, "seed": a.seed + i}) + "\\n"
                     + json.dumps({"kind": "init", "state": {"x": 0}}) + "\\n")
    """
)


def make_system(root: Path, name: str = "fake", harness: str | None = None) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "h.py").write_text(FAKE_HARNESS)
    (d / "task.yaml").write_text(
        f"name: {name}\nspecModule: Fake\nwv: {{target_actions: [A]}}\n"
        + (harness if harness is not None else 'harness: {command: ["python", "h.py"]}\n')
    )
    return d


def test_discovers_the_bundled_lock_systems():
    systems = harness_systems()
    for name in ("spinlock", "mutex", "rwmutex", "ringbuffer"):
        assert name in systems, name
        assert systems[name].harness is not None
    assert systems["spinlock"].spec_module == "spin"
    assert systems["mutex"].target_actions == ("AcquireLock", "TryAcquireLock", "ReleaseLock")


def test_run_harness_writes_n_files_with_seeds(tmp_path):
    d = make_system(tmp_path / "systems")
    files = run_harness("fake", runs=3, seed=40, out_dir=tmp_path / "out", systems_dir=tmp_path / "systems")
    assert [f.name for f in files] == [trace_file_name(i) for i in range(3)]
    seeds = [json.loads(f.read_text().splitlines()[0])["seed"] for f in files]
    assert seeds == [40, 41, 42]
    # a directory path works too
    again = run_harness(str(d), runs=1, seed=0, out_dir=tmp_path / "out2")
    assert again[0].is_file()


def test_missing_trace_file_is_a_harness_error(tmp_path):
    make_system(tmp_path / "s", harness='harness: {command: ["python", "h.py", "--skip", "1"]}\n')
    with pytest.raises(HarnessError, match="wrote 2 of 3"):
        run_harness("fake", runs=3, seed=0, out_dir=tmp_path / "out", systems_dir=tmp_path / "s")


def test_failing_build_reports_stderr(tmp_path):
    make_system(
        tmp_path / "s",
        harness=(
            "harness:\n  build: [[\"python\", \"-c\", \"import sys; sys.exit('boom: cannot compile')\"]]\n"
            '  command: ["python", "h.py"]\n'
        ),
    )
    with pytest.raises(HarnessError, match="boom: cannot compile"):
        run_harness("fake", runs=1, seed=0, out_dir=tmp_path / "out", systems_dir=tmp_path / "s")


def test_bad_task_files(tmp_path):
    make_system(tmp_path / "a", harness="harness: {build: []}\n")
    with pytest.raises(ConfigError) as exc:
        load_task(tmp_path / "a" / "fake")
    assert exc.value.field == "harness"
    make_system(tmp_path / "b", harness="")
    with pytest.raises(ConfigError, match="no harness"):
        run_harness("fake", runs=1, seed=0, out_dir=tmp_path / "o", systems_dir=tmp_path / "b")
    with pytest.raises(InputError, match="unknown system 'nope'"):
        run_harness("nope", runs=1, seed=0, out_dir=tmp_path / "o", systems_dir=tmp_path / "b")
    bad = tmp_path / "c" / "x"
    bad.mkdir(parents=True)
    (bad / "task.yaml").write_text("name: [unclosed\n")
    with pytest.raises(ConfigError) as exc:
        load_task(bad)
    assert exc.value.line is not None


def test_cli_bench_traces(tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["bench", "traces", "ringbuffer", "--runs", "2", "--seed", "5", "--out", str(out), "--json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert [Path(f).name for f in data["files"]] == ["trace-000.ndjson", "trace-001.ndjson"]
    assert main(["bench", "traces", "no-such-system", "--out", str(out)]) == 2
    assert "unknown system" in capsys.readouterr().err
    assert main(["bench", "traces", "ringbuffer", "--runs", "0", "--out", str(out)]) == 2


@pytest.mark.skipif(sys.platform == "win32", reason="posix paths")
def test_cli_harness_failure_exits_1(tmp_path, capsys, monkeypatch):
    make_system(tmp_path / "s", harness='harness: {command: ["python", "-c", "import sys; sys.exit(3)"]}\n')
    monkeypatch.setenv("SPECULA_SYSTEMS_DIR", str(tmp_path / "s"))
    assert main(["bench", "traces", "fake", "--out", str(tmp_path / "o")]) == 1
    assert "exit 3" in capsys.readouterr().err
