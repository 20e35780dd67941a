"""The four bundled concurrency systems: spinlock (C), mutex (Java), rwmutex and ringbuffer (Python).

Each system: its own unit tests pass; its harness records traces in the NDJSON schema; every
required action has windows in the default trace set; the reference spec scores 1.0 on
conformance (default and freshly recorded traces) and on all four phases (`specula eval`); each
mutant fails conformance at exactly its planted action. TLC-marked tests cross-check with real
TLC: reference specs model-check clean, mutants parse, TLC's per-window verdicts equal
specula's, and every invariants.yaml template (safety and liveness) holds on the reference.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from specula.bench.harness import run_harness
from specula.cli import main

from _systems_common import SYSTEMS_DIR, step_counts, task, validate

EMITTERS = Path(__file__).resolve().parents[2] / "tools" / "emitters"
LOCK_SYSTEMS = ["spinlock", "mutex", "rwmutex", "ringbuffer"]

# SysMoBench's required action names (/work/shared/sysmobench.md), module name per category.
REQUIRED = {
    "spinlock": ("spin", ["AcquireLock", "ReleaseLock"]),
    "mutex": ("mutex", ["AcquireLock", "TryAcquireLock", "ReleaseLock"]),
    "rwmutex": ("rwmutex", ["AcquireReadLock", "AcquireWriteLock", "AcquireUpReadLock", "ReleaseLock"]),
    "ringbuffer": ("ringbuffer", ["Push", "Pop"]),
}

# Minimum windows per required action in the committed default trace set.
MIN_WINDOWS = 10


# --- task files ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_task_yaml_fields_and_files(name):
    t = task(name)
    module, required = REQUIRED[name]
    for key in ("name", "description", "system_type", "language", "source_files", "specModule",
                "trace_format", "wv", "traces", "mapping", "invariants", "reference", "mutants", "harness"):
        assert key in t, key
    assert t["specModule"] == module
    assert t["wv"]["target_actions"] == required
    d = SYSTEMS_DIR / name
    for f in t["source_files"]:
        assert (d / f["path"]).is_file(), f["path"]
    assert Path(t["reference"]["spec"]).stem == module
    assert (d / t["reference"]["spec"]).is_file() and (d / t["reference"]["cfg"]).is_file()
    assert len(t["mutants"]) >= 2
    for m in t["mutants"]:
        assert (d / m["spec"]).is_file() and m["fails"] in required
    inv = yaml.safe_load((d / t["invariants"]).read_text())["invariants"]
    kinds = {i["type"] for i in inv}
    assert kinds == {"safety", "liveness"}
    for i in inv:
        assert {"name", "type", "natural_language", "formal_description", "tla_example"} <= set(i)
        assert i["tla_example"].lstrip().startswith(i["name"] + " ==")


@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_reference_cfg_follows_sysmobench_rules(name):
    t = task(name)
    cfg = (SYSTEMS_DIR / name / t["reference"]["cfg"]).read_text()
    assert "SPECIFICATION Spec" in cfg
    assert "INVARIANT" not in cfg and "PROPERTY" not in cfg
    spec = (SYSTEMS_DIR / name / t["reference"]["spec"]).read_text()
    module, required = REQUIRED[name]
    assert f"MODULE {module} " in spec
    nxt = spec[spec.index("Next =="):spec.index("Spec ==")]
    for action in required:
        assert f"{action}(" in nxt, action


# --- default traces: coverage ----------------------------------------------------------------


@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_default_traces_cover_every_required_action(name):
    counts = step_counts(SYSTEMS_DIR / name / "traces")
    for action in REQUIRED[name][1]:
        assert counts[action] >= MIN_WINDOWS, (action, counts)


# --- conformance -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_reference_conforms_on_default_traces(name, capsys):
    whole: list = []
    rows = validate(name, task(name)["reference"]["spec"], SYSTEMS_DIR / name / "traces", capsys, whole)
    assert set(rows) == set(REQUIRED[name][1])
    for action, (passed, total) in rows.items():
        assert total >= MIN_WINDOWS and passed == total, (action, passed, total)
    # every default trace is also a behaviour of the reference spec from start to end
    assert len(whole) == 4 and all(tr["ok"] and tr["followed"] == tr["steps"] for tr in whole), whole


MUTANTS = [(n, m["spec"], m["fails"]) for n in LOCK_SYSTEMS for m in task(n)["mutants"]]


@pytest.mark.parametrize("name,spec,fails", MUTANTS, ids=[f"{n}-{Path(s).stem}" for n, s, _ in MUTANTS])
def test_mutant_fails_exactly_its_planted_action(name, spec, fails, capsys):
    whole: list = []
    rows = validate(name, spec, SYSTEMS_DIR / name / "traces", capsys, whole)
    failing = {a for a, (p, n) in rows.items() if p < n}
    assert failing == {fails}, rows
    # following whole traces, the mutant gets stuck, and only ever at its planted action
    stuck = {tr["failed_action"] for tr in whole if not tr["ok"]}
    assert stuck == {fails}, whole


@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_fresh_harness_traces_conform(name, tmp_path, capsys):
    """Record new traces (new seeds: for C and Java, new real interleavings) and validate them."""
    if name == "spinlock" and not shutil.which("gcc"):
        pytest.skip("gcc not available")
    if name == "mutex" and not shutil.which("javac"):
        pytest.skip("javac not available")
    files = run_harness(name, runs=3, seed=1000, out_dir=tmp_path)
    assert len(files) == 3
    for f in files:
        meta = json.loads(f.read_text().splitlines()[0])
        assert meta["kind"] == "meta" and meta["system"] == name
    rows = validate(name, task(name)["reference"]["spec"], tmp_path, capsys)
    assert all(p == n for p, n in rows.values()), rows
    assert sum(n for _, n in rows.values()) > 0


@pytest.mark.parametrize("name", ["rwmutex", "ringbuffer"])
def test_python_harness_is_reproducible(name, tmp_path):
    a = run_harness(name, runs=2, seed=7, out_dir=tmp_path / "a")
    b = run_harness(name, runs=2, seed=7, out_dir=tmp_path / "b")
    c = run_harness(name, runs=1, seed=8, out_dir=tmp_path / "c")
    assert [x.read_bytes() for x in a] == [x.read_bytes() for x in b]
    assert a[1].read_bytes() == c[0].read_bytes()  # run i uses seed S + i


# --- all four phases -------------------------------------------------------------------------


@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_reference_scores_one_on_every_phase(name, tmp_path, capsys):
    t = task(name)
    rc = main([
        "eval", str(SYSTEMS_DIR / name / t["reference"]["spec"]), "--task", name, "--runs", "3",
        "--seed", "1", "--check-seconds", "30", "--invariant-seconds", "30", "--json",
    ])
    card = json.loads(capsys.readouterr().out)
    assert rc == 0
    for phase in ("syntax", "runtime", "conformance", "invariants"):
        assert card["phases"][phase]["score"] == 1.0, (phase, card["phases"][phase]["summary"])
    assert card["overall"] == 1.0
    inv = card["phases"]["invariants"]["detail"]
    safety = [r for r in inv["rows"] if r["type"] == "safety"]
    assert safety and all(r["status"] == "passed" for r in safety)


# --- the systems' own unit tests -----------------------------------------------------------


def test_spinlock_unit_tests(tmp_path):
    if not shutil.which("gcc"):
        pytest.skip("gcc not available")
    d = SYSTEMS_DIR / "spinlock"
    exe = tmp_path / "test_spinlock"
    subprocess.run(["gcc", "-std=c11", "-O2", "-pthread", "-o", str(exe), "spinlock.c", "test_spinlock.c"],
                   cwd=d, check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "all tests passed" in out.stdout


def test_mutex_unit_tests(tmp_path):
    if not shutil.which("javac"):
        pytest.skip("javac not available")
    d = SYSTEMS_DIR / "mutex" / "src"
    subprocess.run(["javac", "-d", str(tmp_path), "Mutex.java", "WaitQueue.java", "MutexTracer.java",
                    "MutexTest.java"], cwd=d, check=True)
    out = subprocess.run(["java", "-ea", "-cp", str(tmp_path), "MutexTest"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "all tests passed" in out.stdout, out.stderr


@pytest.mark.parametrize("name,test_file", [("rwmutex", "test_rwmutex.py"), ("ringbuffer", "test_ringbuffer.py")])
def test_python_system_unit_tests(name, test_file):
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", test_file],
        cwd=SYSTEMS_DIR / name, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stdout[-2000:]
    assert " passed" in out.stdout


# --- emitters ---------------------------------------------------------------------------


def test_c_emitter_orders_by_sequence_and_writes_full_states(tmp_path):
    if not shutil.which("gcc"):
        pytest.skip("gcc not available")
    src = tmp_path / "t.c"
    src.write_text(
        '#include "specula_trace.h"\n'
        "int main(void){ const char *n[] = {\"a\", \"b\"};\n"
        '  spt_trace *tr = spt_open("out.ndjson", "demo \\"q\\"", n, 2, 9, 8);\n'
        '  spt_init_field(tr, "x", "0"); spt_init_field(tr, "pc.a", "\\"idle\\""); spt_init_field(tr, "pc.b", "\\"idle\\"");\n'
        '  spt_step(tr, "Go", "a", "{\\"t\\": \\"a\\"}", 2, "x", "1", "pc.a", "\\"busy\\"");\n'
        '  spt_step(tr, "Go", "b", 0, 1, "pc.b", "\\"busy\\"");\n'
        "  return spt_close(tr) == 0 ? 0 : 1; }\n"
    )
    exe = tmp_path / "t"
    subprocess.run(["gcc", "-std=c11", "-pthread", f"-I{EMITTERS / 'c'}", "-o", str(exe), str(src),
                    str(EMITTERS / "c" / "specula_trace.c")], check=True)
    subprocess.run([str(exe)], cwd=tmp_path, check=True)
    events = [json.loads(x) for x in (tmp_path / "out.ndjson").read_text().splitlines()]
    assert events[0] == {"kind": "meta", "system": 'demo "q"', "format": 1, "nodes": ["a", "b"], "seed": 9}
    assert events[1]["state"] == {"x": 0, "pc": {"a": "idle", "b": "idle"}}
    assert [e["seq"] for e in events[2:]] == [1, 2]
    assert events[2]["state"] == {"x": 1, "pc": {"a": "busy", "b": "idle"}}
    assert events[3]["params"] == {} and events[3]["state"] == {"x": 1, "pc": {"a": "busy", "b": "busy"}}


def test_c_emitter_is_thread_safe(tmp_path):
    """4 pthreads x 500 steps each on their own counter: 2000 steps numbered 1..2000, and each
    thread's values appear in its program order."""
    if not shutil.which("gcc"):
        pytest.skip("gcc not available")
    src = tmp_path / "mt.c"
    src.write_text(
        "#include <pthread.h>\n#include <stdio.h>\n#include \"specula_trace.h\"\n"
        "static spt_trace *tr;\n"
        "static void *w(void *a){ long id=(long)a; char path[16], val[16]; snprintf(path, 16, \"n.t%ld\", id);\n"
        "  for (int i=1;i<=500;i++){ snprintf(val, 16, \"%d\", i); spt_step(tr, \"Inc\", path+2, 0, 1, path, val);} return 0; }\n"
        "int main(void){ const char *n[]={\"t0\",\"t1\",\"t2\",\"t3\"}; tr=spt_open(\"mt.ndjson\",\"mt\",n,4,0,4096);\n"
        "  for(int i=0;i<4;i++){ char p[16]; snprintf(p,16,\"n.t%d\",i); spt_init_field(tr,p,\"0\"); }\n"
        "  pthread_t t[4]; for(long i=0;i<4;i++) pthread_create(&t[i],0,w,(void*)i);\n"
        "  for(int i=0;i<4;i++) pthread_join(t[i],0); return spt_close(tr)==0?0:1; }\n"
    )
    exe = tmp_path / "mt"
    subprocess.run(["gcc", "-std=c11", "-pthread", f"-I{EMITTERS / 'c'}", "-o", str(exe), str(src),
                    str(EMITTERS / "c" / "specula_trace.c")], check=True)
    subprocess.run([str(exe)], cwd=tmp_path, check=True, timeout=60)
    steps = [json.loads(x) for x in (tmp_path / "mt.ndjson").read_text().splitlines()][2:]
    assert [e["seq"] for e in steps] == list(range(1, 2001))
    last = {f"t{i}": 0 for i in range(4)}
    for e in steps:
        actor = e["actor"]
        assert e["state"]["n"][actor] == last[actor] + 1  # program order kept per thread
        last[actor] += 1
        assert e["state"]["n"] == {**e["state"]["n"], **last}
    assert last == {f"t{i}": 500 for i in range(4)}


