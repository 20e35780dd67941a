"""Small pure pieces of the agent room: definition edits, budgets, prices, reply parsing, prompts."""

from __future__ import annotations

import pytest

from specula.agent import specedit
from specula.agent.ledger import Budget, Ledger, parse_budget, price_of
from specula.agent.messages import Message, ToolCall, Usage
from specula.agent.prompts import load, render
from specula.agent.rundir import RunDir
from specula.agent.translate import declared_names, parse_reply, signature
from specula.errors import BudgetExceeded, ConfigError

SPEC = r"""---- MODULE m ----
EXTENDS Naturals
CONSTANTS Nodes, \* the servers
    Max
VARIABLES x, y
vars == <<x, y>>

\* step one
Inc(n) ==
    /\ x < Max
    /\ x' = x + 1
    /\ UNCHANGED y

F[i \in 0..3] == i * 2
Op(a,
   b) == a + b
Next == \E n \in Nodes : Inc(n)
====
"""


def test_definitions_and_replace():
    names = specedit.defined_names(SPEC)
    assert names == ["vars", "Inc", "F", "Op", "Next"]
    inc = specedit.find_definition(SPEC, "Inc")
    assert inc.text.splitlines()[0] == "Inc(n) ==" and inc.text.endswith("UNCHANGED y")
    new = specedit.replace_definition(SPEC, "Inc", "Inc(n) == x' = x + 2 /\\ UNCHANGED y")
    assert "x' = x + 2" in new and "x < Max" not in new and "\\* step one" in new
    assert specedit.defined_names(new) == names
    added = specedit.replace_definition(SPEC, "TypeOK", "TypeOK == x \\in Nat")
    assert added.rstrip().endswith("====") and "TypeOK == x \\in Nat" in added
    assert specedit.module_name(SPEC) == "m"


def test_declared_names_and_signature():
    assert {"Nodes", "Max", "x", "y", "Inc", "Next"} <= declared_names(SPEC)
    assert "the" not in declared_names(SPEC)
    same = specedit.replace_definition(SPEC, "Inc", "Inc(n) == x' = 0 /\\ UNCHANGED y")
    assert signature(same) == signature(SPEC)
    assert signature(SPEC.replace("VARIABLES x, y", "VARIABLES x, y, z")) != signature(SPEC)


def test_parse_translation_reply():
    reply = ("Here:\n```tla\nSafe == x <= Max\nBounded ==\n    y \\in Nat\n```\n"
             "UNTRANSLATABLE: Live - the spec has no fairness\n")
    defs, notes = parse_reply(reply)
    assert defs == {"Safe": "Safe == x <= Max", "Bounded": "Bounded ==\n    y \\in Nat"}
    assert notes == {"Live": "the spec has no fairness"}


def test_budget_parsing_and_limits():
    b = parse_budget("tokens=500k, $2.5, iterations=40, time=30m")
    assert b == Budget(tokens=500_000, dollars=2.5, iterations=40, seconds=1800.0)
    assert parse_budget("minutes=2").seconds == 120
    for bad in ("tokens", "tokens=lots", "colour=red"):
        with pytest.raises(ConfigError):
            parse_budget(bad)
    ledger = Ledger("anthropic", "claude-sonnet-4-6")
    ledger.record(Usage(1_000_000, 100_000), 1.0)
    assert ledger.cost == pytest.approx(3.0 + 1.5)
    with pytest.raises(BudgetExceeded, match="dollar"):
        Budget(dollars=4.0).check(ledger, 1, 1.0)
    with pytest.raises(BudgetExceeded, match="token"):
        Budget(tokens=1_000_000).check(ledger, 1, 1.0)
    with pytest.raises(BudgetExceeded, match="time"):
        Budget(seconds=10).check(ledger, 1, 11.0)
    Budget(dollars=5, tokens=2_000_000, iterations=2, seconds=10).check(ledger, 1, 1.0)


def test_prices():
    assert price_of("openai", "gpt-5-mini") == (0.25, 2.0)
    assert price_of("openai", "gpt-5") == (1.25, 10.0)
    assert price_of("openai-compatible", "anything") == (0.0, 0.0)
    assert price_of("litellm", "mystery-model") is None
    assert Ledger("litellm", "mystery-model").to_dict()["priced"] is False


