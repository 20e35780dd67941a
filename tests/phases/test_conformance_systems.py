"""Phase 3 on the bundled systems' real traces: the reference spec conforms, each mutant fails
the action its task.yaml names (windows and whole-trace mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from specula.phases.conformance import follow_trace, spec_info, validate_files
from specula.phases.runtime import build_model
from specula.traces import load_mapping, read_event_trace
from specula.traces.bind import Binder

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ROOT / "benchmarks" / "systems"


def _systems():
    out = []
    for task in sorted(SYSTEMS.glob("*/task.yaml")):
        t = yaml.safe_load(task.read_text())
        d = task.parent
        tdir = d / t.get("traces", "traces/")
        if t.get("reference") and t.get("mapping") and tdir.is_dir() and any(tdir.glob("*.ndjson")):
            out.append(pytest.param(d, t, id=d.name))
    return out


SYS = _systems()


def test_the_bundled_systems_ship_traces_a_mapping_and_a_reference():
    # every suite below is parametrized by these; an empty list must fail, not skip
    assert {p.id for p in SYS} >= {"spinlock", "mutex", "rwmutex", "ringbuffer", "zab_election", "raft", "locksvc"}


@pytest.mark.parametrize("d, task", SYS)
def test_reference_follows_every_trace(d, task):
    ref = task["reference"]
    model, cfg = build_model(d / ref["spec"], d / ref["cfg"])
    binder = Binder(spec_info(model, cfg), load_mapping(d / task["mapping"]))
    traces = sorted((d / task["traces"]).glob("*.ndjson"))[:2]
    for f in traces:
        r = follow_trace(model, binder, read_event_trace(f, []))
        assert r.ok, r.message


@pytest.mark.parametrize("d, task", SYS)
def test_mutants_fail_their_action_in_whole_trace_mode(d, task):
    ref = task["reference"]
    for mut in task.get("mutants", []):
        model, cfg = build_model(d / mut["spec"], d / ref["cfg"])
        binder = Binder(spec_info(model, cfg), load_mapping(d / task["mapping"]))
        fails = []
        for f in sorted((d / task["traces"]).glob("*.ndjson")):
            r = follow_trace(model, binder, read_event_trace(f, []))
            if not r.ok:
                fails.append(r.failed_action)
        assert mut["fails"] in fails, (mut, fails)


@pytest.mark.parametrize("d, task", SYS)
def test_windows_reference_passes_mutants_fail_named_action(d, task):
    ref = task["reference"]
    targets = task.get("wv", {}).get("target_actions")
    traces_dir = d / task["traces"]
    res = validate_files(d / ref["spec"], d / ref["cfg"], [], traces_dir, d / task["mapping"], targets=targets)
    assert res.total > 0 and res.passed == res.total, res.summary()
    assert res.score == 1.0
    for mut in task.get("mutants", []):
        r = validate_files(d / mut["spec"], d / ref["cfg"], [], traces_dir, d / task["mapping"], targets=targets)
        failing = {a.action for a in r.actions if a.total and a.passed < a.total}
        assert mut["fails"] in failing, (mut, r.summary())
        assert any(c.action == mut["fails"] for c in r.causes)
