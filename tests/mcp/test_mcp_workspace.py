"""A `specula mcp` workspace over a bare repository plus a spec (no task file), through the SDK's
in-process client: the spec is version 1, file access stays inside the repository."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import anyio

from specula.tasks import load_target, load_task, with_overrides
from specula.mcp import build_server, open_workspace

ROOT = Path(__file__).resolve().parents[2]
SYSTEM = ROOT / "benchmarks" / "systems" / "spinlock"


def test_repository_plus_spec(tmp_path):
    from mcp import Client

    repo = tmp_path / "lock"
    repo.mkdir()
    for f in ("spinlock.c", "spinlock.h"):
        shutil.copy(SYSTEM / f, repo / f)
    spec = tmp_path / "spin.tla"
    spec.write_text(re.sub(r"MODULE \w+", "MODULE spin", (SYSTEM / "ref" / "spin.tla").read_text(), count=1))
    (tmp_path / "spin.cfg").write_text((SYSTEM / "ref" / "spin.cfg").read_text())
    (tmp_path / "secret.txt").write_text("outside the workspace")
    task = with_overrides(load_target(str(repo), module="spin"), actions=["AcquireLock", "ReleaseLock"])
    ws, instructions = open_workspace(task, runs_dir=tmp_path / "runs", spec=spec)
    seen: dict = {}

    async def main() -> None:
        async with Client(build_server(ws, instructions)) as client:
            seen["spec"] = await client.call_tool("read_spec", {"name": "AcquireLock"})
            seen["outside"] = await client.call_tool("read_file", {"path": "../secret.txt"})
            seen["code"] = await client.call_tool("code_search", {"pattern": "atomic_compare_exchange"})
            seen["phase"] = await client.call_tool("run_phase", {"phase": "1"})
            seen["unknown"] = await client.call_tool("no_such_tool", {})

    anyio.run(main)
    ws.close()
    assert "MODULE spin" not in instructions and "spin" in instructions
    assert 'pc[t] \\in {"idle", "spinning"}' in seen["spec"].content[0].text
    assert seen["outside"].is_error and "outside the workspace" not in seen["outside"].content[0].text
    assert "spinlock.c:" in seen["code"].content[0].text
    assert seen["phase"].structured_content["scores"] == {"syntax": 1.0}
    assert seen["unknown"].is_error and "unknown tool 'no_such_tool'" in seen["unknown"].content[0].text
    run = ws.agent.session.run.path
    assert (run / "spec" / "001" / "spin.tla").read_text() == spec.read_text()
    assert not (tmp_path / "results.jsonl").exists()  # no results store asked for


def test_resume_continues_the_run(tmp_path):
    ws, _ = open_workspace(load_task("spinlock"), runs_dir=tmp_path)
    spec = re.sub(r"MODULE \w+", "MODULE spin", (SYSTEM / "ref" / "spin.tla").read_text(), count=1)
    out = ws.call("write_spec", {"tla": spec, "cfg": (SYSTEM / "ref" / "spin.cfg").read_text()})
    assert out["spec_version"] == 1 and not out["is_error"]
    ws.close()
    run = ws.agent.session.run.path
    again, _ = open_workspace(resume=run.name, runs_dir=tmp_path)
    assert again.agent.session.version == 1 and again.agent.session.run.path == run
    out = again.call("read_spec", {"name": "ReleaseLock"})
    assert "ReleaseLock(t) ==" in out["text"] and out["spec_version"] == 1
    again.close()
    from specula.timeline import load_timeline

    tl = load_timeline(run)
    assert tl.status == "interrupted" and [t.name for t in tl.tools] == ["write_spec", "read_spec"]
