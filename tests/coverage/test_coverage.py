"""Trace coverage: windows per action and per branch of the spec (specula coverage)."""

from __future__ import annotations

import json
from pathlib import Path

from specula.coverage import action_branches, spec_coverage, variant
from specula.tla import load_text, parse_module

FIX = Path(__file__).parent / "fixtures"
SYSTEMS = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"


def _branches(report) -> dict[tuple[str, str], int]:
    return {(a.action, b.branch.label.split(":")[0]): b.windows for a in report.actions for b in a.branches}


def test_counter_windows_per_action_and_branch():
    """Expected counts are read off the hand-written trace: three Step windows, all counting up;
    one Flip below 3 (ELSE) and one at 3 (THEN); one Reset in mode down (the CASE arm)."""
    r = spec_coverage(FIX / "counter" / "Counter.tla", [FIX / "counter" / "traces"])
    rows = {a.action: (a.windows, a.accepted) for a in r.actions}
    assert rows == {"Step": (3, 3), "Flip": (2, 2), "Reset": (1, 1)}
    got = _branches(r)
    assert got[("Step", "disjunct 1/2")] == 3 and got[("Step", "disjunct 2/2")] == 0
    assert got[("Flip", "IF x > 2 THEN")] == 1 and got[("Flip", "IF x > 2 ELSE")] == 1
    assert got[("Reset", 'CASE mode = "down" ->')] == 1 and got[("Reset", "CASE OTHER ->")] == 0
    assert r.unknown_actions == {"Crash": 1}
    assert r.summary()["branches"] == 6 and r.summary()["branches_covered"] == 4
    assert "Step@" in " ".join(r.uncovered()) and "disjunct" in r.render()


def test_branch_variants_parse_and_keep_the_layout():
    text = (FIX / "counter" / "Counter.tla").read_text()
    mod = parse_module(text, "Counter.tla")
    brs = action_branches(mod, ["Step", "Flip", "Reset"], text)
    for action, bs in brs.items():
        for b in bs:
            v = variant(text, b)
            assert v.count("\n") == text.count("\n")  # lines (and so error locations) stay put
            load_text(v, "Counter.tla")  # every variant is a valid module
    # value-level IFs are not branches: forcing one would change a value, not choose a step
    text2 = text.replace("Init ==", "Bump == x' = IF x > 1 THEN 0 ELSE x + 1 /\\ UNCHANGED mode\n\nInit ==")
    assert action_branches(parse_module(text2, "C.tla"), ["Bump"], text2) == {"Bump": []}


def _replay_pre_states(path: Path, action: str):
    state: dict = {}
    for line in path.read_text().splitlines():
        ev = json.loads(line)
        if ev["kind"] == "init":
            state = ev["state"]
        elif ev["kind"] == "step":
            if ev["action"] == action:
                yield state
            state = {**state, **ev.get("state", {}), **ev.get("delta", {})}


def test_mutex_try_lock_arms_match_the_recorded_lock_flag():
    """The real Java mutex's traces: TryAcquireLock takes the THEN arm exactly when the recorded
    pre-state has the lock free (counted straight from the trace files)."""
    traces = SYSTEMS / "mutex" / "traces"
    pres = [p for f in sorted(traces.glob("trace-*.ndjson")) for p in _replay_pre_states(f, "TryAcquireLock")]
    free = sum(1 for p in pres if p["lock"] is False)
    r = spec_coverage(SYSTEMS / "mutex" / "ref" / "mutex.tla", [traces], mapping=SYSTEMS / "mutex" / "mapping.yaml")
    got = _branches(r)
    assert got[("TryAcquireLock", "IF lock = FALSE THEN")] == free > 0
    assert got[("TryAcquireLock", "IF lock = FALSE ELSE")] == len(pres) - free > 0


def test_cli_coverage_json(capsys):
    from specula.cli import main

    rc = main(["coverage", str(FIX / "counter" / "Counter.tla"), "--traces", str(FIX / "counter" / "traces"), "--json"])
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert d["schema"] == "specula.coverage/1" and d["summary"]["actions_covered"] == 3
    assert main(["coverage", str(FIX / "nope.tla"), "--traces", str(FIX)]) == 2


def test_scorecard_shows_coverage_beside_conformance(capsys):
    """mutex's scored windows (target actions only) never include Enqueue: 3 of its 4 actions."""
    from specula.cli import main

    rc = main(["eval", str(SYSTEMS / "mutex" / "ref" / "mutex.tla"), "--task", "mutex", "--phase", "conformance",
               "--coverage", "--json"])
    assert rc == 0
    card = json.loads(capsys.readouterr().out)
    cov = card["meta"]["coverage"]
    assert (cov["actions"], cov["actions_covered"], cov["branches"], cov["branches_covered"]) == (4, 3, 2, 2)
    p3 = card["phases"]["conformance"]
    assert "coverage: 3 of 4 spec actions have windows" in p3["summary"]