def test_python_emitter_delta_and_comments(tmp_path):
    sys.path.insert(0, str(EMITTERS / "python"))
    try:
        from specula_trace import TraceWriter
    finally:
        sys.path.remove(str(EMITTERS / "python"))
    p = tmp_path / "t.ndjson"
    with TraceWriter.open(p, system="demo", nodes=["a"], seed=1, delta=True) as tw:
        tw.comment("hello")
        tw.init({"x": 0, "pc": {"a": "idle"}})
        assert tw.step("Go", "a", {"x": 0, "pc": {"a": "busy"}}, params={"t": "a"}) == 1
    lines = p.read_text().splitlines()
    assert lines[1] == "# hello"
    step = json.loads(lines[3])
    assert step["delta"] == {"pc": {"a": "busy"}} and step["seq"] == 1 and step["input"] is None


# --- real TLC cross-checks ---------------------------------------------------------------


def _tlc(jar: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["java", "-XX:+UseParallelGC", "-cp", str(jar), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.tlc
@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_tlc_reference_model_checks_and_mutants_parse(name, tlc_jar, tmp_path):
    t = task(name)
    d = SYSTEMS_DIR / name
    ref = d / t["reference"]["spec"]
    shutil.copy(ref, tmp_path)
    shutil.copy(d / t["reference"]["cfg"], tmp_path)
    out = _tlc(tlc_jar, tmp_path, "tlc2.TLC", "-workers", "1", "-config", Path(t["reference"]["cfg"]).name, ref.name)
    assert "Model checking completed. No error has been found." in out.stdout, out.stdout[-2000:]
    for m in t["mutants"]:
        shutil.copy(d / m["spec"], tmp_path)
        out = _tlc(tlc_jar, tmp_path, "tla2sany.SANY", Path(m["spec"]).name)
        assert out.returncode == 0 and "error" not in out.stdout.lower(), out.stdout[-2000:]


SPEC_ACTIONS = {  # every action of each reference spec, with its parameter names
    "spinlock": {"StartLock": ["t"], "AcquireLock": ["t"], "ReleaseLock": ["t"]},
    "mutex": {"AcquireLock": ["t"], "TryAcquireLock": ["t"], "Enqueue": ["t"], "ReleaseLock": ["t"]},
    "rwmutex": {a: ["t"] for a in ["AcquireReadLock", "AcquireWriteLock", "AcquireUpReadLock", "StartUpgrade",
                                   "Upgrade", "ReleaseLock"]},
    "ringbuffer": {"Push": ["v"], "Pop": ["v"]},
}


@pytest.mark.tlc
@pytest.mark.slow
@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_tlc_window_verdicts_match_specula(name, tlc_jar, capsys):
    """Real TLC decides each window of the default traces (for reference and mutants);
    specula's conformance must give the same pass counts per required action."""
    import tlcwin

    t = task(name)
    d = SYSTEMS_DIR / name
    windows = tlcwin.read_windows(sorted((d / "traces").glob("*.ndjson")))
    for spec in [t["reference"]["spec"]] + [m["spec"] for m in t["mutants"]]:
        by_tlc = tlcwin.check_windows(d / spec, d / t["reference"]["cfg"], windows, SPEC_ACTIONS[name], tlc_jar)
        if spec == t["reference"]["spec"]:
            assert all(p == n for p, n in by_tlc.values()), by_tlc  # including non-target actions
        by_specula = validate(name, spec, d / "traces", capsys)
        assert by_specula == {a: by_tlc[a] for a in by_specula}, (spec, by_specula, by_tlc)


@pytest.mark.tlc
@pytest.mark.slow
@pytest.mark.parametrize("name", LOCK_SYSTEMS)
def test_tlc_invariant_templates_hold_on_reference(name, tlc_jar):
    import tlcwin

    t = task(name)
    d = SYSTEMS_DIR / name
    for inv in yaml.safe_load((d / t["invariants"]).read_text())["invariants"]:
        ok, tail = tlcwin.check_invariant(d / t["reference"]["spec"], d / t["reference"]["cfg"], inv["name"],
                                          inv["tla_example"], inv["type"], tlc_jar)
        assert ok, (inv["name"], tail)


@pytest.mark.tlc
def test_tlc_invariant_check_can_fail(tlc_jar):
    """Negative control: a spin lock is not starvation-free, so this liveness property fails."""
    import tlcwin

    d = SYSTEMS_DIR / "spinlock"
    ok, _ = tlcwin.check_invariant(
        d / "ref" / "spin.tla", d / "ref" / "spin.cfg", "Starvation",
        'Starvation == \\A t \\in Threads : (pc[t] = "spinning") ~> (pc[t] = "locked")', "liveness", tlc_jar,
    )
    assert not ok
