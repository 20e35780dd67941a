"""``check --workers N`` (specula.tla.parallel): the multi-process search reports what the
single-process search reports — TLC's verdict, counts and depth (expected.json, recorded with
TLC), the same counterexample, queue and coverage, also when it stops at an error or a limit —
and checks in one process, saying why, what it cannot reproduce exactly."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from specula.cli import main
from specula.errors import WorkerError
from specula.tla import parallel
from specula.tla.checker import Limits, build_model, check, check_spec

SPECS = Path(__file__).resolve().parents[1] / "specs"
EXPECTED: dict[str, dict] = json.loads((SPECS / "expected.json").read_text())

# passing models (with SYMMETRY, VIEW, constraints) and every way a search ends at an error:
# invariant (also of an initial state), deadlock, action property, evaluation error
PARALLEL = ["ActionConstraint", "ActionPropFail", "Arith", "DisjInside", "EvalError", "InitViolation", "Jugs",
            "MutexBuggy", "NestedExcept", "Philosophers", "Queue", "SetMapFilter", "Strings", "SubsetNext",
            "Symmetric", "TwoPhase", "ViewSpec"]


@pytest.fixture(autouse=True)
def _workers_from_the_first_level(monkeypatch):
    # the checker hands over to the workers at the first level of SPLIT_LEVEL states; these
    # models are small: from the first level on
    monkeypatch.setattr(parallel, "SPLIT_LEVEL", 1)


def _figures(res) -> tuple:
    return (res.verdict, res.message, res.violated, res.distinct, res.generated, res.depth, res.queue_left,
            res.stopped, res.counterexample, [(c.generated, c.distinct) for c in res.coverage],
            [(p.name, p.status) for p in res.properties])


def _run(tla: Path, cfg: Path, workers: int, **limits):
    model, c = build_model(tla, cfg)
    return check(model, Limits(**limits), cfg=c, workers=workers)


@pytest.mark.parametrize("name", PARALLEL)
def test_two_workers_report_tlcs_figures_and_the_single_search_trace(name: str) -> None:
    exp = EXPECTED[name]
    one = check_spec(SPECS / f"{name}.tla", SPECS / f"{name}.cfg", Limits(max_seconds=60), workers=1)
    two = check_spec(SPECS / f"{name}.tla", SPECS / f"{name}.cfg", Limits(max_seconds=60), workers=2)
    # an initial state's violation ends the search before the workers start
    assert two.workers == (1 if name == "InitViolation" else 2) and not two.workers_note
    assert two.verdict == exp["verdict"], two.message
    for field in ("distinct", "generated", "depth", "violated"):
        if exp[field] is not None:
            assert getattr(two, field) == exp[field], field
    if exp["trace_len"]:
        assert len(two.counterexample) == exp["trace_len"]
    assert _figures(two) == _figures(one)


GRID = """---- MODULE Grid ----
EXTENDS Naturals
CONSTANTS N, A, B
VARIABLES x, y, z
Init == x \\in 0..1 /\\ y = 0 /\\ z = 0
Next == \\/ x < N /\\ x' = x + 1 /\\ UNCHANGED <<y, z>>
        \\/ y < N /\\ y' = (y + x + z) % N /\\ UNCHANGED <<x, z>>
        \\/ \\E k \\in 0..2 : z' = (z + k * x + y) % 7 /\\ UNCHANGED <<x, y>>
        \\/ x = A /\\ y = B /\\ z = 1 /\\ x' = CHOOSE v \\in {} : TRUE /\\ UNCHANGED <<y, z>>
Stuck == \\/ x < A /\\ x' = x + 1 /\\ UNCHANGED <<y, z>>
         \\/ y < B /\\ y' = y + 1 /\\ UNCHANGED <<x, z>>
         \\/ x + y < A + B - 1 /\\ z < 3 /\\ z' = z + 1 /\\ UNCHANGED <<x, y>>
