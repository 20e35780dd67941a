"""`specula init` on real checkouts (slow; skipped unless they exist).

Work trees of etcd-io/raft and apache/zookeeper under ``$SPECULA_CODE_REPOS`` (default /tmp/code)
as ``owner+name`` folders, as for tests/code/test_real_repos.py. Nothing is written into them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from specula.onboard import init_repo

pytestmark = pytest.mark.slow
ROOT = Path(os.environ.get("SPECULA_CODE_REPOS", "/tmp/code"))


def _repo(name: str) -> Path:
    path = ROOT / name
    if not path.is_dir():
        pytest.skip(f"{path} not checked out")
    return path


def test_init_etcd_raft():
    p = init_repo(_repo("etcd-io+raft"), "leader election: campaign, votes, becoming candidate and leader",
                  write=False).proposal
    acts = {a.name: a for a in p.actions}
    assert {"ElectionTimeout", "HandleVoteRequest", "BecomeCandidate", "Campaign"} <= set(acts), p.render()
    assert acts["HandleVoteRequest"].entry == "raft.Step" and acts["BecomeCandidate"].entry == "raft.becomeCandidate"
    assert {"Term", "Vote", "state", "lead"} <= {s.field for s in p.state}
    assert p.language == "go" and p.system_type == "distributed" and p.node_type == "raft"
    assert "raft.go" in p.source_files


def test_init_zookeeper():
    p = init_repo(_repo("apache+zookeeper"), "fast leader election: handling notifications, recvset votes, "
                  "logicalclock epochs", write=False).proposal
    entries = {a.entry for a in p.actions}
    assert {"FastLeaderElection.lookForLeader", "FastLeaderElection.receivedFollowingNotification",
            "FastLeaderElection.sendNotifications"} <= entries, p.render()
    state = {s.field: s for s in p.state}
    assert {"logicalclock", "recvset", "proposedLeader"} <= set(state)
    assert state["recvset"].per_node and state["logicalclock"].per_node  # a node's local and field
    assert "stop" not in state  # written only by shutdown()/halt(): the process's life, not the protocol
    assert p.language == "java" and p.node_type == "FastLeaderElection"
    assert p.source_files[0].endswith("quorum/FastLeaderElection.java")
