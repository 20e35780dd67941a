"""The mapping file: parsing, errors naming the YAML field and line, applying to trace states."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from specula.errors import ConfigError
from specula.traces.mapping import BoolKey, Summary, TlaExpr, apply_values, parse_mapping, value_table

SPIN = """\
version: 1
nodes: {constant: Threads, ids: {"0": t0, "1": t1}}
actions: {TryAcquireBlocking: Try, AcquireSuccess: AcquireLock}
values: {acquiring: trying}
variables:
  lockState:
    field: lock
    values: {unlocked: {tla: "FALSE"}, locked: true}
  pc: {per_node: true}
  log: {per_node: true, abstract: {length: logLen, last_term: logLastTerm}}
  votes: {aux: true, domain: "SUBSET Threads"}
params: {t: actor}
action_params:
  AcquireLock: {t: actor}
ignore: [thread]
"""


def test_parse_and_apply():
    m = parse_mapping(SPIN, "spin.yaml")
    assert m.nodes_constant == "Threads" and m.node_ids == {"0": "t0", "1": "t1"}
    assert m.spec_action("AcquireSuccess") == "AcquireLock" and m.spec_action("Other") == "Other"
    assert m.param_bindings("AcquireLock") == {"t": "actor"}
    assert m.variables["votes"].aux and m.variables["votes"].domain == "SUBSET Threads"
    raw = {"lock": "unlocked", "pc": {"0": "acquiring", "1": "idle"}, "logLen": [1, 0], "logLastTerm": [2, 0],
           "thread": 5, "lockState": "ignored: lock is the source"}
    got = m.map_state(raw, ["lockState", "pc", "log", "votes"])
    assert got["lockState"] == TlaExpr("FALSE")
    assert got["pc"] == {"0": "trying", "1": "idle"}  # global table reaches per-node leaves
    assert got["log"] == [Summary(1, 2), Summary(0, 0)]
    assert "votes" not in got  # auxiliary: not observed
    m.check_against(["lockState", "pc", "log", "votes"], {"Try": ("t",), "AcquireLock": ("t",)}, ["Threads"])


def test_identity_without_entries():
    m = parse_mapping("values: {0: None}\n")
    # a trace field named like a spec variable is observed as is; others ignored
    assert m.map_state({"x": 0, "y": [0, 1], "z": 3}, ["x", "y"]) == {"x": "None", "y": ["None", 1]}


def test_unknown_variable_names_field_and_line():
    m = parse_mapping(SPIN, "spin.yaml")
    with pytest.raises(ConfigError) as exc:
        m.check_against(["lockState", "pc", "log"])
    e = exc.value
    assert e.field == "variables.votes" and e.line == 11 and e.path == "spin.yaml"
    assert "votes" in str(e)


def test_unknown_action_and_param():
    m = parse_mapping(SPIN, "spin.yaml")
    with pytest.raises(ConfigError) as exc:
        m.check_against(["lockState", "pc", "log", "votes"], {"AcquireLock": ("t",)})
    assert exc.value.field == "actions.TryAcquireBlocking" and exc.value.line == 3
    with pytest.raises(ConfigError) as exc:
        m.check_against(["lockState", "pc", "log", "votes"], {"Try": ("t",), "AcquireLock": ("self",)})
    assert exc.value.field == "action_params.AcquireLock.t"
    with pytest.raises(ConfigError) as exc:
        m.check_against(["lockState", "pc", "log", "votes"], None, ["Procs"])
    assert exc.value.field == "nodes.constant"


@pytest.mark.parametrize(
    "text, fieldpath",
    [
        ("bogus: 1\n", "bogus"),
        ("version: 2\n", "version"),
        ("variables:\n  x: {fild: y}\n", "variables.x.fild"),
        ("variables:\n  x: {per_node: maybe}\n", "variables.x.per_node"),
        ("variables:\n  x: {abstract: {}}\n", "variables.x.abstract"),
        ("params: {t: somebody}\n", "params.t"),
        ("actions: {A: 3}\n", "actions.A"),
        ("ignore: thread\n", "ignore"),
    ],
)
def test_bad_fields(text, fieldpath):
    with pytest.raises(ConfigError) as exc:
        parse_mapping(text, "m.yaml")
    assert exc.value.field == fieldpath
    assert exc.value.line is not None


def test_bad_yaml_has_line():
    with pytest.raises(ConfigError) as exc:
        parse_mapping("variables:\n  x: [1, 2\n", "m.yaml")
    assert exc.value.line is not None


leaf = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", "c"])
val = st.recursive(leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from(["k", "l"]), c, max_size=2), max_leaves=6)


@settings(max_examples=100, deadline=None)
@given(v=val)
def test_value_table_identity_and_total(v):
    assert apply_values(v, {}) == v
    # a table mapping every string leaf to "Z" leaves no "a"/"b"/"c" behind and keeps shape
    out = apply_values(v, {"a": "Z", "b": "Z", "c": "Z"})

    def leaves(x):
        if isinstance(x, dict):
            return [y for z in x.values() for y in leaves(z)]
        if isinstance(x, list):
            return [y for z in x for y in leaves(z)]
        return [x]

    assert not {"a", "b", "c"} & {l for l in leaves(out) if isinstance(l, str)}
    assert len(leaves(out)) == len(leaves(v))


def test_value_table_keeps_bool_and_int_apart():
    # True == 1 in Python; the table must not confuse them
    table = value_table({1: "one", BoolKey(True): "yes"})
    assert apply_values([1, True, 0, False], table) == ["one", "yes", 0, False]
    assert apply_values([True], {1: "one"}) == [True]


def test_yaml_value_table_bool_vs_int():
    m = parse_mapping("values: {1: one, true: yes_, 0: None}\n")
    assert m.map_state({"x": [1, True, 0, False, "1"]}, ["x"]) == {"x": ["one", "yes_", "None", False, "one"]}