Inv == ~(x = A /\\ y = B /\\ z = 4)
InvErr == IF x = A /\\ y = B /\\ z = 2 THEN CHOOSE v \\in {} : TRUE ELSE TRUE
Steps == [][~(x = A /\\ y' = B /\\ z' = 2)]_<<x, y, z>>
Con == x + y < A + B
====
"""
GRID_CASES = {
    "next-error": "NEXT Next\n",
    "invariant-error": "NEXT Next\nINVARIANT InvErr\n",
    "invariant-constraint": "NEXT Next\nINVARIANT Inv\nCONSTRAINT Con\n",
    "action-property": "NEXT Next\nPROPERTY Steps\n",
    "deadlock": "NEXT Stuck\n",
}


@pytest.mark.parametrize("case", sorted(GRID_CASES))
@pytest.mark.parametrize("a,b", [(1, 4), (3, 1), (7, 7)])
@pytest.mark.parametrize("split", [1, 12])
def test_the_error_met_first_wins_wherever_it_is_in_the_level(tmp_path: Path, monkeypatch, case: str, a: int, b: int,
                                                              split: int) -> None:
    # three workers (from the first level, or handed over by the checker at a level of 12
    # states), errors placed at different points of a level: the counts, the queue and the
    # trace at the error are the single search's
    monkeypatch.setattr(parallel, "SPLIT_LEVEL", split)
    tla = tmp_path / "Grid.tla"
    tla.write_text(GRID)
    cfg = tmp_path / "Grid.cfg"
    cfg.write_text(f"CONSTANTS N = 9 A = {a} B = {b}\nINIT Init\n{GRID_CASES[case]}")
    one, three = _run(tla, cfg, 1), _run(tla, cfg, 3)
    assert three.workers == 3 or split > 1  # (a search may end before a level of 12 states)
    assert _figures(three) == _figures(one)


@pytest.mark.parametrize("limit", [{"max_states": n} for n in (1, 2, 7, 50, 143, 287)]
                         + [{"max_depth": d} for d in (1, 2, 6, 11, 12)])
@pytest.mark.parametrize("split", [1, 30])
def test_state_and_depth_limits_cut_where_the_single_search_cuts(monkeypatch, limit: dict, split: int) -> None:
    monkeypatch.setattr(parallel, "SPLIT_LEVEL", split)
    tla, cfg = SPECS / "TwoPhase.tla", SPECS / "TwoPhase.cfg"
    one, two = _run(tla, cfg, 1, **limit), _run(tla, cfg, 2, **limit)
    assert two.workers == 2 or split > 1 or limit.get("max_depth") == 1 or limit.get("max_states") == 1
    assert _figures(two) == _figures(one)


def test_temporal_properties_are_checked_in_one_process_with_the_reason(capsys) -> None:
    exp = EXPECTED["LiveFairPropFail"]
    res = check_spec(SPECS / "LiveFairPropFail.tla", SPECS / "LiveFairPropFail.cfg", workers=2)
    assert res.workers == 1 and "temporal properties (FairY)" in res.workers_note
    assert (res.verdict, res.distinct, res.generated) == (exp["verdict"], exp["distinct"], exp["generated"])
    assert main(["check", str(SPECS / "LiveCycle.tla"), "--workers", "2"]) == 0
    err = capsys.readouterr().err
    assert "--workers 2: checked in one process: temporal properties" in err


def test_a_spec_whose_results_depend_on_the_search_order_is_checked_in_one_process(tmp_path: Path) -> None:
    tla = tmp_path / "Level.tla"
    tla.write_text("---- MODULE Level ----\nEXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0\n"
                   "Next == x' = (x + 1) % 5\nShallow == TLCGet(\"level\") < 4\n====\n")
    (tmp_path / "Level.cfg").write_text("INIT Init\nNEXT Next\nCONSTRAINT Shallow\n")
    res = check_spec(tla, tmp_path / "Level.cfg", workers=2)
    assert res.workers == 1 and "Level.tla uses TLCGet" in res.workers_note
    # TLC 2.18: 4 states generated, 3 distinct states found, depth 3
    assert (res.verdict, res.generated, res.distinct, res.depth) == ("ok", 4, 3, 3)


# 2,000 initial states: wide levels from the start (the worker processes search from the first one)
BIG = ("---- MODULE Big ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x \\in 0..1999 /\\ y = 0\n"
       "Next == \\/ x' = (x + 1) % 100000 /\\ y' = y\n        \\/ y' = (y + 1) % 100000 /\\ x' = x\n====\n")


def _workers() -> list:
    return [p for p in multiprocessing.active_children() if p.name.startswith("specula-worker-")]


def test_a_worker_that_dies_is_a_clear_error_and_leaves_no_process(tmp_path: Path) -> None:
    tla = tmp_path / "Big.tla"
    tla.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    out: list = []

    def run() -> None:
        try:
            out.append(check_spec(tla, tmp_path / "Big.cfg", Limits(max_seconds=600), workers=2))
        except WorkerError as exc:
            out.append(exc)

    t = threading.Thread(target=run)
    t.start()
    while len(_workers()) < 2 and t.is_alive():  # wait for the workers to exist
        time.sleep(0.01)
    victim = next(p for p in _workers() if p.name == "specula-worker-1")
    os.kill(victim.pid, signal.SIGKILL)
    t.join(600)
    assert not t.is_alive()
    assert isinstance(out[0], WorkerError) and "worker 1 of the search stopped unexpectedly (killed by signal 9)" in str(out[0])
    assert _workers() == []


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids += [int(x) for x in (task / "children").read_text().split()]
    return kids


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc")
def test_ctrl_c_stops_every_worker_and_prints_the_figures_so_far(tmp_path: Path) -> None:
    tla = tmp_path / "Big.tla"
    tla.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    p = subprocess.Popen(["specula", "check", str(tla), "--workers", "2", "--json"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    err = b""
    for line in p.stderr:  # the first progress line: the workers are searching
        err += line
        if b"states generated" in line and b"Progress(1)" not in line:
            break
    kids = _children(p.pid)
    assert len(kids) >= 2, err.decode()
    p.send_signal(signal.SIGINT)
    out, rest = p.communicate(timeout=300)
    assert p.returncode == 130, (err + rest).decode()
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and data["distinct"] > 1 and data["generated"] > 1
    for pid in kids:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]


def test_a_time_limit_stops_the_workers_with_the_figures_so_far(tmp_path: Path, capsys) -> None:
    tla = tmp_path / "Big.tla"
    tla.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    assert main(["check", str(tla), "--workers", "2", "--max-seconds", "1", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["stopped"] == "max_seconds" and data["distinct"] > 1
    assert _workers() == []


def test_a_memory_limit_stops_the_workers_with_the_figures_so_far(tmp_path: Path, monkeypatch) -> None:
    # the processes' proportional set sizes are summed only when their resident sizes reach the
    # limit (an upper bound read in O(1))
    tla = tmp_path / "Big.tla"
    tla.write_text(BIG)
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    asked = []
    monkeypatch.setattr(parallel, "pss_bytes", lambda pid: asked.append(pid) or 10**6)
    res = _run(tla, tmp_path / "Big.cfg", 2, max_memory=3 * 10**6 - 1)
    assert (res.verdict, res.stopped, res.workers) == ("limit", "max_memory", 2) and len(asked) == 3
    assert _workers() == []
    asked.clear()
    res = _run(tla, tmp_path / "Big.cfg", 2, max_memory=3 * 10**6 + 1, max_states=30_000)
    assert (res.verdict, res.stopped) == ("limit", "max_states") and len(asked) % 3 == 0
    asked.clear()
    res = _run(tla, tmp_path / "Big.cfg", 2, max_memory=10**15, max_states=30_000)
    assert (res.verdict, res.stopped) == ("limit", "max_states") and asked == []


def test_action_composition_is_checked_in_one_process() -> None:
    # the intermediate states of A \cdot B are counted by the one-process search only; TLC 2.18
    # (-Dtlc2.tool.impl.Tool.cdot=true): 55 states generated, 14 distinct, 5 left (test_cdot.py)
    cdot = Path(__file__).resolve().parent / "cdot"
    res = check_spec(cdot / "Cdot.tla", cdot / "Cdot.cfg", workers=2)
    assert res.workers == 1 and "composes actions" in res.workers_note
    assert (res.verdict, res.distinct, res.generated, res.queue_left) == ("deadlock", 14, 55, 5)


def test_workers_is_one_when_no_level_reaches_the_split(monkeypatch) -> None:
    monkeypatch.setattr(parallel, "SPLIT_LEVEL", 10_000)
    res = check_spec(SPECS / "TwoPhase.tla", SPECS / "TwoPhase.cfg", workers=2)
    assert res.workers == 1 and not res.workers_note and (res.distinct, res.generated) == (288, 1146)


def test_workers_option_every_core_by_default_auto_and_bad_counts(capsys, monkeypatch) -> None:
    # the default is every core (as --workers auto); a note on why one process searched is printed
    # only when workers were asked for
    spec = str(SPECS / "Jugs.tla")
    asked: list[int] = []
    real = parallel.default_workers
    monkeypatch.setattr(parallel, "default_workers", lambda: asked.append(1) or 2)
    assert main(["check", spec, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["distinct"] == EXPECTED["Jugs"]["distinct"] and asked == [1]
    assert main(["check", spec, "--workers", "auto", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["distinct"] == EXPECTED["Jugs"]["distinct"] and asked == [1, 1]
    live = str(SPECS / "LiveCycle.tla")  # temporal properties: one process, said only when asked
    assert main(["check", live]) == 0
    assert "checked in one process" not in capsys.readouterr().err and asked == [1, 1, 1]
    assert main(["check", live, "--workers", "auto"]) == 0
    assert "--workers 2: checked in one process: temporal properties" in capsys.readouterr().err
    monkeypatch.setattr(parallel, "default_workers", real)
    for bad in ("0", "two", "-3"):
        assert main(["check", spec, "--workers", bad]) == 2
        err = capsys.readouterr().err
        assert "--workers" in err and "not a positive number of workers or 'auto'" in err and "Traceback" not in err


# a VIEW whose value is sometimes a tuple as wide as the state (numbered by column, as the
# states are) and sometimes not (a shorter or longer sequence: kept by value): both kinds of key
# in one search
VIEW_MIX = """---- MODULE ViewMix ----
EXTENDS Naturals, Sequences
VARIABLES s, n
Init == s = <<>> /\\ n = 0
Next == \\/ n < 7 /\\ n' = n + 1 /\\ s' = Append(s, n % 3)
        \\/ Len(s) > 0 /\\ s' = Tail(s) /\\ n' = n
        \\/ n < 7 /\\ n' = n + 1 /\\ s' = s
