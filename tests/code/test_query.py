"""Agent-facing queries: typed results with to_dict() and render(), file:line anchors."""

from __future__ import annotations

import json

import pytest

from specula.code import (callees, callers, file_symbols, find_symbols, search_code, show_symbol, type_fields,
                          writes_to)
from specula.errors import CodeError


def test_show_symbol_numbers_lines(index_of):
    ix = index_of("go")
    src = show_symbol(ix, "Node.becomeCandidate")
    assert (src.symbol.file, src.symbol.line, src.symbol.end_line) == ("node.go", 32, 38)
    lines = src.source.splitlines()
    assert lines[0] == "   32│func (n *Node) becomeCandidate() {" and lines[-1] == "   38│}"
    assert "node.go:32-38 method Node.becomeCandidate" in src.render()
    assert show_symbol(ix, "node.go:stepCandidate").symbol.line == 45
    assert show_symbol(ix, "becomecandidate").symbol.name == "becomeCandidate"  # case-insensitive fallback
    cut = show_symbol(ix, "stepCandidate", max_lines=3)
    assert cut.truncated and len(cut.source.splitlines()) == 3
    json.dumps(src.to_dict())
    with pytest.raises(CodeError, match="no definition named 'nope'"):
        show_symbol(ix, "nope")


def test_show_prefers_functions_and_lists_others(index_of):
    ix = index_of("rust")
    res = show_symbol(ix, "term")  # a trait method and a field share the name
    assert res.symbol.kind == "method" and [o.kind for o in res.others] == ["field"]


def test_find_symbols(index_of):
    ix = index_of("java")
    assert [s.qualname for s in find_symbols(ix, "recvset").symbols] == ["Election.lookForLeader.recvset"]
    sub = find_symbols(ix, "Notification")
    assert sub.symbols[0].qualname == "Election.Notification"
    assert {s.name for s in find_symbols(ix, "send").symbols} == {"sendNotifications"}
    assert {s.qualname for s in find_symbols(ix, "^Election\\.(look|send)").symbols} == {
        "Election.lookForLeader", "Election.sendNotifications", "Election.lookForLeader.recvset"}
    assert find_symbols(ix, "zzz").render() == "no symbol matches 'zzz'"


def test_search_code(index_of):
    ix = index_of("java")
    res = search_code(ix, r"recvset\.put")
    assert [(m.file.rsplit("/", 1)[-1], m.line, m.symbol) for m in res.matches] == [
        ("Election.java", 23, "Election.lookForLeader")]
    assert res.render().endswith("recvset.put(proposedLeader, 1L);")
    assert len(search_code(ix, "(", regex=True).matches) > 0  # a bad regex is searched literally
    few = search_code(ix, "long", max_results=2)
    assert few.truncated and len(few.matches) == 2
    assert search_code(ix, "lookforleader", ignore_case=True).matches
    assert not search_code(ix, "lookForLeader", path="src/test").matches


def test_callers_and_callees(index_of):
    ix = index_of("go")
    who = callers(ix, "becomeCandidate")
    assert [(c.caller, c.line) for c in who.calls] == [("stepCandidate", 48)]
    # a function used as a value (r.step = stepCandidate) counts as a caller edge
    assert [(c.caller, c.kind) for c in callers(ix, "stepCandidate").calls] == [("Node.becomeCandidate", "ref")]
    # assignments of plain variables are not reported as function uses
    assert callers(ix, "term").calls == []
    out = callees(ix, "Node.becomeCandidate")
    assert [c.name for c in out.calls] == ["stepCandidate", "make", "reset"]
    assert out.resolved["reset"] == ["node.go:40"]
    assert "node.go:37 -> n.reset  [node.go:40]" in out.render()
    with pytest.raises(CodeError):
        callees(ix, "Node")


def test_type_fields_and_writes(index_of):
    ix = index_of("go")
    tf = type_fields(ix, "Node")
    by = {f.field.name: [(w.function, w.line, w.via) for w in f.writes] for f in tf.fields}
    assert list(by) == ["id", "term", "votes", "step", "state"]
    assert by["term"] == [("Node.becomeCandidate", 34, "++"), ("Node.reset", 41, "=")]
    assert by["votes"] == [("Node.becomeCandidate", 35, "="), ("Node.becomeCandidate", 36, "="),
                           ("Node.reset", 42, "delete")]
    assert by["state"] == []
    assert by["id"] == []  # `p.id = …` writes a peer (p *peer), not a Node: `id` is a field of both
    peer = {f.field.name: [(w.function, w.line) for w in f.writes] for f in type_fields(ix, "peer").fields}
    assert peer == {"id": [("Node.addPeer", 59)]}
    text = tf.render()
    assert "node.go:20 type Node struct" in text and "written node.go:42 Node.reset: n.votes.delete(…)" in text
    json.dumps(tf.to_dict())
    with pytest.raises(CodeError, match="no type named"):
        type_fields(ix, "stepCandidate")


def test_type_fields_java_self_writes_stay_in_the_type(index_of):
    ix = index_of("java")
    by = {f.field.name: [(w.function, w.line) for w in f.writes] for f in type_fields(ix, "Election").fields}
    assert by["proposedLeader"] == [("Election.Election", 16), ("Election.lookForLeader", 26)]
    assert by["lastVotes"] == [("Election.lookForLeader", 28), ("Election.sendNotifications", 33)]


def test_writes_to_a_local(index_of):
    ix = index_of("java")
    res = writes_to(ix, "lookForLeader.recvset")
    assert [(w.line, w.via) for w in res.writes] == [(23, "put")]
    assert res.render().endswith("Election.lookForLeader: recvset.put(…)")
    assert writes_to(ix, "nothing").render() == "no writes to 'nothing' found"


def test_file_symbols(index_of):
    ix = index_of("python")
    res = file_symbols(ix, "node.py")
    assert res.query == "kv/node.py"
    assert [s.qualname for s in res.symbols][:3] == ["DEFAULT_TICKS", "Node", "Node.kind"]
    assert "step_candidate.granted" not in [s.qualname for s in res.symbols]
    assert "step_candidate.granted" in [s.qualname for s in file_symbols(ix, "kv/node.py", include_locals=True).symbols]
    with pytest.raises(CodeError, match="not an indexed file"):
        file_symbols(ix, "nope.py")


def test_callees_resolve_through_declared_receivers(index_of):
    ix = index_of("go")
    # `n.reset(...)` inside a Node method: n is declared `n *Node` in the signature
    out = callees(ix, "okAfter")
    assert out.resolved == {"reset": ["node.go:40"], "okBefore": ["broken.go:3"]}
    # plain variables used as values are not listed as callees
    assert [c.name for c in callees(ix, "Node.reset").calls] == ["delete"]


def test_effects_follow_unambiguous_callees(index_of):
    from specula.code import effects

    ix = index_of("go")
    own = effects(ix, "Node.becomeCandidate", depth=0)
    assert [(w.target, w.line) for w in own.writes] == [("step", 33), ("term", 34), ("votes", 35), ("votes", 36)]
    deep = effects(ix, "Node.becomeCandidate")
    assert [(w.function, w.target, w.via) for w in deep.writes[4:]] == [("Node.reset", "term", "="),
                                                                        ("Node.reset", "votes", "delete")]
    assert effects(ix, "stepCandidate", depth=2).writes[-1].function == "Node.reset"
    with pytest.raises(CodeError):
        effects(ix, "Node")
