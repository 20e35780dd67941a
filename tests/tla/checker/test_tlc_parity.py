"""Exploration order and liveness as TLC's (issue 24): at a violation specula reports TLC's
trace, labels and counts. Expected values are what TLC 2.18 printed for these specs
(``java tlc2.TLC -workers 1``); with SPECULA_TLA2TOOLS set the same specs are also run through
TLC and compared."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from specula.tla.checker import Limits, build_model, check

# Ord1: TLC enumerates a set in its normalized order (<<1>> first, shorter, then <<1, 1>>);
# Ord4: TLC splits \E t \in S : A(t) \/ B(t) per value first (A(1), B(1), A(2), B(2));
# Ord2/Ord3: strings (and record fields) in TLC's interning order (first appearance), not as text;
# Live1: the smallest liveness case (no fairness: the counter may stop before 5).
# benchmarks/perf/differential.py runs the same files against TLC.
PARITY = Path(__file__).resolve().parents[1] / "specs" / "parity"


def _model(tmp_path: Path, name: str):
    for ext in (".tla", ".cfg"):  # a copy: TLC writes its states/ folder beside the spec
        (tmp_path / f"{name}{ext}").write_text((PARITY / f"{name}{ext}").read_text())
    return build_model(tmp_path / f"{name}.tla")


def test_sets_are_enumerated_in_tlc_value_order(tmp_path: Path) -> None:
    model, cfg = _model(tmp_path, "Ord1")
    r = check(model, Limits(), cfg=cfg)
    assert r.verdict == "invariant"
    assert [st for _, st in r.counterexample] == [((1, 1),)]  # TLC: s = <<1, 1>>


def test_exists_over_a_disjunction_is_split_per_value_first(tmp_path: Path) -> None:
    model, cfg = _model(tmp_path, "Ord4")
    r = check(model, Limits(), cfg=cfg)
    assert r.verdict == "invariant"
    # TLC: State 2: <B(1) line 6, col 9 to line 6, col 41 of module Ord4>, x = <<2, 0>>;
    # 2 states generated, 2 distinct states found, depth 2
    assert r.counterexample[-1] == ("B(1) line 6, col 9 to line 6, col 41 of module Ord4", ((2, 0),))
    assert (r.generated, r.distinct, r.depth) == (2, 2, 2)


def test_strings_and_record_fields_in_tlc_interning_order(tmp_path: Path) -> None:
    from specula.tla.report import render_check

    model, cfg = _model(tmp_path, "Ord2")
    r = check(model, Limits(), cfg=cfg)
    assert r.counterexample[0][1] == ("zz",)  # TLC: s = "zz"
    model, cfg = _model(tmp_path, "Ord3")
    r = check(model, Limits(), cfg=cfg)
    text = render_check(r, "Ord3.tla", "Ord3.cfg", markup=False)
    assert "s = [zz |-> 1, qq |-> 2]" in text  # TLC prints the fields in its order too


def test_liveness_is_checked_on_the_growing_graph(tmp_path: Path) -> None:
    model, cfg = _model(tmp_path, "Live1")
    r = check(model, Limits(max_seconds=120), cfg=cfg)
    # TLC: x = 0 .. 4 by <Next line 5, col 9 to line 5, col 18 of module Live1>, then Stuttering
    assert r.verdict == "liveness" and r.violated == "Prop"
    assert [st for _, st in r.counterexample] == [(0,), (1,), (2,), (3,), (4,)]
    assert r.stuttering and r.loop_to is None
    assert {lab for lab, _ in r.counterexample[1:]} == {"Next line 5, col 9 to line 5, col 18 of module Live1"}
    assert r.stopped is None


def test_a_state_limit_still_reports_a_lasso_found_on_the_part_explored(tmp_path: Path) -> None:
    model, cfg = _model(tmp_path, "Live1")
    r = check(model, Limits(max_states=50, live_first=None), cfg=cfg)
    assert r.verdict == "liveness"
    assert [st for _, st in r.counterexample][-1] == (4,)


def test_a_search_stopped_by_a_limit_never_says_a_property_passed(tmp_path: Path) -> None:
    tla = (PARITY / "Live1.tla").read_text()
    (tmp_path / "Fair.tla").write_text(tla.replace("Live1", "Fair").replace(
        "Spec == Init /\\ [][Next]_x", "Spec == Init /\\ [][Next]_x /\\ WF_x(Next)"))
    (tmp_path / "Fair.cfg").write_text("SPECIFICATION Spec\nPROPERTY Prop\n")
    model, cfg = build_model(tmp_path / "Fair.tla")
    r = check(model, Limits(max_states=200), cfg=cfg)
    assert r.verdict == "limit" and r.stopped == "max_states"
    assert [(p.name, p.status) for p in r.properties] == [("Prop", "not checked")]


def _tlc_first_error(jar: Path, d: Path, name: str) -> tuple[str, list[str]]:
    out = subprocess.run(["java", "-XX:+UseParallelGC", "-cp", str(jar), "tlc2.TLC", "-workers", "1",
                          "-config", f"{name}.cfg", f"{name}.tla"], cwd=d, capture_output=True, text=True,
                         timeout=300).stdout
    labels = re.findall(r"^State \d+: <(.*)>$", out, re.M)
    head = next((ln for ln in out.splitlines() if ln.startswith("Error: ")), "")
    return head, labels


@pytest.mark.tlc
@pytest.mark.parametrize("name", ["Ord4", "Ord8", "Live1"])
def test_differential_labels_agree_with_tlc(name: str, tmp_path: Path, tlc_jar: Path) -> None:
    model, cfg = _model(tmp_path, name)
    r = check(model, Limits(max_seconds=120), cfg=cfg)
    _, labels = _tlc_first_error(tlc_jar, tmp_path, name)
    assert [lab for lab, _ in r.counterexample[1:]] == labels[1:]


def test_bounds_of_one_exists_vary_first_fastest(tmp_path: Path) -> None:
    # Ord8: \E i, j \in {1, 2} -- TLC's context enumerator varies i fastest: <<1, 1>>, <<2, 1>>
    model, cfg = _model(tmp_path, "Ord8")
    r = check(model, Limits(), cfg=cfg)
    assert r.counterexample[-1] == ("Next line 5, col 30 to line 5, col 42 of module Ord8", ((2, 1),))


def test_records_compare_and_print_in_tlc_field_order(tmp_path: Path) -> None:
    # Rec1: {[v |-> 2, c |-> 1], [v |-> 1, c |-> 2]} -- TLC: s = [v |-> 1, c |-> 2] (v is met
    # before c in the module's text)
    from specula.tla.report import render_check

    model, cfg = _model(tmp_path, "Rec1")
    r = check(model, Limits(), cfg=cfg)
    assert "s = [v |-> 1, c |-> 2]" in render_check(r, "Rec1.tla", "Rec1.cfg", markup=False)


# TLC 2.18 on these specs (``java tlc2.TLC -workers 1``): the state reported, and
# generated/distinct at the error. Ord9: a product with a SUBSET component in Init (TLC
# enumerates S \X T with the LAST component varying fastest, each component in TLC's value
# order); Ord10: a product as an \E domain in Next; Ord11/Ord12: the bounds of one \E that is not
# split into actions (in Init; inside a conjunction) vary first-fastest, as TLC's ContextEnumerator.
PRODUCT_ORDER = {
    "Ord9": ('<<{}, "b">>', None),
    "Ord10": ('<<"a", <<1, 0>>>>', (4, 4)),
    "Ord11": ('<<2, "a">>', None),
    "Ord12": ("<<4, 3>>", (3, 3)),
    "Ord13": ('<<{1}, "b">>', None),  # CHOOSE over a product: the first in TLC's normalized order
}


def _reported_x(text: str) -> str:
    return re.findall(r"^\W*x = (.*)$", text, re.M)[-1]


@pytest.mark.parametrize("name", sorted(PRODUCT_ORDER))
def test_products_and_multi_bound_exists_in_tlc_order(name: str, tmp_path: Path) -> None:
    from specula.tla.report import render_check

    model, cfg = _model(tmp_path, name)
    r = check(model, Limits(), cfg=cfg)
    assert r.verdict == "invariant"
    state, counts = PRODUCT_ORDER[name]
    assert _reported_x(render_check(r, f"{name}.tla", f"{name}.cfg", markup=False)) == state
    if counts is not None:
        assert (r.generated, r.distinct) == counts


@pytest.mark.tlc
@pytest.mark.parametrize("name", sorted(PRODUCT_ORDER))
def test_differential_product_order_agrees_with_tlc(name: str, tmp_path: Path, tlc_jar: Path) -> None:
    from specula.tla.report import render_check

    model, cfg = _model(tmp_path, name)
    r = check(model, Limits(), cfg=cfg)
    out = subprocess.run(["java", "-XX:+UseParallelGC", "-cp", str(tlc_jar), "tlc2.TLC", "-workers", "1",
                          "-config", f"{name}.cfg", f"{name}.tla"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300).stdout
    assert _reported_x(render_check(r, f"{name}.tla", f"{name}.cfg", markup=False)) == _reported_x(out)


# TLC 2.18: a record in a state is normalized (fields sorted by their names' UniqueString order:
# identifiers of the root module as lexed, then the standard modules', then string literals).
# Rec2: [bb |-> 1, aa |-> 2, type |-> 3, v |-> 4] with aa, bb defined above it; Str1: "bb" is an
# identifier, "type" only a literal, "v" a standard module's identifier.
STRING_ORDER = {
    "Rec2": "[aa |-> 2, bb |-> 1, type |-> 3, v |-> 4]",
    "Str1": '"bb"',
}


@pytest.mark.parametrize("name", sorted(STRING_ORDER))
def test_record_fields_and_strings_in_tlc_interning_order(name: str, tmp_path: Path) -> None:
    from specula.tla.report import render_check

    model, cfg = _model(tmp_path, name)
    r = check(model, Limits(), cfg=cfg)
    assert re.findall(r"^\W*r = (.*)$", render_check(r, f"{name}.tla", f"{name}.cfg", markup=False),
                      re.M)[-1] == STRING_ORDER[name]


@pytest.mark.tlc
@pytest.mark.parametrize("name", sorted(STRING_ORDER))
def test_differential_string_order_agrees_with_tlc(name: str, tmp_path: Path, tlc_jar: Path) -> None:
    from specula.tla.report import render_check

    model, cfg = _model(tmp_path, name)
    r = check(model, Limits(), cfg=cfg)
    out = subprocess.run(["java", "-XX:+UseParallelGC", "-cp", str(tlc_jar), "tlc2.TLC", "-workers", "1",
                          "-config", f"{name}.cfg", f"{name}.tla"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300).stdout
    ours = render_check(r, f"{name}.tla", f"{name}.cfg", markup=False)
    assert re.findall(r"^\W*r = (.*)$", ours, re.M)[-1] == re.findall(r"^r = (.*)$", out, re.M)[-1]
