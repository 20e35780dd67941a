"""For every bundled system and each of its textbook mutants: a scripted model drafts the mutant,
`specula model` shows the failing windows of the mutant's action, the model replaces the mutated
definitions with what the implementation does, and the run converges (slow)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from bundled_runs import run_model
from conftest import FAKE_OPENAI_KEY
from scripted_server import ScriptedServer
from specula.agent import specedit

SYSTEMS = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"


def cases():
    out = []
    for ty in sorted(SYSTEMS.glob("*/task.yaml")):
        data = yaml.safe_load(ty.read_text()) or {}
        ref = data.get("reference") or {}
        for m in data.get("mutants") or []:
            if ref.get("spec") and (ty.parent / m["spec"]).is_file():
                out.append(pytest.param(ty.parent, m, id=f"{ty.parent.name}-{Path(m['spec']).stem}"))
    return out


def call(name, args):
    return {"tool_calls": [{"name": name, "arguments": args}]}


@pytest.mark.slow
@pytest.mark.timeout(1800)  # Raft-sized specs: two full evaluations (16 min seen on a loaded machine)
@pytest.mark.parametrize("system,mutant", cases())
def test_textbook_mutant_is_fixed_from_the_failing_windows(system, mutant, tmp_path, monkeypatch, capsys):
    data = yaml.safe_load((system / "task.yaml").read_text())
    module = data["specModule"]
    ref_tla = (system / data["reference"]["spec"]).read_text()
    cfg = (system / data["reference"]["cfg"]).read_text()
    draft = re.sub(r"(-{4,}\s*MODULE\s+)\w+", rf"\g<1>{module}", (system / mutant["spec"]).read_text(), count=1)
    ref_defs = {d.name: d.text for d in specedit.definitions(ref_tla)}
    fixes = [call("edit_definition", {"name": d.name, "text": ref_defs[d.name]})
             for d in specedit.definitions(draft) if d.name in ref_defs and ref_defs[d.name] != d.text]
    assert fixes, "the mutant differs from the reference in no definition"
    action = mutant["fails"]
    script = [call("write_spec", {"tla": draft, "cfg": cfg}), call("run_phase", {"phase": "all"}),
              call("show_window", {"action": action}), *fixes, call("run_phase", {"phase": "all"}),
              call("finish", {"summary": "not reached"})]
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    with ScriptedServer(script, queues={"translate": [{"text": "(none)"}]},
                        router=lambda b: "translate" if "translate invariant templates" in json.dumps(b) else "main") as s:
        code, out = run_model(system, s.openai_url, tmp_path)
        results = [r.body["messages"][-1].get("content") for r in s.requests
                   if r.body["messages"][-1].get("role") == "tool"]
    first_score = next(r for r in results if r.startswith("spec version 1"))
    assert code == 0 and out["status"] == "converged", (out, results[-1][:2000])
    if "conformance: skipped" in first_score:  # the mutant also breaks phase 2, which gates phase 3
        pytest.xfail(f"mutant {mutant['spec']} fails the runtime phase, so its windows are never shown")
    assert re.search(rf"{action}: \d+/\d+ FAIL", first_score), first_score
    window = next(r for r in results if r.startswith("failing window 1 of"))
    assert "observed pre:" in window and "diagnosis" in window