Abs == IF Len(s) = 2 THEN <<s[2], s[1]>> ELSE s
Inv == Len(s) < 6
====
"""


@pytest.mark.parametrize("inv,tlc", [(False, ("ok", 19, 51, 10, 0)), (True, ("invariant", 11, 22, 7, 2))])
def test_a_view_that_is_sometimes_as_wide_as_the_state(tmp_path: Path, inv: bool, tlc: tuple) -> None:
    # TLC 2.18 -workers 1: 51 generated, 19 distinct, depth 10; with Inv: violated, 22
    # generated, 11 distinct, 2 left on the queue, depth 7
    tla = tmp_path / "ViewMix.tla"
    tla.write_text(VIEW_MIX)
    cfg = tmp_path / "ViewMix.cfg"
    cfg.write_text("INIT Init\nNEXT Next\nVIEW Abs\nCHECK_DEADLOCK FALSE\n" + ("INVARIANT Inv\n" if inv else ""))
    one = _run(tla, cfg, 1)
    assert (one.verdict, one.distinct, one.generated, one.depth, one.queue_left) == tlc
    for n in (2, 3):
        res = _run(tla, cfg, n)
        assert res.workers == n and _figures(res) == _figures(one)


# states met again many levels after their first discovery, from every worker (x and y wrap
# around): a state found by several workers is kept once, at its smallest place
TORUS = """---- MODULE Torus ----
EXTENDS Naturals
VARIABLES x, y, s
Init == x \\in 0..2 /\\ y = 0 /\\ s = {}
Next == \\/ x' = (x + 1) % 13 /\\ y' = y /\\ s' = s
        \\/ y' = (y + x) % 11 /\\ x' = x /\\ s' = s
        \\/ x > 5 /\\ s' = s \\cup {y % 4} /\\ UNCHANGED <<x, y>>
