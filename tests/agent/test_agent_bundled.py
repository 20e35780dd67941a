"""Every bundled system with a reference spec: a scripted model that writes the reference through
`specula model` converges (the agent's scoring path agrees with the reference's 1.0 scores)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from bundled_runs import run_model
from conftest import FAKE_OPENAI_KEY
from scripted_server import ScriptedServer

SYSTEMS = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"
WITH_REF = sorted(p.parent for p in SYSTEMS.glob("*/task.yaml")
                  if (yaml.safe_load(p.read_text()) or {}).get("reference"))


@pytest.mark.slow
@pytest.mark.timeout(1800)  # Raft-sized specs: two full evaluations (16 min seen on a loaded machine)
@pytest.mark.parametrize("system", WITH_REF, ids=[p.name for p in WITH_REF])
def test_reference_written_by_a_scripted_model_converges(system, tmp_path, monkeypatch, capsys):
    ref = yaml.safe_load((system / "task.yaml").read_text())["reference"]
    tla, cfg = (system / ref["spec"]).read_text(), (system / ref["cfg"]).read_text()
    script = [{"tool_calls": [{"name": "read_traces", "arguments": {}}]},
              {"tool_calls": [{"name": "write_spec", "arguments": {"tla": tla, "cfg": cfg}}]},
              {"tool_calls": [{"name": "run_phase", "arguments": {"phase": "all"}}]}]
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    with ScriptedServer(script, queues={"translate": [{"text": "(no translation)"}]},
                        router=lambda b: "translate" if "translate invariant templates" in json.dumps(b) else "main") as s:
        code, out = run_model(system, s.openai_url, tmp_path)
    assert code == 0 and out["status"] == "converged", out
    card = json.loads((Path(out["run"]) / "final" / "scorecard.json").read_text())
    assert card["overall"] == 1.0
