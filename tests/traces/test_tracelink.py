"""PGo TraceLink runs validated whole against a spec, as SysMoBench does with PGo's tracegen and
TLC: every interleaving the vector clocks allow, each record applied through the reference's
MPCal mapping macros, each step a step of the spec under test (``__IsRefinement``) and every
clock-enabled record applicable (``__progress_inv``).

The reference (tests/traces/fixtures/pgo/dqueue.tla) and the run are our own, in PGo's format;
the run in ../shared is a real SysMoBench dqueue recording."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from specula.cli import main
from specula.errors import ConfigError
from specula.phases.tracelink import PgoSetup, parse_refinement, validate_tracelink
from specula.traces.mpcal import parse_mpcal

FIX = Path(__file__).parent / "fixtures" / "pgo"
REF = FIX / "dqueue.tla"
SETUP = PgoSetup(REF, FIX / "dqueueValidate.cfg")
RUN = FIX / "traces_found" / "run1"
SHARED_RUNS = Path(__file__).resolve().parents[3] / "shared" / "data" / "sysmobench" / "dqueue" / "traces_found"


def _mutant(tmp_path: Path, old: str, new: str) -> Path:
    text = REF.read_text(encoding="utf-8")
    assert old in text
    d = tmp_path / "mut"
    d.mkdir()
    (d / "dqueue.tla").write_text(text.replace(old, new, 1), encoding="utf-8")
    return d / "dqueue.tla"


def test_mpcal_block_is_read():
    m = parse_mpcal(REF.read_text(encoding="utf-8"))
    assert set(m.macros) == {"FIFOChannel", "NextInCycle"}
    assert [p.name for p in m.archetypes["AProducer"].params] == ["net", "s"]
    assert m.archetypes["AProducer"].locals == ["requester"]
    prod = m.instance_of("AProducer")
    assert prod.target(0) == ("network", True) and prod.target(1) == ("stream", False)
    assert prod.macros == {0: "FIFOChannel", 1: "NextInCycle"}


def test_the_reference_validates_its_run_and_covers_every_label():
    res = validate_tracelink([RUN], SETUP, REF)
    assert [r.ok for r in res.runs] == [True], res.summary()
    assert res.covered == ["c", "c1", "c2", "p", "p1", "p2"] and res.label_total == 6
    assert res.runs[0].records == 9


def test_the_reference_validates_a_real_sysmobench_recording():
    runs = sorted(p for p in SHARED_RUNS.iterdir() if p.is_dir())
    res = validate_tracelink(runs, PgoSetup(REF, FIX / "dqueueValidate.cfg"), REF)
    assert res.passed == len(runs) == 1, res.summary()
    assert res.covered == ["c", "c1", "p", "p1"]


@pytest.mark.parametrize(
    "old,new,label,why",
    [
        # data changed: the stream advances by 2, the run observed 1
        ("stream' = (stream + 1) % BUFFER_SIZE", "stream' = (stream + 2) % BUFFER_SIZE", "p2", "stream"),
        # a step reordered: the consumer waits for its answer before asking
        ('/\\ pc\' = [pc EXCEPT ![self] = "c1"]', '/\\ pc\' = [pc EXCEPT ![self] = "c2"]', "c", "pc"),
        # a guard inverted: the consumer only asks when the producer's channel is full
        ("/\\ Len(network[PRODUCER]) < BUFFER_SIZE", "/\\ Len(network[PRODUCER]) >= BUFFER_SIZE", "c1",
         "Len(network[PRODUCER]) >= BUFFER_SIZE"),
    ],
)
def test_textbook_mutants_fail_at_their_step(tmp_path, old, new, label, why):
    res = validate_tracelink([RUN], SETUP, _mutant(tmp_path, old, new))
    (run,) = res.runs
    assert not run.ok
    f = run.failure
    assert f["kind"] == "refinement" and f["label"] == label, f
    assert f["where"].endswith((".log:1", ".log:2", ".log:3")) and why in f["message"], f


def test_a_record_its_clock_does_not_order_after_the_write_it_reads_fails(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    log = run / "trace-1-2.log"
    recs = [json.loads(x) for x in log.read_text().splitlines()]
    recs[2]["clock"] = [c for c in recs[2]["clock"] if c[0][0] != "AProducer"]  # c2 no longer after p2
    log.write_text("".join(json.dumps(r) + "\n" for r in recs))
    res = validate_tracelink([run], SETUP, REF)
    f = res.runs[0].failure
    assert f["kind"] == "progress" and f["label"] == "c2" and f["where"].endswith("trace-1-2.log:3"), f


def _with_idle_process(tmp_path: Path, n: int = 20) -> Path:
    """RUN plus a process whose ``n`` critical sections all aborted, concurrent with every other
    record (its clock knows only itself): raftkvs's runs have thousands of such records."""
    run = tmp_path / "idle"
    shutil.copytree(RUN, run)
    recs = [{"archetypeName": "AConsumer", "clock": [[["AConsumer", "9"], i]],
             "csElements": [{"indices": [], "name": {"name": ".pc", "prefix": "", "self": "9"},
                             "tag": "read", "value": '"AConsumer.c"'}],
             "isAbort": True, "self": "9"} for i in range(1, n + 1)]
    (run / "trace-9-9.log").write_text("".join(json.dumps(r) + "\n" for r in recs))
    return run


