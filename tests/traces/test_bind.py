"""Binding: spec values survive the trip through JSON (as traces and TLC dumps write them) and
back, guided only by the spec's types; node ids by value or by position."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from specula.tla import values as V
from specula.traces.bind import Binder, BindError, SpecInfo
from specula.traces.mapping import parse_mapping
from specula.traces.window import Window

N = [V.ModelValue("n1"), V.ModelValue("n2"), V.ModelValue("n3")]
NAMES = {"n1": N[0], "n2": N[1], "n3": N[2], "None": V.ModelValue("None")}
STATES = ["idle", "trying", "locked"]


def info(templates, nodes=N):
    return SpecInfo(variables=tuple(templates), actions={"A": ("p",)}, templates=templates, names=NAMES, nodes=nodes)


rec = st.builds(lambda f, v, e: V.make_fn({"from": f, "vote": v, "epoch": e}),
                st.sampled_from(N), st.sampled_from(N + [V.ModelValue("None")]), st.integers(0, 5))
per_node_str = st.tuples(*[st.sampled_from(STATES)] * 3).map(lambda t: V.make_fn(dict(zip(N, t))))
per_node_int = st.tuples(*[st.integers(-3, 9)] * 3).map(lambda t: V.make_fn(dict(zip(N, t))))
per_node_set = st.tuples(*[st.frozensets(rec, max_size=3)] * 3).map(lambda t: V.make_fn(dict(zip(N, t))))
seq_of_rec = st.lists(rec, max_size=3).map(tuple)
per_node_voted = st.tuples(*[st.sampled_from(N + [V.ModelValue("None")])] * 3).map(lambda t: V.make_fn(dict(zip(N, t))))


@settings(max_examples=150, deadline=None)
@given(pc=per_node_str, clock=per_node_int, votes=per_node_set, log=seq_of_rec, voted=per_node_voted, flag=st.booleans())
def test_json_roundtrip_through_binding(pc, clock, votes, log, voted, flag):
    templates = {
        "pc": V.make_fn({n: "idle" for n in N}),
        "clock": V.make_fn({n: 0 for n in N}),
        "votes": V.make_fn({n: frozenset() for n in N}),
        "log": (),
        "votedFor": V.make_fn({n: V.ModelValue("None") for n in N}),
        "flag": False,
    }
    b = Binder(info(templates))
    state = {"pc": pc, "clock": clock, "votes": votes, "log": log, "votedFor": voted, "flag": flag}
    raw = {k: V.to_json(v) for k, v in state.items()}
    bound = b.bind(Window(1, "t", 0, "A", raw, raw))
    for k, v in state.items():
        assert V.tla_eq(bound.pre[k], v), (k, bound.pre[k], v)
        assert V.tla_eq(bound.post[k], v)


@settings(max_examples=60, deadline=None)
@given(vals=st.lists(st.sampled_from(STATES), min_size=3, max_size=3), actor=st.integers(0, 2))
def test_positional_node_ids(vals, actor):
    """Canonical windows key nodes "0".."2" while the spec's threads are 1..3: read by position."""
    b = Binder(info({"pc": ("idle", "idle", "idle")}, nodes=[1, 2, 3]), parse_mapping("params: {p: actor}\n"))
    raw = {"pc": {str(i): v for i, v in enumerate(vals)}}
    bound = b.bind(Window(1, "t", 0, "A", raw, raw, actor=str(actor)))
    assert bound.pre["pc"] == tuple(vals)
    assert bound.params == {"p": actor + 1}
    assert any("by position" in c for c in bound.choices)


def test_exact_ids_win_over_position():
    b = Binder(info({"pc": ("idle", "idle", "idle")}, nodes=[1, 2, 3]), parse_mapping("params: {p: actor}\n"))
    raw = {"pc": {"1": "a", "2": "b", "3": "c"}}
    bound = b.bind(Window(1, "t", 0, "A", raw, raw, actor=2))
    assert bound.pre["pc"] == ("a", "b", "c") and bound.params == {"p": 2}
    assert not any("by position" in c for c in bound.choices)


