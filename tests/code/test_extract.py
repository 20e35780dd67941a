"""Per-language extraction on the fixture repositories: symbols with receiver/class, fields,
globals, locals, call edges and writes, all with line numbers."""

from __future__ import annotations

import pytest

# (kind, qualname, line, end_line) that must be present
SYMBOLS = {
    "go": [
        ("type", "StateType", 7, 7), ("global", "defaultTicks", 9, 9), ("struct", "Node", 20, 26),
        ("field", "Node.votes", 23, 23), ("field", "Message.From", 15, 15), ("field", "Message.To", 15, 15),
        ("interface", "Stepper", 28, 30), ("method", "Stepper.Step", 29, 29),
        ("method", "Node.becomeCandidate", 32, 38), ("method", "Node.reset", 40, 43),
        ("function", "stepCandidate", 45, 52), ("local", "stepCandidate.granted", 46, 46),
        ("function", "okBefore", 3, 5), ("function", "okAfter", 12, 14),
        ("constant", "StateFollower", 63, 63), ("constant", "StateCandidate", 64, 64),
        ("field", "tracedNode.Node", 76, 76), ("field", "tracedNode.trace", 77, 77),
        ("local", "countVotes.v", 82, 82), ("local", "countVotes.c", 81, 81),
    ],
    "rust": [
        ("global", "NEXT_ID", 3, 3), ("enum", "StateRole", 5, 8), ("trait", "Storage", 10, 12),
        ("method", "Storage.term", 11, 11), ("struct", "Raft", 14, 19), ("field", "Raft.votes", 17, 17),
        ("method", "Raft.become_candidate", 22, 26), ("method", "Raft.reset", 28, 31),
        ("function", "step_candidate", 34, 39), ("local", "step_candidate.granted", 35, 35),
        ("field", "StateRole.Follower", 6, 6), ("field", "StateRole.Candidate", 7, 7),
    ],
    "c": [
        ("global", "election_timeouts", 3, 3), ("global", "servers", 4, 4), ("struct", "peer", 6, 9),
        ("field", "peer.next", 8, 8), ("function", "send_vote", 11, 11),
        ("function", "server_become_candidate", 13, 21), ("global", "server_become_candidate.calls", 15, 15),
        ("function", "server_vote_count", 23, 29), ("struct", "server_t", 4, 9),
        ("field", "server_t.current_term", 6, 6), ("field", "server_t.send", 8, 8),
        ("enum", "role_e", 13, 16), ("field", "role_e.ROLE_CANDIDATE", 15, 15),
    ],
    "cpp": [
        ("class", "Node", 6, 18), ("method", "Node.term", 10, 10), ("field", "Node.term_", 15, 15),
        ("field", "Node.votes_", 17, 17), ("method", "Node.Node", 7, 7),
        ("method", "Node.becomeCandidate", 9, 13), ("method", "Node.reset", 15, 18),
    ],
    "java": [
        ("class", "Election", 7, 44), ("field", "Election.logicalclock", 11, 11),
        ("field", "Election.lastVotes", 13, 13), ("method", "Election.Election", 15, 18),
        ("method", "Election.lookForLeader", 20, 30), ("local", "Election.lookForLeader.recvset", 21, 21),
        ("method", "Election.sendNotifications", 32, 34), ("method", "Election.totalOrderPredicate", 36, 38),
        ("class", "Election.Notification", 40, 43), ("field", "Notification.electionEpoch", 42, 42),
    ],
    "python": [
        ("global", "DEFAULT_TICKS", 3, 3), ("class", "Node", 6, 21), ("field", "Node.kind", 7, 7),
        ("method", "Node.__init__", 9, 12), ("field", "Node.term", 11, 11), ("field", "Node.votes", 12, 12),
        ("method", "Node.become_candidate", 14, 17), ("method", "Node.reset", 19, 21),
        ("function", "step_candidate", 24, 28), ("local", "step_candidate.granted", 25, 25),
        ("function", "fine_before", 1, 2), ("function", "fine_after", 9, 10),
        ("field", "Pair.left", 33, 33), ("field", "Pair.right", 33, 33),
    ],
}

# (caller qualname, callee name, line)
CALLS = {
    "go": [("Node.becomeCandidate", "reset", 37), ("stepCandidate", "becomeCandidate", 48),
           ("Node.becomeCandidate", "stepCandidate", 33), ("okAfter", "okBefore", 13)],
    "rust": [("Raft.become_candidate", "reset", 25), ("step_candidate", "become_candidate", 37)],
    "c": [("server_become_candidate", "server_vote_count", 20), ("server_become_candidate", "send_vote", 19)],
    "cpp": [("Node.becomeCandidate", "reset", 12)],
    "java": [("Election.lookForLeader", "sendNotifications", 24), ("Election.lookForLeader", "totalOrderPredicate", 25)],
    "python": [("Node.become_candidate", "reset", 17), ("step_candidate", "become_candidate", 27),
               ("fine_after", "fine_before", 10)],
}