def test_messages_roundtrip():
    m = Message("assistant", "hi", (ToolCall.parse("c1", "run_phase", '{"phase": "all"}'),
                                    ToolCall.parse("c2", "x", "{oops")))
    back = Message.from_dict(m.to_dict())
    assert back == m and back.tool_calls[1].error and back.tool_calls[1].raw == "{oops"


def test_prompts_render_and_refuse_missing_values():
    for name in ("system.md", "task.md", "nudge.md", "translate_system.md", "translate.md"):
        assert load(name).strip()
    with pytest.raises(KeyError, match="spec"):
        render("translate.md", templates="x")
    assert "SPECIFICATION Spec" in render("system.md")


def test_rundir_scrubs_and_writes_atomically(tmp_path):
    run = RunDir.create(tmp_path, {"name": "t"}, secrets=["sk-very-secret-1"])
    run.write_text("a.txt", "key=sk-very-secret-1")
    run.append_transcript({"event": "x", "text": "sk-very-secret-1"})
    assert "sk-very-secret-1" not in (run.path / "a.txt").read_text()
    assert "[REDACTED]" in (run.path / "transcript.jsonl").read_text()
    assert not [p for p in run.path.iterdir() if p.name.endswith(".tmp")]
    again = RunDir.create(tmp_path, {"name": "t"}, run_id=run.path.name)
    assert again.path != run.path  # never overwrites an existing run


def test_compact_elides_old_results_and_specs_but_keeps_task_and_recent():
    from specula.agent.loop import compact

    big_spec = "x" * 50_000
    msgs = [Message("user", "TASK " + "t" * 1000)]
    for i in range(10):
        msgs.append(Message("assistant", f"draft {i}", (ToolCall(f"c{i}", "write_spec", {"tla": big_spec, "cfg": "C"}),)))
        msgs.append(Message("tool", f"result {i}\n" + "r" * 5000, tool_call_id=f"c{i}", name="write_spec"))
    assert compact(msgs[:3]) == msgs[:3]  # short histories go out untouched
    out = compact(msgs, limit=100_000, keep=4)
    assert len(out) == len(msgs) and out[0] == msgs[0] and out[-4:] == msgs[-4:]
    assert "elided" in out[1].tool_calls[0].arguments["tla"] and out[1].tool_calls[0].arguments["cfg"] == "C"
    assert out[2].content.startswith("result 0") and "older result elided" in out[2].content
    assert [m.tool_call_id for m in out] == [m.tool_call_id for m in msgs]
    assert sum(len(m.content) for m in out) < 40_000


def test_sysmobench_task_reads_the_system_cloned_at_its_pin(tmp_path, monkeypatch):
    import subprocess

    from specula.tasks import load_task, with_code

    monkeypatch.setenv("SPECULA_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "asterinas"
    (src / "ostd" / "src" / "sync").mkdir(parents=True)
    (src / "ostd" / "src" / "sync" / "spin.rs").write_text("pub fn lock() {}\n")
    git = ["git", "-C", str(src), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(src)], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "x"], check=True)
    rev = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    bench = tmp_path / "SysMoBench"
    (bench / "tla_eval" / "tasks" / "spin").mkdir(parents=True)
    (bench / "tla_eval" / "tasks" / "spin" / "task.yaml").write_text(
        f"name: spin\nspecModule: spin\nlanguage: rust\nrepository: {{url: 'file://{src}', commit: {rev}}}\n"
        "source_files: [{path: ostd/src/sync/spin.rs}]\nwv: {target_actions: [AcquireLock, ReleaseLock]}\n")
    task = with_code(load_task("spin", sysmobench=str(bench)))
    assert (task.code_dir / "ostd" / "src" / "sync" / "spin.rs").is_file() and task.code_dir != src.resolve()
    assert task.target_actions == ("AcquireLock", "ReleaseLock") and task.spec_module == "spin"
    local = with_code(load_task("spin", sysmobench=str(bench)), str(src))
    assert local.code_dir == src.resolve()
