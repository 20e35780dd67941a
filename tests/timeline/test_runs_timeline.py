"""`specula runs list|show` over a real run directory: a `specula model` run driven by the scripted
LLM server through the real OpenAI SDK. Figures are checked against what the run itself recorded
(usage.json from the ledger, scorecard-N.json from the phases), not against the timeline's output."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "agent"))
from scripted_server import ScriptedServer  # noqa: E402

from specula.agent import specedit  # noqa: E402
from specula.cli import main  # noqa: E402

SYSTEM = ROOT / "benchmarks" / "systems" / "spinlock"
FAKE_KEY = "sk-proj-FAKE-runs-0123456789"
DRAFT = re.sub(r"MODULE \w+", "MODULE spin", (SYSTEM / "mutants" / "TryLockBlocks.tla").read_text(), count=1)
CFG = (SYSTEM / "ref" / "spin.cfg").read_text()
FIX = specedit.find_definition((SYSTEM / "ref" / "spin.tla").read_text(), "AcquireLock").text


def call(name: str, args: dict, i: int = 1000, o: int = 100) -> dict:
    return {"text": f"Calling {name}.", "tool_calls": [{"name": name, "arguments": args}], "usage": {"input": i, "output": o}}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("runs")
    script = [call("write_spec", {"tla": DRAFT, "cfg": CFG}, 1200, 900), call("run_phase", {"phase": "all"}),
              call("edit_definition", {"name": "AcquireLock", "text": FIX}, 3000, 200),
              call("run_phase", {"phase": "3"}), call("run_phase", {"phase": "all"}, 4000, 50)]
    import os

    os.environ["OPENAI_API_KEY"] = FAKE_KEY
    try:
        with ScriptedServer(script) as server:
            code = main(["model", "spinlock", "--model", f"openai/gpt-5@{server.openai_url}", "--runs-dir",
                         str(tmp), "--quick", "--no-translate", "--json"])
    finally:
        del os.environ["OPENAI_API_KEY"]
    assert code == 0
    (run,) = [p for p in tmp.iterdir() if p.is_dir()]
    return run


def test_show_json_matches_what_the_run_recorded(run_dir, capsys):
    assert main(["runs", "show", run_dir.name, "--runs-dir", str(run_dir.parent), "--json"]) == 0
    tl = json.loads(capsys.readouterr().out)
    usage = json.loads((run_dir / "usage.json").read_text())
    assert tl["tokens"] == usage["total_tokens"] and tl["cost_usd"] == pytest.approx(usage["cost_usd"])
    assert [c["tokens"] for c in tl["calls"]] == [sum(c["usage"].values()) for c in usage["per_call"]]
    assert [c["seconds"] for c in tl["calls"]] == [c["seconds"] for c in usage["per_call"]]
    assert [v["n"] for v in tl["versions"]] == [1, 2]
    assert [v["how"] for v in tl["versions"]] == ["write_spec", "edit_definition AcquireLock"]
    for s in tl["scorings"]:
        card = json.loads((run_dir / f"scorecard-{s['n']}.json").read_text())
        assert s["version"] == card["version"] and s["scores"] == card["scores"] and s["ran"] == card["ran"]
    assert [s["ran"] for s in tl["scorings"]] == [
        ["syntax", "runtime", "conformance", "invariants"], ["syntax", "runtime", "conformance"],
        ["syntax", "runtime", "conformance", "invariants"]]
    # a phase-3 run of the fixed spec is not convergence (phase 4 was not run): the run went on
    assert [s["converged"] for s in tl["scorings"]] == [False, False, True]
    assert tl["best"] == {"scorecard": 3, "version": 2, "overall": 1.0} and tl["status"] == "converged"
    assert [t["name"] for t in tl["tools"]] == ["write_spec", "run_phase", "edit_definition", "run_phase", "run_phase"]
    assert tl["tools"][2]["arguments"] == {"name": "AcquireLock", "text": FIX}


def test_show_text_and_html(run_dir, tmp_path, capsys):
    page = tmp_path / "out" / "run.html"
    assert main(["runs", "show", run_dir.name[:12], "--runs-dir", str(run_dir.parent), "--html", str(page)]) == 0
    text = capsys.readouterr().out
    versions = text[text.index("spec versions"):text.index("\nmodel calls")]
    rows = {line.split()[0]: line.split() for line in versions.splitlines() if re.match(r"\s+[12]\s{2}", line)}
    assert rows["1"][-5:] == ["1.000", "1.000", "0.500", "1.000", "0.875"]
    assert rows["2"][-5:] == ["1.000", "1.000", "1.000", "1.000", "1.000"]
    assert "status: converged" in text and "edit_definition(name=AcquireLock" in text
    html = page.read_text()
    assert html.count("<svg") == 1 and "<polyline" in html and "<title>v2 overall 1.000</title>" in html
    added = next(line for line in FIX.splitlines() if "idle" in line)
    assert f'<span class="add">+{added.replace(chr(34), "&quot;")}</span>' in html
    assert not re.search(r"""(src|href)=["']?https?:""", html)  # self-contained


def test_list(run_dir, capsys):
    assert main(["runs", "list", "--runs-dir", str(run_dir.parent), "--json"]) == 0
    (r,) = json.loads(capsys.readouterr().out)["runs"]
    assert r["run"] == run_dir.name and r["versions"] == 2 and r["best"] == 1.0 and r["status"] == "converged"


def test_a_cut_transcript_line_is_skipped_and_reported(run_dir, tmp_path, capsys):
    import shutil

    copy = tmp_path / run_dir.name
    shutil.copytree(run_dir, copy)
    lines = (copy / "transcript.jsonl").read_text().splitlines()
    lines.insert(3, lines[3][: len(lines[3]) // 2])
    (copy / "transcript.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["runs", "show", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "warning: transcript lines skipped (not JSON): 4" in out and "best: version 2" in out


def test_unknown_run_is_an_input_error(tmp_path, capsys):
    assert main(["runs", "show", "nope", "--runs-dir", str(tmp_path)]) == 2
    assert "no run directory 'nope'" in capsys.readouterr().err
    assert main(["runs", "list", "--runs-dir", str(tmp_path / "missing")]) == 2