Inv == ~(x = 12 /\\ y = 10 /\\ s = {0, 1, 2, 3})
====
"""


@pytest.mark.parametrize("inv,tlc", [(False, ("ok", 2288, 5811, 25, 0, 0)),
                                     (True, ("invariant", 1795, 4461, 19, 172, 19))])
@pytest.mark.parametrize("workers", [2, 3])
def test_states_met_again_levels_later_by_every_worker(tmp_path: Path, inv: bool, tlc: tuple, workers: int) -> None:
    # TLC 2.18 -workers 1: 5,811 generated, 2,288 distinct, depth 25; with Inv: violated, a
    # trace of 19 states, 4,461 generated, 1,795 distinct, 172 left on the queue
    _against_tlc(tmp_path, "Torus", TORUS, inv, tlc, workers)


def _against_tlc(tmp_path: Path, name: str, text: str, inv: bool, tlc: tuple, workers: int,
                 cfg_extra: str = "") -> tuple:
    """The module ``text`` checked with Init/Next (and Inv when ``inv``, and ``cfg_extra``) by
    ``workers`` workers and by one process: TLC's (verdict, distinct, generated, depth, queue,
    trace length) for both."""
    tla = tmp_path / f"{name}.tla"
    tla.write_text(text)
    cfg = tmp_path / f"{name}.cfg"
    cfg.write_text("INIT Init\nNEXT Next\n" + ("INVARIANT Inv\n" if inv else "") + cfg_extra)
    res = _run(tla, cfg, workers)
    assert res.workers == workers
    assert (res.verdict, res.distinct, res.generated, res.depth, res.queue_left,
            len(res.counterexample or [])) == tlc
    one = _run(tla, cfg, 1)
    assert _figures(res) == _figures(one)
    return res, one


@pytest.mark.parametrize("name", ["Symmetric", "ViewSpec", "TwoPhase", "Jugs"])
def test_three_workers_report_tlcs_figures(name: str) -> None:
    # three workers: states found by two or three of them (SYMMETRY and VIEW keys too)
    exp = EXPECTED[name]
    res = check_spec(SPECS / f"{name}.tla", SPECS / f"{name}.cfg", Limits(max_seconds=60), workers=3)
    assert res.workers == 3
    assert (res.verdict, res.distinct, res.generated, res.depth) == (exp["verdict"], exp["distinct"],
                                                                     exp["generated"], exp["depth"])
    if exp["trace_len"]:
        assert len(res.counterexample) == exp["trace_len"]


# -1 and -2 in the same variable, in a set and in a record: Python's hash(-1) == hash(-2), so a
# seen set of fingerprints built from Python's hashes would take these states for one (216
# distinct instead of 1,024); the workers' fingerprints are built from codes of the values that
# no such structure makes meet (parallel._Codes)
NEG_ONE = """---- MODULE NegOne ----
EXTENDS Integers
VARIABLES x, s, r
Init == x = 0 /\\ s = {} /\\ r = [a |-> 0, b |-> 0]
Next == \\/ x > -2 /\\ x' = x - 1 /\\ UNCHANGED <<s, r>>
        \\/ x < 0 /\\ x' = x + 2 /\\ UNCHANGED <<s, r>>
        \\/ s' = s \\cup {x} /\\ UNCHANGED <<x, r>>
        \\/ \\E k \\in {"a", "b"} : r' = [r EXCEPT ![k] = x] /\\ UNCHANGED <<x, s>>