def test_aborted_records_add_no_interleavings_and_hide_no_failure(tmp_path):
    base = validate_tracelink([RUN], SETUP, REF).runs[0]
    idle = _with_idle_process(tmp_path)
    (run,) = validate_tracelink([idle], SETUP, REF).runs
    assert run.ok and run.records == base.records + 20
    assert run.explored == base.explored  # not 21 times as many: aborts are taken at once
    mutant = _mutant(tmp_path, "stream' = (stream + 1) % BUFFER_SIZE", "stream' = (stream + 2) % BUFFER_SIZE")
    (bad,) = validate_tracelink([idle], SETUP, mutant).runs
    assert not bad.ok and bad.failure["kind"] == "refinement" and bad.failure["label"] == "p2", bad.failure


def test_refinement_mapping_renames_variables_and_sets_constants(tmp_path):
    text = REF.read_text(encoding="utf-8").replace("processor", "out")
    spec = tmp_path / "dqueue.tla"
    spec.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="'out' is not a variable of the reference"):
        validate_tracelink([RUN], SETUP, spec)
    res = validate_tracelink([RUN], SETUP, spec, refinement="WITH out <- processor \\* renamed")
    assert res.runs[0].ok, res.summary()
    assert parse_refinement("WITH a <- b,\n C <- 3") == {"a": "b", "C": "3"}


