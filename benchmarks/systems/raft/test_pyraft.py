"""Unit tests of pyraft (run from this folder: python -m pytest -q test_pyraft.py)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pyraft import (Entry, Message, Raft, RaftLog, StateCandidate, StateFollower,  # noqa: E402
                    StateLeader, StatePreCandidate)
from pyraft.raft import (MsgApp, MsgAppResp, MsgHeartbeat, MsgHeartbeatResp,  # noqa: E402
                         MsgPreVote, MsgProp, MsgVote, MsgVoteResp)


def log_of(*terms: int) -> RaftLog:
    return RaftLog([Entry(t, k + 1) for k, t in enumerate(terms)])


def nodes(n: int = 3) -> dict[int, Raft]:
    ids = list(range(1, n + 1))
    return {i: Raft(i, ids, rng=random.Random(i)) for i in ids}


def pump(ns: dict[int, Raft], drop=lambda m: False) -> None:
    for _ in range(500):
        out = [m for n in ns.values() for m in n.msgs]
        for n in ns.values():
            n.msgs = []
        if not out:
            return
        for m in out:
            if not drop(m):
                ns[m.to].step(m)
    raise AssertionError("messages never settle")


def timeout(n: Raft) -> None:
    n.election_elapsed = n.randomized_election_timeout - 1
    n.tick()


# -- raftLog -------------------------------------------------------------------------------

def test_up_to_date_compares_last_term_then_length():
    lg = log_of(1, 2)
    assert lg.is_up_to_date(1, 3) and lg.is_up_to_date(2, 2) and lg.is_up_to_date(5, 2)
    assert not lg.is_up_to_date(1, 2) and not lg.is_up_to_date(9, 1)


def test_maybe_append_truncates_only_at_a_conflict():
    lg = log_of(1, 1, 1)
    assert lg.maybe_append(1, 1, 0, [Entry(1, 2)]) == (2, True)
    assert [e.term for e in lg.entries] == [1, 1, 1]          # matching prefix: nothing cut
    assert lg.maybe_append(1, 1, 0, [Entry(2, 2)]) == (2, True)
    assert [e.term for e in lg.entries] == [1, 2]              # conflict at 2: cut and append
    assert lg.maybe_append(3, 1, 0, []) == (0, False)           # no entry 3: reject


def test_commit_never_decreases():
    lg = log_of(1, 1)
    lg.commit_to(2)
    lg.commit_to(1)
    assert lg.committed == 2


def test_maybe_commit_only_current_term():
    lg = log_of(1, 2)
    assert not lg.maybe_commit(1, 2)
    assert lg.maybe_commit(2, 2) and lg.committed == 2


# -- elections -----------------------------------------------------------------------------

def test_election_timeout_starts_a_pre_vote_without_touching_the_term():
    n = nodes()[1]
    timeout(n)
    assert n.state == StatePreCandidate and n.term == 0 and n.vote == 0
    assert {(m.type, m.to, m.term) for m in n.msgs} == {(MsgPreVote, 2, 1), (MsgPreVote, 3, 1)}


def test_pre_vote_does_not_move_the_receivers_term():
    ns = nodes()
    timeout(ns[1])
    m = next(m for m in ns[1].msgs if m.to == 2)
    ns[2].step(m)
    assert ns[2].term == 0 and ns[2].vote == 0
    assert ns[2].msgs[0].term == 1 and not ns[2].msgs[0].reject


def test_full_election_then_replication_and_commit():
    ns = nodes()
    timeout(ns[1])
    pump(ns)
    assert ns[1].state == StateLeader and ns[1].term == 1
    assert [n.state for n in (ns[2], ns[3])] == [StateFollower, StateFollower]
    assert all(n.raft_log.last_index() == 1 for n in ns.values())     # the empty entry
    ns[1].step(Message(MsgProp, to=1, frm=1, entries=(Entry(0, 0, "x"),)))
    pump(ns)
    assert ns[1].raft_log.committed == 2
    ns[1].tick()                                                     # heartbeat carries commit
    pump(ns)
    assert all(n.raft_log.committed == 2 for n in ns.values())


def test_vote_refused_to_a_candidate_with_a_stale_log():
    ns = nodes()
    ns[2].raft_log = log_of(1, 1)
    ns[2].term = 1
    ns[2].step(Message(MsgVote, to=2, frm=1, term=2, index=1, log_term=1))
    resp = ns[2].msgs[-1]
    assert resp.type == MsgVoteResp and resp.reject and ns[2].vote == 0 and ns[2].term == 2


def test_candidate_steps_down_on_append_from_same_term_leader():
    ns = nodes()
    n = ns[3]
    n.become_candidate()
    n.step(Message(MsgApp, to=3, frm=1, term=1, index=0, log_term=0, entries=(Entry(1, 1),)))
    assert n.state == StateFollower and n.lead == 1 and n.raft_log.last_index() == 1
    assert n.msgs[-1].type == MsgAppResp and n.msgs[-1].index == 1


def test_stale_heartbeat_does_not_lower_commit():
    n = nodes()[2]
    n.become_follower(1, 1)
    n.raft_log = log_of(1, 1)
    n.raft_log.commit_to(2)
    n.step(Message(MsgHeartbeat, to=2, frm=1, term=1, commit=1))
    assert n.raft_log.committed == 2 and n.msgs[-1].type == MsgHeartbeatResp


def test_leader_steps_down_on_higher_term_response():
    ns = nodes()
    timeout(ns[1])
    pump(ns)
    ns[1].step(Message(MsgAppResp, to=1, frm=2, term=5))
    assert ns[1].state == StateFollower and ns[1].term == 5 and ns[1].lead == 0


def test_commit_by_quorum_of_match_not_by_count_of_responses():
    ns = nodes()
    timeout(ns[1])
    pump(ns)
    leader = ns[1]
    leader.step(Message(MsgProp, to=1, frm=1, entries=(Entry(0, 0, "a"),)))
    leader.msgs = []
    leader.step(Message(MsgAppResp, to=1, frm=2, term=1, index=1))   # an old ack: match 1 only
    leader.step(Message(MsgAppResp, to=1, frm=3, term=1, index=1))
    assert leader.raft_log.committed == 1
    leader.step(Message(MsgAppResp, to=1, frm=2, term=1, index=2))
    assert leader.raft_log.committed == 2


def test_leader_cannot_become_pre_candidate():
    ns = nodes()
    timeout(ns[1])
    pump(ns)
    with pytest.raises(AssertionError):
        ns[1].become_pre_candidate()
    assert ns[1].state == StateLeader and StateCandidate != StateLeader
