"""Ranking and the budgeted repo map."""

from __future__ import annotations

import json

from specula.code import Focus, RankWeights, estimate_tokens, rank_symbols, repo_map


def test_focus_parsing():
    f = Focus.parse("Model becomeCandidate and the vote_count in raft.go", names=["HandleRequestVote"],
                    files=["src/server.c"])
    assert {"becomecandidate", "votecount", "handlerequestvote"} <= f.identifiers
    assert {"become", "candidate", "vote", "count", "request"} <= f.words
    assert f.files == ("src/server.c", "raft.go")
    assert f.names_file("pkg/raft.go") and not f.names_file("pkg/xraft.go")


def test_focus_names_go_on_top(index_of):
    ix = index_of("go")
    ranked = rank_symbols(ix, "stepCandidate reset")
    assert ranked[0].symbol.name == "stepCandidate" and "reset" in {r.symbol.name for r in ranked[:3]}
    ranked = rank_symbols(ix, "how does a node become a candidate?")
    assert ranked[0].symbol.qualname == "Node.becomeCandidate"


def test_centrality_without_focus(index_of):
    ix = index_of("go")
    ranked = rank_symbols(ix, "")
    assert all(r.relevance == 0 for r in ranked)
    top = ranked[0].symbol.qualname
    # Node is the hub: its methods point to it and its fields are written everywhere
    assert top == "Node", [r.symbol.qualname for r in ranked[:5]]


def test_weights_change_the_ranking(index_of):
    ix = index_of("go")
    focus = "stepCandidate"
    assert rank_symbols(ix, focus)[0].symbol.name == "stepCandidate"
    no_names = RankWeights(exact_name=0, word_match=0, signature_words=0)
    assert rank_symbols(ix, focus, no_names)[0].symbol.name != "stepCandidate"


def test_map_fits_budget_and_grows_with_it(index_of):
    ix = index_of("java")
    small = repo_map(ix, "lookForLeader recvset", budget=60)
    large = repo_map(ix, "lookForLeader recvset", budget=2000)
    assert small.tokens <= 60 and estimate_tokens(small.text) == small.tokens
    assert 0 < len(small.entries) < len(large.entries) == large.ranked_total
    assert small.entries[0].symbol.name == "lookForLeader"
    # the focus local is shown inside its function; bodies are elided
    assert "   21│    Map<Long, Long> recvset = new HashMap<>();" in large.text
    assert "   36│protected boolean totalOrderPredicate(long newId, long curId) { … }  // Election\n" in large.text
    assert "return newId > curId" not in large.text
    json.dumps(large.to_dict())
    assert repo_map(ix, "x", budget=1).text == ""


def test_map_renders_types_with_fields(index_of):
    text = repo_map(index_of("go"), "Node votes term", budget=4000).text
    assert "   20│type Node struct {\n   21│    id uint64\n   22│    term uint64" in text
    assert "    7│type StateType int\n   63│    const StateFollower StateType = iota\n   64│    const StateCandidate" in text
    py = repo_map(index_of("python"), "become_candidate", budget=4000).text
    assert "   14│def become_candidate(self): …  # Node\n" in py
    go = repo_map(index_of("go"), "becomeCandidate", budget=4000).text
    assert "   32│func (n *Node) becomeCandidate() { … }\n" in go  # the receiver already names the type


def test_map_orders_files_by_best_symbol(index_of):
    ix = index_of("c")
    m = repo_map(ix, "current_term server_t", budget=4000)
    assert m.text.splitlines()[1] == "src/server.h:"
    m = repo_map(ix, "server_become_candidate", budget=4000)
    assert m.text.splitlines()[1] == "src/server.c:"


def test_named_files_lead_the_map(index_of):
    m = repo_map(index_of("c"), "", budget=4000, files=["src/server.h"])
    assert m.text.splitlines()[1] == "src/server.h:"
    assert m.entries[0].symbol.file == "src/server.h"


def test_body_words_find_code_named_differently(index_of):
    ix = index_of("go")
    # no name says "granted", but stepCandidate's body declares and returns it
    ranked = rank_symbols(ix, "granted")
    assert ranked[0].symbol.qualname == "stepCandidate"
    off = rank_symbols(ix, "granted", RankWeights(body_words=0, member_share=0))
    assert off[0].symbol.qualname != "stepCandidate"