# (function qualname, target, line, via)
WRITES = {
    "go": [("Node.becomeCandidate", "term", 34, "++"), ("Node.becomeCandidate", "votes", 36, "="),
           ("Node.reset", "votes", 42, "delete"), ("Node.becomeCandidate", "step", 33, "="),
           ("transport.deliver", "outbox", 72, "<-"), ("countVotes", "c", 84, "++")],
    "rust": [("Raft.become_candidate", "term", 23, "="), ("Raft.become_candidate", "votes", 24, "insert"),
             ("Raft.reset", "votes", 30, "clear")],
    "c": [("server_become_candidate", "current_term", 17, "++"), ("server_become_candidate", "votes", 18, "="),
          ("server_become_candidate", "election_timeouts", 20, "=")],
    "cpp": [("Node.becomeCandidate", "term_", 10, "++"), ("Node.becomeCandidate", "votes_", 11, "="),
            ("Node.reset", "votes_", 17, "clear")],
    "java": [("Election.lookForLeader", "recvset", 23, "put"), ("Election.lookForLeader", "proposedLeader", 26, "="),
             ("Election.lookForLeader", "logicalclock", 22, "incrementAndGet"),
             ("Election.Election", "proposedLeader", 16, "=")],
    "python": [("Node.become_candidate", "term", 15, "="), ("Node.become_candidate", "votes", 16, "="),
               ("Node.reset", "votes", 21, "clear"), ("Pair.__init__", "right", 33, "=")],
}

LANGS = sorted(SYMBOLS)


@pytest.mark.parametrize("lang", LANGS)
def test_symbols(index_of, lang):
    ix = index_of(lang)
    have = {(s.kind, s.qualname, s.line, s.end_line) for s in ix.symbols}
    missing = [e for e in SYMBOLS[lang] if e not in have]
    assert not missing, f"{lang}: missing {missing}; have {sorted(have)}"


@pytest.mark.parametrize("lang", LANGS)
def test_calls(index_of, lang):
    ix = index_of(lang)
    have = {(c.caller, c.name, c.line) for c in ix.calls}
    missing = [e for e in CALLS[lang] if e not in have]
    assert not missing, f"{lang}: missing {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_writes(index_of, lang):
    ix = index_of(lang)
    have = {(w.function, w.target, w.line, w.via) for w in ix.writes}
    missing = [e for e in WRITES[lang] if e not in have]
    assert not missing, f"{lang}: missing {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_languages_and_no_skipped_file_symbols(index_of, lang):
    ix = index_of(lang)
    names = {s.name for s in ix.symbols}
    # test, vendored and generated code is skipped by default
    assert not names & {"TestBecomeCandidate", "VendoredHelper", "Generated", "GeneratedByHeader", "testIt",
                        "test_node", "vendored_raft", "test_server", "integration_only"}
    assert {f.language for f in ix.files.values()} == {lang}


def test_static_and_types(index_of):
    ix = index_of("java")
    by = {s.qualname: s for s in ix.symbols}
    assert by["Election.instances"].static and not by["Election.proposedLeader"].static
    assert by["Election.lastVotes"].type == "Map<Long, Long>"
    assert by["Election.lookForLeader.recvset"].type == "Map<Long, Long>"
    c = index_of("c")
    cb = {s.qualname: s for s in c.symbols}
    assert cb["election_timeouts"].static and cb["server_become_candidate.calls"].static
    assert cb["server_t.current_term"].type == "long"
    go = {s.qualname: s for s in index_of("go").symbols}
    assert go["StateCandidate"].type == "StateType"  # implicit repetition of the iota spec's type
    assert go["tracedNode.Node"].signature == "*Node"  # an embedded field is named by its type
    assert not [w for w in index_of("go").writes if w.target == "_"]  # blank identifier


def test_syntax_errors_keep_what_parses(index_of):
    go = index_of("go")
    assert go.files["broken.go"].has_errors and not go.files["node.go"].has_errors
    assert {"okBefore", "newerSyntax", "okAfter"} <= {s.name for s in go.files["broken.go"].symbols}
    py = index_of("python")
    assert py.files["kv/broken.py"].has_errors
    assert {"fine_before", "fine_after"} <= {s.name for s in py.files["kv/broken.py"].symbols}


def test_signatures_elide_bodies(index_of):
    ix = index_of("go")
    sig = {s.qualname: s.signature for s in ix.symbols}
    assert sig["Node.becomeCandidate"] == "func (n *Node) becomeCandidate()"
    assert sig["Node"] == "type Node struct"
    py = {s.qualname: s.signature for s in index_of("python").symbols}
    assert py["step_candidate"] == "def step_candidate(node, term)"
    java = {s.qualname: s.signature for s in index_of("java").symbols}
    assert java["Election.totalOrderPredicate"] == "protected boolean totalOrderPredicate(long newId, long curId)"


def test_rust_cfg_test_modules_are_test_code(fixtures):
    from specula.code import IndexOptions, index_repo

    ix = index_repo(fixtures / "rust", use_cache=False)
    assert ix.files["src/lib.rs"].test_spans == [(42, 45)]
    assert "t" not in ix.by_name
    with_tests = index_repo(fixtures / "rust", IndexOptions(include_tests=True), use_cache=False)
    assert with_tests.by_name["t"][0].line == 44 and "integration_only" in with_tests.by_name
