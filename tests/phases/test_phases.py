"""Phases 1, 2 and 4 and the cascade, on small specs with planted defects (tests/phases/specs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from specula.phases import (
    InvariantDef,
    PhaseScore,
    RuntimeSettings,
    Scorecard,
    invariants,
    load_templates,
    runtime,
    syntax,
    translate_static,
)
from specula.phases.html import render_html
from specula.phases.scorecard import gate_after_runtime, gate_after_syntax
from specula.phases.syntax import decompose

SPECS = Path(__file__).parent / "specs"
FAST = RuntimeSettings(check_seconds=20, runs=3, traces_per_run=10, depth=20, run_seconds=5, seed=7)


# ----------------------------------------------------------------------------- phase 1


def test_syntax_good_spec_scores_one():
    r = syntax(SPECS / "Counter.tla")
    assert r.compiled and r.score == 1.0 and not r.diagnostics


def test_syntax_undefined_operator_is_repaired_in_decomposition():
    r = syntax(SPECS / "Broken.tla")
    assert not r.compiled
    assert any(d.line == 9 and "Missing" in d.message for d in r.diagnostics), r.diagnostics
    by_name = {d.name: d for d in r.definitions}
    assert set(by_name) == {"Init", "Good", "Bad", "Next", "Spec"}
    assert all(d.ok for d in by_name.values()), [d.to_dict() for d in r.definitions if not d.ok]
    assert "Missing" in by_name["Bad"].operators_added and "x" in by_name["Bad"].variables_added
    assert r.score == pytest.approx(0.5)


def test_syntax_parse_error_fails_its_definition_only():
    r = syntax(SPECS / "BrokenParse.tla")
    assert not r.compiled
    failing = [d.name for d in r.definitions if not d.ok]
    assert failing == ["Bad"]
    assert r.score == pytest.approx(0.5 * 4 / 5)
    # the failing definition's diagnostics point into the original spec
    bad = next(d for d in r.definitions if d.name == "Bad")
    assert bad.diagnostics and all(d.file.endswith("BrokenParse.tla") for d in bad.diagnostics)
    assert bad.diagnostics[0].line >= 9


def test_decompose_follows_sysmobench_line_rule():
    text = "---- MODULE M ----\nA == 1\nB(x) ==\n  /\\ x\n  /\\ TRUE\n\\* c\nVARIABLE v\nC == v\n===="
    got = [(n, line) for n, _, line in decompose(text)]
    assert got == [("A", 2), ("B", 3), ("C", 8)]


# ----------------------------------------------------------------------------- phase 2


def test_runtime_good_spec_covers_every_action():
    r = runtime(SPECS / "Counter.tla", SPECS / "Counter.cfg", FAST)
    assert r.check_passed
    assert r.all_actions == ["IncX", "IncY", "Reset"]
    assert r.covered == ["IncX", "IncY", "Reset"] and not r.error_actions
    assert r.score == 1.0
    assert [run.seed for run in r.runs] == [7, 8, 9]


def test_runtime_error_is_scored_as_sysmobench_and_pinned_to_the_failing_action():
    r = runtime(SPECS / "Faulty.tla", SPECS / "Faulty.cfg", FAST)
    assert not r.check_passed
    # SysMoBench blames the last action of TLC's error trace: Step led to the state Lookup fails in
    assert r.error_actions == ["Step"]
    assert r.covered == ["Step"]  # Lookup never produced a state, Never is never enabled
    assert r.score == 0.0
    err = next(e for e in r.errors if e.source.startswith("simulation"))
    assert err.failing_action == "Lookup" and err.span and ":9:" in err.span
    assert err.trace and err.trace[-1]["state"]["x"] == 2
    assert "error in Lookup" in r.summary()


# ----------------------------------------------------------------------------- phase 4


def test_invariants_templates_translated_checked_and_scored():
    templates = load_templates(SPECS / "invariants.yaml")
    defs, missing = translate_static(templates, SPECS / "Counter.tla")
    assert [t.name for t in missing] == ["UsesUnknownNames"]
    r = invariants(SPECS / "Counter.tla", SPECS / "Counter.cfg", defs, missing, seconds=20)
    rows = {row.name: row for row in r.rows}
    assert rows["XBounded"].status == "passed"
    assert rows["YBelowX"].status == "passed"
    assert rows["XNeverMax"].status == "violated"
    assert rows["XNeverMax"].counterexample[-1]["state"]["x"] == 3
    assert rows["UsesUnknownNames"].status == "untranslated"
    assert rows["Trivial"].status == "passed" and rows["Trivial"].vacuous
    assert rows["XBounded"].vacuous is None
    live = rows["EventuallyReset"]
    assert live.status == "violated"  # liveness is checked (TLC agrees): no fairness in Counter
    tested = 5
    assert r.tested == tested and r.passed == 3
    assert r.score == pytest.approx(3 / tested)


def test_invariant_given_definition_overrides_example():
    d = InvariantDef("XBounded", "safety", "XBounded == x <= Max - 1", source="mapping")
    r = invariants(SPECS / "Counter.tla", SPECS / "Counter.cfg", [d], seconds=20)
    assert r.rows[0].status == "violated" and r.score == 0.0


def test_load_templates_bad_field(tmp_path):
    from specula.errors import ConfigError

    p = tmp_path / "inv.yaml"
    p.write_text("invariants:\n  - name: A\n    type: sometimes\n")
    with pytest.raises(ConfigError) as e:
        load_templates(p)
    assert e.value.field == "invariants[0].type"


# ----------------------------------------------------------------------------- cascade + scorecard


def test_cascade_gates():
    assert gate_after_syntax(1.0) is None
    assert gate_after_syntax(0.5)
    assert gate_after_runtime(False, 1.0) == "runtime check failed"
    assert gate_after_runtime(True, 0.0)
    assert gate_after_runtime(True, 0.3) is None


def test_scorecard_overall_counts_skipped_as_zero_and_round_trips():
    card = Scorecard(task="t", spec="S.tla")
    card.phases["syntax"] = PhaseScore("syntax", 1.0)
    card.phases["runtime"] = PhaseScore("runtime", 0.5)
    card.phases["conformance"] = PhaseScore("conformance", 0.9, skipped="runtime check failed")
    card.phases["invariants"] = PhaseScore("invariants", 1.0)
    assert card.overall == pytest.approx((1.0 + 0.5 + 0 + 1.0) / 4)
    data = json.loads(card.to_json())
    assert data["schema"] == "specula.scorecard/1"
    assert data["scores"]["conformance"] == 0
    again = Scorecard.from_dict(data)
    assert again.overall == pytest.approx(card.overall)


def test_html_report_is_self_contained():
    card = Scorecard(task="demo", spec="S.tla")
    card.phases["syntax"] = PhaseScore("syntax", 1.0, detail={"compiled": True})
    card.phases["conformance"] = PhaseScore(
        "conformance", 0.5, detail={"actions": [{"action": "Acq", "passed": 3, "total": 4}]}
    )
    card.phases["invariants"] = PhaseScore(
        "invariants",
        0.0,
        detail={"rows": [{"name": "Safe<", "type": "safety", "status": "violated", "counterexample": [{"action": None, "state": {"x": 1}}]}]},
    )
    page = render_html(card)
    assert page.startswith("<!doctype html>") and "<script" not in page and "http" not in page.split("<body>")[1]
    assert "Acq" in page and "3/4" in page and "Safe&lt;" in page and "Counterexample" in page


def test_evaluate_skips_conformance_when_no_window_is_of_a_target_action():
    from specula.phases import EvalInputs, evaluate

    card = evaluate(EvalInputs(spec=SPECS / "Counter.tla", cfg=SPECS / "Counter.cfg", windows=[],
                               target_actions=["IncX"], runtime=FAST, only=("conformance",)))
    assert card.score("syntax") == 1.0 and card.score("runtime") == 1.0
    assert "no windows of IncX" in card.phases["conformance"].skipped
    assert "invariants" not in card.phases  # not asked for: left off the card, no made-up skip reason
    assert card.overall == 0.5


# ----------------------------------------------------------------------------- one compilation


def _counting_compilations(monkeypatch) -> dict:
    """Count the Model constructions (each a full compilation); the real constructor runs."""
    from specula.tla import model as model_mod

    seen = {"n": 0}
    real = model_mod.Model.__init__

    def counted(self, *a, **kw):
        seen["n"] += 1
        real(self, *a, **kw)

    monkeypatch.setattr(model_mod.Model, "__init__", counted)
    return seen


def test_evaluate_compiles_the_spec_once_for_runtime_and_invariants(monkeypatch):
    from specula.phases import EvalInputs, evaluate

    defs = [InvariantDef("XBounded", "safety", "XBounded == x <= Max"),
            InvariantDef("XNeverMax", "safety", "XNeverMax == x < Max")]
    seen = _counting_compilations(monkeypatch)
    card = evaluate(EvalInputs(spec=SPECS / "Counter.tla", cfg=SPECS / "Counter.cfg", runtime=FAST,
                               invariant_defs=defs, invariant_seconds=20, only=("runtime", "invariants")))
    rows = {r["name"]: r for r in card.phases["invariants"].detail["rows"]}
    assert card.score("runtime") == 1.0
    assert rows["XBounded"]["status"] == "passed" and rows["XNeverMax"]["status"] == "violated"
    assert rows["XNeverMax"]["counterexample"][-1]["state"]["x"] == 3
    assert seen["n"] == 1


def test_a_definition_that_does_not_compile_costs_its_own_row_only(monkeypatch):
    from specula.phases import EvalInputs, evaluate

    defs = [InvariantDef("XBounded", "safety", "XBounded == x <= Max"),
            InvariantDef("Broken", "safety", "Broken == x <= NoSuchName")]
    card = evaluate(EvalInputs(spec=SPECS / "Counter.tla", cfg=SPECS / "Counter.cfg", runtime=FAST,
                               invariant_defs=defs, invariant_seconds=20, only=("runtime", "invariants")))
    rows = {r["name"]: r for r in card.phases["invariants"].detail["rows"]}
    assert card.score("runtime") == 1.0  # the spec alone is judged by phase 2
    assert rows["XBounded"]["status"] == "passed"
    assert rows["Broken"]["status"] == "error" and "NoSuchName" in rows["Broken"]["message"]


def test_added_definitions_keep_the_specs_own_error_locations(tmp_path):
    from specula.errors import SpecError
    from specula.phases.runtime import build_model

    (tmp_path / "Bad.tla").write_text("---- MODULE Bad ----\nVARIABLE x\nInit == x = Missing\nNext == x' = x\n====\n")
    (tmp_path / "Bad.cfg").write_text("INIT Init\nNEXT Next\n")
    where = []
    for defs in ((), ("Extra == x = 1",)):
        with pytest.raises(SpecError) as e:
            build_model(tmp_path / "Bad.tla", tmp_path / "Bad.cfg", definitions=defs)
        d = e.value.diagnostics()[0]
        where.append((d.file, d.line, d.col))
    assert where[0] == where[1] and where[0][1] == 3
