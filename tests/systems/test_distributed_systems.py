"""The three bundled distributed systems: zab_election (fast leader election), raft (etcd
style) and locksvc (lock service over a network), all Python over a seeded network.

Each system: its own unit tests pass; its harness records reproducible traces in the NDJSON
schema; every required action has windows in the default trace set; the reference spec passes
every window (default and freshly recorded traces) and scores 1.0 on all four phases; each
mutant fails conformance at exactly its planted action. TLC-marked tests cross-check with real
TLC: per-window verdicts (reference and mutants) agree with specula's, the reference specs
model-check clean, and (for the specs TLC exhausts) every invariants.yaml template holds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from specula.bench.harness import run_harness
from specula.cli import main

from _systems_common import SYSTEMS_DIR, step_counts, task, validate

DISTRIBUTED = ["zab_election", "raft", "locksvc"]

# SysMoBench's required action names (/work/shared/sysmobench.md) and our module names.
REQUIRED = {
    "zab_election": ("zookeeper", ["Notification", "HandleNotification", "BecomeLeader"]),
    "raft": ("etcdraft", ["ElectionTimeout", "HandleVoteRequest", "ClientProposal",
                          "HandleAppendEntries", "HandleHeartbeat"]),
    "locksvc": ("locksvc", ["ClientLockRequest", "ServerGrantLock", "ClientCriticalSection",
                            "ClientUnlockRequest"]),
}
UNIT_TESTS = {"zab_election": "test_zabfle.py", "raft": "test_pyraft.py",
              "locksvc": "test_lockservice.py"}
MIN_WINDOWS = 10


# --- task files ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", DISTRIBUTED)
def test_task_yaml_fields_and_files(name):
    t = task(name)
    module, required = REQUIRED[name]
    for key in ("name", "description", "system_type", "language", "source_files", "specModule",
                "trace_format", "wv", "traces", "mapping", "invariants", "reference", "mutants",
                "harness"):
        assert key in t, key
    assert t["name"] == name and t["system_type"] == "distributed"
    assert t["specModule"] == module
    assert t["wv"]["target_actions"] == required
    d = SYSTEMS_DIR / name
    for f in t["source_files"]:
        assert (d / f["path"]).is_file(), f["path"]
    assert Path(t["reference"]["spec"]).stem == module
    assert len(t["mutants"]) >= 2
    for m in t["mutants"]:
        assert (d / m["spec"]).is_file() and m["fails"] in required
        text = (d / m["spec"]).read_text()
        assert f"MODULE {Path(m['spec']).stem} " in text and "MUTANT" in text
    inv = yaml.safe_load((d / t["invariants"]).read_text())["invariants"]
    assert {i["type"] for i in inv} == {"safety", "liveness"}
    for i in inv:
        assert {"name", "type", "natural_language", "formal_description", "tla_example"} <= set(i)
        assert i["tla_example"].lstrip().startswith(i["name"] + " ==")


@pytest.mark.parametrize("name", DISTRIBUTED)
def test_reference_cfg_follows_sysmobench_rules(name):
    t = task(name)
    cfg = (SYSTEMS_DIR / name / t["reference"]["cfg"]).read_text()
    assert "SPECIFICATION Spec" in cfg
    assert "INVARIANT" not in cfg and "PROPERTY" not in cfg and "CONSTRAINT" not in cfg
    spec = (SYSTEMS_DIR / name / t["reference"]["spec"]).read_text()
    module, required = REQUIRED[name]
    assert f"MODULE {module} " in spec
    nxt = spec[spec.index("Next =="):spec.index("Spec ==")]
    for action in required:
        assert f"{action}(" in nxt, action


# --- default traces --------------------------------------------------------------------------


@pytest.mark.parametrize("name", DISTRIBUTED)
def test_default_traces_cover_every_required_action(name):
    counts = step_counts(SYSTEMS_DIR / name / "traces")
    for action in REQUIRED[name][1]:
        assert counts[action] >= MIN_WINDOWS, (action, counts)


@pytest.mark.parametrize("name", DISTRIBUTED)
def test_default_traces_follow_the_event_schema(name):
    for f in sorted((SYSTEMS_DIR / name / "traces").glob("*.ndjson")):
        events = [json.loads(x) for x in f.read_text().splitlines() if x.strip()]
        assert events[0]["kind"] == "meta" and events[0]["system"] == name
        assert events[1]["kind"] == "init" and isinstance(events[1]["state"], dict)
        seqs = [e["seq"] for e in events[2:]]
        assert seqs == list(range(1, len(seqs) + 1))
        for e in events[2:]:
            assert e["kind"] == "step" and "actor" in e and ("state" in e or "delta" in e)


# --- conformance -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", DISTRIBUTED)
def test_reference_conforms_on_default_traces(name, capsys):
    rows = validate(name, task(name)["reference"]["spec"], SYSTEMS_DIR / name / "traces", capsys)
    assert set(rows) == set(REQUIRED[name][1])
    for action, (passed, total) in rows.items():
        assert total >= MIN_WINDOWS and passed == total, (action, passed, total)


MUTANTS = [(n, m["spec"], m["fails"]) for n in DISTRIBUTED for m in task(n)["mutants"]]


@pytest.mark.parametrize("name,spec,fails", MUTANTS,
                         ids=[f"{n}-{Path(s).stem}" for n, s, _ in MUTANTS])
def test_mutant_fails_exactly_its_planted_action(name, spec, fails, capsys):
    rows = validate(name, spec, SYSTEMS_DIR / name / "traces", capsys)
    failing = {a for a, (p, n) in rows.items() if p < n}
    assert failing == {fails}, rows


@pytest.mark.parametrize("name", DISTRIBUTED)
def test_fresh_harness_traces_conform(name, tmp_path, capsys):
    files = run_harness(name, runs=2, seed=500, out_dir=tmp_path)
    assert [f.name for f in files] == ["trace-000.ndjson", "trace-001.ndjson"]
    metas = [json.loads(f.read_text().splitlines()[0]) for f in files]
    assert [m["seed"] for m in metas] == [500, 501]
    rows = validate(name, task(name)["reference"]["spec"], tmp_path, capsys)
    assert all(p == n for p, n in rows.values()), rows
    assert sum(n for _, n in rows.values()) > 0


@pytest.mark.parametrize("name", DISTRIBUTED)
def test_harness_is_reproducible(name, tmp_path):
    a = run_harness(name, runs=2, seed=7, out_dir=tmp_path / "a")
    b = run_harness(name, runs=2, seed=7, out_dir=tmp_path / "b")
    c = run_harness(name, runs=1, seed=8, out_dir=tmp_path / "c")
    assert [x.read_bytes() for x in a] == [x.read_bytes() for x in b]
    assert a[1].read_bytes() == c[0].read_bytes()  # run i uses seed S + i


# --- the systems' own unit tests -----------------------------------------------------------


@pytest.mark.parametrize("name", DISTRIBUTED)
def test_system_unit_tests(name):
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         UNIT_TESTS[name]],
        cwd=SYSTEMS_DIR / name, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and " passed" in out.stdout, out.stdout[-2000:]


# --- all four phases -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", DISTRIBUTED)
def test_reference_scores_one_on_every_phase(name, capsys):
    t = task(name)
    rc = main([
        "eval", str(SYSTEMS_DIR / name / t["reference"]["spec"]), "--task", name, "--runs", "3",
        "--seed", "1", "--check-seconds", "20", "--invariant-seconds", "20", "--json",
    ])
    card = json.loads(capsys.readouterr().out)
    assert rc == 0
    for phase in ("syntax", "runtime", "conformance", "invariants"):
        assert card["phases"][phase]["score"] == 1.0, (phase, card["phases"][phase]["summary"])
    assert card["overall"] == 1.0


# --- larger ensembles --------------------------------------------------------------------------


@pytest.mark.slow
def test_zab_election_three_peers_conform_with_an_n3_cfg(tmp_path, capsys):
    """The reference cfg uses N = 2 so TLC exhausts it; the spec is not tied to it: three-peer
    traces pass under an N = 3 cfg and the mutants still fail exactly HandleNotification."""
    d = SYSTEMS_DIR / "zab_election"
    traces = tmp_path / "traces"
    subprocess.run([sys.executable, "harness.py", "--runs", "4", "--seed", "3", "--nodes", "3",
                    "--out", str(traces)], cwd=d, check=True, capture_output=True)
    cfg = tmp_path / "zookeeper3.cfg"
    cfg.write_text("SPECIFICATION Spec\nCONSTANTS\n    N = 3\n    MaxZxid = 1\n")
    t = task("zab_election")

    def rows(spec: str) -> dict[str, tuple[int, int]]:
        main(["validate", str(d / spec), "-c", str(cfg), "-t", str(traces), "-m",
              str(d / t["mapping"]), "--actions", ",".join(t["wv"]["target_actions"]), "--json"])
        data = json.loads(capsys.readouterr().out)
        return {r["action"]: (r["passed"], r["total"]) for r in data["actions"]}

    ref = rows(t["reference"]["spec"])
    assert all(p == n and n > 0 for p, n in ref.values()), ref
    for m in t["mutants"]:
        failing = {a for a, (p, n) in rows(m["spec"]).items() if p < n}
        assert failing == {m["fails"]}
