"""Bad input, end to end through the real CLI: every case gets the right exit code and a one-line
error naming where the problem is (file:line:col for specs, file:line for traces, the field for
configs), never a traceback or an "internal error", and what was good is still used.

Exit codes: 0 ok, 1 check failed, 2 usage or input error.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from specula.cli import main

REPO = Path(__file__).resolve().parents[2]
SPIN = REPO / "benchmarks" / "systems" / "spinlock"

# file[:line[:col]]: error: message [E123]
ERROR_LINE = re.compile(r"^(?P<loc>\S+?): error: (?P<msg>.+) \[E\d{3}\]$")
# a bad flag value names the value instead: "error: unknown task 'x'; bundled tasks: ... [E001]"
ANY_ERROR_LINE = re.compile(r"^(\S+?: )?error: .+ \[E\d{3}\]$")


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    both = out + err
    assert "Traceback" not in both, both
    assert "internal error" not in both, both
    return rc, out, err


def error_line(err: str) -> re.Match:
    """The first line of stderr is a complete error with a location and a code."""
    first = err.splitlines()[0]
    m = ERROR_LINE.match(first)
    assert m, f"not a located one-line error: {first!r}"
    return m


@pytest.fixture
def spin(tmp_path: Path) -> Path:
    """A copy of the bundled spin lock reference spec + cfg in a scratch folder."""
    shutil.copy(SPIN / "ref" / "spin.tla", tmp_path / "spin.tla")
    shutil.copy(SPIN / "ref" / "spin.cfg", tmp_path / "spin.cfg")
    return tmp_path / "spin.tla"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- specs


def test_missing_spec_file(capsys, tmp_path):
    missing = tmp_path / "nosuch.tla"
    for cmd in (["check", missing], ["check", "--syntax", missing], ["eval", missing, "--task", "spinlock"]):
        rc, _, err = run(capsys, *cmd)
        assert rc == 2, cmd
        m = error_line(err)
        assert m["loc"] == str(missing) and ("not found" in m["msg"] or "No such file" in m["msg"]), err


def test_missing_spec_is_reported_before_its_missing_cfg(capsys, tmp_path):
    rc, _, err = run(capsys, "check", tmp_path / "nosuch.tla")
    assert rc == 2 and "spec file not found" in err and ".cfg" not in err


SYNTAX = """---- MODULE Syn ----
VARIABLE x
Init == x = 0
Next == x' = x +
====
"""


def test_spec_syntax_error_has_file_line_col(capsys, tmp_path):
    spec = write(tmp_path / "Syn.tla", SYNTAX)
    write(tmp_path / "Syn.cfg", "INIT Init\nNEXT Next\n")
    rc, _, err = run(capsys, "check", spec)
    assert rc == 1
    m = error_line(err)
    assert m["loc"] == f"{spec}:5:1" and "syntax error" in m["msg"]
    rc, out, _ = run(capsys, "check", "--syntax", spec)
    assert rc == 1 and f"{spec}:5:1: error: syntax error" in out
    assert "    5 | ====" in out  # the source line, with a caret under it


def test_spec_undefined_name(capsys, tmp_path):
    spec = write(tmp_path / "Undef.tla", "---- MODULE Undef ----\nEXTENDS Naturals\nVARIABLE x\n"
                 "Init == x = 0\nNext == x' = x + y\n====\n")
    write(tmp_path / "Undef.cfg", "INIT Init\nNEXT Next\n")
    rc, _, err = run(capsys, "check", spec)
    assert rc == 1
    m = error_line(err)
    assert m["loc"] == f"{spec}:5:18" and "'y'" in m["msg"]


# ----------------------------------------------------------------------------- .cfg files


def test_missing_cfg(capsys, spin):
    cfg = spin.parent / "nosuch.cfg"
    rc, _, err = run(capsys, "check", spin, "--config", cfg)
    assert rc == 2
    assert error_line(err)["loc"] == str(cfg) and "not found" in err


def test_unreadable_cfg(capsys, spin):
    binary = spin.parent / "bin.cfg"
    binary.write_bytes(b"INIT Init\xff\xfe\n")
    rc, _, err = run(capsys, "check", spin, "-c", binary)
    assert rc == 2 and error_line(err)["loc"] == str(binary) and "UTF-8" in err
    folder = spin.parent / "dir.cfg"
    folder.mkdir()
    rc, _, err = run(capsys, "check", spin, "-c", folder)
    assert rc == 2 and error_line(err)["loc"] == str(folder)


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("INIT Init\nNEXT Next\nBOGUS Foo\n", 3, ["BOGUS"]),  # unknown keyword
        ('CONSTANT Threads = {"t1", \nSPECIFICATION Spec\n', 2, ["constants.Threads", "expected"]),  # bad value
        ('CONSTANT Threads = {"t1"}\nSPECIFICATION Spec\nINVARIANT NoSuchInv\n', 3, ["invariants", "NoSuchInv"]),
        ('CONSTANT Threads = {"t1"}\nINIT Init\nNEXT NoNext\n', 3, ["next", "NoNext"]),
        ('CONSTANT Threads = {"t1"}\nSPECIFICATION Spec\nPROPERTY Nope\n', 3, ["properties", "Nope"]),
    ],
)
def test_bad_cfg_names_line_and_field(capsys, spin, text, line, words):
    cfg = write(spin.parent / "bad.cfg", text)
    rc, _, err = run(capsys, "check", spin, "-c", cfg)
    assert rc == 2, err
    m = error_line(err)
    assert m["loc"] == f"{cfg}:{line}"
    for w in words:
        assert w in m["msg"], err


LEVELS = """---- MODULE Lv ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
InitP(a) == x = a
Next == x' = (x + 1) % 3
ActInv == x' = x
Live == <>(x = 2)
====
"""


@pytest.mark.parametrize(
    "cfg, line, words",
    [
        ("INIT InitP\nNEXT Next\n", 1, ["INIT InitP takes arguments"]),
        ("INIT Init\nNEXT Next\nINVARIANT ActInv\n", 3, ["ActInv is not a state predicate"]),
        ("INIT Init\nNEXT Next\nINVARIANT Live\n", 3, ["Live is not a state predicate"]),
        ("SPECIFICATION Init\n", 1, ["SPECIFICATION Init has no next-state action"]),
    ],
)
def test_cfg_names_of_the_wrong_kind(capsys, tmp_path, cfg, line, words):
    """TLC rejects these before checking; specula says where, instead of failing mid-search."""
    spec = write(tmp_path / "Lv.tla", LEVELS)
    c = write(tmp_path / "Lv.cfg", cfg)
    rc, _, err = run(capsys, "check", spec, "-c", c)
    assert rc == 2
    m = error_line(err)
    assert m["loc"] == f"{c}:{line}"
    for w in words:
        assert w in m["msg"]


def test_cfg_without_init_next_or_constant_value(capsys, spin):
    no_init = write(spin.parent / "noinit.cfg", 'CONSTANT Threads = {"t1"}\n')
    rc, _, err = run(capsys, "check", spin, "-c", no_init)
    assert rc == 2 and error_line(err)["loc"] == str(no_init) and "INIT" in err
    no_next = write(spin.parent / "nonext.cfg", 'CONSTANT Threads = {"t1"}\nINIT Init\n')
    rc, _, err = run(capsys, "check", spin, "-c", no_next)
    assert rc == 2 and "NEXT" in err
    no_const = write(spin.parent / "noconst.cfg", "SPECIFICATION Spec\n")
    rc, _, err = run(capsys, "check", spin, "-c", no_const)
    assert rc == 2
    m = error_line(err)
    # the field, and where the spec declares the constant
    assert m["loc"] == str(no_const) and "constants.Threads" in m["msg"] and f"{spin}:11:10" in m["msg"]
    # the same cfg problems stop --simulate too
    rc, _, err = run(capsys, "check", spin, "-c", no_const, "--simulate", "--num", "1")
    assert rc == 2 and "constants.Threads" in err


def test_constant_only_module_needs_no_init(capsys, tmp_path):
    """As TLC: a module without variables only checks its ASSUMEs."""
    spec = write(tmp_path / "NoVar.tla", "---- MODULE NoVar ----\nEXTENDS Naturals\nCONSTANT N\nASSUME N > 2\n====\n")
    write(tmp_path / "NoVar.cfg", "CONSTANT N = 3\n")
    rc, out, _ = run(capsys, "check", spec)
    assert rc == 0 and "No error has been found" in out


# ----------------------------------------------------------------------------- run-time errors


DOMAIN = """---- MODULE Dom ----
EXTENDS Naturals
VARIABLE x
f == [i \\in 1..3 |-> i]
Init == x = 1
Next == x' = f[x + 1]
====
"""


def test_eval_error_shows_span_and_state(capsys, tmp_path):
    spec = write(tmp_path / "Dom.tla", DOMAIN)
    write(tmp_path / "Dom.cfg", "INIT Init\nNEXT Next\n")
    rc, out, _ = run(capsys, "check", spec)
    assert rc == 1
    assert "index 4 is out of the domain 1..3" in out
    assert f"at {spec}:6:14" in out  # the span of f[x + 1]
    assert "x = 3" in out.split("out of the domain")[1]  # the behaviour up to the failing state
    rc, out, _ = run(capsys, "check", spec, "--simulate", "--num", "2", "--seed", "1")
    assert rc == 1 and f"at {spec}:6:14" in out and "x = 3" in out


def test_non_boolean_invariant_has_no_fake_location(capsys, tmp_path):
    spec = write(tmp_path / "NB.tla", "---- MODULE NB ----\nVARIABLE x\nInit == x = 1\nNext == x' = x\nInv == x\n====\n")
    write(tmp_path / "NB.cfg", "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    rc, out, _ = run(capsys, "check", spec)
    assert rc == 1 and "Inv is not a boolean" in out and "<builtin>" not in out
    assert f"at {spec}:5:1" in out  # its definition


def test_eval_error_diagnostic_carries_span_and_state():
    from specula.errors import EvalError
    from specula.tla.ast import Span

    d = EvalError("boom", Span("M.tla", 0, 3, 4, 5, 4, 8), {"x": 1}).diagnostics()[0]
    assert (d.file, d.line, d.col, d.end_col) == ("M.tla", 4, 5, 8) and "x" in (d.help or "")
    d = EvalError("boom", Span("<builtin>", 0, 0, 0, 0, 0, 0)).diagnostics()[0]
    assert d.line is None  # no "<builtin>:0:0"


# ----------------------------------------------------------------------------- traces and windows


def _trace_lines() -> list[str]:
    return (SPIN / "traces" / "trace-000.ndjson").read_text(encoding="utf-8").splitlines()


def _windows_passed(out: str) -> tuple[int, int]:
    m = re.search(r"(\d+)/(\d+) windows pass", out)
    assert m, out
    return int(m[1]), int(m[2])


def test_malformed_json_line_in_the_middle_keeps_the_rest(capsys, spin):
    lines = _trace_lines()
    good = write(spin.parent / "good.ndjson", "\n".join(lines) + "\n")
    bad = write(spin.parent / "bad.ndjson", "\n".join(lines[:9] + ['{"kind": "step", bad json'] + lines[9:]) + "\n")
    rc, out, _ = run(capsys, "validate", spin, "-w", good)
    assert rc == 0
    passed, total = _windows_passed(out)
    rc, out, err = run(capsys, "validate", spin, "-w", bad)
    assert rc == 0  # the other lines are still used: every window but the one right after the lost
    bad_passed, bad_total = _windows_passed(out)  # line (its pre-state is no longer certain)
    assert bad_passed == bad_total == total - 1
    assert f"{bad}:10: malformed JSON" in out + err  # ... and the bad line is reported


def test_malformed_step_line_loses_only_that_step(capsys, spin):
    lines = _trace_lines()
    step = next(i for i, ln in enumerate(lines) if '"kind": "step"' in ln and i > 5)
    bad = write(spin.parent / "bad.ndjson", "\n".join(lines[:step] + [lines[step][:40]] + lines[step + 1:]) + "\n")
    rc, out, err = run(capsys, "validate", spin, "-w", bad)
    assert f"{bad}:{step + 1}:" in out + err
    passed, total = _windows_passed(out)
    assert total > 10  # windows before and after the cut line are validated


def test_empty_trace_file(capsys, spin):
    empty = write(spin.parent / "empty.ndjson", "")
    rc, out, err = run(capsys, "validate", spin, "-w", empty)
    assert rc == 1
    assert f"{empty}: empty trace file" in out + err


def test_empty_trace_file_next_to_a_good_one(capsys, spin):
    empty = write(spin.parent / "empty.ndjson", "")
    good = write(spin.parent / "good.ndjson", "\n".join(_trace_lines()) + "\n")
    rc, out, err = run(capsys, "validate", spin, "-w", empty, good)
    assert rc == 0 and "empty trace file" in out + err and _windows_passed(out)[0] > 10


def test_missing_trace_inputs(capsys, spin):
    rc, _, err = run(capsys, "validate", spin, "-w", spin.parent / "nosuch.ndjson")
    assert rc == 2 and error_line(err)["loc"] == str(spin.parent / "nosuch.ndjson")
    rc, _, err = run(capsys, "validate", spin, "-w", spin.parent)
    assert rc == 2 and "directory" in error_line(err)["msg"]
    rc, _, err = run(capsys, "validate", spin, "--traces", spin.parent / "nosuchdir")
    assert rc == 2 and error_line(err)["loc"] == str(spin.parent / "nosuchdir")
    rc, _, err = run(capsys, "validate", spin)
    assert rc == 2 and "--windows" in err
    (spin.parent / "empty_dir").mkdir()
    rc, _, err = run(capsys, "validate", spin, "--traces", spin.parent / "empty_dir")
    assert rc == 2 and error_line(err)["loc"] == str(spin.parent / "empty_dir") and "no trace" in err


def test_windows_file_naming_an_action_the_spec_lacks(capsys, spin):
    rec = {"id": 1, "trace_id": "t", "actor": "t1",
           "pre": {"lock": False, "pc": {"t1": "idle", "t2": "idle", "t3": "idle"}},
           "post": {"lock": True, "pc": {"t1": "locked", "t2": "idle", "t3": "idle"}}}
    grab = write(spin.parent / "windows_GrabLock.ndjson", json.dumps(rec) + "\n")
    acq = write(spin.parent / "windows_AcquireLock.ndjson", json.dumps(rec) + "\n")
    rc, out, _ = run(capsys, "validate", spin, "-w", grab, acq)
    assert rc == 1
    assert "the spec has no action GrabLock" in out and f"{grab}:1" in out
    assert _windows_passed(out) == (1, 2)  # the good window still counts


# ----------------------------------------------------------------------------- mapping YAML


@pytest.mark.parametrize(
    "text, loc, words",
    [
        ("version: 1\nnodes:\n  constant: Threads\nvariables:\n  pc: {per_node: true\n", ":6:1", ["not valid YAML"]),
        ("version: 1\nnodes:\n  constant: Threads\nvariables:\n  pcx: {per_node: true}\n", ":5", ["'pcx'"]),
        ("version: 1\nnodes:\n  constant: Threads\nvariables:\n  pc: {per_node: true}\nactions:\n  GrabLock: {}\n",
         ":7", ["actions.GrabLock"]),
    ],
)
def test_bad_mapping(capsys, spin, text, loc, words):
    good = write(spin.parent / "good.ndjson", "\n".join(_trace_lines()) + "\n")
    mp = write(spin.parent / "map.yaml", text)
    rc, _, err = run(capsys, "validate", spin, "-w", good, "-m", mp)
    assert rc == 2
    m = error_line(err)
    assert m["loc"] == f"{mp}{loc}"
    for w in words:
        assert w in m["msg"]
    assert len(err.strip().splitlines()) == 1  # YAML's multi-line report is folded into one line


def test_missing_or_binary_mapping(capsys, spin):
    good = write(spin.parent / "good.ndjson", "\n".join(_trace_lines()) + "\n")
    binary = spin.parent / "bin.yaml"
    binary.write_bytes(b"\xff: \xfe\n")
    for mp in (spin.parent / "nosuch.yaml", binary):
        rc, _, err = run(capsys, "validate", spin, "-w", good, "-m", mp)
        assert rc == 2 and error_line(err)["loc"] == str(mp)
    rc, _, err = run(capsys, "eval", spin, "--task", "spinlock", "--mapping", spin.parent / "nosuch.yaml")
    assert rc == 2 and error_line(err)["loc"] == str(spin.parent / "nosuch.yaml")  # not silently ignored


# ----------------------------------------------------------------------------- task.yaml, invariants.yaml


@pytest.fixture
def task_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "task"
    shutil.copytree(SPIN, dst, ignore=shutil.ignore_patterns("*.o", "build"))
    return dst


@pytest.mark.parametrize(
    "text, loc, words",
    [
        ('invariants:\n  - name: "X"\n    type: "safety"\n   tla_example: |\n      X == TRUE\n', ":4:4", ["invalid YAML"]),
        ("invariants: 3\n", "", ["invariants"]),
        ('invariants:\n  - name: X\n    type: bogus\n    tla_example: "X == TRUE"\n', "", ["invariants[0].type", "bogus"]),
        ('invariants:\n  - type: safety\n    tla_example: "X == TRUE"\n', "", ["invariants[0].name"]),
    ],
)
def test_malformed_invariants_yaml(capsys, spin, task_copy, text, loc, words):
    inv = write(task_copy / "invariants.yaml", text)
    rc, _, err = run(capsys, "eval", spin, "--task", task_copy)
    assert rc == 2
    m = error_line(err)
    assert m["loc"] == f"{inv}{loc}"
    for w in words:
        assert w in m["msg"]


def test_malformed_task_yaml(capsys, spin, task_copy):
    task = write(task_copy / "task.yaml", 'name: "spinlock"\nlanguage: [c\nspecModule: spin\n')
    rc, _, err = run(capsys, "eval", spin, "--task", task_copy)
    assert rc == 2
    m = error_line(err)
    assert m["loc"] == f"{task}:3:11" and "invalid YAML" in m["msg"]
    assert len(err.strip().splitlines()) == 1
    write(task, "- just\n- a list\n")
    rc, _, err = run(capsys, "eval", spin, "--task", task_copy)
    assert rc == 2 and error_line(err)["loc"] == str(task) and "mapping" in err


def test_unknown_task(capsys, spin):
    for cmd in (["eval", spin, "--task", "nosuchtask"], ["model", "nosuchtask"]):
        rc, _, err = run(capsys, *cmd)
        assert rc == 2
        assert "unknown task 'nosuchtask'" in err and "spinlock" in err  # and what the known ones are


def test_eval_config_and_translations_missing(capsys, spin):
    rc, _, err = run(capsys, "eval", spin, "--task", "spinlock", "-c", spin.parent / "nosuch.cfg")
    assert rc == 2 and error_line(err)["loc"] == str(spin.parent / "nosuch.cfg")
    bad = write(spin.parent / "tr.yaml", "invariants:\n  - {name: X\n")
    rc, _, err = run(capsys, "eval", spin, "--task", "spinlock", "--translations", bad)
    assert rc == 2 and error_line(err)["loc"].startswith(f"{bad}:")


# ----------------------------------------------------------------------------- code, bench, leaderboard


def test_code_show_unknown_symbol(capsys, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    write(repo / "m.py", "def present():\n    return 1\n")
    rc, _, err = run(capsys, "code", "show", repo, "absent_symbol")
    assert rc == 2 and "absent_symbol" in error_line(err)["msg"]
    rc, out, _ = run(capsys, "code", "show", repo, "present")
    assert rc == 0 and "def present" in out


def test_code_index_missing_directory(capsys, tmp_path):
    for cmd in ("index", "map"):
        rc, _, err = run(capsys, "code", cmd, tmp_path / "nosuchdir")
        assert rc == 2 and error_line(err)["loc"] == str(tmp_path / "nosuchdir") and "not found" in err


def test_bench_traces_unknown_system(capsys, tmp_path):
    rc, _, err = run(capsys, "bench", "traces", "nosuchsys", "--out", tmp_path / "out")
    assert rc == 2 and "unknown system 'nosuchsys'" in err and "spinlock" in err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_leaderboard_bad_format_and_missing_results(capsys, tmp_path):
    rc, _, err = run(capsys, "leaderboard", "--format", "bogus", "--results", tmp_path / "r.jsonl")
    assert rc == 2 and "--format" in err and "bogus" in err
    rc, _, err = run(capsys, "leaderboard", "--results", tmp_path / "r.jsonl")
    assert rc == 2 and error_line(err)["loc"] == str(tmp_path / "r.jsonl") and "bench eval" in err


def test_leaderboard_skips_a_cut_results_line(capsys, tmp_path):
    from specula.bench.results import ResultStore, RunRecord

    res = tmp_path / "r.jsonl"
    store = ResultStore(res)
    store.append(RunRecord("qa/a", "spinlock", 1, 1.0, {"syntax": 1.0}))
    with res.open("a", encoding="utf-8") as fh:
        fh.write('{"entry": "qa/b", "task": "spin')  # killed mid-write
    store.append(RunRecord("qa/c", "spinlock", 1, 0.5, {"syntax": 1.0}))
    rc, out, err = run(capsys, "leaderboard", "--results", res, "--task", "spinlock", "--json")
    assert rc == 0
    assert [r["entry"] for r in json.loads(out)["rows"]] == ["qa/a", "qa/c"]  # nothing recorded is lost
    assert f"{res}:2: warning:" in err


def test_bench_eval_missing_spec_dir(capsys, tmp_path):
    rc, _, err = run(capsys, "bench", "eval", "--spec-dir", tmp_path / "nosuch", "--entry", "x",
                     "--results", tmp_path / "r.jsonl")
    assert rc == 2 and error_line(err)["loc"] == str(tmp_path / "nosuch")
    assert not (tmp_path / "r.jsonl").exists()


# ----------------------------------------------------------------------------- model (LLM)


def _no_keys_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.pop("SPECULA_DEBUG", None)
    return env


@pytest.mark.parametrize("model, var", [("anthropic/claude-sonnet-4-6", "ANTHROPIC_API_KEY"), ("openai/gpt-5", "OPENAI_API_KEY")])
def test_model_without_api_key_is_a_clean_error(tmp_path, model, var):
    runs = tmp_path / "runs"
    proc = subprocess.run(
        [sys.executable, "-m", "specula", "model", "spinlock", "--model", model, "--runs-dir", str(runs)],
        capture_output=True, text=True, env=_no_keys_env(), timeout=120, cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert var in proc.stderr and "Traceback" not in proc.stderr + proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not runs.exists() or not any(runs.iterdir())  # no half-made run directory


def test_model_usage_errors(capsys, tmp_path):
    rc, _, err = run(capsys, "model", "--runs-dir", tmp_path)
    assert rc == 2 and "--resume" in err
    rc, _, err = run(capsys, "model", "spinlock", "--model", "bogus", "--runs-dir", tmp_path)
    assert rc == 2 and "PROVIDER/NAME" in err
    rc, _, err = run(capsys, "model", "spinlock", "--budget", "dollars=abc", "--runs-dir", tmp_path)
    assert rc == 2 and "budget" in err
    rc, _, err = run(capsys, "model", "--resume", "nosuchrun", "--runs-dir", tmp_path)
    assert rc == 2 and "nosuchrun" in error_line(err)["loc"]


def test_every_error_is_one_located_line(capsys, spin):
    """A sample across commands: stderr is exactly the error line(s), each fully formed."""
    cases = [
        ["check", spin, "-c", write(spin.parent / "k.cfg", "INIT Init\nNEXT Next\nBOGUS X\n")],
        ["validate", spin, "-w", spin.parent / "none.ndjson"],
        ["eval", spin, "--task", "nosuchtask"],
    ]
    for cmd in cases:
        rc, out, err = run(capsys, *cmd)
        assert rc == 2 and out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1 and ANY_ERROR_LINE.match(lines[0]), err


# ----------------------------------------------------------------------------- flags and output files


def test_vacuous_limits_are_usage_errors(capsys, spin):
    for cmd in (["check", spin, "--max-states", "0"], ["check", spin, "--simulate", "--num", "0"],
                ["check", spin, "--simulate", "--depth", "0"], ["eval", spin, "--task", "spinlock", "--runs", "0"],
                ["leaderboard", "--best-of", "0"]):
        rc, _, err = run(capsys, *cmd)
        assert rc == 2 and "Invalid value" in err, cmd


def test_eval_unknown_phase(capsys, spin):
    rc, _, err = run(capsys, "eval", spin, "--task", "spinlock", "--phase", "bogus")
    assert rc == 2 and "--phase" in err and "'bogus'" in err


def test_output_files_are_checked_before_the_work(capsys, spin, tmp_path):
    rc, _, err = run(capsys, "eval", spin, "--task", "spinlock", "--out", tmp_path)
    assert rc == 2 and error_line(err)["loc"] == str(tmp_path) and "--out" in err
    blocker = write(tmp_path / "file", "x")  # a file where a folder is needed
    rc, _, err = run(capsys, "eval", spin, "--task", "spinlock", "--html", blocker / "sub" / "r.html")
    assert rc == 2 and "--html" in err
    rc, _, err = run(capsys, "leaderboard", "--format", "markdown", "--out", blocker / "b.md")
    assert rc == 2 and "--out" in err
    rc, _, err = run(capsys, "bench", "traces", "spinlock", "--out", blocker / "traces")
    assert rc == 2 and error_line(err)["loc"] == str(blocker / "traces")


def test_eval_creates_the_folder_of_its_reports(capsys, spin, tmp_path):
    html, card = tmp_path / "new" / "r.html", tmp_path / "new2" / "card.json"
    rc, _, _ = run(capsys, "eval", spin, "--task", "spinlock", "--phase", "syntax", "--html", html, "--out", card)
    assert rc == 0 and html.is_file() and json.loads(card.read_text())["phases"]["syntax"]["score"] == 1.0


def test_code_bad_revision_is_one_line(capsys, tmp_path, monkeypatch):
    import git

    monkeypatch.setenv("SPECULA_CACHE_DIR", str(tmp_path / "cache"))
    repo = tmp_path / "repo"
    repo.mkdir()
    write(repo / "m.py", "def f():\n    return 1\n")
    r = git.Repo.init(repo)
    r.index.add(["m.py"])
    r.index.commit("one", author=git.Actor("qa", "qa@example.com"), committer=git.Actor("qa", "qa@example.com"))
    rc, _, err = run(capsys, "code", "index", repo, "--commit", "no-such-rev")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    m = error_line(err)
    assert m["loc"] == str(repo) and "no-such-rev" in m["msg"] and "stderr:" not in m["msg"]


def test_windows_editor_files_work(capsys, spin):
    """CRLF line ends and a UTF-8 BOM (Notepad) in spec, cfg, mapping and trace are not errors."""
    for name in ("spin.tla", "spin.cfg"):
        f = spin.parent / name
        f.write_bytes(b"\xef\xbb\xbf" + f.read_bytes().replace(b"\n", b"\r\n"))
    rc, out, _ = run(capsys, "check", spin)
    assert rc == 0 and "No error has been found" in out
    mp = spin.parent / "map.yaml"
    mp.write_bytes(b"\xef\xbb\xbf" + (SPIN / "mapping.yaml").read_bytes().replace(b"\n", b"\r\n"))
    tr = spin.parent / "t.ndjson"
    tr.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(_trace_lines()).encode() + b"\r\n")
    rc, out, _ = run(capsys, "validate", spin, "-w", tr, "-m", mp)
    assert rc == 0 and _windows_passed(out)[0] > 10


def test_ctrl_c_keeps_the_partial_report_and_exits_130(tmp_path):
    import signal
    import time

    spec = write(tmp_path / "Big.tla", "---- MODULE Big ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                 "Next == \\/ x' = (x + 1) % 100000 /\\ y' = y\n        \\/ y' = (y + 1) % 100000 /\\ x' = x\n====\n")
    write(tmp_path / "Big.cfg", "INIT Init\nNEXT Next\n")
    import threading

    proc = subprocess.Popen([sys.executable, "-m", "specula", "check", str(spec)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_no_keys_env())
    lines: list[str] = []
    started = threading.Event()

    def read_stderr() -> None:  # Ctrl-C once the search reports progress (not while still importing)
        for line in proc.stderr:
            lines.append(line)
            if line.startswith("Progress"):
                started.set()
        started.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    assert started.wait(120), "the search never reported progress"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out = proc.stdout.read()
    proc.wait(timeout=60)
    reader.join(timeout=10)
    err = "".join(lines)
    assert proc.returncode == 130  # nothing was proved: not 0
    assert "Traceback" not in out + err
    assert "interrupted" in out + err
    if "Model checking" in out:  # interrupted during the search: what was explored is reported
        assert "distinct states found" in out


def test_bench_eval_spec_dir_without_specs(capsys, tmp_path):
    (tmp_path / "specs" / "spinlock").mkdir(parents=True)
    write(tmp_path / "specs" / "spinlock" / "Spin.tla", "wrong module file name\n")
    rc, _, err = run(capsys, "bench", "eval", "--spec-dir", tmp_path / "specs", "--entry", "x",
                     "--results", tmp_path / "r.jsonl")
    assert rc == 2 and error_line(err)["loc"] == str(tmp_path / "specs") and "spinlock/spin.tla" in err
    assert not (tmp_path / "r.jsonl").exists()


def test_bench_eval_warns_about_folders_that_are_no_task(capsys, tmp_path, spin):
    specs = tmp_path / "specs"
    (specs / "spinlock").mkdir(parents=True)
    (specs / "nosuchtask").mkdir()
    write(specs / "spinlock" / "spin.tla", SYNTAX.replace("Syn", "spin"))  # scores low but quickly
    rc, out, err = run(capsys, "bench", "eval", "--spec-dir", specs, "--entry", "x", "--results", tmp_path / "r.jsonl")
    assert rc == 0 and f"{specs / 'nosuchtask'}: warning: not a task name" in err
    assert "scored 1 spec(s)" in out


def test_task_yaml_field_of_the_wrong_type(capsys, spin, task_copy):
    task = task_copy / "task.yaml"
    task.write_text(task.read_text(encoding="utf-8").replace("mutants:\n", "mutants: 3\nold_mutants:\n"), encoding="utf-8")
    rc, _, err = run(capsys, "eval", spin, "--task", task_copy)
    assert rc == 2
    m = error_line(err)
    assert m["loc"] == str(task) and m["msg"].startswith("mutants: must be a list")


def test_mapping_nodes_constant_that_is_not_a_set(capsys, spin):
    good = write(spin.parent / "good.ndjson", "\n".join(_trace_lines()) + "\n")
    for value in ("'-'", "Spec"):  # an operator needing arguments; a formula, not a set of nodes
        mp = write(spin.parent / "map.yaml", f"version: 1\nnodes:\n  constant: {value}\nvariables:\n  pc: {{per_node: true}}\n")
        rc, _, err = run(capsys, "validate", spin, "-w", good, "-m", mp)
        assert rc == 2, err
        m = error_line(err)
        assert m["loc"] == f"{mp}:3" and "nodes.constant" in m["msg"]


def test_validate_rejects_an_unknown_target_action(capsys, spin):
    """A typo in --actions is an input error naming the spec's actions, not "no windows"."""
    rc, _, err = run(capsys, "validate", spin, "--traces", SPIN / "traces", "--actions", "AcquireLock,Bogus")
    assert rc == 2 and "unknown action 'Bogus'" in err and "AcquireLock, ReleaseLock, StartLock" in err
