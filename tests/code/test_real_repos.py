"""Acceptance on real checkouts (slow; skipped unless they exist).

Clone etcd-io/raft, apache/zookeeper, RedisLabs/redisraft and tikv/raft-rs into
``$SPECULA_CODE_REPOS`` (default /tmp/code) as ``owner+name`` folders, then
``python -m pytest -m slow tests/code/test_real_repos.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from specula.code import find_symbols, index_repo, rank_symbols, repo_map, show_symbol, writes_to

pytestmark = pytest.mark.slow
ROOT = Path(os.environ.get("SPECULA_CODE_REPOS", "/tmp/code"))


def _repo(name: str) -> Path:
    path = ROOT / name
    if not path.is_dir():
        pytest.skip(f"{path} not checked out")
    return path


def _ranks(ix, focus: str) -> dict[str, int]:
    pos: dict[str, int] = {}
    for i, r in enumerate(rank_symbols(ix, focus), 1):
        pos.setdefault(r.symbol.qualname, i)
    return pos


def test_etcd_raft():
    ix = index_repo(_repo("etcd-io+raft"))
    assert ix.by_qualname["stepFollower"][0].file == "raft.go"
    assert ix.by_qualname["raft.becomeCandidate"][0].file == "raft.go"
    ranks = _ranks(ix, "follower times out (stepFollower) and becomes candidate (becomeCandidate)")
    assert ranks["stepFollower"] <= 3 and ranks["raft.becomeCandidate"] <= 3
    m = repo_map(ix, "stepFollower becomeCandidate", 1000)
    assert {"stepFollower", "becomeCandidate"} <= {e.symbol.name for e in m.entries[:5]}
    assert show_symbol(ix, "raft.becomeCandidate").source.count("\n") > 5


def test_zookeeper_fast_leader_election():
    ix = index_repo(_repo("apache+zookeeper"))
    look = ix.by_qualname["FastLeaderElection.lookForLeader"][0]
    assert look.file.endswith("quorum/FastLeaderElection.java")
    recvset = find_symbols(ix, "recvset").symbols[0]
    assert recvset.qualname == "FastLeaderElection.lookForLeader.recvset" and recvset.type == "Map<Long, Vote>"
    assert any(w.via == "put" for w in writes_to(ix, "lookForLeader.recvset").writes)
    ranks = _ranks(ix, "FastLeaderElection lookForLeader recvset")
    assert ranks["FastLeaderElection.lookForLeader"] <= 3
    m = repo_map(ix, "FastLeaderElection lookForLeader recvset", 2000)
    assert f"{recvset.line:>5}│" in m.text


def test_redisraft_and_raft_rs():
    c = index_repo(_repo("RedisLabs+redisraft"))
    assert _ranks(c, "raftSendRequestVote raftApplyLog")["raftSendRequestVote"] <= 3
    rs = index_repo(_repo("tikv+raft-rs"))
    ranks = _ranks(rs, "become_candidate step_follower")
    assert ranks["Raft.become_candidate"] <= 3 and ranks["Raft.step_follower"] <= 3


def _first_half(text: str) -> str:
    lines = text.splitlines()
    return "\n".join(lines[: len(lines) // 2])


@pytest.mark.parametrize("repo,focus,names", [
    ("apache+zookeeper", "fast leader election: handling notifications, recvset votes, logicalclock epochs",
     ["lookForLeader", "recvset", "logicalclock"]),
    ("etcd-io+raft", "leader election: campaign, votes, becoming candidate and leader",
     ["campaign", "becomeCandidate", "poll"]),
])
def test_map_first_half_holds_the_protocol_core(repo, focus, names):
    """Issue 21 item 2: the named protocol core is in the first half of the default-budget map."""
    text = repo_map(index_repo(_repo(repo)), focus, 4000).text
    half = _first_half(text)
    for name in names:
        assert f" {name}(" in half or f" {name} " in half or f"{name};" in half, name
