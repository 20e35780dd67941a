"""A PGo task's refinement mapping written by the model at scoring time, as SysMoBench does: the
agent's spec renames a reference variable, the scorer asks the model (through the real SDK,
against the scripted server) for the `WITH` mapping from declarations only, and phase 3 validates
the TraceLink runs through it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import FAKE_OPENAI_KEY
from scripted_server import ScriptedServer
from specula.cli import main

FIX = Path(__file__).resolve().parents[1] / "traces" / "fixtures" / "pgo"
CFG = ("CONSTANTS BUFFER_SIZE = 3 NUM_CONSUMERS = 1 PRODUCER = 0\n"
       "CONSTANT defaultInitValue = defaultInitValue\nSPECIFICATION Spec\n")


def _checkout(root: Path) -> Path:
    task = root / "tla_eval" / "tasks" / "dqueue"
    task.mkdir(parents=True)
    (task / "task.yaml").write_text("name: dqueue\nlanguage: go\nspecModule: dqueue\nsystem_type: distributed\n")
    gen = root / "tla_eval" / "core" / "trace_generation" / "dqueue"
    shutil.copytree(FIX / "traces_found", gen / "traces_found")
    shutil.copy(FIX / "dqueue.tla", gen / "dqueue.tla")
    shutil.copy(FIX / "dqueueValidate.cfg", gen / "dqueueValidate.cfg")
    return root


def call(name: str, args: dict) -> dict:
    return {"text": f"Calling {name}.", "tool_calls": [{"name": name, "arguments": args}],
            "usage": {"input": 2000, "output": 300}}


def is_refinement(body: dict) -> bool:
    return "refinement mapping" in json.dumps(body)


def test_the_model_maps_a_renamed_variable_and_phase_3_validates_through_it(tmp_path, monkeypatch, capsys):
    root = _checkout(tmp_path / "sysmobench")
    spec = (FIX / "dqueue.tla").read_text(encoding="utf-8").replace("processor", "out")
    # the task's target actions (SysMoBench's V2 names), tied to their PGo labels
    for old, new in (("Consumer(self) == c(self) \\/ c1(self) \\/ c2(self)",
                      "Request(self) == c1(self)\nConsumer(self) == c(self) \\/ c2(self)"),
                     ("Producer(self) == p(self) \\/ p1(self) \\/ p2(self)",
                      "Produce(self) == p2(self)\nProducer(self) == p(self) \\/ p1(self)"),
                     ("Producer(self))", "Producer(self) \\/ Produce(self))"),
                     ("Consumer(self))", "Consumer(self) \\/ Request(self))")):
        assert old in spec
        spec = spec.replace(old, new, 1)
    assert "Request(self) ==" in spec and "Produce(self) ==" in spec
    script = [call("write_spec", {"tla": spec, "cfg": CFG}),
              call("run_phase", {"phase": "conformance"}),
              call("finish", {"summary": "done"})]
    mapping = [{"text": "```tla\nWITH\nout <- processor\n```", "usage": {"input": 400, "output": 20}}]
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    with ScriptedServer(script, queues={"refinement": mapping},
                        router=lambda b: "refinement" if is_refinement(b) else "main") as server:
        repo = tmp_path / "repo"
        repo.mkdir()
        (repo / "dqueue.go").write_text("package dqueue\n\nfunc Produce(n int) int { return n + 1 }\n")
        code = main(["model", "dqueue", "--sysmobench", str(root), "--repo", str(repo),
                     "--model", f"openai/gpt-5@{server.openai_url}",
                     "--runs-dir", str(tmp_path / "runs"), "--quick", "--json"])
        out = json.loads(capsys.readouterr().out)
        assert server.remaining("refinement") == 0, out
        asked = json.dumps([r.body for r in server.requests if is_refinement(r.body)])
        # declarations only: the reference's names, never its definitions or its MPCal
        assert "processor" in asked and "VARIABLES" in asked and "mapping macro" not in asked and "NextInCycle" not in asked
    assert code in (0, 1), out
    card = json.loads((Path(out["run"]) / "scorecard-1.json").read_text())
    conf = card["phases"]["conformance"]
    assert conf["score"] == 1.0 and conf["detail"]["runs_passed"] == 1, conf
    assert card["meta"]["refinement"] == "WITH\nout <- processor"


def test_eval_takes_the_refinement_mapping_from_a_file(tmp_path, capsys):
    root = _checkout(tmp_path / "sysmobench")
    spec_dir = tmp_path / "spec"
    spec_dir.mkdir()
    (spec_dir / "dqueue.tla").write_text((FIX / "dqueue.tla").read_text(encoding="utf-8").replace("processor", "out"))
    (spec_dir / "dqueue.cfg").write_text(CFG)
    args = ["eval", str(spec_dir / "dqueue.tla"), "--task", "dqueue", "--sysmobench", str(root),
            "--phase", "conformance", "--check-seconds", "5", "--runs", "2", "--json"]
    main(args)
    conf = json.loads(capsys.readouterr().out)["phases"]["conformance"]
    assert conf["score"] == 0.0 and "'out' is not a variable of the reference" in conf["summary"], conf
    (tmp_path / "map.tla").write_text("WITH out <- processor\n")
    main([*args, "--refinement", str(tmp_path / "map.tla")])
    conf = json.loads(capsys.readouterr().out)["phases"]["conformance"]
    assert conf["score"] == 1.0, conf