Inv == ~(x = -2 /\\ s = {-1, -2} /\\ r.a = -1 /\\ r.b = -2)
====
"""


@pytest.mark.parametrize("inv,tlc", [(False, ("ok", 1024, 4353, 14, 0, 0)),
                                     (True, ("invariant", 226, 482, 7, 110, 7))])
@pytest.mark.parametrize("workers", [2, 3])
def test_minus_one_and_minus_two_are_different_states(tmp_path: Path, inv: bool, tlc: tuple, workers: int) -> None:
    # TLC 2.18 -workers 1: 4,353 generated, 1,024 distinct, depth 14; with Inv: violated, a trace
    # of 7 states, 482 generated, 226 distinct, 110 left on the queue
    res, one = _against_tlc(tmp_path, "NegOne", NEG_ONE, inv, tlc, workers)
    # TLC's "calculated (optimistic): val = 1.8E-13" (none for one process: exact comparisons)
    assert one.fp_collision is None and f"{res.fp_collision:.1E}" == ("1.8E-13" if not inv else "3.1E-15")


# the workers check a new state's invariants with fresh(succ, parent, raw): a conjunct of one
# variable is skipped when the value is pooled already (a state it held for had it). Successors
# outside the CONSTRAINT are pooled too, once checked: with InvOom the first violation is such a
# successor (s = <<2, 1, 0>> while x <= 6); with InvIn, s = <<1, 1, 1>> is first met (and
# pooled) outside the constraint, and the state violating the invariant's last conjunct, found
# by several workers, has that value
OOM_POOL = """---- MODULE OomPool ----
EXTENDS Naturals, Sequences
VARIABLES x, y, s
Init == x \\in 0..2 /\\ y = 0 /\\ s = <<>>
Next == \\/ x' = (x + 1) % 13 /\\ y' = y /\\ s' = s
        \\/ y' = (y + x) % 11 /\\ x' = x /\\ s' = s
        \\/ Len(s) < 3 /\\ s' = Append(s, (x + y) % 3) /\\ UNCHANGED <<x, y>>
        \\/ s /= <<>> /\\ s' = Tail(s) /\\ UNCHANGED <<x, y>>
