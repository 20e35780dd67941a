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


def _election_repo(root):
    """ZooKeeper's shape in miniature: a central Leader class with many fields and getters, and the
    election in FastLeaderElection.java (lookForLeader with a recvset local, a logicalclock field)."""
    q = root / "quorum"
    q.mkdir(parents=True)
    fields = "\n".join(f"    private long counter{i};" for i in range(30))
    getters = "\n".join(f"    public long getCounter{i}() {{ return counter{i}; }}" for i in range(30))
    (q / "Leader.java").write_text(
        f"public class Leader {{\n{fields}\n{getters}\n"
        "    void lead() { FastLeaderElection e = new FastLeaderElection(); e.lookForLeader(); getCounter1(); }\n}\n")
    (q / "Follower.java").write_text(
        "public class Follower {\n    Leader leader;\n    void followLeader() { leader.lead(); leader.getCounter2(); }\n}\n")
    (q / "FastLeaderElection.java").write_text(
        "import java.util.*;\n"
        "public class FastLeaderElection {\n"
        "    long logicalclock;\n    long proposedLeader;\n"
        "    public long lookForLeader() {\n"
        "        Map<Long, Long> recvset = new HashMap<>();\n"
        "        recvset.put(1L, logicalclock);\n        return recvset.size();\n    }\n"
        "    void sendNotifications() { logicalclock++; }\n"
        "    static class Notification {\n        long electionEpoch;\n        long leader;\n    }\n"
        "    static class ToSend {\n        long electionEpoch;\n        long leader;\n    }\n"
        "}\n")
    return root


def test_file_name_words_lift_the_protocol_core_above_a_central_class(tmp_path):
    from specula.code import index_repo
    from specula.code.rank import file_name_relevance

    ix = index_repo(_election_repo(tmp_path / "zk"))
    focus = "fast leader election: handling notifications, recvset votes, logicalclock epochs"
    f = Focus.parse(focus)
    idf = {"fast": 1.0, "leader": 0.5, "election": 0.8}
    assert file_name_relevance("quorum/FastLeaderElection.java", f, idf) == 2.3
    assert file_name_relevance("quorum/Leader.java", f, idf) == 0.5
    assert file_name_relevance("quorum/LeaderZooKeeperServer.java", f, idf) == 0.0  # most words not in the focus
    ranked = rank_symbols(ix, focus)
    assert ranked[0].symbol.file.endswith("FastLeaderElection.java")
    m = repo_map(ix, focus, budget=4000)
    lines = m.text.splitlines()
    first_half = "\n".join(lines[: len(lines) // 2])
    for name in ("lookForLeader", "recvset", "logicalclock"):
        assert name in first_half, m.text
    # the Leader class ranks for one common word of its name: its 30 fields are counted, not listed
    assert "private long counter7;" not in m.text and "more fields" in m.text


def test_one_word_parent_named_in_the_focus_lends_little(tmp_path):
    from specula.code import index_repo

    ix = index_repo(_election_repo(tmp_path / "zk"))
    rel = {r.symbol.qualname: r.relevance for r in rank_symbols(ix, "leader", RankWeights(file_words=0))}
    # getters of Leader are not about "leader" just because their class is called that
    assert rel["Leader.getCounter3"] < 0.5 * RankWeights().parent_match
