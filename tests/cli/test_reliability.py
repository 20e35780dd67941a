"""Issue 23: deep input, interrupts, --json errors, broken pipes (each fails on the code before it)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from specula.cli import main
from specula.errors import SpecError
from specula.tla.syntax import parse_module

ROOT = Path(__file__).resolve().parents[2]
SPEC_HEAD = "---- MODULE {name} ----\nEXTENDS Naturals\nVARIABLE x\n"
SPEC_TAIL = "Init == x = 0\nNext == x' = IF x < 2 THEN x + 1 ELSE x\nSpec == Init /\\ [][Next]_x\n====\n"


def _spec(tmp_path: Path, name: str, extra: str) -> Path:
    p = tmp_path / f"{name}.tla"
    p.write_text(SPEC_HEAD.format(name=name) + extra + SPEC_TAIL)
    (tmp_path / f"{name}.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    return p


def _specula(*args: str, **kw) -> subprocess.Popen:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.Popen(["specula", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=kw.get("cwd", ROOT))


# ----------------------------------------------------------------------------- deep input (item 3)

@pytest.mark.parametrize("name,extra", [
    # SANY takes these; each was a RecursionError ("internal error", rc 2)
    ("Parens", "Inv == " + "(" * 487 + "x \\in 0..2" + ")" * 487 + "\n"),
    ("PlusChain", "Sum == " + " + ".join(["x"] * 197) + "\nInv == Sum >= 0\n"),
    ("CupChain", "S == " + " \\cup ".join(["{1}"] * 327) + "\nInv == S = {1}\n"),
    ("Deeper", "Inv == " + "(" * 3000 + "x \\in 0..2" + ")" * 3000 + "\n"),
], ids=["parens-487", "plus-197", "cup-327", "parens-3000"])
def test_deeply_nested_specs_check_like_any_other(tmp_path, capsys, name, extra):
    spec = _spec(tmp_path, name, extra)
    assert main(["check", "--syntax", str(spec)]) == 0, capsys.readouterr().err
    assert main(["check", str(spec)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "No error has been found" in out and "3 distinct states found" in out, out


def test_nesting_beyond_the_stack_is_a_located_error_not_a_crash():
    # in-process on the main thread (Python's default recursion limit): E103 at the nesting
    text = SPEC_HEAD.format(name="TooDeep") + "Inv ==\n  " + "(" * 5000 + "1" + ")" * 5000 + "\n" + SPEC_TAIL
    with pytest.raises(SpecError) as exc:
        parse_module(text, "TooDeep.tla")
    d = exc.value.diagnostics()[0]
    assert d.code == "E103" and d.file == "TooDeep.tla" and d.line == 5 and d.col > 1
    assert "nested too deeply" in d.message


# ----------------------------------------------------------------------------- --json errors (item 5)

def test_json_errors_are_printed_on_stdout(tmp_path, capsys):
    assert main(["check", str(tmp_path / "missing.tla"), "--json"]) == 2
    body = json.loads(capsys.readouterr().out)
    assert body["ok"] is False and body["error"]["code"] == "E001"
    assert body["error"]["location"]["file"].endswith("missing.tla")
    bad = tmp_path / "Bad.tla"
    bad.write_text("---- MODULE Bad ----\nVARIABLE x\nInit == x = \n====\n")
    (tmp_path / "Bad.cfg").write_text("INIT Init\n")
    rc = main(["check", str(bad), "--json"])
    body = json.loads(capsys.readouterr().out)
    assert rc == 1 and body["error"]["location"]["line"] >= 3 and body["diagnostics"][0]["code"] == "E101"
    assert main(["check", "--no-such-flag", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "usage"


# ----------------------------------------------------------------------------- broken pipe (item 9)

@pytest.mark.parametrize("args", [["bench", "list"], ["check", "benchmarks/systems/spinlock/ref/spin.tla"],
                                  ["check", "--syntax", "benchmarks/systems/spinlock/ref/spin.tla", "--json"]])
def test_a_closed_stdout_ends_quietly(args):
    p = _specula(*args)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0 and "Traceback" not in err and "rror" not in err, err


# ----------------------------------------------------------------------------- interrupts (item 1)

def _interrupt_after(sig: int, seconds: float, *args: str) -> tuple[int, str, str, float]:
    p = _specula(*args)
    time.sleep(seconds)
    t0 = time.monotonic()
    p.send_signal(sig)
    out, err = p.communicate(timeout=120)
    return p.returncode, out.decode(), err.decode(), time.monotonic() - t0


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_eval_exits_130_at_once_with_a_partial_card(sig):
    # the raft runtime check runs for a minute: the signal lands inside phase 2
    rc, out, err, after = _interrupt_after(sig, 12, "eval", "benchmarks/systems/raft/ref/etcdraft.tla",
                                           "--task", "raft", "--json")
    assert rc == 130, err
    assert after < 20, after  # stops at once, not after the remaining phases
    assert "interrupted" in err
    card = json.loads(out)
    assert card["meta"]["interrupted"] is True and "invariants" not in card["phases"]


def test_interrupted_validate_prints_its_partial_report(tmp_path):
    # each window's check filters a 300,000-element set: a few hundred windows take minutes
    spec = tmp_path / "Slow.tla"
    spec.write_text("---- MODULE Slow ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                    "Step == x' \\in {y \\in 0..300000 : y = x + 1}\nNext == Step\n====\n")
    (tmp_path / "Slow.cfg").write_text("INIT Init\nNEXT Next\n")
    win = tmp_path / "windows_Step.ndjson"
    win.write_text("".join(json.dumps({"id": i, "trace_id": "t", "pre": {"x": i}, "post": {"x": i + 1}}) + "\n"
                           for i in range(400)))
    rc, out, err, _ = _interrupt_after(signal.SIGINT, 8, "validate", str(spec), "--windows", str(win), "--json")
    assert rc == 130, err
    body = json.loads(out)
    assert body["interrupted"].startswith("interrupted after") and "partial report" in err
    assert 0 < body["actions"][0]["total"] < 400


# ----------------------------------------------------------------------------- limits (items 1, 9)

BIG = ("---- MODULE Big ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
       "Next == \\/ x' = (x + 1) % 100000 /\\ y' = y\n        \\/ y' = (y + 1) % 100000 /\\ x' = x\n"
       "Small == x < 100000\n====\n")


def test_a_search_cut_by_its_time_limit_says_so_and_strict_fails_it(tmp_path):
    from specula.phases.invariants import InvariantDef, invariants
    from specula.phases.runtime import RuntimeSettings, runtime

    spec = tmp_path / "Big.tla"
    spec.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    lax = runtime(spec, None, RuntimeSettings(check_seconds=0.5, runs=1, traces_per_run=2, depth=5, seed=1))
    assert lax.check_passed and lax.check["exhaustive"] is False
    assert lax.check["note"].startswith("passed by time limit: ") and "not exhaustive" in lax.check["note"]
    assert "passed by time limit" in lax.summary()
    strict = runtime(spec, None, RuntimeSettings(check_seconds=0.5, runs=1, traces_per_run=2, depth=5, seed=1,
                                                 strict=True))
    assert not strict.check_passed and strict.check["note"].startswith("incomplete (--strict)")
    inv = InvariantDef(name="Bounded", type="safety", definition="Bounded == x < 100000")
    row = invariants(spec, None, [inv], seconds=0.5).rows[0]
    assert row.status == "passed" and not row.exhaustive and row.message.startswith("passed by time limit")
    res = invariants(spec, None, [inv], seconds=0.5, strict=True)
    assert res.rows[0].status == "incomplete" and res.score == 0.0


def test_check_stopped_by_a_limit_has_its_own_exit_code_and_progress_goes_to_stderr(tmp_path, capsys):
    spec = tmp_path / "Big.tla"
    spec.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Small\n")
    assert main(["check", str(spec), "--max-seconds", "7", "--json"]) == 3
    cap = capsys.readouterr()
    assert json.loads(cap.out)["verdict"] == "limit"  # stdout holds only the JSON
    assert "states generated" in cap.err and "distinct states found" in cap.err  # progress, also with --json


# ----------------------------------------------------------------------------- silent accepts (item 4)

CFG_SPEC = ("---- MODULE C ----\nEXTENDS Naturals\nCONSTANT N\nVARIABLE x\nInit == x = 0\n"
            "Next == x' = IF x < N THEN x + 1 ELSE x\n====\n")


def test_a_substitution_for_an_undeclared_constant_is_an_error_as_in_tlc(tmp_path, capsys):
    # TLC 2.18: "In the configuration file, the identifier Bogus does not appear in the specification."
    spec = tmp_path / "C.tla"
    spec.write_text(CFG_SPEC)
    (tmp_path / "C.cfg").write_text("INIT Init\nNEXT Next\nCONSTANTS\n  N = 2\n  Bogus <- Init\n")
    assert main(["check", str(spec)]) == 2
    err = capsys.readouterr().err
    assert "C.cfg:5:" in err and "Bogus does not appear" in err


def test_a_value_for_an_undeclared_constant_is_a_warning(tmp_path, capsys):
    # TLC 2.18 accepts `Bogus = 3` silently; specula accepts it too but names the line
    spec = tmp_path / "C.tla"
    spec.write_text(CFG_SPEC)
    (tmp_path / "C.cfg").write_text("INIT Init\nNEXT Next\nCONSTANTS\n  N = 2\n  Bogus = 3\n")
    assert main(["check", str(spec)]) == 0
    err = capsys.readouterr().err
    assert "C.cfg:5: warning: CONSTANT Bogus is not declared" in err


# ----------------------------------------------------------------------------- bad input (items 3, 9)

W_SPEC = "---- MODULE W ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\nStep == x' = x + 1\nNext == Step\n====\n"


def _w(tmp_path: Path) -> Path:
    (tmp_path / "W.tla").write_text(W_SPEC)
    (tmp_path / "W.cfg").write_text("INIT Init\nNEXT Next\n")
    return tmp_path / "W.tla"


def _window(i: int, pre, post) -> str:
    return json.dumps({"id": i, "trace_id": "t", "pre": {"x": pre}, "post": {"x": post}}) + "\n"


def test_a_trace_line_nested_3000_deep_is_a_reported_bad_line(tmp_path, capsys):
    from specula.traces.readers import iter_windows

    spec = _w(tmp_path)
    deep = '{"id": 2, "trace_id": "t", "pre": {"x": ' + "[" * 3000 + "]" * 3000 + '}, "post": {"x": 1}}\n'
    win = tmp_path / "windows_Step.ndjson"
    win.write_text(_window(1, 0, 1) + deep + _window(3, 1, 2))
    issues: list = []
    assert len(list(iter_windows(win, issues))) == 2  # in-process too: the line is skipped, not fatal
    assert issues[0].line == 2 and "nested" in issues[0].message
    assert main(["validate", str(spec), "--windows", str(win)]) == 0
    err = capsys.readouterr()
    assert f"{win}:2: " in err.out + err.err and "2/2 windows pass" in err.out


def test_a_mapping_nested_5000_deep_is_a_located_error(tmp_path):
    from specula.errors import ConfigError
    from specula.traces.mapping import load_mapping

    m = tmp_path / "map.yaml"
    m.write_text("variables:\n  x: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError) as exc:
        load_mapping(m)
    assert exc.value.line == 2 and "nested too deeply" in str(exc.value)


def test_a_10_mb_trace_value_is_cut_in_the_report(tmp_path, capsys):
    spec = _w(tmp_path)
    win = tmp_path / "windows_Step.ndjson"
    win.write_text(_window(1, "a" * 10_000_000, 1))
    assert main(["validate", str(spec), "--windows", str(win), "--json"]) == 1
    out = capsys.readouterr().out
    assert len(out) < 20_000 and "more characters cut" in out


def test_a_non_ascii_name_is_shown_as_itself(tmp_path):
    text = "---- MODULE U ----\nVARIABLE x\nInit == x = 0\nNext == x' = caf\u00e9\n====\n"
    with pytest.raises(SpecError) as exc:
        parse_module(text, "U.tla")
    d = exc.value.diagnostics()[0]
    assert "'\u00e9'" in d.message and "\ufffd" not in d.message and (d.line, d.col) == (4, 17)


def test_doctor_checks_the_compilers_of_the_bundled_systems(capsys):
    assert main(["doctor", "--json"]) in (0, 1)
    names = {c["name"] for c in json.loads(capsys.readouterr().out)["checks"]}
    assert {"gcc", "javac"} <= names


# ----------------------------------------------------------------------------- bundled references (item 7)

SYSTEMS = ROOT / "benchmarks" / "systems"
BUNDLED = sorted(p.name for p in SYSTEMS.iterdir() if (p / "task.yaml").is_file())


@pytest.mark.parametrize("system", BUNDLED)
def test_each_bundled_reference_passes_check_and_validate_with_defaults(system, capsys):
    ref = next((SYSTEMS / system / "ref").glob("*.tla"))
    # check: no error (raft's space is too large to finish: a time limit is not a failure)
    rc = main(["check", str(ref), "--max-seconds", "5"])
    assert rc in (0, 3), capsys.readouterr().out[-2000:]
    capsys.readouterr()
    traces = SYSTEMS / system / "traces"
    if not traces.is_dir():
        pytest.skip(f"{system} ships no traces")
    # validate with the task's own traces and nothing else: the task.yaml gives actions and mapping
    assert main(["validate", str(ref), "--traces", str(traces), "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["score"] == 1.0


# ----------------------------------------------------------------------------- memory (item 8)

def test_max_memory_stops_the_search_with_partial_figures(tmp_path, capsys):
    from specula.tla.memory import parse_memory, rss_bytes

    spec = tmp_path / "Big.tla"
    spec.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    ceiling = (rss_bytes() >> 20) + 40  # 40 MiB more than this process holds now
    assert main(["check", str(spec), "--max-memory", f"{ceiling}M", "--max-seconds", "300", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["stopped"] == "max_memory" and data["distinct"] > 1000
    assert parse_memory("4G") == 4 << 30 and parse_memory("0") is None and parse_memory("50%") > 0
    assert main(["check", str(spec), "--max-memory", "lots"]) == 2


# ----------------------------------------------------------------------------- silent accepts (item 4)

def test_a_task_whose_traces_path_does_not_exist_is_an_error(tmp_path, capsys):
    import shutil

    task = tmp_path / "spintask"
    shutil.copytree(SYSTEMS / "spinlock", task, ignore=shutil.ignore_patterns("traces", "build", "*.o"))
    rc = main(["eval", str(SYSTEMS / "spinlock" / "ref" / "spin.tla"), "--task", str(task)])
    err = capsys.readouterr().err
    assert rc == 2 and "traces" in err and "does not exist" in err and "task.yaml" in err


def test_bench_eval_says_it_kept_stored_results_and_rescores_on_request(tmp_path, capsys):
    from specula.bench.leaderboard import build_leaderboard
    from specula.bench.results import ResultStore

    specs = tmp_path / "specs" / "spinlock"
    specs.mkdir(parents=True)
    for f in (SYSTEMS / "spinlock" / "ref").glob("spin.*"):
        (specs / f.name).write_text(f.read_text())
    results = tmp_path / "r.jsonl"
    args = ["bench", "eval", "--spec-dir", str(tmp_path / "specs"), "--entry", "x", "--task", "spinlock",
            "--results", str(results)]
    assert main(args) == 0
    capsys.readouterr()
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "kept 1 stored result(s)" in err and "--rescore" in err
    assert main([*args, "--rescore", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["records"]) == 1
    store = ResultStore(results)
    assert len(list(store.records())) == 2  # the old record stays in the log ...
    board = build_leaderboard(store.records(), ["spinlock"])
    assert board.rows[0].runs == 1  # ... but the leaderboard counts the run once


# ----------------------------------------------------------------------------- long lines (item 3)

def test_a_20000_term_inline_conjunction_parses_in_linear_time():
    import time as _time

    from specula.tla import ast

    chain = " /\\ ".join(f"x # {i}" for i in range(20_000))
    text = f"---- MODULE Chain ----\nEXTENDS Naturals\nVARIABLE x\nInv == {chain}\n  /\\ x = 1\n====\n"
    t0 = _time.process_time()
    module = parse_module(text, "Chain.tla")
    assert _time.process_time() - t0 < 30  # as written it is quadratic in tree-sitter: minutes
    inv = next(u for u in module.units if getattr(u, "name", "") == "Inv")
    assert isinstance(inv.body, ast.And) and len(inv.body.args) == 20_001
    last = inv.body.args[-2]  # spans refer to the text as written: one line
    assert last.span.line == 4 and last.span.col == text.split("\n")[3].rindex("x # 19999") + 1


def test_breaking_long_lines_never_changes_a_parse(tmp_path):
    # every spec of the test corpus and the bundled systems, with lines broken every few bytes
    import glob

    import specula.tla.longlines as longlines

    files = sorted(glob.glob(str(ROOT / "tests" / "tla" / "fixtures" / "**" / "*.tla"), recursive=True)
                   + glob.glob(str(SYSTEMS / "*" / "ref" / "*.tla")))
    assert len(files) > 50
    defaults = longlines.split_long_lines.__defaults__

    def parse(text, f):
        try:
            return parse_module(text, f)
        except SpecError as exc:
            return [(d.code, d.line, d.col) for d in exc.diagnostics()]

    try:
        for f in files:
            text = Path(f).read_text(encoding="utf-8", errors="replace")
            longlines.split_long_lines.__defaults__ = defaults
            plain = parse(text, f)
            longlines.split_long_lines.__defaults__ = (30, 8)
            assert parse(text, f) == plain, f
    finally:
        longlines.split_long_lines.__defaults__ = defaults


# ----------------------------------------------------------------------------- start-up signals (item 1)

# The signal lands while specula is still importing its command modules: a meta-path hook sends
# it when `typer` is imported (before the fix that import ran before any handler existed, and the
# KeyboardInterrupt came out as a traceback from the middle of an import).
_SIGNAL_ON_IMPORT = """
import os, sys
class Hook:
    def find_spec(self, name, path=None, target=None):
        if name == "typer":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), {sig})
        return None
sys.meta_path.insert(0, Hook())
from specula.cli import main
sys.exit(main(["check", {spec!r}]))
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_start_up_imports_exits_130_quietly(sig):
    code = _SIGNAL_ON_IMPORT.format(sig=int(sig), spec=str(ROOT / "benchmarks/systems/spinlock/ref/spin.tla"))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 130, p.stderr
    assert "Traceback" not in p.stderr and p.stderr.strip() == "interrupted"
    assert p.stdout == ""  # the command never started


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_freshly_spawned_specula_interrupted_at_once_exits_130_quietly(tmp_path, sig):
    # sent as soon as specula starts loading its commands (Python's verbose import log says so), so
    # it lands somewhere in the imports or in the search that follows; either way: 130, no traceback
    spec = tmp_path / "Big.tla"
    spec.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONVERBOSE="1")
    p = subprocess.Popen(["specula", "check", str(spec)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, text=True)
    seen: list[str] = []
    for line in p.stderr:
        seen.append(line)
        if line.startswith("import 'specula.cli.app'"):  # the first command module has loaded
            break
    p.send_signal(sig)
    out, err = p.communicate(timeout=120)
    err = "".join(seen) + err
    assert p.returncode == 130, err[-3000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
