"""Issue 23: deep input, interrupts, --json errors, broken pipes (each fails on the code before it)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
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

def _interrupt_when(sig: int, marker: str, *args: str) -> tuple[int, str, str]:
    """Run specula, send ``sig`` once a progress line containing ``marker`` is on stderr (no sleeps:
    the line says the work is under way), and return (rc, stdout, stderr)."""
    p = _specula(*args)
    lines: list[bytes] = []
    seen = threading.Event()

    def read() -> None:
        for line in p.stderr:
            lines.append(line)
            if marker.encode() in line:
                seen.set()
        seen.set()  # the process ended without the marker: the assertion below says so

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert seen.wait(600), "no progress line"
    assert p.poll() is None, f"ended before {marker!r} was printed: {b''.join(lines).decode()[-2000:]}"
    p.send_signal(sig)
    out = p.stdout.read()
    p.wait(timeout=300)  # a hang guard, not a bound: the assertions below say it stopped at once
    reader.join(timeout=60)
    return p.returncode, out.decode(), b"".join(lines).decode()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_eval_exits_130_at_once_with_a_partial_card(sig):
    # the raft runtime check runs for a minute: the signal lands inside phase 2, once its search
    # reports progress; the remaining phases never run
    rc, out, err = _interrupt_when(sig, "runtime check: ", "eval", "benchmarks/systems/raft/ref/etcdraft.tla",
                                   "--task", "raft", "--json")
    assert rc == 130, err
    assert "interrupted" in err and "Traceback" not in err
    card = json.loads(out)
    assert card["meta"]["interrupted"] is True and card["meta"]["interrupted_in"] == "runtime"
    assert set(card["phases"]) == {"syntax"}  # phase 2 stopped where it was, 3 and 4 never started


def test_interrupted_validate_prints_its_partial_report_and_progress(tmp_path):
    # each window's check filters a 300,000-element set: a few hundred windows take minutes
    # (y - x = 1, not y = x + 1: the generated filter computes x + 1, the same for every y,
    # once); validate reports windows done/total and the rate on stderr (also with --json)
    spec = tmp_path / "Slow.tla"
    spec.write_text("---- MODULE Slow ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                    "Step == x' \\in {y \\in 0..300000 : y - x = 1}\nNext == Step\n====\n")
    (tmp_path / "Slow.cfg").write_text("INIT Init\nNEXT Next\n")
    win = tmp_path / "windows_Step.ndjson"
    win.write_text("".join(json.dumps({"id": i, "trace_id": "t", "pre": {"x": i}, "post": {"x": i + 1}}) + "\n"
                           for i in range(400)))
    rc, out, err = _interrupt_when(signal.SIGINT, "/400 windows (", "validate", str(spec), "--windows", str(win),
                                   "--json")
    assert rc == 130, err
    assert re.search(r"validate: \d+/400 windows \([\d.]+/s\)", err), err
    body = json.loads(out)  # stdout holds only the JSON
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
    # tree-sitter's cost is quadratic in the length of a line: the parser gets no line longer than
    # CHUNK past the limit (the time figures are benchmarks/perf/long_lines.py's, not a bound here)
    from specula.tla import ast
    from specula.tla.longlines import CHUNK, LONG_LINE, split_long_lines

    chain = " /\\ ".join(f"x # {i}" for i in range(20_000))
    text = f"---- MODULE Chain ----\nEXTENDS Naturals\nVARIABLE x\nInv == {chain}\n  /\\ x = 1\n====\n"
    broken = split_long_lines(text.encode())
    assert broken is not None and max(map(len, broken[0].split(b"\n"))) <= LONG_LINE + CHUNK
    module = parse_module(text, "Chain.tla")
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


# ----------------------------------------------------------------------------- progress (item 6)

def test_code_index_and_init_report_progress_on_stderr(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SPECULA_CACHE_DIR", str(tmp_path / "cache"))  # nothing comes from an earlier run's cache
    repo = tmp_path / "repo"
    repo.mkdir()
    for i in range(150):  # enough to take a while (a handful parse silently)
        (repo / f"m{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n")
    assert main(["code", "index", str(repo), "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)["files"] == 150  # stdout holds only the JSON
    assert "indexing 150 files: 0 from cache, 150 to parse" in cap.err
    monkeypatch.setenv("SPECULA_CACHE_DIR", str(tmp_path / "cache2"))
    assert main(["init", str(repo), "--dry-run", "--json"]) == 0  # `init` indexes the repository first
    cap = capsys.readouterr()
    assert json.loads(cap.out) and "indexing 150 files: 0 from cache, 150 to parse" in cap.err


def test_simulation_reports_progress_and_stops_at_the_memory_limit(tmp_path, capsys):
    spec = tmp_path / "Big.tla"
    spec.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    # a line every 5 s: runs done of the total, states generated, rate (the run is cut at 7 s)
    assert main(["check", str(spec), "--simulate", "--num", "1000000000", "--depth", "10", "--max-seconds", "7",
                 "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)["stopped"] == "max_seconds"
    assert re.search(r"simulation: \d+/1000000000 runs, [\d,]+ states generated \([\d,]+/s\)", cap.err), cap.err
    assert main(["check", str(spec), "--simulate", "--max-memory", "1M", "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["stopped"] == "max_memory"


def test_the_phases_report_progress_to_the_agent_scorer():
    # `specula model`: the scorer's progress lines reach the live view ("working" row) or stderr
    from specula.agent.liveview import LiveState
    from specula.bench.scoring import TaskScorer
    from specula.tasks import load_task

    lines: list[str] = []
    card = TaskScorer(load_task("spinlock"), on_progress=lines.append).score(SYSTEMS / "spinlock" / "ref" / "spin.tla",
                                                                            only=["runtime"])
    assert card.score("runtime") > 0
    assert any(line.startswith("runtime") for line in lines), lines
    state = LiveState("m")
    state.on_event({"event": "progress", "text": lines[-1]})
    assert state.progress == lines[-1]
    state.on_event({"event": "evaluation", "scores": {}, "overall": 0.5})
    assert state.progress == ""  # the evaluation it described is over


# ----------------------------------------------------------------------------- --max-memory everywhere (item 8)

SPIN = SYSTEMS / "spinlock" / "ref" / "spin.tla"


@pytest.mark.parametrize("args", [
    ["check", str(SPIN)], ["check", str(SPIN), "--simulate"], ["eval", str(SPIN), "--task", "spinlock"],
    ["validate", str(SPIN), "--traces", str(SYSTEMS / "spinlock" / "traces")],
    ["bench", "eval", "--spec-dir", str(SYSTEMS), "--entry", "x", "--task", "spinlock"],
    ["model", "spinlock", "--model", "openai/x"], ["bench", "run", "--model", "openai/x", "--task", "spinlock"],
    ["mcp", "spinlock"], ["session", "spinlock"],
], ids=["check", "simulate", "eval", "validate", "bench-eval", "model", "bench-run", "mcp", "session"])
def test_every_search_command_takes_max_memory(args, capsys):
    if args[0] in ("mcp", "session"):  # no --json: the one-line error names the flag
        assert main([*args, "--max-memory", "lots"]) == 2
        assert capsys.readouterr().err.startswith("--max-memory: error: 'lots' is not a memory size")
        return
    assert main([*args, "--max-memory", "lots", "--json"]) == 2  # checked before any work
    body = json.loads(capsys.readouterr().out)
    assert body["error"]["location"]["file"] == "--max-memory" and "not a memory size" in body["error"]["message"]


def test_max_memory_stops_eval_and_validate_with_partial_figures(capsys, tmp_path):
    # 1M is below what any process holds: every search stops at its first memory check
    html = tmp_path / "r.html"
    rc = main(["eval", str(SPIN), "--task", "spinlock", "--phase", "runtime", "--max-memory", "1M", "--json",
               "--html", str(html)])
    card = json.loads(capsys.readouterr().out)
    assert rc == 0 and card["phases"]["runtime"]["detail"]["check"]["stopped"] == "max_memory"
    assert card["meta"]["not_exhaustive"][0].startswith("runtime: passed by memory limit: ")
    assert "<p class='warn'>not exhaustive: runtime: passed by memory limit: " in html.read_text()  # the report
    rc = main(["validate", str(SPIN), "--traces", str(SYSTEMS / "spinlock" / "traces"), "--max-memory", "1M",
               "--json"])
    cap = capsys.readouterr()
    body = json.loads(cap.out)
    assert rc == 3 and body["stopped"] == "max_memory" and 0 < body["windows_total"]
    assert "stopped by the memory limit" in cap.err and "partial report" in cap.err


# ----------------------------------------------------------------------------- bench eval --strict (item 1)

def test_bench_eval_says_a_pass_by_a_limit_plainly_and_strict_scores_it_incomplete(tmp_path, capsys):
    specs = tmp_path / "specs" / "spinlock"
    specs.mkdir(parents=True)
    for f in (SYSTEMS / "spinlock" / "ref").glob("spin.*"):
        (specs / f.name).write_text(f.read_text())
    base = ["bench", "eval", "--spec-dir", str(tmp_path / "specs"), "--task", "spinlock", "--max-memory", "1M",
            "--results", str(tmp_path / "r.jsonl"), "--json"]
    assert main([*base, "--entry", "lax"]) == 0
    cap = capsys.readouterr()
    lax = json.loads(cap.out)["records"][0]
    assert lax["strict"] is False and lax["not_exhaustive"][0].startswith("runtime: passed by memory limit: ")
    assert "not exhaustive: runtime: passed by memory limit" in cap.err  # the report says it too
    card = json.loads(Path(lax["scorecard"]).read_text())
    assert card["meta"]["not_exhaustive"] == lax["not_exhaustive"]  # and the stored scorecard
    assert main([*base, "--entry", "strict", "--strict"]) == 0
    strict = json.loads(capsys.readouterr().out)["records"][0]
    assert strict["strict"] is True and strict["not_exhaustive"][0].startswith("runtime: incomplete (--strict): ")
    card = json.loads(Path(strict["scorecard"]).read_text())
    assert card["phases"]["runtime"]["detail"]["check_passed"] is False
    assert strict["overall"] < 1.0


def test_coverage_and_bench_traces_report_progress_on_stderr(tmp_path, capsys):
    rw = SYSTEMS / "rwmutex"
    ref = next((rw / "ref").glob("*.tla"))
    assert main(["coverage", str(ref), "--traces", str(rw / "traces"), "--mapping", str(rw / "mapping.yaml"),
                 "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)["actions"]  # stdout holds only the JSON
    assert "coverage: ReleaseLock: CASE" in cap.err  # the branch being checked
    assert main(["bench", "traces", "ringbuffer", "--runs", "1", "--out", str(tmp_path / "t"), "--json"]) == 0
    cap = capsys.readouterr()
    assert len(json.loads(cap.out)["files"]) == 1
    assert "ringbuffer: recording 1 trace(s), seeds 0..0" in cap.err


def test_interrupted_bench_traces_stops_the_harness(tmp_path):
    # 400 raft runs take the harness about a minute; Ctrl-C once recording starts kills it (before,
    # specula waited for the harness to write all 400 traces and only then exited)
    out = tmp_path / "t"
    rc, _, err = _interrupt_when(signal.SIGINT, "recording 400 trace(s)", "bench", "traces", "raft", "--runs", "400",
                                 "--out", str(out))
    assert rc == 130 and "Traceback" not in err and err.rstrip().endswith("interrupted"), err
    assert len(list(out.glob("*"))) < 400


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_interrupted_bench_eval_stops_at_once_and_stores_nothing_partial(tmp_path, jobs):
    # the raft reference's runtime check runs a minute: Ctrl-C once it reports progress; the specs
    # being scored are not stored (they are scored again next time), and the command exits 130.
    # With --jobs 2 both running specs stop (before, the pool ran them to their end first).
    specs = tmp_path / "specs" / "raft"
    for run in ("1", "2"):
        (specs / run).mkdir(parents=True)
        for f in (SYSTEMS / "raft" / "ref").glob("etcdraft.*"):
            (specs / run / f.name).write_text(f.read_text())
    results = tmp_path / "r.jsonl"
    rc, out, err = _interrupt_when(signal.SIGINT, "raft run 1: runtime check: ", "bench", "eval", "--spec-dir",
                                   str(tmp_path / "specs"), "--entry", "x", "--task", "raft", "--results", str(results),
                                   "--jobs", jobs)
    assert rc == 130 and "interrupted" in err and "Traceback" not in err, err
    assert "overall" not in err and not (results.is_file() and results.read_text().strip())
    assert not list(specs.glob("*/etcdraft.scorecard.json"))
    assert "runtime coverage" not in err  # the runtime check of neither spec went on to its simulation runs


def test_the_interactive_check_tool_stops_at_the_memory_limit(tmp_path):
    # `specula mcp` / `session`: check_spec with every limit off still stops at --max-memory
    from specula.agent.evaluate import Scoring
    from specula.agent.messages import ToolCall
    from specula.agent.rundir import RunDir
    from specula.agent.tools import Session
    from specula.agent.workspace import WorkspaceToolbox
    from specula.bench.scoring import TaskScorer
    from specula.phases import RuntimeSettings
    from specula.tasks import load_task

    unbounded = ("---- MODULE spin ----\nEXTENDS Naturals\nVARIABLE n\nInit == n = 0\nStartLock == n' = n + 1\n"
                 "AcquireLock == n' = n + 2\nReleaseLock == n' = n + 3\n"
                 "Next == StartLock \\/ AcquireLock \\/ ReleaseLock\nSpec == Init /\\ [][Next]_n\n====\n")
    task = load_task("spinlock")
    tb = WorkspaceToolbox(Session(task, RunDir.create(tmp_path / "runs", task.to_dict())),
                          Scoring(TaskScorer(task, RuntimeSettings(max_memory="1M"))))
    tb.call(ToolCall(id="1", name="write_spec", arguments={"tla": unbounded, "cfg": "SPECIFICATION Spec\n"}))
    text, _ = tb.call(ToolCall(id="2", name="check_spec", arguments={"max_states": 0, "max_seconds": 0}))
    assert "stopped: reached the memory limit" in text
    text, _ = tb.call(ToolCall(id="3", name="check_spec", arguments={"simulate": True, "max_seconds": 0}))
    assert "stopped: max_memory" in text