def test_explicit_node_table_and_unknown_node():
    m = parse_mapping('nodes: {ids: {"a": n1, "b": n2, "c": n3}}\nparams: {p: actor}\n')
    b = Binder(info({"pc": V.make_fn({n: "idle" for n in N})}), m)
    raw = {"pc": {"a": "x", "b": "y", "c": "z"}}
    bound = b.bind(Window(1, "t", 0, "A", raw, raw, actor="c"))
    assert bound.pre["pc"] == V.make_fn({N[0]: "x", N[1]: "y", N[2]: "z"}) and bound.params == {"p": N[2]}
    b2 = Binder(info({"pc": V.make_fn({n: "idle" for n in N})}))
    try:
        b2.bind(Window(1, "t", 0, "A", {"pc": {"a": 1, "b": 2, "c": 3, "d": 4}}, {}))
    except BindError as exc:
        assert "match no element" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("four ids cannot map onto three nodes")


def test_null_without_none_is_a_bind_error():
    b = Binder(SpecInfo(("x",), {"A": ()}, {"x": 0}, {}, None))
    try:
        b.bind(Window(1, "t", 0, "A", {"x": None}, {"x": 1}))
    except BindError as exc:
        assert "null" in str(exc)
    else:  # pragma: no cover
        raise AssertionError


def test_arrays_and_integer_actor_over_model_value_nodes():
    """SysMoBench windows index per-node arrays 1..N; with Threads = {t1, t2, t3} (model values)
    array element k and actor k are the k-th thread."""
    T = [V.ModelValue("t1"), V.ModelValue("t2"), V.ModelValue("t3")]
    inf = SpecInfo(("pc",), {"A": ("p",)}, {"pc": V.make_fn({t: "idle" for t in T})}, {}, T)
    b = Binder(inf, parse_mapping("params: {p: actor}\n"))
    raw = {"pc": ["idle", "trying", "idle"]}
    bound = b.bind(Window(1, "t", 0, "A", raw, raw, actor=2))
    assert bound.pre["pc"] == V.make_fn({T[0]: "idle", T[1]: "trying", T[2]: "idle"})
    assert bound.params == {"p": T[1]}
    assert any("read as element 2 of the node set" in c for c in bound.choices)


def test_input_message_goes_into_the_message_variable_by_its_type():
    msg = {"type": "MsgVote", "from": "n2", "to": "n1", "term": 1}
    expected = V.make_fn({"type": "MsgVote", "from": N[1], "to": N[0], "term": 1})
    for tmpl, want in [
        (frozenset(), frozenset({expected})),  # a set of messages
        ((), (expected,)),  # a sequence (channel)
        (V.make_fn({V.make_fn({"type": "x"}): 0}), V.make_fn({expected: 1})),  # a bag
    ]:
        inf = SpecInfo(("msgs", "x"), {"Recv": ()}, {"msgs": tmpl, "x": 0}, NAMES, N)
        b = Binder(inf)
        bound = b.bind(Window(1, "t", 0, "Recv", {"x": 0}, {"x": 1}, input=msg))
        assert bound.pre["msgs"] == want
        assert "input message put into msgs" in bound.choices
    # observed in the window: left as observed; a message parameter takes the input
    inf = SpecInfo(("net", "x"), {"Recv": ("m",)}, {"net": frozenset(), "x": 0}, NAMES, N)
    b = Binder(inf, parse_mapping("message_var: net\n"))
    bound = b.bind(Window(1, "t", 0, "Recv", {"x": 0, "net": []}, {"x": 1}, input=msg))
    assert bound.pre["net"] == frozenset() and bound.params == {"m": expected}


def test_node_set_is_the_constant_matching_per_node_variables():
    from specula.traces.shape import _guess_nodes

    T = [V.ModelValue("t1"), V.ModelValue("t2")]
    consts = {"Server": frozenset({1, 2, 3}), "Value": frozenset({V.ModelValue("v1")}), "Threads": frozenset(T)}
    sets = list(consts.values())
    nodes, how = _guess_nodes({"term": (0, 0, 0), "log": ((), (), ())}, sets, consts)
    assert nodes == [1, 2, 3] and "Server" in how
    nodes, how = _guess_nodes({"pc": V.make_fn({t: "idle" for t in T}), "q": (1, 2)}, sets, consts)
    assert nodes == T and "Threads" in how
    assert _guess_nodes({"q": ("a", "b")}, sets, consts) == (None, "")