def test_cli_validate_tracelink(capsys, tmp_path):
    assert main(["validate", str(REF), "--tracelink", str(FIX / "traces_found"), "--reference", str(REF),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["runs_passed"] == 1 and data["label_coverage"]["total"] == 6
    mut = _mutant(tmp_path, "stream' = (stream + 1) % BUFFER_SIZE", "stream' = (stream + 2) % BUFFER_SIZE")
    assert main(["validate", str(mut), "--tracelink", str(RUN), "--reference", str(REF)]) == 1
    out = capsys.readouterr().out
    assert "0/1 runs validate" in out and "label p2" in out and "trace-0-1.log:3" in out
    assert main(["validate", str(REF), "--tracelink", str(tmp_path)]) == 2  # no runs there


def _checkout(root: Path) -> Path:
    """A SysMoBench-shaped checkout whose dqueue task has our reference and run."""
    task = root / "tla_eval" / "tasks" / "dqueue"
    task.mkdir(parents=True)
    (task / "task.yaml").write_text("name: dqueue\nlanguage: go\nspecModule: dqueue\nsystem_type: distributed\n")
    gen = root / "tla_eval" / "core" / "trace_generation" / "dqueue"
    shutil.copytree(FIX / "traces_found", gen / "traces_found")
    shutil.copy(REF, gen / "dqueue.tla")
    shutil.copy(FIX / "dqueueValidate.cfg", gen / "dqueueValidate.cfg")
    return root


def test_eval_scores_phase_3_of_a_pgo_task_from_its_runs(tmp_path, capsys):
    root = _checkout(tmp_path / "sysmobench")
    spec_dir = tmp_path / "spec"
    spec_dir.mkdir()
    shutil.copy(REF, spec_dir / "dqueue.tla")
    (spec_dir / "dqueue.cfg").write_text("CONSTANTS BUFFER_SIZE = 3 NUM_CONSUMERS = 2 PRODUCER = 0\n"
                                         "CONSTANT defaultInitValue = defaultInitValue\nSPECIFICATION Spec\n")
    args = ["eval", str(spec_dir / "dqueue.tla"), "--task", "dqueue", "--sysmobench", str(root),
            "--check-seconds", "5", "--runs", "2", "--phase", "conformance", "--json"]
    main(args)
    card = json.loads(capsys.readouterr().out)
    conf = card["phases"]["conformance"]
    assert conf["score"] == 1.0 and conf["detail"]["runs_passed"] == 1, conf
    mut = _mutant(tmp_path, "stream' = (stream + 1) % BUFFER_SIZE", "stream' = (stream + 2) % BUFFER_SIZE")
    shutil.copy(spec_dir / "dqueue.cfg", mut.with_suffix(".cfg"))
    main(["eval", str(mut), *args[2:]])
    conf = json.loads(capsys.readouterr().out)["phases"]["conformance"]
    assert conf["score"] == 0.0 and "label p2" in conf["summary"], conf


def test_a_run_not_explored_within_the_limit_does_not_pass():
    res = validate_tracelink([RUN], SETUP, REF, max_nodes=3)
    f = res.runs[0].failure
    assert not res.runs[0].ok and f["kind"] == "limit" and "not validated" in f["message"], f


def test_a_read_yielding_a_chosen_value_checks_membership_instead_of_enumerating():
    """raftkvs's RequestsChannel reads `with (req \\in AllReqs) { yield req }` over every request
    the run's strings make: the recorded value is the only choice that can match."""
    from specula.phases.tracelink import build_with_cfg, validation_cfg_text
    from specula.traces.pgo_replay import Replayer

    model = build_with_cfg(REF, validation_cfg_text(SETUP, [RUN]))
    mp = parse_mpcal("--mpcal t {\n  mapping macro Requests {\n"
                     "    read { with (req \\in [a: 0..300, b: 0..300]) { yield req; }; }\n"
                     "    write { assert FALSE; }\n  }\n}\n")
    rp = Replayer(model, mp)
    s = dict(zip(model.variables, next(iter(model.init_states()))))
    state = tuple(s.values())
    inside, outside = rp.value("[a |-> 3, b |-> 7]", state), rp.value("[a |-> 3, b |-> 301]", state)
    assert rp._macro(s, "stream", [], inside, "read", "Requests") == [s]
    assert rp._macro(s, "stream", [], outside, "read", "Requests") == []
    assert len(rp._memo) <= 2  # the set's 90,601 records were not each bound and evaluated


def test_runs_imported_into_another_folder_find_the_reference_from_the_task(tmp_path, capsys):
    """Issue 25: runs imported with `bench traces dqueue --import ... --out DIR` lie in DIR, away
    from the reference; `eval --traces DIR` finds it in the task's trace_generation folder."""
    root = _checkout(tmp_path / "sysmobench")
    gen = root / "tla_eval" / "core" / "trace_generation" / "dqueue"
    out = tmp_path / "imported"
    assert main(["bench", "traces", "dqueue", "--sysmobench", str(root), "--import", str(gen / "traces_found"),
                 "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    shutil.rmtree(gen / "traces_found")  # the imported copy is all there is
    spec_dir = tmp_path / "spec"
    spec_dir.mkdir()
    shutil.copy(REF, spec_dir / "dqueue.tla")
    (spec_dir / "dqueue.cfg").write_text("CONSTANTS BUFFER_SIZE = 3 NUM_CONSUMERS = 2 PRODUCER = 0\n"
                                         "CONSTANT defaultInitValue = defaultInitValue\nSPECIFICATION Spec\n")
    args = ["--task", "dqueue", "--sysmobench", str(root), "--traces", str(out), "--check-seconds", "5", "--runs",
            "1", "--phase", "conformance", "--json"]
    main(["eval", str(spec_dir / "dqueue.tla"), *args])
    conf = json.loads(capsys.readouterr().out)["phases"]["conformance"]
    assert conf["score"] == 1.0 and conf["detail"]["runs_passed"] == 1, conf
    mut = _mutant(tmp_path, "stream' = (stream + 1) % BUFFER_SIZE", "stream' = (stream + 2) % BUFFER_SIZE")
    shutil.copy(spec_dir / "dqueue.cfg", mut.with_suffix(".cfg"))
    main(["eval", str(mut), *args])
    conf = json.loads(capsys.readouterr().out)["phases"]["conformance"]
    assert conf["score"] == 0.0 and "label p2" in conf["summary"], conf