Con == Len(s) < 3 \\/ x > 6
Inv == INV
====
"""
OOM_INV = {"none": "TRUE",
           "oom": "/\\ s \\in Seq(0..2)\n       /\\ s /= <<2, 1, 0>>",
           "in": "/\\ s \\in Seq(0..2)\n       /\\ x \\in 0..12\n       /\\ ~(x = 12 /\\ y = 10 /\\ s = <<1, 1, 1>>)"}


@pytest.mark.parametrize("case,tlc", [("none", ("ok", 3641, 12642, 17, 0, 0)),
                                      ("oom", ("invariant", 313, 587, 6, 157, 6)),
                                      ("in", ("invariant", 3253, 9846, 15, 473, 15))])
@pytest.mark.parametrize("workers", [2, 3])
def test_values_first_met_outside_the_constraint(tmp_path: Path, case: str, tlc: tuple, workers: int) -> None:
    # TLC 2.18 -workers 1: 12,642 generated, 3,641 distinct, depth 17; InvOom violated by a
    # successor outside the constraint: 587 generated, 313 distinct, 157 left on the queue, a
    # trace of 6 states; InvIn: 9,846 generated, 3,253 distinct, 473 left, a trace of 15
    _against_tlc(tmp_path, "OomPool", OOM_POOL.replace("INV", OOM_INV[case]), True, tlc, workers,
                 "CONSTRAINT Con\n")


# the state violating the invariant is found by two workers in one level (from x = 8 and from
# x = 9, given to different workers): each checks it as it finds it; the one that does not keep
# it leaves the report to the one that does, at the smaller place
MEET = """---- MODULE Meet ----
EXTENDS Naturals
VARIABLES x, y
Init == x \\in 0..20 /\\ y = 0
Next == \\/ x' = x + 1 /\\ y' = y + 1
        \\/ x' = x + 2 /\\ y' = y + 1
Inv == ~(x = 10 /\\ y = 1)
InvErr == IF x = 10 /\\ y = 1 THEN CHOOSE v \\in {} : TRUE ELSE TRUE
====
"""


@pytest.mark.parametrize("workers", [2, 3])
def test_a_violating_state_found_by_two_workers(tmp_path: Path, workers: int) -> None:
    # TLC 2.18 -workers 1: Inv violated, 39 generated, 31 distinct, 21 left on the queue, depth
    # 2, the trace x = 8 then x = 10 (Next's second disjunct)
    res, _ = _against_tlc(tmp_path, "Meet", MEET, True, ("invariant", 31, 39, 2, 21, 2), workers)
    assert [d["state"]["x"] for d in res.trace_dicts()] == [8, 10]
    # InvErr: TLC's error on the same state, with the same counts, queue (21: the state whose
    # invariant cannot be evaluated is not enqueued) and trace
    (tmp_path / "Meet.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT InvErr\n")
    one, many = _run(tmp_path / "Meet.tla", tmp_path / "Meet.cfg", 1), _run(tmp_path / "Meet.tla",
                                                                            tmp_path / "Meet.cfg", workers)
    assert (many.verdict, many.distinct, many.generated, many.depth, many.queue_left,
            len(many.counterexample)) == ("error", 31, 39, 2, 21, 2)
    assert many.workers == workers and _figures(many) == _figures(one)


def test_value_codes_meet_only_for_equal_values() -> None:
    from specula.tla.values import ModelValue, fn_of_items

    code = parallel._Codes().code
    distinct = [-1, -2, 0, 1, 2, 2**61 - 1 + 1, 2**64 + 1, -(2**61), "1", "a", ModelValue("a"), (), (-1,), (-2,),
                (1, 2), (2, 1), ((1, 2), 3), (1, (2, 3)), frozenset(), frozenset({-1}), frozenset({-2}),
                frozenset({1, 2}), frozenset({3}), frozenset({frozenset({1, 2}), frozenset({3})}),
                frozenset({frozenset({1}), frozenset({2, 3})}), fn_of_items((("a", -1),)), fn_of_items((("a", -2),)),
                fn_of_items((("a", 1), ("b", 2))), fn_of_items((("a", 2), ("b", 1))),
                fn_of_items(((ModelValue("r1"), "w"), (ModelValue("r2"), "x"))),
                fn_of_items(((ModelValue("r1"), "x"), (ModelValue("r2"), "w")))]
    codes = [code(v) for v in distinct]
    assert len(set(codes)) == len(codes)
    assert all(0 <= c < 2**61 - 1 for c in codes)
    # values Python finds equal have one code, as the single search's seen set has one entry
    # for them (TRUE and 1: docs/checker.md)
    assert code(True) == code(1) and code(frozenset({True})) == code(frozenset({1}))
    assert code(fn_of_items((("a", -1),))) == code(fn_of_items((("a", -1),)))
