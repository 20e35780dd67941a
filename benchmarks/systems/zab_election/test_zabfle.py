"""Unit tests of zabfle (run from this folder: python -m pytest -q test_zabfle.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from zabfle import (FOLLOWING, LEADING, LOOKING, FastLeaderElection, Network,  # noqa: E402
                    Notification)
from zabfle.election import total_order_predicate  # noqa: E402


def cluster(zxids: dict[int, int]) -> tuple[Network, dict[int, FastLeaderElection]]:
    net: Network[Notification] = Network()
    peers = {i: FastLeaderElection(i, list(zxids), z, net) for i, z in zxids.items()}
    return net, peers


def run_to_quiescence(net: Network, peers: dict[int, FastLeaderElection]) -> None:
    for _ in range(1000):
        if net.in_flight:
            m = net.in_flight[0]
            peers[m.to].receive(m)
            continue
        ready = [p for p in peers.values() if p.ready_to_lead() and not p.better_pending()]
        if not ready:
            return
        ready[0].finalize()
    raise AssertionError("no quiescence")


def test_total_order_prefers_zxid_then_id():
    assert total_order_predicate(1, 5, 3, 4)
    assert not total_order_predicate(3, 4, 1, 5)
    assert total_order_predicate(3, 4, 2, 4)
    assert not total_order_predicate(2, 4, 2, 4)


def test_three_peers_elect_highest_zxid_then_highest_id():
    net, peers = cluster({1: 2, 2: 2, 3: 1})
    for p in peers.values():
        p.look_for_leader()
    run_to_quiescence(net, peers)
    assert [peers[i].state for i in (1, 2, 3)] == [FOLLOWING, LEADING, FOLLOWING]
    assert all(p.proposed_leader == 2 for p in peers.values())


def test_own_notification_goes_through_the_network():
    net, peers = cluster({1: 0, 2: 0, 3: 0})
    peers[1].look_for_leader()
    assert peers[1].recvset == {}
    assert sorted(m.to for m in net.in_flight) == [1, 2, 3]
    peers[1].receive(next(m for m in net.in_flight if m.to == 1))
    assert set(peers[1].recvset) == {1}


def test_newer_vote_from_same_sender_overwrites_older_one():
    net, peers = cluster({1: 0, 2: 0, 3: 0})
    p = peers[1]
    p.look_for_leader()
    net.in_flight.clear()
    old = Notification(2, 1, LOOKING, 2, 0, 1)
    new = Notification(2, 1, LOOKING, 3, 0, 1)
    for m in (old, new):
        net.send(m)
        p.receive(m)
    assert len(p.recvset) == 1 and p.recvset[2].leader == 3


def test_higher_epoch_bumps_clock_then_counts_the_notification():
    net, peers = cluster({1: 0, 2: 0, 3: 0})
    p = peers[1]
    p.look_for_leader()
    net.in_flight.clear()
    n = Notification(3, 1, LOOKING, 3, 0, 4)
    net.send(n)
    p.receive(n)
    assert p.logicalclock == 4
    assert set(p.recvset) == {3} and p.recvset[3].election_epoch == 4
    assert p.proposed_leader == 3                      # 3 beats our own vote
    assert {(m.to, m.election_epoch, m.leader) for m in net.in_flight} == {
        (1, 4, 3), (2, 4, 3), (3, 4, 3)}


def test_stale_round_is_answered_not_counted():
    net, peers = cluster({1: 0, 2: 0, 3: 0})
    p = peers[1]
    p.look_for_leader()
    p.logicalclock = 3
    net.in_flight.clear()
    n = Notification(2, 1, LOOKING, 2, 0, 1)
    net.send(n)
    p.receive(n)
    assert p.recvset == {}
    assert net.in_flight == [Notification(1, 2, LOOKING, 1, 0, 3)]


def test_decided_peer_answers_looking_peer_with_its_vote():
    net, peers = cluster({1: 0, 2: 0, 3: 0})
    p = peers[2]
    p.state, p.logicalclock, p.proposed_leader = LEADING, 2, 2
    n = Notification(1, 2, LOOKING, 1, 0, 1)
    net.send(n)
    p.receive(n)
    assert net.in_flight == [Notification(2, 1, LEADING, 2, 0, 2)]


def test_finalize_waits_for_a_better_pending_notification():
    net, peers = cluster({1: 0, 2: 0, 3: 0})
    p = peers[3]
    p.look_for_leader()
    for m in list(net.in_flight):
        if m.to == 3:
            p.receive(m)
    p.recvset[1] = p.recvset[3]                       # a quorum agrees with 3
    assert p.ready_to_lead()
    net.send(Notification(1, 3, LOOKING, 3, 5, 1))    # better: higher zxid
    assert not p.finalize() and p.state == LOOKING
    net.in_flight.clear()
    assert p.finalize() and p.state == LEADING
